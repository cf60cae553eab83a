/**
 * The benchmark's result rows, the printed table and the JSON written to bench/results.json.
 */
import { catalogMade, type BenchApi, type BenchKind, type BenchOperation, type Measurement } from "./requests";
import type { PeakRss, ProcessCpu } from "./rss";
import type { StartupResult } from "./startup";
import { median } from "./median";

export { median };

/** One operation on N resources of one kind: our stack against both floors (times are medians over the runs). */
export interface ResultRow {
  kind: BenchKind;
  /** The provider's API path (`runpod:api`) of our stack and of the API floor. */
  api: BenchApi;
  /**
   * What served our stack: the dynamic provider (a Node.js program; default) or the provider plugin
   * (a YAML program). Both are set against the same floors (the engine's: the no-op dynamic stack).
   */
  provider?: "dynamic" | "plugin";
  operation: BenchOperation;
  n: number;
  /** Wall time of the operation on the stack of `kind`, ms. */
  oursMs: number;
  /** The same operation on the no-op dynamic resource stack, ms. */
  engineFloorMs: number;
  /** The minimum requests issued directly with the api client at the same parallelism, ms. */
  apiFloorMs: number;
  /** Every run's wall time, ms, in run order. */
  runsMs: { ours: number[]; engineFloor: number[]; apiFloor: number[] };
  /** oursMs / max(engineFloorMs, apiFloorMs). */
  ratio: number;
  /** Requests the emulator received during our operation (the most of any run). */
  requestsMade: number;
  /** HTTP requests the spec's calls need at the least (requests.ts `requestsNeeded`). */
  requestsNeeded: number;
  /** Our calls (GraphQL top-level fields, REST operations) during the run with the most requests. */
  callsMade: number;
  /** Calls the spec needs (requests.ts `callsNeeded`). */
  callsNeeded: number;
  /** Catalog requests (listGpuTypes, listCpuTypes, listDataCenters) in our run with the most requests. */
  catalogMade: number;
  /** Catalog requests needed (requests.ts `catalogNeeded`; included in requestsNeeded). */
  catalogNeeded: number;
  /** Our calls by operation name (of the run with the most requests). */
  madeByOperation: Record<string, number>;
  /** Requests counted during the API floor's runs, the most of any (equals requestsNeeded unless the floor is broken). */
  apiFloorRequests: number;
  /** Requests counted during the engine floor's runs, the most of any (0: the no-op provider makes none). */
  engineFloorRequests: number;
  /** CPU time of the Pulumi CLI and its plugins during our run and the engine floor's (medians), ms, where measurable. */
  childCpuMs?: { ours: number; engineFloor: number };
  /** CPU time of the in-process emulator during our run (median), ms. */
  emulatorCpuMs: number;
  /** Peak RSS of the program process and the dynamic provider host, MB: the largest of any run, ours and the engine floor's. */
  peakRssMb?: { ours: PeakRss; engineFloor: PeakRss };
  /** CPU time of the program process and of the dynamic provider host (medians), ms, ours and the engine floor's, where reported. */
  processCpuMs?: { ours: ProcessCpu; engineFloor: ProcessCpu };
  /** The 1-minute load average at the end of each of our runs (the machine may be shared). */
  load1: number[];
}

export interface BenchResults {
  generatedAt: string;
  settings: {
    ns: number[];
    /** The provider's API paths benchmarked (absent in results from before both paths: GraphQL only). */
    apis?: BenchApi[];
    /** The kinds benchmarked (absent in results from before network volumes and pods: endpoints and templates). */
    kinds?: BenchKind[];
    /** Whether the provider plugin's endpoint rows ran. */
    plugin?: boolean;
    /** Runs per N; rows hold the medians. */
    repeat: number;
    /** Added to every emulator request, ms. */
    latencyMs: number;
    /** `--parallel` passed to every Pulumi command, and the API floor's concurrency. */
    parallelism: number;
    pulumiVersion: string;
    node: string;
    cpus: number;
    cpuModel?: string;
    totalMemMb?: number;
  };
  rows: ResultRow[];
  startup?: StartupResult;
}

