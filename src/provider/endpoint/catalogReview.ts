/**
 * The Endpoint's hook into the catalog checks and the cost estimate (docs/cost.md), run by `check`
 * after its own validation: the inputs as a {@link ComputeSelection}, the review (catalog/review.ts),
 * the estimate outputs written into the checked inputs (so `pulumi preview` shows them), and the
 * budget guards. The catalog is read only when an input it judges changed: an unchanged endpoint
 * carries its estimate from its old inputs and costs no request.
 */
import { messageOf } from "../errorKinds";
import { overLimit } from "../catalog/budget";
import type { Catalog } from "../catalog/catalog";
import { hourlyCost, roundUsd } from "../catalog/cost";
import { reviewSelection } from "../catalog/review";
import type { ComputeSelection, SelectionFields, WorkerCounts } from "../catalog/selection";
import type { InputFailure } from "../model/check";
import { checkEndpointInputs } from "./check";
import { sameValue } from "../model/compare";
import { settingsFrom } from "../model/state";
import type { KindSession } from "../kindSession";
import { containsUnknown, UNKNOWN } from "../unknown";
import { COST_OUTPUTS, type CostOutput } from "./costFields";
import { ENDPOINT_MODEL, type EndpointInputField } from "./model";

/** The input field of each part of the selection (messages name what the user wrote). */
export const SELECTION_FIELDS: SelectionFields = {
  pools: "gpuIds",
  excludedTypes: "excludedGpuTypes",
  typeIds: "gpuTypeIds",
  count: "gpuCount",
  allowedCudaVersions: "allowedCudaVersions",
  minCudaVersion: "minCudaVersion",
  cpu: "cpuFlavorIds",
  vcpuCount: "vcpuCount",
  dataCenterIds: "dataCenterIds",
  networkVolumes: "networkVolumeId",
};

/** Inputs the review and the estimate read: a change of any of them reads the catalog again. */
export const CATALOG_INPUTS: readonly EndpointInputField[] = [
  "gpuIds",
  "gpuTypeIds",
  "cpuFlavorIds",
  "vcpuCount",
  "gpuCount",
  "allowedCudaVersions",
  "networkVolumeId",
  "workersMin",
  "workersMax",
];

/**
 * Of {@link CATALOG_INPUTS}, those the estimate needs: a volume created in the same deployment (its id
 * unknown at preview) leaves the estimate known, only the volume's data-center check waits for `up`.
 */
const COST_INPUTS = CATALOG_INPUTS.filter((f) => f !== "networkVolumeId");

const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
/** The mounted volume's id, when known. */
const volumeIds = (v: unknown): string[] => (typeof v === "string" && !containsUnknown(v) ? [v] : []);

/** What checked (known) inputs ask of the catalog. */
export function selectionOf(inputs: Record<string, unknown>): ComputeSelection {
  const flavors = list(inputs.cpuFlavorIds);
  if (flavors.length > 0) {
    const vcpuCount = typeof inputs.vcpuCount === "number" ? inputs.vcpuCount : 2;
    return {
      cpu: { flavors: flavors.map((id) => ({ id, vcpuCount })) },
      dataCenterIds: list(inputs.dataCenterIds),
      networkVolumeIds: volumeIds(inputs.networkVolumeId),
      fields: SELECTION_FIELDS,
    };
  }
  return {
    gpu: {
      pools: list(inputs.gpuIds),
      excludedTypes: list(inputs.excludedGpuTypes),
      typeIds: list(inputs.gpuTypeIds),
      count: typeof inputs.gpuCount === "number" ? inputs.gpuCount : 1,
      allowedCudaVersions: list(inputs.allowedCudaVersions),
    },
    dataCenterIds: list(inputs.dataCenterIds),
    networkVolumeIds: volumeIds(inputs.networkVolumeId),
    fields: SELECTION_FIELDS,
  };
}

/** Workers that cost money; `standby` from the outputs when known (a new endpoint has none). */
export function workersOf(inputs: Record<string, unknown>, standby?: unknown): WorkerCounts {
  return { min: inputs.workersMin as number, max: inputs.workersMax as number, standby: typeof standby === "number" ? standby : 0 };
}

/**
 * The property of a refusal no input of the program holds (the stack budget, a provider setting):
 * the engine prints it as the resource's own problem, where a named property the program does not
 * set would print as `property x value {<nil>} has a problem`.
 */
const STACK_WIDE = "";
const isSet = (v: unknown) => v !== undefined && v !== null;

const numberOr = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * Reviews checked `inputs` against the catalog and writes the estimate outputs into them; failures
 * are appended. Skipped when `failures` is not empty (bad input costs no request).
 * @param key the endpoint's key in the stack ledger (its Pulumi resource name); absent for a read's estimate,
 *   which the ledger leaves to the next check.
 */
