/**
 * Conversions between the platform's endpoint record and what Pulumi stores — the model's mapping
 * (model/state.ts) plus what the record lacks: the id, the job URL and the GPU type names, which the
 * platform does not report and the outputs carry.
 */
import type { RestCreateEndpointInput, SaveEndpointInput } from "../../api";
import type { EndpointState } from "../paths/records";
import { apiInput, inputsFromOutputs as inputsFromModelOutputs, joinList, outputsFromRecord as modelOutputs } from "../model/state";
import { costOutputs } from "./catalogReview";
import { COST_OUTPUTS } from "./costFields";
import { ENDPOINT_MODEL, type EndpointInputs, type EndpointOutputs } from "./model";

/**
 * Builds the outputs from a platform record.
 * @param gpuTypeIds the GPU type names to carry over (the platform does not report them).
 * @param jobUrl the endpoint's job URL (`client.jobUrl(id)`).
 * @param settings where the provider settings come from (checked inputs or stored outputs; default: their defaults).
 * @param previous the declared or stored values: `locations` keeps their order when it holds the same regions.
 */
export function outputsFromRecord(
  record: EndpointState,
  gpuTypeIds: string[] | null | undefined,
  jobUrl: string,
  settings?: object,
  previous?: Record<string, unknown>,
): EndpointOutputs {
  const outs = {
    endpointId: record.id,
    ...modelOutputs(ENDPOINT_MODEL, record, settings, previous),
    workersStandby: record.workersStandby ?? null,
    jobUrl,
    ...costOutputs(record, previous ?? (settings as Record<string, unknown> | undefined)),
  } as EndpointOutputs;
  if (gpuTypeIds !== undefined) outs.gpuTypeIds = gpuTypeIds;
  return outs;
}

/**
 * Inputs equivalent to an endpoint's outputs (refresh, import and `Endpoint.get`, where the program's
 * inputs may be empty). Tiers are given as `gpuIds` unless the outputs carry `gpuTypeIds`.
 */
export function inputsFromOutputs(outs: EndpointOutputs): EndpointInputs {
  const inputs = inputsFromModelOutputs(ENDPOINT_MODEL, outs) as EndpointInputs;
  if (outs.gpuTypeIds && outs.gpuTypeIds.length > 0) delete inputs.gpuIds;
  else delete inputs.gpuTypeIds;
  // The estimate rides with the inputs (check writes it there), so an unchanged endpoint keeps it after a refresh without a catalog read.
  for (const f of COST_OUTPUTS) if (typeof outs[f] === "number") (inputs as Record<string, unknown>)[f] = outs[f];
  return inputs;
}

/**
 * The full `saveEndpoint` input for complete inputs: every field the model sends with it, so the
 * platform ends up exactly as declared; `gpuIds` is the comma-separated tier list (spec: GraphQL › saveEndpoint).
 * @param carried for a modify, the outputs last read: fields left unset whose unset means the
 *   platform's default (`gpuCount`, …) and the unmanaged `workersStandby` are sent with these values,
 *   so a modify that replaces the settings keeps them; a create passes none (the platform's defaults).
 */
export function saveInputFrom(inputs: EndpointInputs, gpuIds: readonly string[], id?: string, carried?: object): SaveEndpointInput {
  const save = { ...apiInput(ENDPOINT_MODEL, "save", inputs, carried), gpuIds: joinList(gpuIds) } as unknown as SaveEndpointInput;
  if (id !== undefined) save.id = id;
  return save;
}

/** The REST v1 create body for complete inputs with GPU type names (spec: POST /v1/endpoints; plus the REST v1 document's `gpuCount`, `allowedCudaVersions`, `executionTimeoutMs`). */
export function restCreateInputFrom(inputs: EndpointInputs): RestCreateEndpointInput {
  return apiInput(ENDPOINT_MODEL, "restCreate", inputs) as unknown as RestCreateEndpointInput;
}
