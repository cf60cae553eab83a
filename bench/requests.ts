/**
 * The benchmark's operations, the requests each one needs at the least, and the measurement of one
 * run of an operation: wall time plus the exact requests the emulator received (its stats are reset
 * before the run).
 */
import * as fs from "fs";
import type { EmulatorStats } from "../emulator";

/** Operations measured, in the order a stack goes through them. */
export const OPERATIONS = ["create", "refresh", "update", "destroy"] as const;
export type BenchOperation = (typeof OPERATIONS)[number];

/**
 * Calls the spec needs for `op` on `n` endpoints: one `saveEndpoint` per create and per update, a
 * scale-to-zero `saveEndpoint` plus `deleteEndpoint` per delete (spec: the deletion precondition), and
 * one `myself { endpoints }` listing shared by all endpoints for a refresh (spec: no single-endpoint
 * query is shown). The emulator counts calls per GraphQL top-level field (`byOperation`).
 */
export function callsNeeded(op: BenchOperation, n: number): number {
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

/**
 * HTTP requests those calls need at the least (the API floor's count): one per call, except that a
 * delete's two mutations travel as two fields of one document (GraphQL runs them in order; the api
 * client's `scaleDownAndDeleteEndpoint`), so a destroy needs one request per endpoint.
 */
export function requestsNeeded(op: BenchOperation, n: number): number {
  return op === "destroy" ? n : callsNeeded(op, n);
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
  };
}
