/**
 * The platform's serverless catalog, as one read of REST v2 gives it (`listGpuTypes` with
 * `include=AVAILABILITY&product=SERVERLESS`, `listCpuTypes` likewise, `listDataCenters`), indexed
 * for the Endpoint's preview checks and its cost estimate. Spec: rest-v2-openapi.json › Catalog.
 */
import type { V2 } from "../../api";

/** The document's records (generated types, src/api/generated). */
export type GpuType = V2.GpuType;
export type CpuType = V2.CpuType;
export type DataCenter = V2.DataCenter;
export type AvailabilityLevel = V2.AvailabilityLevel;
type DataCenterAvailability = NonNullable<GpuType["dataCenters"]>[number];

/** What one catalog read returns. */
export interface CatalogData {
  gpus: readonly GpuType[];
  cpus: readonly CpuType[];
  dataCenters: readonly DataCenter[];
}

/** Availability levels from worst to best (the document's enum order). */
export const AVAILABILITY_ORDER: readonly AvailabilityLevel[] = ["NONE", "LOW", "MEDIUM", "HIGH"];

/** The better of two levels. */
export function bestLevel(a: AvailabilityLevel, b: AvailabilityLevel): AvailabilityLevel {
  return AVAILABILITY_ORDER.indexOf(a) >= AVAILABILITY_ORDER.indexOf(b) ? a : b;
}

/** Below MEDIUM: a warning at preview (a failure with `runpod:requireAvailability`). */
export function isScarce(level: AvailabilityLevel): boolean {
  return level === "NONE" || level === "LOW";
}

export class Catalog {
  private readonly gpuById: ReadonlyMap<string, GpuType>;
  private readonly byPool = new Map<string, GpuType[]>();
  private readonly cpuById: ReadonlyMap<string, CpuType>;
  private readonly dataCenterById: ReadonlyMap<string, DataCenter>;

  constructor(readonly data: CatalogData) {
    this.gpuById = new Map(data.gpus.map((g) => [g.id, g]));
    for (const g of data.gpus) {
      if (g.pool === null || g.pool === undefined) continue;
      const types = this.byPool.get(g.pool) ?? [];
      types.push(g);
      this.byPool.set(g.pool, types);
    }
    this.cpuById = new Map(data.cpus.map((c) => [c.id, c]));
    this.dataCenterById = new Map(data.dataCenters.map((d) => [d.id, d]));
  }

  /** Serverless GPU pool ids (`GpuType.pool` values), sorted. */
  get pools(): string[] {
    return [...this.byPool.keys()].sort();
  }

  /** The GPU types of `pool` (none for an unknown pool). */
  typesOf(pool: string): readonly GpuType[] {
    return this.byPool.get(pool) ?? [];
  }

  gpuType(id: string): GpuType | undefined {
    return this.gpuById.get(id);
  }

  /** GPU types that belong to a serverless pool (the only ones an endpoint can run on). */
  get serverlessGpuTypes(): GpuType[] {
    return this.data.gpus.filter((g) => g.pool !== null && g.pool !== undefined);
  }

  cpuFlavor(id: string): CpuType | undefined {
    return this.cpuById.get(id);
  }

  dataCenter(id: string): DataCenter | undefined {
    return this.dataCenterById.get(id);
  }

  get dataCenterIds(): string[] {
    return this.data.dataCenters.map((d) => d.id);
  }

  /** What a pool is, for messages: `ADA_24 (24 GB: RTX 4090, L4)`. */
  describePool(pool: string): string {
    const types = this.typesOf(pool);
    const memory = [...new Set(types.map((t) => t.memory))].join("/");
    return `${pool} (${memory} GB: ${types.map((t) => t.name).join(", ")})`;
  }
}

/**
 * Availability of a GPU type or CPU flavor in data center `dc`: its entry in `dataCenters`, NONE when
 * it is not listed there (the document lists only data centers that offer it).
 */
export function levelIn(item: { dataCenters?: readonly DataCenterAvailability[] }, dc: string): AvailabilityLevel {
  return item.dataCenters?.find((d) => d.id === dc)?.availability ?? "NONE";
}

/** Its best level anywhere: `availability`, or the best of `dataCenters`, NONE when neither is there. */
export function overallLevel(item: { availability?: AvailabilityLevel; dataCenters?: readonly DataCenterAvailability[] }): AvailabilityLevel {
  if (item.availability) return item.availability;
  return (item.dataCenters ?? []).reduce<AvailabilityLevel>((best, d) => bestLevel(best, d.availability), "NONE");
}
