/**
 * REST v2 catalog answers (docs/spec/rest-v2-openapi.json: listGpuTypes, getGpuType, listCpuTypes, getCpuType,
 * listDataCenters, getDataCenter; schemas GpuType, CpuType, DataCenter) built from catalog.ts, with the
 * document's query rules: availability only with `include=AVAILABILITY`, which requires `product` (400 either way);
 * the availability filters only with it (400); a malformed filter value is a 422.
 */
import { Catalog, compareCuda, type AvailabilityLevel, type CpuFlavor, type DataCenterFacts } from "../catalog";
import type { SeedGpuType } from "../seed";
import { refused, v2Problem } from "./problems";

/** A comma-separated (form, explode=false) list parameter; null when absent or empty (`name=` is the empty list). */
function list(q: URLSearchParams, name: string): string[] | null {
  const v = q.get(name);
  return v === null || v.trim() === "" ? null : v.split(",").map((s) => s.trim());
}

function enumList<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[]): T[] | null {
  const values = list(q, name);
  if (values === null) return null;
  const bad = values.filter((v) => !(allowed as readonly string[]).includes(v));
  if (bad.length > 0) throw refused(`${name}: unknown value${bad.length > 1 ? "s" : ""} ${bad.join(", ")}; allowed values are ${allowed.join(", ")}.`, 422);
  return values as T[];
}

interface AvailabilityQuery {
  /** Null = availability not requested. */
  products: string[] | null;
  count: number;
  cloud: "SECURE" | "COMMUNITY" | null;
  countries: string[] | null;
  cudaVersions: string[] | null;
  minCuda: string | null;
  vcpuCount: number | null;
}

const GPU_FILTERS = ["count", "cloud", "countryCodes", "cudaVersions", "minCudaVersion"];

function availabilityQuery(q: URLSearchParams, products: readonly string[], filters: string[]): AvailabilityQuery {
  const include = enumList(q, "include", ["AVAILABILITY"] as const);
  const product = enumList(q, "product", products);
  const wanted = include !== null && include.length > 0;
  if (wanted && product === null) throw refused("include=AVAILABILITY requires product (availability differs by product context).");
  if (!wanted && product !== null) throw refused("product is valid only with include=AVAILABILITY.");
  for (const f of filters) if (!wanted && q.has(f)) throw refused(`${f} is valid only with include=AVAILABILITY.`);
  const countText = q.get("count");
  if (countText !== null && (!/^\d+$/.test(countText) || Number(countText) < 1))
    throw refused(`count: must be an integer of at least 1; got "${countText}".`, 422);
  const cloud = q.get("cloud");
  if (cloud !== null && cloud !== "SECURE" && cloud !== "COMMUNITY") throw refused(`cloud: allowed values are SECURE, COMMUNITY; got "${cloud}".`, 422);
  const countries = list(q, "countryCodes");
  for (const c of countries ?? []) if (!/^[A-Z]{2}$/.test(c)) throw refused(`countryCodes: "${c}" is not an uppercase ISO 3166-1 alpha-2 code.`, 422);
  const cudaVersions = list(q, "cudaVersions");
  for (const v of cudaVersions ?? []) if (!/^\d+\.\d+$/.test(v)) throw refused(`cudaVersions: "${v}" must be major.minor, e.g. 12.8.`, 422);
  const minCuda = q.get("minCudaVersion");
  if (minCuda !== null && !/^\d+(\.\d+)?$/.test(minCuda)) throw refused(`minCudaVersion: "${minCuda}" must be major or major.minor.`, 422);
  if (cudaVersions !== null && minCuda !== null) throw refused("cudaVersions and minCudaVersion are mutually exclusive.");
  const vcpuText = q.get("vcpuCount");
  if (vcpuText !== null && (!/^\d+$/.test(vcpuText) || Number(vcpuText) < 2))
    throw refused(`vcpuCount: must be an integer of at least 2; got "${vcpuText}".`, 422);
  if (vcpuText !== null && (Number(vcpuText) & (Number(vcpuText) - 1)) !== 0) throw refused(`vcpuCount: must be a power of two; got ${vcpuText}.`);
  return {
    products: wanted ? product : null,
    count: countText === null ? 1 : Number(countText),
    cloud: cloud as AvailabilityQuery["cloud"],
    countries,
    cudaVersions,
    minCuda,
    vcpuCount: vcpuText === null ? null : Number(vcpuText),
  };
}

