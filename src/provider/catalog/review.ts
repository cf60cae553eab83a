/**
 * The catalog checks of an endpoint at preview (pure: the catalog and the caller's volumes are
 * given). Unknown or impossible values are failures naming the field with the valid or nearest
 * values; scarce availability is a warning naming the pool (or CPU flavor) and the data center, or a
 * failure with `requireAvailability`. Spec: rest-v2-openapi.json › Catalog, CreateEndpointGpuConfig,
 * BaseCpuConfig, NetworkVolume.dataCenter.
 */
import { closest, distance } from "fastest-levenshtein";
import type { NetworkVolume } from "../../api";
import type { InputFailure } from "../model/check";
import { AVAILABILITY_ORDER, bestLevel, isScarce, levelIn, overallLevel, type AvailabilityLevel, type Catalog, type GpuType } from "./catalog";
import type { ComputeSelection, GpuSelection } from "./selection";

export interface ReviewOptions {
  /** `runpod:requireAvailability`: scarce availability fails the preview instead of warning. */
  requireAvailability?: boolean;
}

export interface CatalogReview {
  failures: InputFailure[];
  warnings: string[];
}

/** How many known values a message lists before "…". */
const LIST_LIMIT = 12;

/** How many values holding the given one as a part ("RTX 4090" in "NVIDIA GeForce RTX 4090") are named as nearest. */
const PART_LIMIT = 3;

/**
 * The valid values nearest `value`: those holding it as a part (a short name of a long id, any case), else
 * the closest by edit distance when it is close (a typo).
 */
function nearest(value: string, valid: readonly string[]): string[] {
  const v = value.trim().toLowerCase();
  const holding = v.length >= 3 ? valid.filter((x) => x.toLowerCase().includes(v)) : [];
  if (holding.length > 0 && holding.length <= PART_LIMIT) return holding;
  const near = closest(value, valid as string[]);
  return distance(v, near.toLowerCase()) <= Math.max(2, Math.floor(value.length / 3)) ? [near] : [];
}

/** `"x" is not …; nearest: "y"; valid: a, b, c`: the nearest values first when some are close. */
export function unknownValue(value: string, valid: readonly string[], what: string): string {
  const shown = valid.length > LIST_LIMIT ? `${valid.slice(0, LIST_LIMIT).join(", ")}, … (${valid.length} in all)` : valid.join(", ") || "none";
  if (valid.length === 0) return `"${value}" is not ${what}; the catalog has none`;
  const near = nearest(value, valid);
  return `"${value}" is not ${what}${near.length > 0 ? `; nearest: ${near.map((n) => `"${n}"`).join(", ")}` : ""}; valid: ${shown}`;
}

/** CUDA `major.minor` compared numerically (12.11 > 12.2), as the document says. */
export function compareCuda(a: string, b: string): number {
  const [am, an] = a.split(".").map(Number);
  const [bm, bn] = b.split(".").map(Number);
  return am !== bm ? am - bm : (an ?? 0) - (bn ?? 0);
}

