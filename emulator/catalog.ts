/**
 * The emulated catalog (REST v2 `listGpuTypes`, `listCpuTypes`, `listDataCenters` and their `get…` forms;
 * docs/spec/rest-v2-openapi.json, schemas GpuType, CpuType, DataCenter): serverless GPU pools and their per-GPU
 * prices, CPU flavors, data centers and the stock level of each pool and flavor in each data center. GPU types
 * come from the seed (`gpuTypes`, which GraphQL `gpuTypes` answers too); pools, flavors and data centers are the
 * emulator's own statement of a plausible platform (not quotes). The `availability` fault overrides any level.
 */
import { ENDPOINT_FACTS, type AvailabilityLevel, type VolumeType } from "./facts";
import type { Seed, SeedGpuType } from "./seed";

export { AVAILABILITY_LEVELS, VOLUME_TYPES, type AvailabilityLevel, type VolumeType } from "./facts";

/** A serverless GPU pool: USD per GPU per hour for serverless workers, and the CUDA versions its hosts run. */
export interface Pool {
  id: (typeof ENDPOINT_FACTS.gpuIds.values)[number];
  serverlessPricePerGpuHour: number;
  cudaVersions: readonly string[];
}

const CUDA_AMPERE = ["11.8", "12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.7", "12.8"];
const CUDA_ADA = ["12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.7", "12.8"];

/** Serverless pools (ids = GraphQL `gpuIds` tiers). Prices per GPU-hour, in the range the platform publishes. */
export const POOLS: readonly Pool[] = [
  { id: "AMPERE_16", serverlessPricePerGpuHour: 0.58, cudaVersions: CUDA_AMPERE },
  { id: "AMPERE_24", serverlessPricePerGpuHour: 0.68, cudaVersions: CUDA_AMPERE },
  { id: "ADA_24", serverlessPricePerGpuHour: 1.1, cudaVersions: CUDA_ADA },
  { id: "AMPERE_48", serverlessPricePerGpuHour: 1.22, cudaVersions: CUDA_AMPERE },
  { id: "ADA_48_PRO", serverlessPricePerGpuHour: 1.91, cudaVersions: CUDA_ADA },
  { id: "AMPERE_80", serverlessPricePerGpuHour: 2.72, cudaVersions: CUDA_AMPERE },
  { id: "ADA_80_PRO", serverlessPricePerGpuHour: 4.18, cudaVersions: CUDA_ADA },
];

/** A CPU flavor: vCPU bounds (powers of two in between), GB of RAM per vCPU, USD per vCPU-hour. */
export interface CpuFlavor {
  id: string;
  name: string;
  group: string;
  vcpu: { min: number; max: number };
  ramGbPerVcpu: number;
  price: { securePerVcpu: number; serverlessPerVcpu: number };
}

export const CPU_FLAVORS: readonly CpuFlavor[] = [
  {
    id: "cpu3c",
    name: "Compute-Optimized",
    group: "Gen 3",
    vcpu: { min: 2, max: 32 },
    ramGbPerVcpu: 2,
    price: { securePerVcpu: 0.035, serverlessPerVcpu: 0.03 },
  },
  {
    id: "cpu3g",
    name: "General Purpose",
    group: "Gen 3",
    vcpu: { min: 2, max: 32 },
    ramGbPerVcpu: 4,
    price: { securePerVcpu: 0.04, serverlessPerVcpu: 0.035 },
  },
  {
    id: "cpu3m",
    name: "Memory-Optimized",
    group: "Gen 3",
    vcpu: { min: 2, max: 16 },
    ramGbPerVcpu: 8,
    price: { securePerVcpu: 0.05, serverlessPerVcpu: 0.045 },
  },
  {
    id: "cpu5c",
    name: "Compute-Optimized",
    group: "Gen 5",
    vcpu: { min: 2, max: 64 },
    ramGbPerVcpu: 2,
    price: { securePerVcpu: 0.045, serverlessPerVcpu: 0.04 },
  },
  {
    id: "cpu5g",
    name: "General Purpose",
    group: "Gen 5",
    vcpu: { min: 2, max: 64 },
    ramGbPerVcpu: 4,
    price: { securePerVcpu: 0.05, serverlessPerVcpu: 0.045 },
  },
  {
    id: "cpu5m",
    name: "Memory-Optimized",
    group: "Gen 5",
    vcpu: { min: 2, max: 32 },
    ramGbPerVcpu: 8,
    price: { securePerVcpu: 0.065, serverlessPerVcpu: 0.06 },
  },
];

