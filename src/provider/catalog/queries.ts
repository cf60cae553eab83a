/**
 * The catalog functions (getGpuTypes, getCpuTypes, getDataCenters; rest-v2-openapi.json › Catalog),
 * stated once for the program-side functions (src/resources/catalog.ts) and the provider plugin's
 * invokes: their arguments, checked with the document's query rules before any request (an error names
 * the argument and its allowed values), and the reads that answer them, one per distinct query and
 * process (`CatalogReads`, which is also the source of the preview's catalog, fetch.ts).
 *
 * A query without availability is answered from the serverless availability read that preview makes,
 * less the availability fields: the document narrows the list only with `countryCodes`, so that read
 * lists every type.
 */
import type { V2 } from "../../api";
import { SERVERLESS_CPU_AVAILABILITY, SERVERLESS_GPU_AVAILABILITY, type CatalogSource } from "./fetch";
import type { CpuType, DataCenter, GpuType } from "./catalog";

type Item<T> = NonNullable<T> extends readonly (infer U)[] ? U : never;
type GpuProduct = Item<V2.ListGpuTypesQuery["product"]>;
type CpuProduct = Item<V2.ListCpuTypesQuery["product"]>;
type GpuCloud = NonNullable<V2.ListGpuTypesQuery["cloud"]>;
type Region = Item<V2.ListDataCentersQuery["regions"]>;
type VolumeType = Item<V2.ListDataCentersQuery["networkVolumeTypes"]>;
type Compliance = Item<V2.ListDataCentersQuery["compliance"]>;
type DataCenterInclude = Item<V2.ListDataCentersQuery["include"]>;

/** Every value of a document enum, checked against the generated type both ways at compile time. */
const allOf =
  <T extends string>() =>
  <const A extends readonly T[]>(values: A & ([T] extends [A[number]] ? unknown : { missing: Exclude<T, A[number]> })): A =>
    values;

export const GPU_PRODUCTS = allOf<GpuProduct>()(["POD", "CLUSTER", "SERVERLESS"]);
export const CPU_PRODUCTS = allOf<CpuProduct>()(["POD", "SERVERLESS"]);
export const GPU_CLOUDS = allOf<GpuCloud>()(["SECURE", "COMMUNITY"]);
export const REGIONS = allOf<Region>()(["NORTH_AMERICA", "SOUTH_AMERICA", "EUROPE", "ASIA", "MIDDLE_EAST", "AFRICA", "OCEANIA", "ANTARCTICA", "UNKNOWN"]);
export const VOLUME_TYPES = allOf<VolumeType>()(["STANDARD", "HIGH_PERFORMANCE"]);
export const COMPLIANCE = allOf<Compliance>()([
  "GDPR",
  "ISO_IEC_27001",
  "ISO_14001",
  "PCI_DSS",
  "HITRUST",
  "SOC_1_TYPE_2",
  "SOC_2_TYPE_2",
  "SOC_3_TYPE_2",
  "ITAR",
  "FISMA_HIGH",
  "HIPAA",
  "RENEWABLE",
]);
export const DATA_CENTER_INCLUDES = allOf<DataCenterInclude>()(["GPU_AVAILABILITY", "CPU_AVAILABILITY"]);

/**
 * Arguments of getGpuTypes. `product` asks for availability in those product contexts (the document
 * requires one: stock differs by product); the other arguments scope that availability, so they need it.
 */
export interface GpuTypesQuery {
  /** Availability for these product contexts: POD, CLUSTER, SERVERLESS. Without it, no availability. */
  product?: GpuProduct[];
  /** GPUs per pod or worker the availability is for (at least 1; default 1). Needs `product`. */
  count?: number;
  /** Cloud the availability is for: SECURE (the platform's default) or COMMUNITY. Needs `product`. */
  cloud?: GpuCloud;
  /** ISO 3166-1 alpha-2 codes, uppercase (e.g. `["FR", "DE"]`): only types with a data center there, availability there. Needs `product`. */
  countryCodes?: string[];
  /** CUDA versions `major.minor`, matched exactly. Needs `product`; not with `minCudaVersion`. */
  cudaVersions?: string[];
  /** Lowest CUDA version, `major` or `major.minor`. Needs `product`; not with `cudaVersions`. */
  minCudaVersion?: string;
}