/** The GPU types a GPU selection may land on (known pools and types only), and the failures found. */
export function eligibleGpuTypes(gpu: GpuSelection, catalog: Catalog, fields: ComputeSelection["fields"], failures: InputFailure[]): GpuType[] {
  const eligible: GpuType[] = [];
  const pools = catalog.pools;
  for (const pool of gpu.pools) {
    if (catalog.typesOf(pool).length === 0) {
      failures.push({
        property: fields.pools,
        reason: `${fields.pools}: ${unknownValue(pool, pools, "a serverless GPU pool of the catalog")} (${pools.map((p) => catalog.describePool(p)).join("; ")})`,
      });
    }
  }
  const serverlessIds = catalog.serverlessGpuTypes.map((g) => g.id);
  for (const id of gpu.typeIds) {
    const type = catalog.gpuType(id);
    if (!type || !type.pool)
      failures.push({ property: fields.typeIds, reason: `${fields.typeIds}: ${unknownValue(id, serverlessIds, "a GPU type of a serverless pool")}` });
    else eligible.push(type);
  }
  const inPools = gpu.pools.flatMap((p) => catalog.typesOf(p));
  for (const id of gpu.excludedTypes) {
    if (!inPools.some((t) => t.id === id.trim())) {
      failures.push({
        property: fields.excludedTypes,
        reason: `${fields.excludedTypes}: ${unknownValue(
          id,
          inPools.map((t) => t.id),
          `a GPU type of the selected pools (${gpu.pools.join(", ")})`,
        )}`,
      });
    }
  }
  const excluded = new Set(gpu.excludedTypes.map((t) => t.trim()));
  const fromPools = inPools.filter((t) => !excluded.has(t.id));
  if (inPools.length > 0 && fromPools.length === 0) {
    failures.push({
      property: fields.excludedTypes,
      reason: `${fields.excludedTypes} excludes every GPU type of ${gpu.pools.join(", ")}; no worker could be placed`,
    });
  }
  return [...eligible, ...fromPools.filter((t) => !eligible.includes(t))];
}

/** Most GPUs one worker may have on `type` (the larger of the two clouds' `maxCount`). */
const maxGpus = (type: GpuType): number => Math.max(type.maxCount.secure, type.maxCount.community);

function reviewGpu(gpu: GpuSelection, selection: ComputeSelection, catalog: Catalog, failures: InputFailure[], scarce: string[]): void {
  const { fields } = selection;
  const before = failures.length;
  const eligible = eligibleGpuTypes(gpu, catalog, fields, failures);
  if (failures.length > before || eligible.length === 0) return;

  const fitting = eligible.filter((t) => maxGpus(t) >= gpu.count);
  if (fitting.length === 0) {
    const most = Math.max(...eligible.map(maxGpus));
    failures.push({
      property: fields.count,
      reason: `${fields.count} ${gpu.count} is more GPUs than one worker of the selected GPU types can have; valid: 1 to ${most}`,
    });
    return;
  }

  const offered = [...new Set(fitting.flatMap((t) => (t.cudaVersions ?? []).map((c) => c.version)))].sort(compareCuda);
  // A type with no cudaVersions (e.g. AMD) states nothing; only a populated list rules versions out.
  if (offered.length > 0 && fitting.every((t) => (t.cudaVersions ?? []).length > 0)) {
    if (gpu.allowedCudaVersions.length > 0 && !gpu.allowedCudaVersions.some((v) => offered.includes(v))) {
      failures.push({
        property: fields.allowedCudaVersions,
        reason: `${fields.allowedCudaVersions} [${gpu.allowedCudaVersions.join(", ")}]: no selected GPU type is offered with any of them; offered: ${offered.join(", ")}`,
      });
    }
    if (gpu.minCudaVersion !== undefined && !offered.some((v) => compareCuda(v, gpu.minCudaVersion!) >= 0)) {
      failures.push({
        property: fields.minCudaVersion,
        reason: `${fields.minCudaVersion} ${gpu.minCudaVersion} is above every CUDA version the selected GPU types are offered with; highest: ${offered[offered.length - 1]}`,
      });
    }
  }

  const pools = [...new Set(fitting.map((t) => t.pool!))];
  for (const pool of pools) {
    const types = fitting.filter((t) => t.pool === pool);
    reviewAvailability(`GPU pool ${pool}`, types, selection.dataCenterIds, scarce);
  }
}

