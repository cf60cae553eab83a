/**
 * Conversions between the platform's endpoint record and what Pulumi stores: the resource's outputs
 * and, for refresh / import / `Endpoint.get`, inputs rebuilt from them.
 */
import type { EndpointRecord, SaveEndpointInput } from "../api/types";
import { ENDPOINT_DEFAULTS } from "./endpointDefaults";
import type { EndpointInputs } from "./endpointInputs";
import { ENDPOINT_SETTING_DEFAULTS, type EndpointSettings } from "./endpointSettings";

/**
 * Outputs of an `Endpoint`: the platform's record with list-valued fields parsed, plus `jobUrl` and the
 * provider-only settings (not reported by the platform: as given at the last create or update).
 */
export interface EndpointOutputs extends EndpointSettings {
  /** The endpoint id (also the resource id). */
  endpointId: string;
  name: string;
  templateId: string;
  /** GPU tiers as the platform reports them, in its order. */
  gpuIds: string[];
  /** The GPU type names the endpoint was created with (the platform does not report them): absent when tiers were given, null once a refresh saw the tiers changed outside Pulumi. */
  gpuTypeIds?: string[] | null;
  type: string;
  /** Seconds. */
  idleTimeout: number;
  /** Regions; empty = any. */
  locations: string[];
  /** True when `fastBootType` is `FASTBOOT`. */
  fastBoot: boolean;
  fastBootType: string | null;
  scalerType: string;
  scalerValue: number;
  workersMin: number;
  workersMax: number;
  networkVolumeId: string | null;
  /** `{inferenceUrl}/v2/{endpointId}/`. */
  jobUrl: string;
}

/**
 * Property `Endpoint.get` registers (true) next to the serialized provider, so `read` can tell a lookup
 * — where a missing endpoint is an error — from a refresh or an adoption, where it drops from the stack.
 */
export const LOOKUP_PROPERTY = "__lookup";

/**
 * Property the `Endpoint` class registers with its Pulumi resource name: the prefix of the endpoint
 * name `check` generates when `name` is unset (Pulumi auto-naming; endpointName.ts).
 */
export const NAME_PREFIX_PROPERTY = "__namePrefix";

/**
 * Set (true) in checked inputs whose `name` this `check` generated. No other endpoint can carry such a
 * name, so `create` needs no "what existed before" listing to tell its own endpoint from another.
 */
export const AUTONAMED_PROPERTY = "__autonamed";

/** Splits the platform's comma-separated list (`"AMPERE_24,ADA_24"`); null or empty → []. */
export function splitList(value: string | string[] | null | undefined): string[] {
  if (Array.isArray(value)) return value;
  if (!value) return [];
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * `current` in the order of `previous` when both hold the same elements (as sets), else `current`.
 * For `locations`, whose order carries no meaning: the platform may report another order than the
 * one stored, and a refresh taking it would show a false reorder in the next preview.
 */
export function inPreviousOrder(current: readonly string[], previous: unknown): string[] {
  if (!isStringArray(previous)) return [...current];
  const a = new Set(current);
  const b = new Set(previous);
  const same = a.size === b.size && previous.length === current.length && [...a].every((v) => b.has(v));
  return same ? [...previous] : [...current];
}

/** True for an array of strings (a list as stored in state). */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** Joins a list the way the platform expects it (`gpuIds`, `locations`). */
export function joinList(values: readonly string[]): string {
  return values.join(",");
}

/**
 * Builds the outputs from a platform record.
 * @param gpuTypeIds the GPU type names to carry over (the platform does not report them).
 * @param jobUrl the endpoint's job URL (`client.jobUrl(id)`).
 * @param settings the provider-only settings to carry (default: their defaults).
 */
export function outputsFromRecord(
  record: EndpointRecord,
  gpuTypeIds: string[] | null | undefined,
  jobUrl: string,
  settings: EndpointSettings = ENDPOINT_SETTING_DEFAULTS,
): EndpointOutputs {
  const fastBootType = record.fastBootType ?? null;
  const outputs: EndpointOutputs = {
    endpointId: record.id,
    name: record.name,
    templateId: record.templateId,
    gpuIds: splitList(record.gpuIds),
    type: record.type ?? ENDPOINT_DEFAULTS.type,
    idleTimeout: record.idleTimeout ?? ENDPOINT_DEFAULTS.idleTimeout,
    locations: splitList(record.locations),
    fastBoot: fastBootType === "FASTBOOT",
    fastBootType,
    scalerType: record.scalerType ?? ENDPOINT_DEFAULTS.scalerType,
    scalerValue: record.scalerValue ?? ENDPOINT_DEFAULTS.scalerValue,
    workersMin: record.workersMin,
    workersMax: record.workersMax,
    networkVolumeId: record.networkVolumeId ?? null,
    jobUrl,
    waitForWorkers: settings.waitForWorkers,
    workersReadyTimeout: settings.workersReadyTimeout,
  };
  if (gpuTypeIds !== undefined) outputs.gpuTypeIds = gpuTypeIds;
  return outputs;
}

/**
 * Inputs equivalent to an endpoint's outputs (refresh, import and `Endpoint.get`, where the program's
 * inputs may be empty). Tiers are given as `gpuIds` unless the outputs carry `gpuTypeIds`; `locations`
 * and the provider-only settings are taken as the outputs hold them.
 */
export function inputsFromOutputs(outs: EndpointOutputs): EndpointInputs {
  const inputs: EndpointInputs = {
    name: outs.name,
    templateId: outs.templateId,
    type: outs.type as EndpointInputs["type"],
    idleTimeout: outs.idleTimeout,
    locations: outs.locations as EndpointInputs["locations"],
    fastBootType: outs.fastBootType as EndpointInputs["fastBootType"],
    scalerType: outs.scalerType as EndpointInputs["scalerType"],
    scalerValue: outs.scalerValue,
    workersMin: outs.workersMin,
    workersMax: outs.workersMax,
    networkVolumeId: outs.networkVolumeId,
    waitForWorkers: outs.waitForWorkers,
    workersReadyTimeout: outs.workersReadyTimeout,
  };
  if (outs.gpuTypeIds && outs.gpuTypeIds.length > 0) inputs.gpuTypeIds = outs.gpuTypeIds;
  else inputs.gpuIds = outs.gpuIds as EndpointInputs["gpuIds"];
  return inputs;
}

/**
 * The full `saveEndpoint` input for complete inputs: every field explicit, so the platform ends up
 * exactly as declared. `gpuIds` is the comma-separated tier list (spec: GraphQL › saveEndpoint).
 */
export function saveInputFrom(inputs: EndpointInputs, gpuIds: readonly string[], id?: string): SaveEndpointInput {
  const save: SaveEndpointInput = {
    name: inputs.name,
    templateId: inputs.templateId,
    gpuIds: joinList(gpuIds),
    type: inputs.type,
    idleTimeout: inputs.idleTimeout,
    locations: inputs.locations.length > 0 ? joinList(inputs.locations) : null,
    fastBootType: inputs.fastBootType,
    scalerType: inputs.scalerType,
    scalerValue: inputs.scalerValue,
    workersMin: inputs.workersMin,
    workersMax: inputs.workersMax,
    networkVolumeId: inputs.networkVolumeId,
  };
  if (id !== undefined) save.id = id;
  return save;
}