export async function reviewEndpoint(
  session: KindSession,
  olds: Record<string, unknown> | undefined,
  inputs: Record<string, unknown>,
  failures: InputFailure[],
  key?: string,
): Promise<void> {
  if (failures.length > 0) return;
  const settings = session.catalogSettings;
  const who = key === undefined ? `endpoint ${String(inputs.name)}` : `endpoint ${key}${inputs.name !== key ? ` (${String(inputs.name)})` : ""}`;
  if (COST_INPUTS.some((f) => containsUnknown(inputs[f]))) {
    for (const f of COST_OUTPUTS) inputs[f] = UNKNOWN;
    return;
  }
  const unchanged =
    olds !== undefined && typeof olds.maxHourlyCost === "number" && CATALOG_INPUTS.every((f) => sameValue(ENDPOINT_MODEL, f, olds[f], inputs[f]));
  if (unchanged) {
    for (const f of COST_OUTPUTS) inputs[f] = numberOr(olds[f]);
  } else {
    let catalog: Catalog;
    try {
      catalog = await session.catalog();
    } catch (err) {
      for (const f of COST_OUTPUTS) inputs[f] = null;
      const why = `the platform's catalog could not be read (${messageOf(err)})`;
      if (inputs.maxHourlyCostLimit !== null && inputs.maxHourlyCostLimit !== undefined)
        failures.push({ property: "maxHourlyCostLimit", reason: `cannot check maxHourlyCostLimit: ${why}` });
      else if (settings.maxHourlyCost !== undefined) failures.push({ property: STACK_WIDE, reason: `cannot check runpod:maxHourlyCost: ${why}` });
      else session.warn(`${who}: ${why}; its GPU selection was not checked and no cost was estimated`);
      return;
    }
    const selection = selectionOf(inputs);
    const volumes = selection.networkVolumeIds.length > 0 && selection.dataCenterIds.length > 0 ? await session.networkVolumes() : [];
    const review = reviewSelection(selection, catalog, volumes, { requireAvailability: settings.requireAvailability });
    failures.push(...review.failures.map((f) => (isSet(inputs[f.property]) ? f : { ...f, property: STACK_WIDE })));
    for (const w of review.warnings) session.warn(`${who}: ${w}`);
    if (review.failures.length > 0) return;
    const cost = hourlyCost(selection, workersOf(inputs, olds?.workersStandby), catalog);
    inputs.maxHourlyCost = cost?.maxHourlyCost ?? null;
    inputs.idleHourlyCost = cost?.idleHourlyCost ?? null;
    inputs.workerHourlyCost = cost?.workerHourlyCost ?? null;
    if (!cost) session.warn(`${who}: the catalog has no serverless price for its GPU selection; no cost was estimated`);
  }
  await guardBudget(session, inputs, failures, key);
}

async function guardBudget(session: KindSession, inputs: Record<string, unknown>, failures: InputFailure[], key: string | undefined): Promise<void> {
  const max = inputs.maxHourlyCost;
  if (typeof max !== "number") return;
  const source = typeof inputs.workerHourlyCost === "number" ? `${inputs.workersMax as number} workers × $${inputs.workerHourlyCost}/h` : "estimate";
  const limit = overLimit(max, settingsFrom(ENDPOINT_MODEL, inputs).maxHourlyCostLimit, source);
  if (limit) failures.push({ property: "maxHourlyCostLimit", reason: limit });
  if (key === undefined) return;
  const over = await session.budgetRefusal({ key, name: String(inputs.name), maxHourlyCost: max });
  if (over) failures.push({ property: STACK_WIDE, reason: over });
}

/**
 * The `maxHourlyCost` an endpoint's cost inputs give (catalog/budget.ts `MEMBER_COST_INPUTS`, the
 * model's defaults for the unset ones), for the budget refusal's total; undefined when they cannot be priced.
 */
export async function endpointHourlyCost(session: KindSession, args: Record<string, unknown>): Promise<number | undefined> {
  const { inputs } = checkEndpointInputs(args, session.api);
  if (COST_INPUTS.some((f) => containsUnknown(inputs[f]))) return undefined;
  return hourlyCost(selectionOf(inputs), workersOf(inputs), await session.catalog())?.maxHourlyCost;
}

/**
 * The estimate outputs of a platform record: the worker price the inputs (or stored outputs) carry,
 * times the record's own worker counts and standby workers (a refresh follows drift). Absent when
 * `previous` carries no worker price (an adopted endpoint before its first `up`).
 */
export function costOutputs(
  record: { workersMin: number; workersMax: number; workersStandby?: number | null },
  previous: { workerHourlyCost?: unknown } | undefined,
): { [K in CostOutput]?: number | null } {
  const worker = numberOr(previous?.workerHourlyCost);
  if (worker === null) return {};
  return {
    maxHourlyCost: roundUsd(worker * record.workersMax),
    idleHourlyCost: roundUsd(worker * (record.workersMin + (record.workersStandby ?? 0))),
    workerHourlyCost: worker,
  };
}
