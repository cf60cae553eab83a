/**
 * The benchmark's operations, the requests each one needs at the least, and the measurement of one
 * run of an operation: wall time plus the exact requests the emulator received (its stats are reset
 * before the run).
 */
import * as fs from "fs";
import * as os from "os";
import type { EmulatorStats } from "../emulator";
import type { PeakRss, ProcessCpu } from "./rss";

/** Operations measured, in the order a stack goes through them: `preview` runs on the empty stack. */
export const OPERATIONS = ["preview", "create", "refresh", "update", "destroy"] as const;
export type BenchOperation = (typeof OPERATIONS)[number];

/** Resource kinds benchmarked: N `Endpoint`, `Template`, `NetworkVolume` or `Pod` resources per stack. */
export const BENCH_KINDS = ["endpoints", "templates", "networkVolumes", "pods"] as const;
export type BenchKind = (typeof BENCH_KINDS)[number];

/** The kinds that speak REST v2 whatever `runpod:api` says (the contract has no GraphQL operations for them): the same needed counts on both paths. */
export const V2_ONLY_KINDS: readonly BenchKind[] = ["networkVolumes", "pods"];

/** The provider's API paths (`runpod:api`, docs/api-paths.md): every kind and operation is benchmarked on each. */
export const BENCH_APIS = ["v2", "graphql"] as const;
export type BenchApi = (typeof BENCH_APIS)[number];

/** The REST v2 catalog operations (one read: all three, in parallel; src/provider/catalog/fetch.ts). */
export const CATALOG_OPERATIONS = ["listGpuTypes", "listCpuTypes", "listDataCenters"] as const;

/**
 * Catalog requests `op` needs, on both paths, once per provider session whatever N (rest-v2-openapi.json ›
 * Catalog): {@link catalogOperationsNeeded}, counted.
 */
export function catalogNeeded(kind: BenchKind, op: BenchOperation, n: number): number {
  return catalogOperationsNeeded(kind, op, n).length;
}

/**
 * The catalog operations `op` needs. An endpoint check reviews new or changed GPU selections against the
 * catalog: a preview or create of new endpoints reads it once (all three); the update changes `idleTimeout`
 * only, which the review does not look at; refresh and destroy run no check. Templates: never.
 *
 * Network volumes (bench/programs/networkVolumes: `dataCenterId`, the tier left unset): check validates the
 * data center and prices the storage of its tier, the data center's primary one (`networkVolumeTypes[0]`),
 * so a preview or create needs `listDataCenters` alone (DataCenter carries `networkVolumeTypes`; GPU types
 * and CPU flavors play no part); the update grows `size`, which changes the monthly cost, so the tier is
 * needed again: `listDataCenters` once more. Pods (bench/programs/pods: a CPU flavor, no `dataCenterIds`, no
 * network volume): the review checks the flavor, its vCPU range and its stock and prices it per vCPU, all in
 * `listCpuTypes` (product=POD); GPU types are not looked at and no data center id is there to check, so
 * `listDataCenters` is not needed; the update changes the image, which the review does not look at.
 */
export function catalogOperationsNeeded(kind: BenchKind, op: BenchOperation, n: number): readonly (typeof CATALOG_OPERATIONS)[number][] {
  if (n === 0) return [];
  switch (kind) {
    case "endpoints":
      return op === "preview" || op === "create" ? CATALOG_OPERATIONS : [];
    case "templates":
      return [];
    case "networkVolumes":
      return op === "preview" || op === "create" || op === "update" ? ["listDataCenters"] : [];
    case "pods":
      return op === "preview" || op === "create" ? ["listCpuTypes"] : [];
  }
}

/** Catalog requests among the calls counted by operation name. */
export function catalogMade(byOperation: Record<string, number>): number {
  return CATALOG_OPERATIONS.reduce((sum, op) => sum + (byOperation[op] ?? 0), 0);
}