type Region = "NORTH_AMERICA" | "EUROPE" | "ASIA" | "OCEANIA";

/** A data center and the default stock level of each pool and CPU flavor it hosts (absent = not hosted). */
export interface DataCenterFacts {
  id: string;
  name: string;
  region: Region;
  country: string;
  globalNetwork: boolean;
  networkVolumeTypes: readonly VolumeType[];
  compliance: readonly string[];
  pools: Partial<Record<Pool["id"], AvailabilityLevel>>;
  cpus: Partial<Record<string, AvailabilityLevel>>;
}

const BOTH: readonly VolumeType[] = ["STANDARD", "HIGH_PERFORMANCE"];
const STD: readonly VolumeType[] = ["STANDARD"];
const CPU_ALL = { cpu3c: "HIGH", cpu3g: "HIGH", cpu3m: "MEDIUM", cpu5c: "HIGH", cpu5g: "MEDIUM", cpu5m: "LOW" } as const;

export const DATA_CENTERS: readonly DataCenterFacts[] = [
  {
    id: "US-TX-3",
    name: "US Texas 3",
    region: "NORTH_AMERICA",
    country: "US",
    globalNetwork: true,
    networkVolumeTypes: BOTH,
    compliance: ["SOC_2_TYPE_2", "ISO_IEC_27001"],
    pools: { AMPERE_24: "HIGH", ADA_24: "HIGH", AMPERE_48: "MEDIUM", ADA_48_PRO: "MEDIUM", AMPERE_80: "LOW", ADA_80_PRO: "MEDIUM" },
    cpus: CPU_ALL,
  },
  {
    id: "US-KS-2",
    name: "US Kansas 2",
    region: "NORTH_AMERICA",
    country: "US",
    globalNetwork: true,
    networkVolumeTypes: BOTH,
    compliance: ["SOC_2_TYPE_2", "ISO_IEC_27001"],
    pools: { AMPERE_16: "HIGH", AMPERE_24: "MEDIUM", ADA_24: "HIGH", ADA_48_PRO: "HIGH", ADA_80_PRO: "LOW" },
    cpus: CPU_ALL,
  },
  {
    id: "US-CA-2",
    name: "US California 2",
    region: "NORTH_AMERICA",
    country: "US",
    globalNetwork: false,
    networkVolumeTypes: STD,
    compliance: ["SOC_2_TYPE_2"],
    pools: { AMPERE_16: "MEDIUM", AMPERE_24: "HIGH", AMPERE_48: "HIGH", AMPERE_80: "MEDIUM" },
    cpus: { cpu3c: "MEDIUM", cpu3g: "MEDIUM" },
  },
  {
    id: "US-GA-1",
    name: "US Georgia 1",
    region: "NORTH_AMERICA",
    country: "US",
    globalNetwork: false,
    networkVolumeTypes: STD,
    compliance: [],
    pools: { AMPERE_24: "LOW", ADA_24: "MEDIUM", AMPERE_80: "HIGH" },
    cpus: {},
  },
  {
    id: "CA-MTL-1",
    name: "Canada Montreal 1",
    region: "NORTH_AMERICA",
    country: "CA",
    globalNetwork: false,
    networkVolumeTypes: STD,
    compliance: ["RENEWABLE"],
    pools: { AMPERE_16: "MEDIUM", AMPERE_48: "MEDIUM", ADA_48_PRO: "LOW" },
    cpus: { cpu3c: "HIGH", cpu3g: "HIGH", cpu3m: "HIGH" },
  },
  {
    id: "EU-RO-1",
    name: "Europe Romania 1",
    region: "EUROPE",
    country: "RO",
    globalNetwork: true,
    networkVolumeTypes: BOTH,
    compliance: ["GDPR", "ISO_IEC_27001", "SOC_2_TYPE_2"],
    pools: { AMPERE_16: "HIGH", AMPERE_24: "HIGH", ADA_24: "HIGH", AMPERE_48: "MEDIUM", ADA_48_PRO: "MEDIUM", ADA_80_PRO: "LOW" },
    cpus: CPU_ALL,
  },
  {
    id: "EU-CZ-1",
    name: "Europe Czechia 1",
    region: "EUROPE",
    country: "CZ",
    globalNetwork: false,
    networkVolumeTypes: STD,
    compliance: ["GDPR"],
    pools: { AMPERE_24: "MEDIUM", ADA_24: "MEDIUM", AMPERE_80: "LOW" },
    cpus: { cpu5c: "MEDIUM", cpu5g: "MEDIUM" },
  },
  {
    id: "EU-FR-1",
    name: "Europe France 1",
    region: "EUROPE",
    country: "FR",
    globalNetwork: false,
    networkVolumeTypes: BOTH,
    compliance: ["GDPR", "ISO_IEC_27001"],
    pools: { AMPERE_48: "HIGH", ADA_48_PRO: "MEDIUM", AMPERE_80: "MEDIUM", ADA_80_PRO: "MEDIUM" },
    cpus: { cpu5c: "HIGH", cpu5g: "HIGH", cpu5m: "MEDIUM" },
  },
  {
    id: "EUR-NO-1",
    name: "Europe Norway 1",
    region: "EUROPE",
    country: "NO",
    globalNetwork: false,
    networkVolumeTypes: STD,
    compliance: ["GDPR", "RENEWABLE"],
    pools: { ADA_24: "LOW", ADA_48_PRO: "LOW" },
    cpus: {},
  },
  {
    id: "AP-JP-1",
    name: "Asia-Pacific Japan 1",
    region: "ASIA",
    country: "JP",
    globalNetwork: false,
    networkVolumeTypes: STD,
    compliance: [],
    pools: { AMPERE_24: "LOW", ADA_24: "MEDIUM" },
    cpus: { cpu3c: "LOW" },
  },
  {
    id: "OC-AU-1",
    name: "Oceania Australia 1",
    region: "OCEANIA",
    country: "AU",
    globalNetwork: false,
    networkVolumeTypes: STD,
    compliance: ["ISO_IEC_27001"],
    pools: { AMPERE_16: "LOW", ADA_24: "LOW" },
    cpus: {},
  },
];

