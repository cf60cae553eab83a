/**
 * The benchmark's operations, the requests each one needs at the least, and the measurement of one
 * run of an operation: wall time plus the exact requests the emulator received (its stats are reset
 * before the run).
 */
import * as fs from "fs";
import * as os from "os";
import type { EmulatorStats } from "../emulator";
import type { PeakRss } from "./rss";

/** Operations measured, in the order a stack goes through them: `preview` runs on the empty stack. */
export const OPERATIONS = ["preview", "create", "refresh", "update", "destroy"] as const;
export type BenchOperation = (typeof OPERATIONS)[number];

/** Resource kinds benchmarked: N `Endpoint` or N `Template` resources per stack. */
export const BENCH_KINDS = ["endpoints", "templates"] as const;
export type BenchKind = (typeof BENCH_KINDS)[number];

/** The provider's API paths (`runpod:api`, docs/api-paths.md): every kind and operation is benchmarked on each. */
export const BENCH_APIS = ["v2", "graphql"] as const;
export type BenchApi = (typeof BENCH_APIS)[number];

/** The REST v2 catalog operations (one read: all three, in parallel; src/provider/catalog/fetch.ts). */
export const CATALOG_OPERATIONS = ["listGpuTypes", "listCpuTypes", "listDataCenters"] as const;

/**
 * Catalog requests `op` needs: an endpoint check reviews new or changed GPU selections against the
 * catalog, read once per provider session whatever N (rest-v2-openapi.json › Catalog), on both paths.
 * A preview or create of new endpoints reads it once; the update changes `idleTimeout` only, which the
 * review does not look at, so it reads nothing; refresh and destroy run no check. Templates: never.
 */
export function catalogNeeded(kind: BenchKind, op: BenchOperation, n: number): number {
  return kind === "endpoints" && n > 0 && (op === "preview" || op === "create") ? CATALOG_OPERATIONS.length : 0;
}

/** Catalog requests among the calls counted by operation name. */
export function catalogMade(byOperation: Record<string, number>): number {
  return CATALOG_OPERATIONS.reduce((sum, op) => sum + (byOperation[op] ?? 0), 0);
}

/**
 * Calls the spec needs for `op` on `n` resources of `kind`. The emulator counts calls per GraphQL
 * top-level field (`byOperation`; both listings below count as `myself`).
 *
 * Endpoints: one `saveEndpoint` per create and per update; per delete a look at the workers
 * (`listWorkers`: a delete would cancel a job in progress), then a scale-to-zero `saveEndpoint` plus
 * `deleteEndpoint` (spec: the deletion precondition); one `myself { endpoints }` listing
 * shared by all for a refresh (spec: no single-endpoint query is shown). A new `templateId` is looked up
 * in one shared `myself { podTemplates }` listing by check, so a bad id fails at preview (issue #14):
 * that listing is all a preview of new endpoints needs, and `up` runs the same check before creating.
 *
 * Templates: one `saveTemplate` per create and per update (a modify carries every field); one
 * `myself { podTemplates }` listing for a refresh (no single-template query exists); a delete needs the
 * template's current name (`deleteTemplate` takes a name, and a name changed outside Pulumi may since
 * belong to another template), so one shared listing plus one `deleteTemplate` each. Their check makes
 * no request without `containerRegistryAuthId`, so a preview needs none.
 */
export function callsNeeded(kind: BenchKind, op: BenchOperation, n: number, api: BenchApi = "graphql"): number {
  return (api === "v2" ? v2CallsNeeded(kind, op, n) : graphqlCallsNeeded(kind, op, n)) + catalogNeeded(kind, op, n);
}

function graphqlCallsNeeded(kind: BenchKind, op: BenchOperation, n: number): number {
  const listing = n > 0 ? 1 : 0;
  switch (op) {
    case "preview":
      return kind === "endpoints" ? listing : 0;
    case "create":
      return kind === "endpoints" ? n + listing : n;
    case "update":
      return n;
    case "destroy":
      return kind === "endpoints" ? 3 * n : n + listing;
    case "refresh":
      return listing;
  }
}

/**
 * REST v2 (rest-v2-openapi.json), one request per operation. Endpoints: a new `templateId` is looked up
 * in one shared `listTemplates` (preview, create); one `createEndpoint` per create and one
 * `updateEndpoint` (PATCH of `workers`) per update, a scaling field, so no release to follow; one
 * `listEndpoints` for a refresh; a delete scales to zero (`updateEndpoint`), waits for in-progress jobs
 * (`listEndpointWorkers`, which the emulator counts as `listWorkers`: v2's DELETE cancels them) and then `deleteEndpoint`s, three per endpoint.
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
      return n;
    case "destroy":
      return kind === "endpoints" ? 3 * n : n;
    case "refresh":
      return listing;
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
