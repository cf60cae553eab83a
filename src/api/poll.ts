/**
 * The one polling loop of the package: a probe repeated with a pause between calls until its answer
 * meets a condition, a deadline passes, or a signal aborts. The readiness wait, the job wait, the
 * settling of a create that timed out and `logs --follow`'s worker rescans run on it. No timer outlives
 * the call (a left-over timer would keep a CLI process alive).
 */
import { setTimeout as sleep } from "node:timers/promises";

export interface PollOptions {
  /** Give up after this many milliseconds; unset: poll until the condition is met or the signal aborts. */
  timeoutMs?: number;
  /** Pause between two probes, in milliseconds: fixed, or by the number of pauses so far (0 first; backoff.ts). */
  intervalMs: number | ((pauses: number) => number);
  /** Pause before the first probe too (the caller has just looked). */
  pauseFirst?: boolean;
  /**
   * A probe in flight when the deadline passes is waited for and its answer counts (a probe with its own
   * request timeout, whose answer the caller reports). Otherwise the deadline ends it.
   */
  finishProbe?: boolean;
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
  const stopped = new Promise<"stopped">((resolve) => stop.signal.addEventListener("abort", () => resolve("stopped"), { once: true }));
  const deadline = timeoutMs === undefined ? stopped : sleep(timeoutMs, "timeout" as const, { signal: stop.signal }).catch(() => "stopped" as const);
  let timedOut = false;
  void deadline.then((d) => (timedOut = d === "timeout"));
  const pause = async (pauses: number) => {
    const ms = typeof intervalMs === "function" ? intervalMs(pauses) : intervalMs;
    const paused = await Promise.race([sleep(ms, "poll" as const, { signal: stop.signal }).catch(() => "stopped" as const), deadline]);
    if (paused === "stopped") throw aborted();
    return paused === "poll";
  };
  let last: T | undefined;
  try {
    for (let pauses = 0; ; pauses++) {
      if (pauses > 0 || options.pauseFirst) {
        if (!(await pause(options.pauseFirst ? pauses : pauses - 1))) return { met: false, value: last };
      }
      const pending = probe();
      // A probe still in flight when the deadline wins must not surface as an unhandled rejection.
      pending.catch(() => undefined);
      const answer = await Promise.race([pending, options.finishProbe ? stopped : deadline]);
      if (answer === "timeout") return { met: false, value: last };
      if (answer === "stopped") throw aborted();
      last = answer;
      if (met(answer)) return { met: true, value: answer };
      if (timedOut) return { met: false, value: last };
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    stop.abort();
  }
}