/** Availability overrides: catalog id (pool, GPU type or CPU flavor) → data center id or `*` → level. */
export type AvailabilityOverrides = Record<string, Record<string, AvailabilityLevel>>;

const RANK: Record<AvailabilityLevel, number> = { NONE: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };
const best = (levels: AvailabilityLevel[]): AvailabilityLevel => levels.reduce<AvailabilityLevel>((a, b) => (RANK[b] > RANK[a] ? b : a), "NONE");

/** Numeric compare of `major.minor` versions (12.11 above 12.2). */
export function compareCuda(a: string, b: string): number {
  const [am, an = "0"] = a.split(".");
  const [bm, bn = "0"] = b.split(".");
  return Number(am) - Number(bm) || Number(an) - Number(bn);
}

export class Catalog {
  constructor(
    private seed: Seed,
    private overrides: () => AvailabilityOverrides,
  ) {}

  pools(): readonly Pool[] {
    return POOLS;
  }
  pool(id: string): Pool | undefined {
    return POOLS.find((p) => p.id === id);
  }
  gpuTypes(): SeedGpuType[] {
    return this.seed.gpuTypes;
  }
  gpuType(id: string): SeedGpuType | undefined {
    return this.seed.gpuTypes.find((g) => g.id === id);
  }
  typesOfPool(poolId: string): SeedGpuType[] {
    return this.seed.gpuTypes.filter((g) => g.tier === poolId);
  }
  cpuFlavors(): readonly CpuFlavor[] {
    return CPU_FLAVORS;
  }
  cpuFlavor(id: string): CpuFlavor | undefined {
    return CPU_FLAVORS.find((c) => c.id === id);
  }
  dataCenters(): readonly DataCenterFacts[] {
    return DATA_CENTERS;
  }
  dataCenter(id: string): DataCenterFacts | undefined {
    return DATA_CENTERS.find((d) => d.id === id);
  }