/** Community machines of a type are the smaller ones: half the secure cloud's largest, at least 1. */
const communityMaxCount = (g: SeedGpuType) => Math.max(1, Math.floor(g.maxGpuCount / 2));

const manufacturer = (m: string) => (/^nvidia$/i.test(m) ? "NVIDIA" : /^amd$/i.test(m) ? "AMD" : "UNKNOWN");

export class CatalogAnswers {
  constructor(private catalog: Catalog) {}

  private gpu(g: SeedGpuType, a: AvailabilityQuery | null, single: boolean): Record<string, unknown> | null {
    const pool = this.catalog.pool(g.tier);
    const out: Record<string, unknown> = {
      id: g.id,
      name: g.displayName,
      pool: pool?.id ?? null,
      manufacturer: manufacturer(g.manufacturer),
      memory: g.memoryInGb,
      secure: g.securePrice !== null,
      community: g.communityPrice !== null,
      price: { secure: g.securePrice ?? 0, community: g.communityPrice ?? 0, ...(pool ? { serverless: pool.serverlessPricePerGpuHour } : {}) },
      maxCount: { secure: g.maxGpuCount, community: communityMaxCount(g) },
    };
    if (!a?.products || !pool) return out;
    let dcs = this.catalog.poolDataCenters(pool.id, g.id);
    if (a.countries) dcs = dcs.filter(({ dc }) => a.countries!.includes(dc.country));
    if (a.countries && dcs.length === 0 && !single) return null;
    let versions = [...pool.cudaVersions];
    if (a.cudaVersions) versions = versions.filter((v) => a.cudaVersions!.includes(v));
    if (a.minCuda) versions = versions.filter((v) => compareCuda(v, a.minCuda!) >= 0);
    // `cloud` defaults to SECURE (the document's upstream default); `count` is bounded by that cloud's maxCount.
    const cloud = a.cloud ?? "SECURE";
    const offered = cloud === "SECURE" ? g.securePrice !== null : g.communityPrice !== null;
    const fits = a.count <= (cloud === "SECURE" ? g.maxGpuCount : communityMaxCount(g)) && versions.length > 0 && offered;
    const level = (l: AvailabilityLevel): AvailabilityLevel => (fits ? l : "NONE");
    const overall = Catalog.best(dcs.map(({ level: l }) => level(l)));
    out.availability = overall;
    if (overall !== "NONE") out.dataCenters = dcs.map(({ dc, level: l }) => ({ id: dc.id, name: dc.name, availability: level(l) }));
    if (versions.length > 0) out.cudaVersions = versions.map((version) => ({ version, available: overall !== "NONE" }));
    return out;
  }

  listGpus(q: URLSearchParams) {
    const a = availabilityQuery(q, ["POD", "CLUSTER", "SERVERLESS"], GPU_FILTERS);
    return { gpus: this.catalog.gpuTypes().flatMap((g) => this.gpu(g, a, false) ?? []) };
  }

  getGpu(id: string, q: URLSearchParams) {
    const a = availabilityQuery(q, ["POD", "CLUSTER", "SERVERLESS"], GPU_FILTERS);
    const g = this.catalog.gpuType(id);
    if (!g) throw v2Problem(404, `GPU type "${id}" not found.`);
    return this.gpu(g, a, true)!;
  }