/**
 * Calls the spec needs for `op` on `n` resources of `kind`. The emulator counts calls per GraphQL
 * top-level field (`byOperation`; every `myself { … }` listing below counts as `myself`).
 *
 * Endpoints: one `saveEndpoint` per create and per update; per delete a look at the workers
 * (`listWorkers`: a delete would cancel a job in progress), then a scale-to-zero `saveEndpoint` plus
 * `deleteEndpoint` (spec: the deletion precondition); one `myself { endpoints }` listing
 * shared by all for a refresh (spec: no single-endpoint query is shown). A new `templateId` is looked up
 * in one shared `myself { podTemplates }` listing by check, so a bad id fails at preview (issue #14):
 * that listing is all a preview of new endpoints needs, and `up` runs the same check before creating.
 *
 * Templates: one `saveTemplate` per create and per update (a modify carries every field); the update
 * changes the image, a new container version that every endpoint using the template rolls onto (GraphQL
 * endpoints follow their template), so it also needs one `myself { endpoints }` listing, shared by all,
 * to find those endpoints and follow their rollouts (docs/template.md › Rollouts and rollback; spec: List
 * endpoints, whose records carry `templateId`, and no query lists a template's endpoints); none uses the
 * bench's templates, so nothing more. One `myself { podTemplates }` listing for a refresh (no single-template query exists); a delete needs the
 * template's current name (`deleteTemplate` takes a name, and a name changed outside Pulumi may since
 * belong to another template), so one shared listing plus one `deleteTemplate` each. Their check makes
 * no request without `containerRegistryAuthId`, so a preview needs none.
 */
export function callsNeeded(kind: BenchKind, op: BenchOperation, n: number, api: BenchApi = "graphql"): number {
  if (V2_ONLY_KINDS.includes(kind)) return v2OnlyCallsNeeded(op, n) + catalogNeeded(kind, op, n);
  return (api === "v2" ? v2CallsNeeded(kind, op, n) : graphqlCallsNeeded(kind, op, n)) + catalogNeeded(kind, op, n);
}

/**
 * Network volumes and pods (rest-v2-openapi.json, tags Network Volumes and Pods), the same on both paths,
 * one request per operation, the catalog besides ({@link catalogOperationsNeeded}). Names are auto-named,
 * so a create needs no listing to settle an unanswered create by name (no record could carry the generated
 * name).
 *
 * Network volumes: nothing but the catalog for a preview; one `createNetworkVolume` per create; one
 * `listNetworkVolumes` for a refresh (ListNetworkVolumesResponse holds every NetworkVolume, as
 * `getNetworkVolume` returns it); one `updateNetworkVolume` per update (a PATCH of `size`, growing in place);
 * one `deleteNetworkVolume` per delete (by id; nothing mounts them, and a refused delete is the platform's
 * answer to read, not a question to ask first).
 *
 * Pods: nothing but the catalog for a preview; one `createPod` per create (the flavor has stock, so the
 * first try places it; `desiredStatus` is RUNNING, what a new pod is, so no `podAction`; no `templateId`,
 * so no env to settle); one `listPods` for a refresh (ListPodsResponse holds every Pod, as `getPod` returns
 * it); one `updatePod` per update (a PATCH of `image`: the running pod restarts its container and stays
 * running-like, so no `podAction`); one `deletePod` per delete.
 */
function v2OnlyCallsNeeded(op: BenchOperation, n: number): number {
  const listing = n > 0 ? 1 : 0;
  switch (op) {
    case "preview":
      return 0;
    case "create":
    case "update":
    case "destroy":
      return n;
    case "refresh":
      return listing;
  }
}

function graphqlCallsNeeded(kind: BenchKind, op: BenchOperation, n: number): number {
  const listing = n > 0 ? 1 : 0;
  switch (op) {
    case "preview":
      return kind === "endpoints" ? listing : 0;
    case "create":
      return kind === "endpoints" ? n + listing : n;
    case "update":
      return kind === "templates" ? n + listing : n;
    case "destroy":
      return kind === "endpoints" ? 3 * n : n + listing;
    case "refresh":
      return listing;
  }
}

/**
 * REST v2 (rest-v2-openapi.json), one request per operation. Endpoints: a new `templateId` is looked up
 * in one shared `listTemplates` (preview, create); one `createEndpoint` per create. A v2 endpoint holds
 * a copy of its template's container settings and keeps no link to it (rest-v2-notes.md › Shapes:
 * `templateId` on create copies, PATCH with `templateId` re-applies), so the provider compares the copy
 * each endpoint runs with its template's current settings (docs/endpoint.md › Template changes reach the
 * endpoint): a refresh sets `templateCurrent` from one `listEndpoints` (the copies) and one
 * `listTemplates` (the settings, one listing for all), and, since the engine diffs a refresh's outputs,
 * reads each endpoint's release listing (`listEndpointReleases`: the diff compares the release followed to
 * health, docs/endpoint.md › Releases kept in state); an update's diff compares the same live, so a
 * template changed outside Pulumi reaches its endpoints at the next `up`: one `listEndpoints` and one
 * `listTemplates`, then per endpoint its release listing (`listEndpointReleases`, docs/endpoint.md ›
 * Releases kept in state: by the diff, and again by the update, which follows a release nobody followed)
 * and one `updateEndpoint` (PATCH of `workers`) — the copies match, so no re-apply, and `workers` is a
 * scaling field, so no release of its own (docs/endpoint.md › Rollouts and rollback); a delete looks at
 * the workers (`listEndpointWorkers`, which the emulator counts as `listWorkers`: v2's DELETE cancels jobs
 * in progress) and, none running, `deleteEndpoint`s: two per endpoint.
 * Templates: nothing for a preview; `createTemplate` / `updateTemplate` per create / update; one
 * `listTemplates` for a refresh; a delete goes by id (`deleteTemplate`), so, unlike GraphQL's delete by
 * name, it needs no listing.
 */