/** Arguments of getCpuTypes. */
export interface CpuTypesQuery {
  /** Availability for these product contexts: POD, SERVERLESS. Without it, no availability. */
  product?: CpuProduct[];
  /** vCPUs the availability is for: a power of two, at least 2. Needs `product`. */
  vcpuCount?: number;
}

/** Arguments of getDataCenters; filters combine with AND. */
export interface DataCentersQuery {
  /** Only data centers in one of these regions. */
  regions?: Region[];
  /** Only data centers offering every one of these network volume types (STANDARD, HIGH_PERFORMANCE). */
  networkVolumeTypes?: VolumeType[];
  /** Only data centers holding every one of these certifications. */
  compliance?: Compliance[];
  /** Only data centers with (true) or without (false) global networking. */
  globalNetwork?: boolean;
  /** Add each data center's `gpuAvailability` (GPU_AVAILABILITY) and/or `cpuAvailability` (CPU_AVAILABILITY). */
  include?: DataCenterInclude[];
}

type Args = Record<string, unknown>;

const quote = (v: unknown) => (typeof v === "string" ? `"${v}"` : JSON.stringify(v));

function fail(fn: string, message: string): never {
  throw new Error(`${fn}: ${message}`);
}

function onlyKnown(fn: string, args: Args, known: readonly string[]): void {
  const unknown = Object.keys(args).filter((k) => args[k] !== undefined && args[k] !== null && !known.includes(k));
  if (unknown.length > 0) fail(fn, `unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; the arguments are ${known.join(", ")}.`);
}

const given = (v: unknown) => v !== undefined && v !== null;

/** A list argument: an array of strings each passing `ok`, deduplicated and sorted (order carries no meaning in the document). */
function stringList(fn: string, name: string, value: unknown, ok: (v: string) => boolean, expected: string): string[] | undefined {
  if (!given(value)) return undefined;
  if (!Array.isArray(value) || value.length === 0) fail(fn, `${name} must be a non-empty list of ${expected}; got ${quote(value)}.`);
  const bad = value.filter((v) => typeof v !== "string" || !ok(v));
  if (bad.length > 0) fail(fn, `${name}: ${bad.map(quote).join(", ")} ${bad.length > 1 ? "are" : "is"} not ${expected}.`);
  return [...new Set(value as string[])].sort();
}

function enumList<T extends string>(fn: string, name: string, value: unknown, allowed: readonly T[]): T[] | undefined {
  const isAllowed = (v: string): v is T => allowed.some((a) => a === v);
  return stringList(fn, name, value, isAllowed, `one of ${allowed.join(", ")}`)?.filter(isAllowed);
}

function integer(fn: string, name: string, value: unknown, min: number): number | undefined {
  if (!given(value)) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) fail(fn, `${name} must be an integer of at least ${min}; got ${quote(value)}.`);
  return value;
}

function needsProduct(fn: string, args: Args, names: readonly string[], products: readonly string[]): void {
  const scoping = names.filter((n) => given(args[n]));
  if (scoping.length > 0 && !given(args.product))
    fail(
      fn,
      `${scoping.join(", ")} scope${scoping.length > 1 ? "" : "s"} availability, which needs product (one or more of ${products.join(", ")}): availability differs by product.`,
    );
}

const CUDA = /^\d+\.\d+$/;
const CUDA_FLOOR = /^\d+(\.\d+)?$/;
const COUNTRY = /^[A-Z]{2}$/;

