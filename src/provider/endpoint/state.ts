/**
 * Conversions between an endpoint record (paths/records.ts, whatever the path) and what Pulumi stores —
 * the model's mapping (model/state.ts) plus what the record lacks: the id, the job URL and the GPU type
 * names, which the platform does not report and the outputs carry.
 */
import type { EndpointState } from "../paths/records";
import { inputsFromOutputs as inputsFromModelOutputs, outputsFromRecord as modelOutputs } from "../model/state";
import { costOutputs } from "./catalogReview";
import { COST_OUTPUTS, type CostOutput } from "./costFields";
import { ENDPOINT_CONTAINER_FIELDS, ENDPOINT_MODEL, type EndpointInputs, type EndpointOutputs } from "./model";

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
  previous?: Partial<EndpointOutputs>,
): EndpointOutputs {
  const own = modelOutputs(ENDPOINT_MODEL, record, settings, previous);
  const outs = {
    endpointId: record.id,
    ...own,
    // Maps read as empty, not null, where the path reports none (GraphQL), as Template's and Pod's `env` do.
    env: own.env ?? {},
    workersStandby: record.workersStandby ?? null,
    jobUrl,
    requestUrls: record.requestUrls ?? {},
    releaseVersion: record.releaseVersion ?? null,
    releasedContainer: record.releasedContainer ?? null,
    // Just created, updated (re-applied when stale) or read: the provider's read corrects it where endpoints copy templates.
    templateCurrent: true,
    ...costOutputs(record, previous ?? settings),
    // The estimate is absent until a worker price is known (costOutputs): the one field the type over-promises.
  } as EndpointOutputs;
  if (gpuTypeIds !== undefined) outs.gpuTypeIds = gpuTypeIds;
  return outs;
}

/**
 * Inputs equivalent to an endpoint's outputs (refresh, import and `Endpoint.get`, where the program's
 * inputs may be empty). Tiers are given as `gpuIds` unless the outputs carry `gpuTypeIds`, CPU flavors
 * as `cpuFlavorIds` with `vcpuCount`; an endpoint the state ties to no template gets its own container
 * (`imageName`, `env`, …), so its inputs say what it runs, and one tied to a template none (its
 * template's, as `adopt` writes it).
 */
export function inputsFromOutputs(outs: EndpointOutputs): Partial<EndpointInputs> & Partial<Pick<EndpointOutputs, CostOutput>> {
  const own: Partial<EndpointInputs> & Partial<Pick<EndpointOutputs, CostOutput>> = inputsFromModelOutputs(ENDPOINT_MODEL, outs);
  const cpu = Array.isArray(outs.cpuFlavorIds) && outs.cpuFlavorIds.length > 0;
  if (cpu || (outs.gpuTypeIds && outs.gpuTypeIds.length > 0)) delete own.gpuIds;
  if (!(outs.gpuTypeIds && outs.gpuTypeIds.length > 0)) delete own.gpuTypeIds;
  if (!cpu) {
    delete own.cpuFlavorIds;
    delete own.vcpuCount;
  }
  if (outs.templateId) for (const f of ENDPOINT_CONTAINER_FIELDS) delete own[f];
  else delete own.templateId;
  if (!outs.templateId && typeof outs.imageName === "string" && outs.imageName !== "") {
    // "" is no start command: the model's "unset" (check fills it in without a template).
    const given = ENDPOINT_CONTAINER_FIELDS.filter((f) => outs[f] !== undefined && outs[f] !== null && outs[f] !== "");
    Object.assign(own, Object.fromEntries(given.map((f) => [f, outs[f]])));
  }
  // The estimate rides with the inputs (check writes it there), so an unchanged endpoint keeps it after a refresh without a catalog read.
  for (const f of COST_OUTPUTS) if (typeof outs[f] === "number") own[f] = outs[f];
  return own;
}
