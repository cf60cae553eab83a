/**
 * The Pod's preview checks and cost estimate (docs/pod.md, docs/cost.md), run by `check` after its own
 * validation, as the Endpoint's are: unknown GPU types, CPU flavors and data centers fail naming the field and
 * the nearest or valid values; a GPU count above the type's `maxCount` on the cloud, a type not offered on the
 * cloud, a vCPU count outside the flavor's range fail; scarce stock where the pod may be placed warns (fails with
 * `runpod:requireAvailability`). `costPerHour` is the list price of the first GPU type × `gpuCount` (or the
 * flavor's per-vCPU price × `vcpuCount`), written into the checked inputs so `pulumi preview` shows it, and
 * recorded in the stack ledger (`runpod:maxHourlyCost`).
 *
 * Pod stock is product-specific, so GPU types and CPU flavors are read with `product=POD` (rest-v2-openapi.json
 * › listGpuTypes, listCpuTypes), besides the serverless read the endpoints use. Each part is read only when the
 * pod needs it (GPU types for a GPU pod, CPU flavors for a CPU pod, data centers for `dataCenterIds`), once per
 * session through its catalog reads (catalog/queries.ts: concurrent callers share a read, a failed one is tried
 * again by the next check).
 */
import type { V2 } from "../../api";
import { isScarce, levelIn, overallLevel, type AvailabilityLevel } from "../catalog/catalog";
import { roundUsd } from "../catalog/cost";
import type { CatalogReads } from "../catalog/queries";
import { unknownValue } from "../catalog/review";
import { messageOf } from "../errorKinds";
import { checkFields, type InputFailure } from "../model/check";
import { sameValue } from "../model/compare";
import type { KindSession } from "../kindSession";
import { containsUnknown, UNKNOWN } from "../unknown";
import { POD_MODEL, type PodInputField } from "./model";

/** Inputs the review and the estimate read: a change of any of them reads the catalog again. */
export const POD_CATALOG_INPUTS: readonly PodInputField[] = [
  "gpuTypeIds",
  "gpuCount",
  "cpuFlavorId",
  "vcpuCount",
  "cloudType",
  "dataCenterIds",
  "networkVolumeId",
];

const STACK_WIDE = "";
const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);

/** The parts of the pod catalog one pod's review reads; those it does not need are empty. */
interface PodCatalog {
  gpus: V2.GpuType[];
  cpus: V2.CpuType[];
  dataCenters: V2.DataCenter[];
}

const POD_AVAILABILITY = { include: ["AVAILABILITY" as const], product: ["POD" as const] };

/** The parts of the pod catalog that `inputs` need (the others empty), from the session's catalog reads. */
async function podCatalog(reads: CatalogReads, inputs: Record<string, unknown>): Promise<PodCatalog> {
  const gpu = list(inputs.gpuTypeIds).length > 0;
  const [gpus, cpus, dataCenters] = await Promise.all([
    gpu ? reads.listGpuTypes(POD_AVAILABILITY) : [],
    !gpu && typeof inputs.cpuFlavorId === "string" ? reads.listCpuTypes(POD_AVAILABILITY) : [],
    list(inputs.dataCenterIds).length > 0 ? reads.listDataCenters() : [],
  ]);
  return { gpus, cpus, dataCenters };
}

/** Where the pod may be placed: the wanted data centers narrowed to the network volume's, if any. */
function placement(inputs: Record<string, unknown>, volumeDc: string | undefined): string[] {
  const wanted = list(inputs.dataCenterIds);
  if (volumeDc === undefined) return wanted;
  return wanted.length === 0 || wanted.includes(volumeDc) ? [volumeDc] : [];
}

/** The best stock of `item` over `dcs` (all data centers when empty). */
function stock(item: { availability?: AvailabilityLevel; dataCenters?: V2.GpuType["dataCenters"] }, dcs: string[]): AvailabilityLevel {
  if (dcs.length === 0) return overallLevel(item);
  return dcs
    .map((dc) => levelIn(item, dc))
    .reduce<AvailabilityLevel>((a, b) => (["NONE", "LOW", "MEDIUM", "HIGH"].indexOf(b) > ["NONE", "LOW", "MEDIUM", "HIGH"].indexOf(a) ? b : a), "NONE");
}

