/**
 * Retry policy of every call (spec: Errors, Limits; docs/operations.md).
 *
 * - 429 is always retried: the platform rejected the request before acting on it. The retry waits
 *   `Retry-After` seconds, then the usual backoff.
 * - 5xx, timeouts and connections dropped after sending are retried only for operations that are
 *   safe to repeat (reads, `saveEndpoint` with `id`, `deleteEndpoint`, job status). For creates
 *   (`saveEndpoint` without `id`, `POST /v1/endpoints`, `/run`, `/runsync`) the client cannot tell
 *   whether the platform acted — a 5xx may come from a proxy after the origin created the endpoint —
 *   so the error is thrown with `outcomeUnknown: true` and the caller (the provider) looks for the
 *   endpoint before trying again. A refused connection or an unresolvable host never reached the
 *   platform, so it is retried for creates too — except a host name that does not resolve (ENOTFOUND:
 *   a typo in an address stays one) and a resolver that stays down (EAI_AGAIN, {@link DNS_ATTEMPTS}).
 * - A connection failure given up after several attempts says how many, over how long.
 * - Backoff is exponential with jitter (p-retry: factor 2, randomized ×1..2, capped at
 *   `maxDelayMs`); no retry starts whose wait would pass `deadlineMs` from the first attempt.
 * - Before each attempt the rate-limit tracker may hold the request until an exhausted window resets.
 */
import pRetry from "p-retry";
import { AbortedError, NetworkError, RateLimitError, ServerError, TimeoutError } from "./errors";
import type { ClientStats } from "./http";
import { sleep, type RateLimitTracker } from "./ratelimit";
import type { RetryPolicy } from "./config";

export interface RetryOptions {
  /** Operation name for messages. */
  operation: string;
  /** True when repeating the call cannot produce a second effect. */
  safe: boolean;
  policy: RetryPolicy;
  tracker: RateLimitTracker;
  stats: ClientStats;
  signal?: AbortSignal;
  debug?: (line: string) => void;
}

/**
 * Whether `err` may be retried for an operation of the given safety.
 * @param safe true for reads and idempotent writes.
 */
export function isRetryable(err: unknown, safe: boolean): boolean {
  if (err instanceof RateLimitError) return true;
  if (err instanceof ServerError) return safe;
  if (err instanceof TimeoutError) return safe;
  // A name that does not resolve (a typo in an address) will not resolve on a retry either.
  if (err instanceof NetworkError && err.code === "ENOTFOUND") return false;
  if (err instanceof NetworkError) return safe || !err.outcomeUnknown;
  return false;
}

/** Attempts a temporary DNS failure (EAI_AGAIN) gets in all: a resolver that stays down is not waited out. */
export const DNS_ATTEMPTS = 2;

/** `err` with how long the client kept trying, when it tried more than once (connection failures only). */
function withAttempts(err: unknown, attempts: number, startedAt: number): unknown {
  if (attempts > 1 && (err instanceof NetworkError || err instanceof TimeoutError)) {
    err.message += ` (gave up after ${attempts} attempts over ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`;
  }
  return err;
}

/** Longest backoff p-retry can pick before attempt `n + 1` (randomize multiplies by up to 2). */
function backoffUpperBound(policy: RetryPolicy, failedAttempts: number): number {
  return Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (failedAttempts - 1) * 2);
}

/**
 * Runs `fn` under the retry policy; `fn` performs exactly one request per call.
 *
 * @param fn receives the 1-based attempt number.
 * @returns what `fn` returns on its first success.
 * @throws the last error when it is not retryable, retries are used up, or the next wait would
 *   pass the deadline; AbortedError when `signal` fires.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const { policy, signal } = opts;
  const startedAt = Date.now();
  const deadline = startedAt + policy.deadlineMs;
  let attempts = 0;
  const aborted = () => new AbortedError(`${opts.operation}: aborted by the caller`, { operation: opts.operation });
  return pRetry<T>(
    async (attempt) => {
      if (signal?.aborted) throw new pRetry.AbortError(aborted());
      if (await opts.tracker.beforeSend(deadline, signal)) opts.stats.rateLimitWaits++;
      if (signal?.aborted) throw new pRetry.AbortError(aborted());
      attempts = attempt;
      try {
        return await fn(attempt);
      } catch (err) {
        if (!isRetryable(err, opts.safe)) throw new pRetry.AbortError(err as Error);
        if (err instanceof NetworkError && err.code === "EAI_AGAIN" && attempt >= DNS_ATTEMPTS) throw new pRetry.AbortError(err);
        throw err;
      }
    },
    {
      retries: policy.retries,
      factor: 2,
      minTimeout: policy.minDelayMs,
      maxTimeout: policy.maxDelayMs,
      randomize: true,
      onFailedAttempt: async (err) => {
        if (err.retriesLeft <= 0) return;
        const retryAfterMs = err instanceof RateLimitError ? (err.retryAfterSeconds ?? 1) * 1000 : 0;
        // Throwing here ends the retries with this (the latest) error.
        if (Date.now() + retryAfterMs + backoffUpperBound(policy, err.attemptNumber) > deadline) throw err;
        if (signal?.aborted) throw aborted();
        opts.stats.retries++;
        opts.debug?.(`${opts.operation}: attempt ${err.attemptNumber} failed (${err.name}); retrying`);
        if (retryAfterMs > 0) await sleep(retryAfterMs, signal);
      },
    },
  ).catch((err: unknown) => {
    throw withAttempts(err, attempts, startedAt);
  });
}
