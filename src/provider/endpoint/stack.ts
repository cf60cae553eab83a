/**
 * What the stack commands (`import`, `recover`, `orphans`) need of an endpoint: its summary, the
 * identity of a pending create's record, and what the port's delete reads of stored outputs.
 */
import type { StackFacts } from "../kind";
import type { EndpointState } from "../paths/records";
import { AUTONAMED_PROPERTY } from "../reserved";
import { diffEndpoint } from "./diff";
import type { EndpointInputs } from "./model";
import { createSurelyCarried } from "./paths";
import { outputsFromRecord } from "./state";

type Props = Record<string, unknown>;

/**
 * Whether the settings a create sent are what `record` holds, by the provider's own diff: those it
 * surely carried (a create with GPU type names may carry only part; paths/index.ts).
 */
function carriesSentSettings(record: EndpointState, inputs: Props, templateReported: boolean): boolean {
  const typeNames: string[] | undefined = Array.isArray(inputs.gpuTypeIds) ? inputs.gpuTypeIds : undefined;
  // A field the path does not report cannot be compared: list() compares what it reports.
  const unreported = templateReported ? ["gpuTypeIds"] : ["gpuTypeIds", "templateId"];
  const changed: string[] = diffEndpoint(outputsFromRecord(record, typeNames, ""), inputs).changed.filter((f) => !unreported.includes(f));
  // The stack's checked inputs of the create, as its state holds them.
  const sent = createSurelyCarried(inputs as EndpointInputs);
  if (!sent) return changed.length === 0;
  return changed.every((f) => !sent.includes(f));
}

export const ENDPOINT_STACK: StackFacts<EndpointState> = {
  noun: "endpoint",
  summary: (record) => `${record.templateId ?? "-"} ${record.gpuIds.join(",")} workers ${record.workersMin}-${record.workersMax}`,

  /**
   * Same name and template (on a path that reports no template: same name) — the identity the provider
   * itself uses after a create with an unknown outcome. A name the provider drew belongs to nothing
   * else; a chosen name may be shared (another stack, or made by hand), so then the settings the create
   * sent must match too.
   */
  madeBy(record, inputs, unreported) {
    const templateReported = !unreported.includes("templateId");
    if (templateReported && record.templateId !== inputs.templateId) return false;
    return inputs[AUTONAMED_PROPERTY] === true || carriesSentSettings(record, inputs, templateReported);
  },

  /** What the port's delete reads of stored outputs, from the listed record (no second listing). */
  deleteProps: (record) => ({
    endpointId: record.id,
    name: record.name,
    templateId: record.templateId,
    gpuIds: record.gpuIds,
    workersMin: record.workersMin,
    workersMax: record.workersMax,
  }),
};