/**
 * Reviews checked `inputs` against the pod catalog and writes `costPerHour` into them; failures are appended.
 * Skipped when `failures` is not empty, and for a pod whose compute and placement did not change.
 * @param key the pod's key in the stack ledger (its Pulumi resource name); absent for a read's estimate, which
 *   the ledger leaves to the next check.
 */
export async function reviewPod(
  session: KindSession,
  olds: Record<string, unknown> | undefined,
  inputs: Record<string, unknown>,
  failures: InputFailure[],
  key?: string,
): Promise<void> {
  if (failures.length > 0) return;
  if (POD_CATALOG_INPUTS.some((f) => containsUnknown(inputs[f]))) {
    inputs.costPerHour = UNKNOWN;
    return;
  }
  const who = key === undefined ? `pod ${String(inputs.name)}` : `pod ${key}${inputs.name !== key ? ` (${String(inputs.name)})` : ""}`;
  const settings = session.catalogSettings;
  if (olds !== undefined && POD_CATALOG_INPUTS.every((f) => sameValue(POD_MODEL, f, olds[f], inputs[f]))) {
    // Unchanged compute: the estimate rides with the old inputs, and still counts toward the stack's budget.
    if (typeof olds.costPerHour === "number") {
      inputs.costPerHour = olds.costPerHour;
      await ledger(session, key, inputs, olds.costPerHour, failures);
    }
    return;
  }
  let catalog: PodCatalog;
  let volumeDc: string | undefined;
  try {
    catalog = await podCatalog(session.catalogSource, inputs);
    if (typeof inputs.networkVolumeId === "string") volumeDc = (await session.networkVolumes()).find((v) => v.id === inputs.networkVolumeId)?.dataCenter;
  } catch (err) {
    inputs.costPerHour = null;
    const why = `the platform's catalog could not be read (${messageOf(err)})`;
    if (settings.maxHourlyCost !== undefined) failures.push({ property: STACK_WIDE, reason: `cannot check runpod:maxHourlyCost: ${why}` });
    else session.warn(`${who}: ${why}; its GPU or CPU selection was not checked and no cost was estimated`);
    return;
  }
  const dcIds = catalog.dataCenters.map((d) => d.id);
  for (const dc of list(inputs.dataCenterIds)) {
    if (!dcIds.includes(dc)) failures.push({ property: "dataCenterIds", reason: `dataCenterIds: ${unknownValue(dc, dcIds, "a data center of the catalog")}` });
  }
  if (volumeDc !== undefined && placement(inputs, volumeDc).length === 0) {
    failures.push({
      property: "dataCenterIds",
      reason: `dataCenterIds: the network volume ${String(inputs.networkVolumeId)} is in ${volumeDc}, which dataCenterIds (${list(inputs.dataCenterIds).join(", ")}) leaves out`,
    });
  }
  const dcs = placement(inputs, volumeDc);
  const where = dcs.length > 0 ? ` in ${dcs.join(", ")}` : "";
  const cloud = inputs.cloudType === "COMMUNITY" ? "community" : "secure";
  let cost: number | undefined;
  const levels: string[] = [];
  let best: AvailabilityLevel = "NONE";
  const consider = (what: string, level: AvailabilityLevel) => {
    levels.push(`${what}: ${level}`);
    if (["NONE", "LOW", "MEDIUM", "HIGH"].indexOf(level) > ["NONE", "LOW", "MEDIUM", "HIGH"].indexOf(best)) best = level;
  };
  const gpuIds = list(inputs.gpuTypeIds);
  if (gpuIds.length > 0) {
    const count = inputs.gpuCount as number;
    for (const id of gpuIds) {
      const type = catalog.gpus.find((g) => g.id === id);
      if (!type) {
        failures.push({
          property: "gpuTypeIds",
          reason: `gpuTypeIds: ${unknownValue(
            id,
            catalog.gpus.map((g) => g.id),
            "a GPU type of the catalog",
          )}`,
        });
        continue;
      }
      if (!type[cloud]) {
        failures.push({
          property: "cloudType",
          reason: `cloudType: "${id}" is not offered on ${String(inputs.cloudType)} cloud; ${type.secure ? "SECURE" : "COMMUNITY"} offers it`,
        });
        continue;
      }
      if (count > type.maxCount[cloud]) {
        failures.push({
          property: "gpuCount",
          reason: `gpuCount: at most ${type.maxCount[cloud]} x "${id}" per pod on ${String(inputs.cloudType)} cloud; got ${count}`,
        });
        continue;
      }
      cost ??= type.price[cloud] * count;
      consider(id, stock(type, dcs));
    }
  } else if (typeof inputs.cpuFlavorId === "string") {
    const flavor = catalog.cpus.find((c) => c.id === inputs.cpuFlavorId);
    const vcpus = inputs.vcpuCount as number;
    if (!flavor) {
      failures.push({
        property: "cpuFlavorId",
        reason: `cpuFlavorId: ${unknownValue(
          inputs.cpuFlavorId,
          catalog.cpus.map((c) => c.id),
          "a CPU flavor of the catalog",
        )}`,
      });
    } else if (vcpus < flavor.vcpu.min || vcpus > flavor.vcpu.max) {
      failures.push({
        property: "vcpuCount",
        reason: `vcpuCount: "${flavor.id}" takes a power of two from ${flavor.vcpu.min} to ${flavor.vcpu.max}; got ${vcpus}`,
      });
    } else {
      cost = flavor.price.securePerVcpu * vcpus;
      consider(flavor.id, stock(flavor, dcs));
    }
  }
  if (failures.length > 0) return;
  if (levels.length > 0 && isScarce(best)) {
    const message = `no GPU type or CPU flavor of the pod has good stock${where} (${levels.join(", ")}); the create may be refused for capacity`;
    if (settings.requireAvailability)
      failures.push({ property: gpuIds.length > 0 ? "gpuTypeIds" : "cpuFlavorId", reason: `${gpuIds.length > 0 ? "gpuTypeIds" : "cpuFlavorId"}: ${message}` });
    else session.warn(`${who}: ${message}`);
  }
  inputs.costPerHour = cost === undefined ? null : roundUsd(cost);
  if (cost !== undefined) await ledger(session, key, inputs, roundUsd(cost), failures);
}