function reviewCpu(selection: ComputeSelection, catalog: Catalog, failures: InputFailure[], scarce: string[]): void {
  const { fields } = selection;
  const ids = catalog.data.cpus.map((c) => c.id);
  for (const { id, vcpuCount } of selection.cpu!.flavors) {
    const flavor = catalog.cpuFlavor(id);
    if (!flavor) {
      failures.push({ property: fields.cpu, reason: `${fields.cpu}: ${unknownValue(id, ids, "a CPU flavor of the catalog")}` });
      continue;
    }
    const powers: number[] = [];
    for (let n = 2; n <= flavor.vcpu.max; n *= 2) if (n >= flavor.vcpu.min) powers.push(n);
    if (!powers.includes(vcpuCount)) {
      const field = fields.vcpuCount ?? fields.cpu;
      failures.push({ property: field, reason: `${field}: ${vcpuCount} vCPUs is not offered on ${id}; valid: ${powers.join(", ") || "none"}` });
      continue;
    }
    reviewAvailability(`CPU flavor ${id}`, [flavor], selection.dataCenterIds, scarce);
  }
}

/**
 * Scarce availability of one pool (its eligible types together) or flavor: per data center named by
 * the endpoint, or, when it names none, its best level anywhere.
 */
function reviewAvailability(
  what: string,
  items: readonly { availability?: AvailabilityLevel; dataCenters?: readonly { id: string; name: string; availability: AvailabilityLevel }[] }[],
  dataCenterIds: readonly string[],
  scarce: string[],
): void {
  if (dataCenterIds.length > 0) {
    for (const dc of dataCenterIds) {
      const level = items.reduce<AvailabilityLevel>((best, t) => bestLevel(best, levelIn(t, dc)), "NONE");
      if (isScarce(level)) scarce.push(`${what} has ${level} availability in data center ${dc}`);
    }
    return;
  }
  const level = items.reduce<AvailabilityLevel>((best, t) => bestLevel(best, overallLevel(t)), "NONE");
  if (!isScarce(level)) return;
  const where = items
    .flatMap((t) => t.dataCenters ?? [])
    .sort((a, b) => AVAILABILITY_ORDER.indexOf(b.availability) - AVAILABILITY_ORDER.indexOf(a.availability));
  scarce.push(`${what} has ${level} availability in every data center${where.length > 0 ? ` (best: ${where[0].id} ${where[0].availability})` : ""}`);
}

/**
 * Reviews `selection` against `catalog` and the caller's `volumes`.
 * @returns failures (one per bad value; `property` is the input field) and warnings (scarce
 *   availability; failures instead with `requireAvailability`). Never throws.
 */
export function reviewSelection(
  selection: ComputeSelection,
  catalog: Catalog,
  volumes: readonly Pick<NetworkVolume, "id" | "name" | "dataCenter">[],
  options: ReviewOptions = {},
): CatalogReview {
  const failures: InputFailure[] = [];
  const scarce: string[] = [];
  const { fields } = selection;

  const dcIds = catalog.dataCenterIds;
  const badDcs = selection.dataCenterIds.filter((dc) => !catalog.dataCenter(dc));
  for (const dc of badDcs)
    failures.push({ property: fields.dataCenterIds, reason: `${fields.dataCenterIds}: ${unknownValue(dc, dcIds, "a data center of the catalog")}` });

  for (const id of selection.networkVolumeIds) {
    const volume = volumes.find((v) => v.id === id);
    if (!volume) continue; // an unknown volume is the volume lookup's failure (provider check)
    if (selection.dataCenterIds.length > 0 && !selection.dataCenterIds.includes(volume.dataCenter)) {
      failures.push({
        property: fields.networkVolumes,
        reason: `network volume ${id} (${volume.name}) is in data center ${volume.dataCenter}, which is not among the endpoint's ${fields.dataCenterIds} [${selection.dataCenterIds.join(", ")}]; add ${volume.dataCenter} or use a volume in one of them`,
      });
    }
  }

  if (badDcs.length === 0) {
    if (selection.gpu) reviewGpu(selection.gpu, selection, catalog, failures, scarce);
    if (selection.cpu) reviewCpu(selection, catalog, failures, scarce);
  }

  if (options.requireAvailability) {
    const property = selection.gpu ? fields.pools : fields.cpu;
    for (const s of scarce) failures.push({ property, reason: `${s}, and runpod:requireAvailability is set` });
    return { failures, warnings: [] };
  }
  return { failures, warnings: scarce };
}