function v2CallsNeeded(kind: BenchKind, op: BenchOperation, n: number): number {
  const listing = n > 0 ? 1 : 0;
  switch (op) {
    case "preview":
      return kind === "endpoints" ? listing : 0;
    case "create":
      return kind === "endpoints" ? n + listing : n;
    case "update":
      return kind === "endpoints" ? 3 * n + 2 * listing : n;
    case "destroy":
      return kind === "endpoints" ? 2 * n : n;
    case "refresh":
      return kind === "endpoints" ? 2 * listing + n : listing;
  }
}

/**
 * HTTP requests those calls need at the least (the API floor's count): one per call, except that on
 * GraphQL an endpoint delete's two mutations travel as two fields of one document (GraphQL runs them in
 * order; the api client's `scaleDownAndDeleteEndpoint`), so destroying N idle endpoints needs 2N
 * requests (each one's worker listing and that document).
 */
export function requestsNeeded(kind: BenchKind, op: BenchOperation, n: number, api: BenchApi = "graphql"): number {
  if (api === "graphql" && kind === "endpoints" && op === "destroy") return 2 * n;
  return callsNeeded(kind, op, n, api);
}

/** What the emulator offers to count requests (a `RunningEmulator` has both). */
export interface RequestCounter {
  resetStats(): void;
  stats(): EmulatorStats;
}

/** One timed run of an operation. */
export interface Measurement {
  /** Wall time in milliseconds. */
  ms: number;
  /** Requests the emulator received during the run (all interfaces, admin excluded). */
  requests: number;
  /** The same, per operation name (`saveEndpoint`, `deleteEndpoint`, `myself`, ...). */
  byOperation: Record<string, number>;
  /** CPU time (user + system) of this process during the run, ms: the in-process emulator's work (and the API floor's client). */
  localCpuMs: number;
  /** CPU time of the child processes that ended during the run (the Pulumi CLI and its plugins), ms; undefined where /proc is missing. */
  childCpuMs?: number;
  /** Peak RSS of the program process and of the dynamic provider host, MB (rss.ts), where reported. */
  peakRssMb?: PeakRss;
  /** CPU time of the program process and of the dynamic provider host, ms (rss.ts), where reported: the rest of {@link childCpuMs} is the CLI's and the language host's. */
  processCpuMs?: ProcessCpu;
  /** The machine's 1-minute load average when the run ended (the machine may be shared). */
  load1?: number;
}

/** CPU time of this process's ended (and reaped) descendants so far, ms, from /proc/self/stat (Linux). */
function childCpuMs(): number | undefined {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    // Fields after the parenthesised command name; cutime and cstime are fields 16 and 17 (1-based).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}
/** USER_HZ: Linux reports times in /proc in 1/100 s on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Runs `action` with the emulator's counters reset first, and times it.
 * Only one measured action may run at a time against one emulator.
 * @throws whatever `action` throws.
 */
export async function measure(counter: RequestCounter, action: () => Promise<unknown>): Promise<Measurement> {
  counter.resetStats();
  const cpu = process.cpuUsage();
  const children = childCpuMs();
  const start = process.hrtime.bigint();
  await action();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  const childrenAfter = childCpuMs();
  const stats = counter.stats();
  return {
    ms,
    requests: stats.requests,
    byOperation: stats.byOperation,
    localCpuMs: (used.user + used.system) / 1000,
    childCpuMs: children === undefined || childrenAfter === undefined ? undefined : childrenAfter - children,
    load1: Math.round(os.loadavg()[0] * 100) / 100,
  };
}