/**
 * getGpuTypes' arguments as the `listGpuTypes` query; undefined when they ask for no availability.
 * @throws Error naming the argument: unknown argument or value, a scope without `product`, both CUDA filters.
 */
export function gpuTypesQuery(args: Args = {}): V2.ListGpuTypesQuery | undefined {
  const fn = "getGpuTypes";
  onlyKnown(fn, args, ["product", "count", "cloud", "countryCodes", "cudaVersions", "minCudaVersion"]);
  const product = enumList(fn, "product", args.product, GPU_PRODUCTS);
  const count = integer(fn, "count", args.count, 1);
  const cloud = GPU_CLOUDS.find((c) => c === args.cloud);
  if (given(args.cloud) && cloud === undefined) fail(fn, `cloud must be one of ${GPU_CLOUDS.join(", ")}; got ${quote(args.cloud)}.`);
  const countryCodes = stringList(fn, "countryCodes", args.countryCodes, (v) => COUNTRY.test(v), "an uppercase ISO 3166-1 alpha-2 country code (e.g. FR)");
  const cudaVersions = stringList(fn, "cudaVersions", args.cudaVersions, (v) => CUDA.test(v), "a CUDA version major.minor (e.g. 12.8)");
  const minCudaVersion = typeof args.minCudaVersion === "string" && CUDA_FLOOR.test(args.minCudaVersion) ? args.minCudaVersion : undefined;
  if (given(args.minCudaVersion) && minCudaVersion === undefined)
    fail(fn, `minCudaVersion must be a CUDA version major or major.minor (e.g. 12 or 12.1); got ${quote(args.minCudaVersion)}.`);
  if (cudaVersions && given(args.minCudaVersion)) fail(fn, "give cudaVersions (an exact set) or minCudaVersion (a floor), not both.");
  needsProduct(fn, args, ["count", "cloud", "countryCodes", "cudaVersions", "minCudaVersion"], GPU_PRODUCTS);
  if (!product) return undefined;
  return {
    include: ["AVAILABILITY"],
    product,
    ...(count !== undefined ? { count } : {}),
    ...(cloud !== undefined ? { cloud } : {}),
    ...(countryCodes ? { countryCodes } : {}),
    ...(cudaVersions ? { cudaVersions } : {}),
    ...(minCudaVersion !== undefined ? { minCudaVersion } : {}),
  };
}

/**
 * getCpuTypes' arguments as the `listCpuTypes` query; undefined when they ask for no availability.
 * @throws Error naming the argument.
 */
export function cpuTypesQuery(args: Args = {}): V2.ListCpuTypesQuery | undefined {
  const fn = "getCpuTypes";
  onlyKnown(fn, args, ["product", "vcpuCount"]);
  const product = enumList(fn, "product", args.product, CPU_PRODUCTS);
  const vcpuCount = integer(fn, "vcpuCount", args.vcpuCount, 2);
  if (vcpuCount !== undefined && (vcpuCount & (vcpuCount - 1)) !== 0) fail(fn, `vcpuCount must be a power of two (2, 4, 8, …); got ${vcpuCount}.`);
  needsProduct(fn, args, ["vcpuCount"], CPU_PRODUCTS);
  if (!product) return undefined;
  return { include: ["AVAILABILITY"], product, ...(vcpuCount !== undefined ? { vcpuCount } : {}) };
}

/**
 * getDataCenters' arguments as the `listDataCenters` query (empty: no filter).
 * @throws Error naming the argument.
 */
