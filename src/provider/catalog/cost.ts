/**
 * An endpoint's hourly cost from the catalog's list prices (docs/cost.md). A worker costs, per hour:
 * - GPU: `price.serverless` of its GPU type (the rate of the type's pool, per GPU) × GPUs per worker;
 * - CPU: `price.serverlessPerVcpu` of its flavor × its vCPUs.
 * The platform places a worker on whichever eligible pool or flavor has capacity, so the estimate
 * takes the highest-priced one the endpoint may land on (an upper bound). Then
 * `maxHourlyCost` = `workers.max` × that, and `idleHourlyCost` = (`workers.min` + standby) × that.
 * Negotiated discounts, disk and the platform fee are not in the catalog and not counted.
 */
import { eligibleGpuTypes } from "./review";
import type { Catalog } from "./catalog";
import type { ComputeSelection, WorkerCounts } from "./selection";

export interface HourlyCost {
  /** USD per hour with every allowed worker busy. */
  maxHourlyCost: number;
  /** USD per hour with no traffic: minimum and standby workers. */
  idleHourlyCost: number;
  /** USD per hour of one worker at the highest-priced pool or flavor it may land on. */
  workerHourlyCost: number;
  /** Where that price comes from, e.g. `ADA_80_PRO (NVIDIA H100 80GB HBM3) 2.72 × 2 GPUs`. */
  priceSource: string;
}

/** USD amounts are kept to 1/10000 of a dollar: catalog prices have at most 3 decimals, times counts. */
export const roundUsd = (usd: number): number => Math.round(usd * 10_000) / 10_000;

/**
 * The estimate of `selection` with `workers`, or undefined when the catalog prices none of the
 * pools or flavors it may land on (unknown values are the review's failures).
 */
export function hourlyCost(selection: ComputeSelection, workers: WorkerCounts, catalog: Catalog): HourlyCost | undefined {
  let worker: { usd: number; source: string } | undefined;
  const consider = (usd: number, source: string) => {
    if (!worker || usd > worker.usd) worker = { usd, source };
  };
  if (selection.gpu) {
    const { count } = selection.gpu;
    for (const type of eligibleGpuTypes(selection.gpu, catalog, selection.fields, [])) {
      const price = type.price.serverless;
      if (typeof price === "number") consider(price * count, `${type.pool} (${type.id}) ${price}/GPU × ${count} GPU${count === 1 ? "" : "s"}`);
    }
  }
  if (selection.cpu) {
    for (const { id, vcpuCount } of selection.cpu.flavors) {
      const flavor = catalog.cpuFlavor(id);
      if (flavor) consider(flavor.price.serverlessPerVcpu * vcpuCount, `${id} ${flavor.price.serverlessPerVcpu}/vCPU × ${vcpuCount} vCPUs`);
    }
  }
  if (!worker) return undefined;
  return {
    workerHourlyCost: roundUsd(worker.usd),
    maxHourlyCost: roundUsd(worker.usd * workers.max),
    idleHourlyCost: roundUsd(worker.usd * (workers.min + workers.standby)),
    priceSource: worker.source,
  };
}
