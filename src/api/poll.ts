/**
 * The one polling loop of the package: a probe repeated with a pause between calls until its answer
 * meets a condition, a deadline passes, or a signal aborts. The deadline also ends a probe still in
 * flight, and no timer outlives the call (a left-over timer would keep a CLI process alive).
 */
import { setTimeout as sleep } from "node:timers/promises";

export interface PollOptions {
  /** Give up after this many milliseconds. */
  timeoutMs: number;
  /** Pause between two probes, in milliseconds. */
  intervalMs: number;
  /** Abort to stop polling; the call then rejects with `aborted()`. */
  signal?: AbortSignal;
  /** The error an abort rejects with. */
  aborted?: () => Error;
}

/** How polling ended: `met` with the answer that met the condition, or not, with the last answer (undefined when none came in time). */
export type PollResult<T> = { met: true; value: T } | { met: false; value: T | undefined };

/**
 * Calls `probe` until `met(answer)`, pausing `intervalMs` between calls, within `timeoutMs`.
 * @throws the probe's own errors; `options.aborted()` (default an Error) when the signal fires.
 */
export async function poll<T>(probe: () => Promise<T>, met: (value: T) => boolean, options: PollOptions): Promise<PollResult<T>> {
  const { timeoutMs, intervalMs, signal } = options;
  const aborted = options.aborted ?? (() => new Error("polling was aborted"));
  if (signal?.aborted) throw aborted();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const deadline = sleep(timeoutMs, "timeout" as const, { signal: stop.signal }).catch(() => "stopped" as const);
  let last: T | undefined;
  try {
    for (;;) {
      const pending = probe();
      // A probe still in flight when the deadline wins must not surface as an unhandled rejection.
      pending.catch(() => undefined);
      const answer = await Promise.race([pending, deadline]);
      if (answer === "timeout") return { met: false, value: last };
      if (answer === "stopped") throw aborted();
      last = answer;
      if (met(answer)) return { met: true, value: answer };
      const paused = await Promise.race([sleep(intervalMs, "poll" as const, { signal: stop.signal }).catch(() => "stopped" as const), deadline]);
      if (paused === "timeout") return { met: false, value: last };
      if (paused === "stopped") throw aborted();
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    stop.abort();
  }
}
