/**
 * The platform's catalog as functions (spec: rest-v2-openapi.json › Catalog — GET /v2/catalog/gpus,
 * /v2/catalog/cpus, /v2/catalog/datacenters), Pulumi style: a promise form for plain code and an
 * `...Output` form for wiring into resources, e.g.
 * `getDataCentersOutput({ networkVolumeTypes: ["HIGH_PERFORMANCE"] }).apply((dcs) => dcs[0].id)`.
 *
 * They run in the Pulumi program's process (also during preview), with the API key and addresses from
 * the stack config `runpod:*` (via `pulumi.Config("runpod")`), falling back to RUNPOD_API_KEY and the
 * other RUNPOD_* variables. Each distinct query is requested once per process; a query without
 * availability shares the serverless availability read (one request answers both).
 *
 * Prices are list prices in USD per hour (negotiated discounts are not reflected). Availability is one
 * of NONE, LOW, MEDIUM, HIGH, and is present only when `product` is given.
 */
import * as pulumi from "@pulumi/pulumi";
import type { CatalogReads, CpuTypesQuery, DataCentersQuery, GpuTypesQuery } from "../provider/catalog/queries";
import type { CpuType, DataCenter, GpuType } from "../provider/catalog/catalog";
import { functionFailure, programClient } from "./programClient";

export type { CpuType, DataCenter, GpuType } from "../provider/catalog/catalog";

/** Arguments of {@link getGpuTypes}; all optional. */
export type GetGpuTypesArgs = GpuTypesQuery;
/** Arguments of {@link getCpuTypes}; all optional. */
export type GetCpuTypesArgs = CpuTypesQuery;
/** Arguments of {@link getDataCenters}; all optional, and they combine with AND. */
export type GetDataCentersArgs = DataCentersQuery;

/** Arguments of an `...Output` form: each value may be an Output. */
type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

let reads: { key: string; reads: CatalogReads } | undefined;

/** The reads of the program's client: one per process and configuration. */
async function programReads(): Promise<CatalogReads> {
  const { CatalogReads } = await import("../provider/catalog/queries");
  const { key, client } = await programClient();
  // No await between the check and the set: concurrent first calls share one instance.
  if (reads?.key !== key) reads = { key, reads: new CatalogReads(client.v2) };
  return reads.reads;
}

/** A bad argument is the program's mistake (one clean line); any other failure is explained with its hint. */
async function answer<T>(fn: string, run: (r: CatalogReads) => Promise<T>, check: (q: typeof import("../provider/catalog/queries")) => unknown): Promise<T> {
  try {
    check(await import("../provider/catalog/queries"));
  } catch (err) {
    throw new pulumi.RunError((err as Error).message);
  }
  try {
    return await run(await programReads());
  } catch (err) {
    throw await functionFailure(err, `runpod ${fn}`, "reading the catalog");
  }
}

/**
 * GPU types with their prices and, when `product` is given, their availability
 * (`GET /v2/catalog/gpus`, operation listGpuTypes).
 *
 * @param args `product` (POD, CLUSTER, SERVERLESS) asks for availability in those contexts; `count`
 *   (GPUs, default 1), `cloud` (SECURE, the default, or COMMUNITY), `countryCodes` (e.g. `["FR"]`: only
 *   types with a data center there), `cudaVersions` (exact `major.minor` set) or `minCudaVersion`
 *   (floor) scope it, and need `product`.
 * @returns records `{ id, name, pool, manufacturer, memory, secure, community, price, maxCount }` plus,
 *   with `product`, `availability`, `dataCenters: [{ id, name, availability }]` (omitted when none) and
 *   `cudaVersions: [{ version, available }]`. `id` names the type for pods (`gpuTypeIds`), `pool` the
 *   serverless pool for endpoints (`gpuIds`; null when in none); `memory` is VRAM in GB; `price.secure`,
 *   `price.community` and `price.serverless` (absent outside a pool) are USD per GPU per hour;
 *   `maxCount.secure` / `.community` are the most GPUs one pod can have.
 * @throws pulumi.RunError naming the argument for a bad argument (before any request); without an API
 *   key, for a bad key (401, 403) or any other failure of the request, saying what to set.
 */
export function getGpuTypes(args: GetGpuTypesArgs = {}): Promise<GpuType[]> {
  return answer(
    "getGpuTypes",
    (r) => r.gpuTypes(args as Record<string, unknown>),
    (q) => q.gpuTypesQuery(args as Record<string, unknown>),
  );
}

/** {@link getGpuTypes} as an Output; `args` may hold Outputs. */
export function getGpuTypesOutput(args: pulumi.Input<Inputs<GetGpuTypesArgs>> = {}): pulumi.Output<GpuType[]> {
  return pulumi.output(args).apply((a) => getGpuTypes(a as GetGpuTypesArgs));
}

/**
 * CPU flavors with their prices and, when `product` is given, their availability
 * (`GET /v2/catalog/cpus`, operation listCpuTypes).
 *
 * @param args `product` (POD, SERVERLESS) asks for availability in those contexts; `vcpuCount` (a power
 *   of two, at least 2) scopes it, and needs `product`.
 * @returns records `{ id, name, group, vcpu: { min, max }, ramGbPerVcpu, price: { securePerVcpu,
 *   serverlessPerVcpu } }` plus, with `product`, `availability` and `dataCenters` (omitted when none).
 *   Prices are USD per vCPU per hour, RAM is GB per vCPU: multiply by the vCPU count.
 * @throws pulumi.RunError as {@link getGpuTypes} does.
 */
export function getCpuTypes(args: GetCpuTypesArgs = {}): Promise<CpuType[]> {
  return answer(
    "getCpuTypes",
    (r) => r.cpuTypes(args as Record<string, unknown>),
    (q) => q.cpuTypesQuery(args as Record<string, unknown>),
  );
}

/** {@link getCpuTypes} as an Output; `args` may hold Outputs. */
export function getCpuTypesOutput(args: pulumi.Input<Inputs<GetCpuTypesArgs>> = {}): pulumi.Output<CpuType[]> {
  return pulumi.output(args).apply((a) => getCpuTypes(a as GetCpuTypesArgs));
}

/**
 * Data centers (`GET /v2/catalog/datacenters`, operation listDataCenters), filtered by the platform.
 *
 * @param args `regions` (any of them), `networkVolumeTypes` (STANDARD, HIGH_PERFORMANCE: all of them),
 *   `compliance` (all of them, e.g. GDPR), `globalNetwork` (true/false); `include` GPU_AVAILABILITY and/or
 *   CPU_AVAILABILITY adds each data center's `gpuAvailability` / `cpuAvailability`.
 * @returns records `{ id, name, region, globalNetwork, networkVolumeTypes, compliance }` plus, when
 *   included, `gpuAvailability` / `cpuAvailability: [{ id, name, availability }]` (omitted when none).
 * @throws pulumi.RunError as {@link getGpuTypes} does.
 */
export function getDataCenters(args: GetDataCentersArgs = {}): Promise<DataCenter[]> {
  return answer(
    "getDataCenters",
    (r) => r.dataCenters(args as Record<string, unknown>),
    (q) => q.dataCentersQuery(args as Record<string, unknown>),
  );
}

/** {@link getDataCenters} as an Output; `args` may hold Outputs. */
export function getDataCentersOutput(args: pulumi.Input<Inputs<GetDataCentersArgs>> = {}): pulumi.Output<DataCenter[]> {
  return pulumi.output(args).apply((a) => getDataCenters(a as GetDataCentersArgs));
}
