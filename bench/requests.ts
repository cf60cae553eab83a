/**
 * The benchmark's operations, the requests each one needs at the least, and the measurement of one
 * run of an operation: wall time plus the exact requests the emulator received (its stats are reset
 * before the run).
 */
import type { EmulatorStats } from "../emulator";

/** Operations measured, in the order a stack goes through them. */
export const OPERATIONS = ["create", "refresh", "update", "destroy"] as const;
export type BenchOperation = (typeof OPERATIONS)[number];

/**
 * Requests the spec needs for `op` on `n` endpoints (the API floor's count): one `saveEndpoint` per
 * create and per update, a scale-to-zero `saveEndpoint` plus `deleteEndpoint` per delete (spec: the
 * deletion precondition), and one `myself { endpoints }` listing shared by all endpoints for a refresh
 * (spec: no single-endpoint query is shown).
 */
export function requestsNeeded(op: BenchOperation, n: number): number {
  switch (op) {
    case "create":
    case "update":
      return n;
    case "destroy":
      return 2 * n;
    case "refresh":
      return n > 0 ? 1 : 0;
  }
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
}

/**
 * Runs `action` with the emulator's counters reset first, and times it.
 * Only one measured action may run at a time against one emulator.
 * @throws whatever `action` throws.
 */
export async function measure(counter: RequestCounter, action: () => Promise<unknown>): Promise<Measurement> {
  counter.resetStats();
  const start = process.hrtime.bigint();
  await action();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const stats = counter.stats();
  return { ms, requests: stats.requests, byOperation: stats.byOperation };
}