export function dataCentersQuery(args: Args = {}): V2.ListDataCentersQuery {
  const fn = "getDataCenters";
  onlyKnown(fn, args, ["regions", "networkVolumeTypes", "compliance", "globalNetwork", "include"]);
  const regions = enumList(fn, "regions", args.regions, REGIONS);
  const networkVolumeTypes = enumList(fn, "networkVolumeTypes", args.networkVolumeTypes, VOLUME_TYPES);
  const compliance = enumList(fn, "compliance", args.compliance, COMPLIANCE);
  const include = enumList(fn, "include", args.include, DATA_CENTER_INCLUDES);
  const globalNetwork = typeof args.globalNetwork === "boolean" ? args.globalNetwork : undefined;
  if (given(args.globalNetwork) && globalNetwork === undefined) fail(fn, `globalNetwork must be true or false; got ${quote(args.globalNetwork)}.`);
  return {
    ...(include ? { include } : {}),
    ...(regions ? { regions } : {}),
    ...(networkVolumeTypes ? { networkVolumeTypes } : {}),
    ...(compliance ? { compliance } : {}),
    ...(globalNetwork !== undefined ? { globalNetwork } : {}),
  };
}

/** A query's key: keys sorted, lists sorted (their order carries no meaning), absent = empty. */
function keyOf(operation: string, query: object | undefined): string {
  const entries = Object.entries(query ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `${operation} ${JSON.stringify(entries)}`;
}

function withoutAvailability<T extends { availability?: unknown; dataCenters?: unknown; cudaVersions?: unknown }>(item: T): T {
  const { availability: _a, dataCenters: _d, cudaVersions: _c, ...rest } = item;
  return rest as T;
}

/**
 * The catalog reads of one client: each distinct query is requested once (concurrent callers share
 * it); a failed read is forgotten, so a later call tries again. A `CatalogSource` itself, so the
 * preview's catalog (fetch.ts) and the functions share their reads.
 */
export class CatalogReads implements CatalogSource {
  private readonly reads = new Map<string, Promise<unknown[]>>();
  private started = 0;

  constructor(private readonly source: CatalogSource) {}

  /** Requests this object has made. */
  get requestCount(): number {
    return this.started;
  }

  private once<T>(key: string, request: () => Promise<T[]>): Promise<T[]> {
    let read = this.reads.get(key) as Promise<T[]> | undefined;
    if (!read) {
      this.started += 1;
      read = request();
      this.reads.set(key, read);
      read.catch(() => this.reads.get(key) === read && this.reads.delete(key));
    }
    return read.then((items) => structuredClone(items));
  }

  listGpuTypes(query?: V2.ListGpuTypesQuery): Promise<GpuType[]> {
    return this.once(keyOf("listGpuTypes", query), () => this.source.listGpuTypes(query));
  }

  listCpuTypes(query?: V2.ListCpuTypesQuery): Promise<CpuType[]> {
    return this.once(keyOf("listCpuTypes", query), () => this.source.listCpuTypes(query));
  }

  listDataCenters(query?: V2.ListDataCentersQuery): Promise<DataCenter[]> {
    return this.once(keyOf("listDataCenters", query), () => this.source.listDataCenters(query));
  }

  /** getGpuTypes: GPU types with prices, and availability when `product` is given. @throws Error naming a bad argument (before any request). */
  async gpuTypes(args?: Args): Promise<GpuType[]> {
    const query = gpuTypesQuery(args);
    if (query) return this.listGpuTypes(query);
    return (await this.listGpuTypes(SERVERLESS_GPU_AVAILABILITY)).map(withoutAvailability);
  }

  /** getCpuTypes: CPU flavors with prices per vCPU, and availability when `product` is given. @throws Error naming a bad argument. */
  async cpuTypes(args?: Args): Promise<CpuType[]> {
    const query = cpuTypesQuery(args);
    if (query) return this.listCpuTypes(query);
    return (await this.listCpuTypes(SERVERLESS_CPU_AVAILABILITY)).map(withoutAvailability);
  }

  /** getDataCenters: data centers, filtered. @throws Error naming a bad argument. */
  async dataCenters(args?: Args): Promise<DataCenter[]> {
    const query = dataCentersQuery(args);
    return this.listDataCenters(Object.keys(query).length > 0 ? query : undefined);
  }
}
