/**
 * `Endpoint` as the stack commands see it, with the provider's own facts: its type token, its
 * auto-names, the `__autonamed` mark it puts in checked inputs, and its ports (what the stack's path
 * reports, and the delete: scale to zero, let running jobs finish, delete).
 */
import type { PlatformClient } from "../../api";
import { AUTONAMED_PROPERTY, ENDPOINT_MODEL, diffEndpoint, isAutoNameOf, outputsFromRecord, restCreateInputFrom, typeToken } from "../../provider";
import type { ApiPath } from "../../provider/apiPath";
import { LISTINGS } from "../../provider/paths/listings";
import { ENDPOINT_PORTS } from "../../provider/paths/ports";
import type { EndpointState } from "../../provider/paths/records";
import { portFor } from "./ports";
import type { PlatformObject, StackKind } from "./stackKind";

interface EndpointObject extends PlatformObject {
  record: EndpointState;
  /** The stack's path reports which template an endpoint runs (its port declares it; REST v2 keeps a snapshot). */
  templateReported: boolean;
}

/**
 * Whether the settings a create sent are what `record` holds, by the provider's own diff. A create
 * through `saveEndpoint` sends every field; the REST v1 create (GPU type names) only its body's
 * fields, the rest follows in a second request that an interruption may have cut off.
 */
function carriesSentSettings(object: EndpointObject, inputs: Record<string, unknown>): boolean {
  const { record } = object;
  const typeNames = Array.isArray(inputs.gpuTypeIds) ? (inputs.gpuTypeIds as string[]) : undefined;
  // A field the path does not report cannot be compared: list() compares what it reports.
  const unreported = object.templateReported ? ["gpuTypeIds"] : ["gpuTypeIds", "templateId"];
  const changed: string[] = diffEndpoint(outputsFromRecord(record, typeNames, "") as never, inputs).changed.filter((f) => !unreported.includes(f));
  if (!typeNames) return changed.length === 0;
  const sent = Object.keys(restCreateInputFrom(inputs as never));
  return changed.every((f) => !sent.includes(f));
}

export const endpointKind: StackKind = {
  type: typeToken(ENDPOINT_MODEL),
  noun: "endpoint",

  async list(client: PlatformClient, api: ApiPath): Promise<EndpointObject[]> {
    const templateReported = !portFor(ENDPOINT_PORTS, client, api).capabilities.unreported.includes("templateId");
    return (await LISTINGS[api].endpoints(client)).map((record) => ({
      id: record.id,
      name: record.name,
      summary: `${record.templateId ?? "-"} ${record.gpuIds.join(",")} workers ${record.workersMin}-${record.workersMax}`,
      record,
      templateReported,
    }));
  },

  /**
   * Same name and template (on a path that reports no template: same name) — the identity the provider
   * itself uses after a create with an unknown outcome. A name the provider drew belongs to nothing
   * else; a chosen name may be shared (another stack, or made by hand), so then the settings the create
   * sent must match too.
   */
  madeBy(object: PlatformObject, inputs: Record<string, unknown>): boolean {
    const endpoint = object as EndpointObject;
    if (endpoint.record.name !== inputs.name || (endpoint.templateReported && endpoint.record.templateId !== inputs.templateId)) return false;
    return inputs[AUTONAMED_PROPERTY] === true || carriesSentSettings(endpoint, inputs);
  },

  nameIn(props: Record<string, unknown> | undefined): string | undefined {
    return typeof props?.name === "string" ? props.name : undefined;
  },

  isAutoNameOf(name: string, resourceName: string): boolean {
    return isAutoNameOf(name, resourceName);
  },

  /** Through the path's port, as a destroy would: scaled to zero, running jobs let finish, then deleted; gone counts as deleted. */
  async remove(client: PlatformClient, object: PlatformObject, api: ApiPath): Promise<void> {
    const { record } = object as EndpointObject;
    // What the port's delete reads of stored outputs, from the listed record (no second listing).
    const props = {
      endpointId: record.id,
      name: record.name,
      templateId: record.templateId,
      gpuIds: record.gpuIds,
      workersMin: record.workersMin,
      workersMax: record.workersMax,
    };
    await portFor(ENDPOINT_PORTS, client, api).delete(record.id, props);
  },
};