const most = (list: readonly Measurement[]): Measurement => list.reduce((a, b) => (b.requests > a.requests ? b : a));

/**
 * Builds a row from every run of one operation: medians of the times, the most requests of any run.
 * @throws when a list is empty.
 */
export function resultRow(
  kind: BenchKind,
  operation: BenchOperation,
  n: number,
  ours: readonly Measurement[],
  engine: readonly Measurement[],
  api: readonly Measurement[],
  needed: { requests: number; calls: number; catalog?: number },
  path: BenchApi = "graphql",
): ResultRow {
  const ms = (list: readonly Measurement[]) => list.map((m) => m.ms);
  const oursMs = median(ms(ours));
  const engineFloorMs = median(ms(engine));
  const apiFloorMs = median(ms(api));
  const cpu = (list: readonly Measurement[]) => (list.every((m) => m.childCpuMs !== undefined) ? median(list.map((m) => m.childCpuMs!)) : undefined);
  const oursCpu = cpu(ours);
  const engineCpu = cpu(engine);
  const row: ResultRow = {
    kind,
    api: path,
    operation,
    n,
    oursMs: round(oursMs),
    engineFloorMs: round(engineFloorMs),
    apiFloorMs: round(apiFloorMs),
    runsMs: { ours: ms(ours).map(round), engineFloor: ms(engine).map(round), apiFloor: ms(api).map(round) },
    ratio: Math.round((oursMs / Math.max(engineFloorMs, apiFloorMs)) * 100) / 100,
    requestsMade: most(ours).requests,
    requestsNeeded: needed.requests,
    callsMade: Object.values(most(ours).byOperation).reduce((a, b) => a + b, 0),
    callsNeeded: needed.calls,
    catalogMade: catalogMade(most(ours).byOperation),
    catalogNeeded: needed.catalog ?? 0,
    madeByOperation: most(ours).byOperation,
    apiFloorRequests: most(api).requests,
    engineFloorRequests: most(engine).requests,
    emulatorCpuMs: round(median(ours.map((m) => m.localCpuMs))),
    load1: ours.flatMap((m) => (m.load1 === undefined ? [] : [m.load1])),
  };
  if (ours.some((m) => m.peakRssMb) || engine.some((m) => m.peakRssMb)) row.peakRssMb = { ours: peakOf(ours), engineFloor: peakOf(engine) };
  if (oursCpu !== undefined && engineCpu !== undefined) row.childCpuMs = { ours: round(oursCpu), engineFloor: round(engineCpu) };
  if (ours.some((m) => m.processCpuMs) || engine.some((m) => m.processCpuMs))
    row.processCpuMs = { ours: processCpuOf(ours), engineFloor: processCpuOf(engine) };
  return row;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The median CPU time of each process role over the runs that report it. */
function processCpuOf(runs: readonly Measurement[]): ProcessCpu {
  const out: ProcessCpu = {};
  for (const role of ["program", "providerHost"] as const) {
    const values = runs.flatMap((m) => (m.processCpuMs?.[role] === undefined ? [] : [m.processCpuMs[role]]));
    if (values.length > 0) out[role] = round(median(values));
  }
  return out;
}

/** The largest peak of each process role over the runs. */
function peakOf(runs: readonly Measurement[]): PeakRss {
  const out: PeakRss = {};
  for (const m of runs) {
    for (const role of ["program", "providerHost"] as const) {
      const v = m.peakRssMb?.[role];
      if (v !== undefined) out[role] = Math.max(out[role] ?? 0, v);
    }
  }
  return out;
}
const secs = (ms: number) => (ms / 1000).toFixed(2);

/**
 * CPU of the Pulumi CLI and its plugins (program, provider host) in our run over the engine floor's:
 * on a machine shared with other work, less noisy than the wall-time ratio.
 */
export function cpuRatio(r: ResultRow): number | undefined {
  return r.childCpuMs && r.childCpuMs.engineFloor > 0 ? Math.round((r.childCpuMs.ours / r.childCpuMs.engineFloor) * 100) / 100 : undefined;
}

/** Plain-text table of the rows: resource kind, API path, operation, N, times in seconds, ratios (time, CPU), requests and calls made and needed, catalog requests made and needed. */
export function formatTable(rows: readonly ResultRow[]): string {
  const header = [
    "resource",
    "provider",
    "api",
    "operation",
    "N",
    "ours s",
    "engine floor s",
    "API floor s",
    "ratio",
    "CPU ratio",
    "requests made",
    "requests needed",
    "calls made",
    "calls needed",
    "catalog made",
    "catalog needed",
  ];
  const body = rows.map((r) => [
    r.kind,
    r.provider ?? "dynamic",
    r.api,
    r.operation,
    String(r.n),
    secs(r.oursMs),
    secs(r.engineFloorMs),
    secs(r.apiFloorMs),
    `${r.ratio.toFixed(2)}x`,
    cpuRatio(r)?.toFixed(2).concat("x") ?? "?",
    String(r.requestsMade),
    String(r.requestsNeeded),
    String(r.callsMade),
    String(r.callsNeeded),
    String(r.catalogMade),
    String(r.catalogNeeded),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 5 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/**
 * Per operation and N: our time and the engine floor's per resource (to see growth with N), and where
 * our extra time goes — CPU of the Pulumi CLI and its plugins above the floor's (the provider process,
 * the program loading this package) and the in-process emulator's CPU, both on the same cores.
 */
export function formatPerResource(rows: readonly ResultRow[]): string {
  const lines = rows.map((r) => {
    const extraCpu = r.childCpuMs ? `${(r.childCpuMs.ours - r.childCpuMs.engineFloor).toFixed(0).padStart(6)} ms` : "     ?";
    return (
      `${r.kind.padEnd(9)} ${(r.provider ?? "dynamic").padEnd(7)} ${r.api.padEnd(7)} ${r.operation.padEnd(8)} N=${String(r.n).padEnd(4)} ours ${(r.oursMs / r.n).toFixed(1).padStart(6)} ms/resource, engine floor ${(r.engineFloorMs / r.n).toFixed(1).padStart(6)} ms/resource;` +
      ` CPU above the floor: pulumi+plugins ${extraCpu}, emulator ${r.emulatorCpuMs.toFixed(0).padStart(5)} ms` +
      (r.processCpuMs
        ? ` (program ${signedMs(r.processCpuMs.ours.program, r.processCpuMs.engineFloor.program)}, provider host ${signedMs(r.processCpuMs.ours.providerHost, r.processCpuMs.engineFloor.providerHost)})`
        : "") +
      (r.peakRssMb
        ? `; peak RSS program ${mb(r.peakRssMb.ours.program)} (floor ${mb(r.peakRssMb.engineFloor.program)}), provider host ${mb(r.peakRssMb.ours.providerHost)} (floor ${mb(r.peakRssMb.engineFloor.providerHost)})`
        : "") +
      (r.load1?.length ? `; load ${r.load1.join("/")}` : "")
    );
  });
  return lines.join("\n");
}

const signedMs = (ours: number | undefined, floor: number | undefined) =>
  ours === undefined || floor === undefined ? "?" : `${ours >= floor ? "+" : ""}${(ours - floor).toFixed(0)} ms`;
const mb = (v: number | undefined) => (v === undefined ? "?" : `${v.toFixed(0)} MB`);

/** Lines describing the provider's start-up (medians). */
export function formatStartup(s: StartupResult): string {
  const m = s.median;
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  return [
    `provider start-up (median of ${s.runs.length} fresh node processes; serialized stub ${s.stubBytes} bytes):`,
    `  load serialized stub ${f(m.stubMs)}, require("pulumi-runpod/provider") + configure ${f(m.providerModuleMs)}, first check (loads and builds the api client) ${f(m.clientMs)} -> total ${f(m.totalMs)}`,
    `  (for scale: the dynamic provider host's own modules ${f(m.hostModulesMs)}, node boot ${f(m.bootMs)}; whole probe process ${f(m.processMs)})`,
  ].join("\n");
}
