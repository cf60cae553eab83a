/**
 * `Endpoint` as the stack commands see it, with the provider's own facts: its type token, its
 * auto-names and the `__autonamed` mark it puts in checked inputs.
 */
import { NotFoundError, type PlatformClient } from "../../api";
import { AUTONAMED_PROPERTY, ENDPOINT_MODEL, diffEndpoint, isAutoNameOf, outputsFromRecord, restCreateInputFrom, typeToken } from "../../provider";
import type { ApiPath, PerPath } from "../../provider/apiPath";
import { LISTINGS } from "../../provider/paths/listings";
import type { PlatformObject, StackKind } from "./stackKind";

type ListedEndpoint = Awaited<ReturnType<(typeof LISTINGS)["v2"]["endpoints"]>>[number];

interface EndpointObject extends PlatformObject {
  record: ListedEndpoint;
}

/**
 * Scale to zero, then delete. GraphQL: one request (`scaleDownAndDeleteEndpoint`), or just the delete
 * when already at zero. v2: `PATCH workers { min: 0, max: 0 }`, then `DELETE` (which cancels what is
 * still queued: these are objects no stack holds).
 */
const REMOVE: PerPath<(client: PlatformClient, record: ListedEndpoint) => Promise<void>> = {
  graphql: async (client, record) => {
    if (record.workersMin === 0 && record.workersMax === 0) await client.deleteEndpoint(record.id);
    else await client.scaleDownAndDeleteEndpoint({ id: record.id, name: record.name, templateId: record.templateId ?? "", gpuIds: record.gpuIds });
  },
  v2: async (client, record) => {
    if (record.workersMin !== 0 || record.workersMax !== 0) await client.v2.updateEndpoint(record.id, { workers: { min: 0, max: 0 } });
    await client.v2.deleteEndpoint(record.id);
  },
};

/**
 * Whether the settings a create sent are what `record` holds, by the provider's own diff. A create
 * through `saveEndpoint` sends every field; the REST v1 create (GPU type names) only its body's
 * fields, the rest follows in a second request that an interruption may have cut off.
 */
function carriesSentSettings(record: ListedEndpoint, inputs: Record<string, unknown>): boolean {
  const typeNames = Array.isArray(inputs.gpuTypeIds) ? (inputs.gpuTypeIds as string[]) : undefined;
  // v2 reports no templateId (a snapshot): list() compares what it reports.
  const unreported = record.templateId === undefined ? ["gpuTypeIds", "templateId"] : ["gpuTypeIds"];
  const changed: string[] = diffEndpoint(outputsFromRecord(record, typeNames, "") as never, inputs).changed.filter((f) => !unreported.includes(f));
  if (!typeNames) return changed.length === 0;
  const sent = Object.keys(restCreateInputFrom(inputs as never));
  return changed.every((f) => !sent.includes(f));
}

export const endpointKind: StackKind = {
  type: typeToken(ENDPOINT_MODEL),
  noun: "endpoint",

  async list(client: PlatformClient, api: ApiPath): Promise<EndpointObject[]> {
    return (await LISTINGS[api].endpoints(client)).map((record) => ({
      id: record.id,
      name: record.name,
      summary: `${record.templateId ?? "-"} ${record.gpuIds} workers ${record.workersMin}-${record.workersMax}`,
      record,
    }));
  },

  /**
   * Same name and template (v2 reports no template: same name) — the identity the provider itself uses after a create with an unknown
   * outcome. A name the provider drew belongs to nothing else; a chosen name may be shared (another
   * stack, or made by hand), so then the settings the create sent must match too.
   */
  madeBy(object: PlatformObject, inputs: Record<string, unknown>): boolean {
    const { record } = object as EndpointObject;
    if (record.name !== inputs.name || (record.templateId !== undefined && record.templateId !== inputs.templateId)) return false;
    return inputs[AUTONAMED_PROPERTY] === true || carriesSentSettings(record, inputs);
  },

  nameIn(props: Record<string, unknown> | undefined): string | undefined {
    return typeof props?.name === "string" ? props.name : undefined;
  },

  isAutoNameOf(name: string, resourceName: string): boolean {
    return isAutoNameOf(name, resourceName);
  },

  async remove(client: PlatformClient, object: PlatformObject, api: ApiPath): Promise<void> {
    const { record } = object as EndpointObject;
    try {
      await REMOVE[api](client, record);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  },
};
