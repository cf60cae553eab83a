/**
 * The benchmark's result rows, the printed table and the JSON written to bench/results.json.
 */
import type { BenchOperation, Measurement } from "./requests";
import type { StartupResult } from "./startup";

/** One operation at one N: our stack against both floors. */
export interface ResultRow {
  operation: BenchOperation;
  n: number;
  /** Wall time of the operation on the Endpoint stack, ms. */
  oursMs: number;
  /** The same operation on the no-op dynamic resource stack, ms. */
  engineFloorMs: number;
  /** The minimum requests issued directly with the api client at the same parallelism, ms. */
  apiFloorMs: number;
  /** oursMs / max(engineFloorMs, apiFloorMs). */
  ratio: number;
  /** Requests the emulator received during our operation. */
  requestsMade: number;
  /** Requests the spec needs (requests.ts `requestsNeeded`). */
  requestsNeeded: number;
  /** Our requests by operation name. */
  madeByOperation: Record<string, number>;
  /** Requests counted during the API floor's run (equals requestsNeeded unless the floor is broken). */
  apiFloorRequests: number;
  /** Requests counted during the engine floor's run (0: the no-op provider makes none). */
  engineFloorRequests: number;
}

export interface BenchResults {
  generatedAt: string;
  settings: {
    ns: number[];
    /** Added to every emulator request, ms. */
    latencyMs: number;
    /** `--parallel` passed to every Pulumi command, and the API floor's concurrency. */
    parallelism: number;
    pulumiVersion: string;
    node: string;
    cpus: number;
  };
  rows: ResultRow[];
  startup?: StartupResult;
}

/** Builds a row from the three measurements of one operation. */
export function resultRow(operation: BenchOperation, n: number, ours: Measurement, engine: Measurement, api: Measurement, needed: number): ResultRow {
  return {
    operation,
    n,
    oursMs: round(ours.ms),
    engineFloorMs: round(engine.ms),
    apiFloorMs: round(api.ms),
    ratio: Math.round((ours.ms / Math.max(engine.ms, api.ms)) * 100) / 100,
    requestsMade: ours.requests,
    requestsNeeded: needed,
    madeByOperation: ours.byOperation,
    apiFloorRequests: api.requests,
    engineFloorRequests: engine.requests,
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const secs = (ms: number) => (ms / 1000).toFixed(2);

/** Plain-text table of the rows: operation, N, times in seconds, ratio, requests made and needed. */
export function formatTable(rows: readonly ResultRow[]): string {
  const header = ["operation", "N", "ours s", "engine floor s", "API floor s", "ratio", "requests made", "requests needed"];
  const body = rows.map((r) => [r.operation, String(r.n), secs(r.oursMs), secs(r.engineFloorMs), secs(r.apiFloorMs), `${r.ratio.toFixed(2)}x`, String(r.requestsMade), String(r.requestsNeeded)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** Our time per resource and the engine floor's, per operation and N (to see growth with N). */
export function formatPerResource(rows: readonly ResultRow[]): string {
  const lines = rows.map((r) => `${r.operation.padEnd(8)} N=${String(r.n).padEnd(4)} ours ${(r.oursMs / r.n).toFixed(1).padStart(6)} ms/resource   engine floor ${(r.engineFloorMs / r.n).toFixed(1).padStart(6)} ms/resource`);
  return lines.join("\n");
}

/** Lines describing the provider's start-up (medians). */
export function formatStartup(s: StartupResult): string {
  const m = s.median;
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  return [
    `provider start-up (median of ${s.runs.length} fresh node processes; serialized stub ${s.stubBytes} bytes):`,
    `  load serialized stub ${f(m.stubMs)}, require("pulumi-runpod/provider") ${f(m.providerModuleMs)}, build api client ${f(m.clientMs)} -> total ${f(m.totalMs)}`,
    `  (node boot ${f(m.bootMs)}; whole probe process ${f(m.processMs)})`,
  ].join("\n");
}
