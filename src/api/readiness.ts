/**
 * Readiness wait for a serverless endpoint's workers, built only on `PlatformClient.listWorkers`
 * (spec: Endpoints › GET {base_url}/v2/serverless/{id}/workers). Used by pipelines and the CLI
 * (`pulumi-runpod workers <id> --wait N`) to know an endpoint can take jobs before a smoke test.
 */
import { poll } from "./poll";
import { MAX_TIMER_MS } from "./timers";
import { AbortedError, InvalidArgumentError, TimeoutError } from "./errors";
import type { PlatformClient, Worker } from "./types";

/**
 * Worker statuses that mean "can take a job": REST v2's `RUNNING` (on a job) and `IDLE` (the document's
 * WorkerStatus), compared case-insensitively; `READY`, the word of the spec's older worker listing, too.
 */
const READY_STATUSES = new Set(["ready", "running", "idle"]);

/** True when the platform reports this worker as up and able to take jobs. */
export function isWorkerReady(worker: Worker): boolean {
  return typeof worker.status === "string" && READY_STATUSES.has(worker.status.toLowerCase());
}

export interface WaitForWorkersOptions {
  /** Number of ready workers to wait for (non-negative integer; usually the endpoint's `workersMin`). */
  count: number;
  /** Give up after this many milliseconds. */
  timeoutMs: number;
  /** Pause between two listings, in milliseconds (default 1000). */
  pollIntervalMs?: number;
  /** Abort to stop waiting; the promise then rejects with an AbortedError. */
  signal?: AbortSignal;
}

/** The readiness wait ran out of time (a {@link TimeoutError}); carries the figures its message names. */
export class WorkersNotReadyError extends TimeoutError {
  constructor(
    readonly endpointId: string,
    readonly expected: number,
    readonly ready: number,
    timeoutMs: number,
  ) {
    super(
      `endpoint ${endpointId}: ${ready} of ${expected} worker${expected === 1 ? "" : "s"} ready ` +
        `after ${formatSeconds(timeoutMs)} s (timed out waiting for readiness)`,
      timeoutMs,
      { operation: "waitForWorkers" },
    );
  }
}
Object.defineProperty(WorkersNotReadyError.prototype, "name", { value: "WorkersNotReadyError", configurable: true, writable: true });

/**
 * Polls the worker listing until at least `count` workers report ready.
 *
 * @returns the ready workers of the last listing (at least `count` of them; with `count` 0, the
 *   ready workers of a single listing, possibly none).
 * @throws WorkersNotReadyError when `timeoutMs` elapses first (the message names the endpoint,
 *   the expected and ready counts, and the seconds waited); InvalidArgumentError for a bad
 *   `count`, `timeoutMs` or `pollIntervalMs`; AbortedError when `signal` fires; any error of
 *   `listWorkers` that the client did not retry away (401, 403, 404, ...).
 */
export async function waitForWorkers(client: Pick<PlatformClient, "listWorkers">, endpointId: string, options: WaitForWorkersOptions): Promise<Worker[]> {
  const { count, timeoutMs, pollIntervalMs = 1000, signal } = options;
  const bad = (argument: string, rule: string, value: unknown) =>
    new InvalidArgumentError(`waitForWorkers: ${argument} must be ${rule}, got ${String(value)}`, argument, { operation: "waitForWorkers" });
  if (!Number.isInteger(count) || count < 0) throw bad("count", "a non-negative integer", count);
  // Timers hold at most MAX_TIMER_MS; a longer delay would fire after 1 ms.
  if (!(timeoutMs >= 0 && timeoutMs <= MAX_TIMER_MS)) throw bad("timeoutMs", `a number of milliseconds from 0 to ${MAX_TIMER_MS}`, timeoutMs);
  if (!(pollIntervalMs > 0 && pollIntervalMs <= MAX_TIMER_MS))
    throw bad("pollIntervalMs", `a number of milliseconds from 1 to ${MAX_TIMER_MS}`, pollIntervalMs);
  const aborted = () => new AbortedError(`waiting for workers of endpoint ${endpointId} was aborted`, { operation: "waitForWorkers" });
  if (signal?.aborted) throw aborted();
  if (count === 0) return (await client.listWorkers(endpointId)).filter(isWorkerReady);

  const result = await poll(
    async () => (await client.listWorkers(endpointId)).filter(isWorkerReady),
    (ready) => ready.length >= count,
    { timeoutMs, intervalMs: pollIntervalMs, signal, aborted },
  );
  if (result.met) return result.value;
  throw new WorkersNotReadyError(endpointId, count, result.value?.length ?? 0, timeoutMs);
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}