/** Records the pod's hourly cost in the stack ledger (a stopped pod: 0) and fails the preview over `runpod:maxHourlyCost`. */
async function ledger(session: KindSession, key: string | undefined, inputs: Record<string, unknown>, cost: number, failures: InputFailure[]): Promise<void> {
  if (key === undefined) return;
  const over = await session.budgetRefusal({ key, name: String(inputs.name), maxHourlyCost: inputs.desiredStatus === "EXITED" ? 0 : cost });
  if (over) failures.push({ property: STACK_WIDE, reason: over });
}

/**
 * The hourly cost a pod's cost inputs give (catalog/budget.ts `MEMBER_COST_INPUTS`, the model's defaults
 * for the unset ones) as its review prices it, a stopped pod 0, for the budget refusal's total;
 * undefined when they cannot be priced.
 */
export async function podHourlyCost(session: KindSession, args: Record<string, unknown>): Promise<number | undefined> {
  const { inputs } = checkFields(POD_MODEL, args);
  if (inputs.desiredStatus === "EXITED") return 0;
  const catalog = await podCatalog(session.catalogSource, inputs);
  const cloud = inputs.cloudType === "COMMUNITY" ? "community" : "secure";
  const gpuIds = list(inputs.gpuTypeIds);
  if (gpuIds.length > 0) {
    const type = gpuIds.map((id) => catalog.gpus.find((g) => g.id === id)).find((t) => t?.[cloud]);
    return type ? roundUsd(type.price[cloud] * (inputs.gpuCount as number)) : undefined;
  }
  const flavor = catalog.cpus.find((c) => c.id === inputs.cpuFlavorId);
  return flavor ? roundUsd(flavor.price.securePerVcpu * (inputs.vcpuCount as number)) : undefined;
}