  private cpu(c: CpuFlavor, a: AvailabilityQuery | null): Record<string, unknown> {
    const out: Record<string, unknown> = { id: c.id, name: c.name, group: c.group, vcpu: { ...c.vcpu }, ramGbPerVcpu: c.ramGbPerVcpu, price: { ...c.price } };
    if (!a?.products) return out;
    const fits = a.vcpuCount === null || (a.vcpuCount >= c.vcpu.min && a.vcpuCount <= c.vcpu.max);
    const dcs = this.catalog.cpuDataCenters(c.id).map(({ dc, level }) => ({ id: dc.id, name: dc.name, availability: fits ? level : ("NONE" as const) }));
    out.availability = Catalog.best(dcs.map((d) => d.availability));
    if (out.availability !== "NONE") out.dataCenters = dcs;
    return out;
  }

  listCpus(q: URLSearchParams) {
    const a = availabilityQuery(q, ["POD", "SERVERLESS"], ["vcpuCount"]);
    return { cpus: this.catalog.cpuFlavors().map((c) => this.cpu(c, a)) };
  }

  getCpu(id: string, q: URLSearchParams) {
    const a = availabilityQuery(q, ["POD", "SERVERLESS"], ["vcpuCount"]);
    const c = this.catalog.cpuFlavor(id);
    if (!c) throw v2Problem(404, `CPU type "${id}" not found.`);
    return this.cpu(c, a);
  }

  private dataCenter(dc: DataCenterFacts, include: string[]): Record<string, unknown> {
    const out: Record<string, unknown> = {
      id: dc.id,
      name: dc.name,
      region: dc.region,
      globalNetwork: dc.globalNetwork,
      networkVolumeTypes: [...dc.networkVolumeTypes],
      compliance: [...dc.compliance],
    };
    if (include.includes("GPU_AVAILABILITY")) {
      const gpus = this.catalog.gpuTypes().flatMap((g) => {
        const level = this.catalog.poolLevel(g.tier, dc.id, g.id);
        return level === undefined ? [] : [{ id: g.id, name: g.displayName, availability: level }];
      });
      if (gpus.length > 0) out.gpuAvailability = gpus;
    }
    if (include.includes("CPU_AVAILABILITY")) {
      const cpus = this.catalog.cpuFlavors().flatMap((c) => {
        const level = this.catalog.cpuLevel(c.id, dc.id);
        return level === undefined ? [] : [{ id: c.id, name: c.name, availability: level }];
      });
      if (cpus.length > 0) out.cpuAvailability = cpus;
    }
    return out;
  }

  listDataCenters(q: URLSearchParams) {
    const include = enumList(q, "include", ["GPU_AVAILABILITY", "CPU_AVAILABILITY"] as const) ?? [];
    const regions = enumList(q, "regions", [
      "NORTH_AMERICA",
      "SOUTH_AMERICA",
      "EUROPE",
      "ASIA",
      "MIDDLE_EAST",
      "AFRICA",
      "OCEANIA",
      "ANTARCTICA",
      "UNKNOWN",
    ] as const);
    const volumes = enumList(q, "networkVolumeTypes", ["STANDARD", "HIGH_PERFORMANCE"] as const);
    const compliance = list(q, "compliance");
    const global = q.get("globalNetwork");
    if (global !== null && global !== "true" && global !== "false") throw refused(`globalNetwork: must be true or false; got "${global}".`, 422);
    const dcs = this.catalog
      .dataCenters()
      .filter(
        (dc) =>
          (regions === null || regions.includes(dc.region)) &&
          (volumes === null || volumes.every((v) => dc.networkVolumeTypes.includes(v))) &&
          (compliance === null || compliance.every((c) => dc.compliance.includes(c))) &&
          (global === null || dc.globalNetwork === (global === "true")),
      );
    return { dataCenters: dcs.map((dc) => this.dataCenter(dc, include)) };
  }

  getDataCenter(id: string, q: URLSearchParams) {
    const include = enumList(q, "include", ["GPU_AVAILABILITY", "CPU_AVAILABILITY"] as const) ?? [];
    const dc = this.catalog.dataCenter(id);
    if (!dc) throw v2Problem(404, `Data center "${id}" not found.`);
    return this.dataCenter(dc, include);
  }
}
