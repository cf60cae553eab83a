/**
 * `Endpoint` as the stack commands see it. The facts below mirror the provider's: its type token
 * (`Endpoint` registers as module `runpod`, type `Endpoint`), its auto-name
 * `<resource name>-<7 hex digits>` and the `__autonamed` mark it puts in checked inputs.
 */
import { NotFoundError, type EndpointRecord, type PlatformClient } from "../../api";
import type { PlatformObject, ResourceKind } from "./resourceKind";

const AUTONAMED_PROPERTY = "__autonamed";
const AUTONAME_SUFFIX = /^[0-9a-f]{7}$/;

interface EndpointObject extends PlatformObject {
  record: EndpointRecord;
}

/** Comma-separated list of the platform (or a list as stored in state) → list. */
function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== "string" || value === "") return [];
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((v) => b.includes(v));
}

/**
 * Whether the settings a create sent are what `record` holds. A create through `saveEndpoint` sends
 * every field; the REST v1 create (GPU type names) only workers and idle timeout, the rest follows in
 * a second request that an interruption may have cut off.
 */
function carriesSentSettings(record: EndpointRecord, inputs: Record<string, unknown>): boolean {
  const same = (field: keyof EndpointRecord) => inputs[field] === undefined || inputs[field] === record[field];
  if (!(same("workersMin") && same("workersMax") && same("idleTimeout"))) return false;
  if (Array.isArray(inputs.gpuTypeIds)) return true;
  return (
    list(inputs.gpuIds).join(",") === list(record.gpuIds).join(",") &&
    same("type") &&
    same("scalerType") &&
    same("scalerValue") &&
    same("fastBootType") &&
    same("networkVolumeId") &&
    sameSet(list(inputs.locations), list(record.locations))
  );
}

export const endpointKind: ResourceKind = {
  type: "pulumi-nodejs:dynamic/runpod:Endpoint",
  noun: "endpoint",

  async list(client: PlatformClient): Promise<EndpointObject[]> {
    return (await client.listEndpoints()).map((record) => ({
      id: record.id,
      name: record.name,
      summary: `${record.templateId} ${record.gpuIds} workers ${record.workersMin}-${record.workersMax}`,
      record,
    }));
  },

  /**
   * Same name and template — the identity the provider itself uses after a create with an unknown
   * outcome. A name the provider drew belongs to nothing else; a chosen name may be shared (another
   * stack, or made by hand), so then the settings the create sent must match too.
   */
  madeBy(object: PlatformObject, inputs: Record<string, unknown>): boolean {
    const { record } = object as EndpointObject;
    if (record.name !== inputs.name || record.templateId !== inputs.templateId) return false;
    return inputs[AUTONAMED_PROPERTY] === true || carriesSentSettings(record, inputs);
  },

  nameIn(props: Record<string, unknown> | undefined): string | undefined {
    return typeof props?.name === "string" ? props.name : undefined;
  },

  isAutoNameOf(name: string, resourceName: string): boolean {
    return name.startsWith(`${resourceName}-`) && AUTONAME_SUFFIX.test(name.slice(resourceName.length + 1));
  },

  /** Scale to zero and delete in one request (`scaleDownAndDeleteEndpoint`), or just delete when already at zero. */
  async remove(client: PlatformClient, object: PlatformObject): Promise<void> {
    const { record } = object as EndpointObject;
    try {
      if (record.workersMin === 0 && record.workersMax === 0) await client.deleteEndpoint(record.id);
      else await client.scaleDownAndDeleteEndpoint({ id: record.id, name: record.name, templateId: record.templateId, gpuIds: record.gpuIds });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  },
};