  private override(keys: string[], dc: string): AvailabilityLevel | undefined {
    const o = this.overrides();
    for (const key of keys) {
      const byDc = o[key];
      if (byDc?.[dc] !== undefined) return byDc[dc];
      if (byDc?.["*"] !== undefined) return byDc["*"];
    }
    return undefined;
  }

  /** Stock of a pool (optionally one GPU type of it) in a data center; undefined when the data center does not host it. */
  poolLevel(poolId: string, dcId: string, gpuTypeId?: string): AvailabilityLevel | undefined {
    const dc = this.dataCenter(dcId);
    const base = dc?.pools[poolId as Pool["id"]];
    if (base === undefined) return undefined;
    return this.override(gpuTypeId ? [gpuTypeId, poolId] : [poolId], dcId) ?? base;
  }

  /** Stock of a CPU flavor in a data center; undefined when not hosted there. */
  cpuLevel(flavorId: string, dcId: string): AvailabilityLevel | undefined {
    const base = this.dataCenter(dcId)?.cpus[flavorId];
    if (base === undefined) return undefined;
    return this.override([flavorId], dcId) ?? base;
  }

  /** Data centers hosting a pool, with its level in each. */
  poolDataCenters(poolId: string, gpuTypeId?: string): { dc: DataCenterFacts; level: AvailabilityLevel }[] {
    return DATA_CENTERS.flatMap((dc) => {
      const level = this.poolLevel(poolId, dc.id, gpuTypeId);
      return level === undefined ? [] : [{ dc, level }];
    });
  }

  cpuDataCenters(flavorId: string): { dc: DataCenterFacts; level: AvailabilityLevel }[] {
    return DATA_CENTERS.flatMap((dc) => {
      const level = this.cpuLevel(flavorId, dc.id);
      return level === undefined ? [] : [{ dc, level }];
    });
  }

  /** Where a new worker of these pools lands: the first allowed data center with stock, best level first; undefined = none (THROTTLED). */
  placeGpu(pools: string[], excluded: string[], dataCenterIds: string[]): { gpuTypeId: string; dataCenterId: string } | undefined {
    let found: { gpuTypeId: string; dataCenterId: string; rank: number } | undefined;
    for (const poolId of pools) {
      for (const type of this.typesOfPool(poolId).filter((t) => !excluded.includes(t.id))) {
        for (const { dc, level } of this.poolDataCenters(poolId, type.id)) {
          if (dataCenterIds.length > 0 && !dataCenterIds.includes(dc.id)) continue;
          if (level !== "NONE" && (!found || RANK[level] > found.rank)) found = { gpuTypeId: type.id, dataCenterId: dc.id, rank: RANK[level] };
        }
      }
    }
    return found && { gpuTypeId: found.gpuTypeId, dataCenterId: found.dataCenterId };
  }

  placeCpu(flavors: string[], dataCenterIds: string[]): { flavorId: string; dataCenterId: string } | undefined {
    for (const flavorId of flavors) {
      const spot = this.cpuDataCenters(flavorId).find(({ dc, level }) => level !== "NONE" && (dataCenterIds.length === 0 || dataCenterIds.includes(dc.id)));
      if (spot) return { flavorId, dataCenterId: spot.dc.id };
    }
    return undefined;
  }

  /** Best level over a list. */
  static best = best;
}
