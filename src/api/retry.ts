/**
 * Retry policy of every call (spec: Errors, Limits; docs/operations.md).
 *
 * - A 429 is waited out, not retried: the platform rejected the request before acting on it, and the
 *   limit is the account's, shared with every other process using the key. The wait follows the
 *   answer's `Retry-After` and the exhausted window's `RateLimit` `t`, plus a jitter (ratelimit.ts), and
 *   counts neither against `retries` nor against `deadlineMs`. Only a wait that would pass the call's
 *   rate-limit deadline ends the call: the operation's (deadline.ts: the engine's `customTimeouts`),
 *   else `rateLimitDeadlineMs` from the call's start.
 * - 5xx, timeouts and connections dropped after sending are faults, retried only for operations that are
 *   safe to repeat (reads, `saveEndpoint` with `id`, `deleteEndpoint`, job status). For creates
 *   (`saveEndpoint` without `id`, `POST /v1/endpoints`, `/run`, `/runsync`) the client cannot tell
 *   whether the platform acted — a 5xx may come from a proxy after the origin created the endpoint —
 *   so the error is thrown with `outcomeUnknown: true` and the caller (the provider) looks for the
 *   endpoint before trying again. A refused connection or an unresolvable host never reached the
 *   platform, so it is retried for creates too — except a host name that does not resolve (ENOTFOUND:
 *   a typo in an address stays one) and a resolver that stays down (EAI_AGAIN, {@link DNS_ATTEMPTS}).
 * - A connection failure given up after several attempts says how many, over how long.
 * - Fault backoff is exponential with jitter (factor 2, randomized ×1..2, capped at `maxDelayMs`); no
 *   retry starts whose wait would pass `deadlineMs` from the first attempt (rate-limit waits aside) or
 *   the operation's deadline.
 * - Before each attempt the rate-limit tracker may hold the request: until an exhausted window resets,
 *   or until its pacing slot.
 */
import pRetry from "p-retry";
import { backoffMs } from "./backoff";
import { operationDeadline } from "./deadline";
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
  /** How long the call may wait out the rate limit when no operation deadline is set (config `rateLimitDeadlineMs`). */
  rateLimitDeadlineMs: number;
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

/** Backoff after a 429 that gave no figures to wait by: from 1 s, doubling, at most a minute. */
const BLIND_RATE_LIMIT_BACKOFF = { firstMs: 1000, maxMs: 60_000, jitter: true };

/** `err` with how long the client kept trying, when it tried more than once (connection failures only). */
function withAttempts(err: unknown, attempts: number, startedAt: number): unknown {
  if (attempts > 1 && (err instanceof NetworkError || err instanceof TimeoutError)) {
    err.message += ` (gave up after ${attempts} attempts over ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`;
  }
  return err;
}

/** A 429 given up on: the same error, saying why the client did not wait for the reset. */
function rateLimitGivenUp(err: RateLimitError, waitMs: number, deadline: number, fromOperation: boolean): RateLimitError {
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  const whose = fromOperation ? "the operation's deadline (customTimeouts)" : "the rate-limit deadline of the call";
  return new RateLimitError({
    status: err.status,
    httpStatus: err.httpStatus,
    operation: err.operation,
    problem: err.problem,
    body: err.body,
    graphqlErrors: err.graphqlErrors,
    rateLimit: err.rateLimit,
    requestId: err.requestId,
    retryAfterSeconds: err.retryAfterSeconds,
    hint: `Waiting ${Math.ceil(waitMs / 1000)} s for the account's rate limit to reset would pass ${whose}, ${left} s away`,
  });
}

/**
 * Runs `fn` under the retry policy; `fn` performs exactly one request per call.
 *
 * @param fn receives the 1-based attempt number (429 answers included).
 * @returns what `fn` returns on its first success.
 * @throws the last error when it is not retryable, fault retries are used up, or the next wait would
 *   pass its deadline (a RateLimitError then says so in its `hint`); AbortedError when `signal` fires.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const { policy, signal, tracker, stats } = opts;
  const startedAt = Date.now();
  const fromOperation = operationDeadline();
  const rateLimitDeadline = fromOperation ?? startedAt + opts.rateLimitDeadlineMs;
  // Time spent waiting out the rate limit, which the fault budget (`deadlineMs`) does not count.
  let rateLimitedMs = 0;
  let faults = 0;
  let rateLimited = 0;
  let attempts = 0;
  const aborted = () => new AbortedError(`${opts.operation}: aborted by the caller`, { operation: opts.operation });
  return pRetry<T>(
    async (attempt) => {
      if (signal?.aborted) throw new pRetry.AbortError(aborted());
      const before = Date.now();
      const hold = await tracker.beforeSend(rateLimitDeadline, signal);
      rateLimitedMs += Date.now() - before;
      if (hold === "reset") stats.rateLimitWaits++;
      if (hold === "paced") stats.rateLimitPaced++;
      attempts = attempt;
      try {
        if (signal?.aborted) throw new pRetry.AbortError(aborted());
        return await fn(attempt);
      } catch (err) {
        if (err instanceof pRetry.AbortError) throw err;
        if (!isRetryable(err, opts.safe)) throw new pRetry.AbortError(err as Error);
        if (err instanceof NetworkError && err.code === "EAI_AGAIN" && attempt >= DNS_ATTEMPTS) throw new pRetry.AbortError(err);
        throw err;
      } finally {
        tracker.settled();
      }
    },
    {
      // p-retry runs the loop and never waits itself: a 429 does not count as a retry, so the waits
      // and the fault count are kept here.
      forever: true,
      retries: 0,
      minTimeout: 0,
      maxTimeout: 0,
      factor: 1,
      randomize: false,
      onFailedAttempt: async (err) => {
        if (signal?.aborted) throw aborted();
        if (err instanceof RateLimitError) {
          rateLimited++;
          const known = Math.max(err.retryAfterSeconds ?? 0, ...err.exceededWindows.map((w) => err.windows[w]?.resetSeconds ?? 0));
          if (known > 0) tracker.holdFor(known);
          // Without figures the wait is a backoff of its own; with them the tracker holds the next
          // attempt (and every other request of this client) until the reset, jittered.
          const blind = known > 0 ? 0 : backoffMs(rateLimited - 1, BLIND_RATE_LIMIT_BACKOFF);
          const waitMs = Math.max(blind, tracker.delayMs());
          if (Date.now() + waitMs > rateLimitDeadline) throw rateLimitGivenUp(err, waitMs, rateLimitDeadline, fromOperation !== undefined);
          opts.debug?.(`${opts.operation}: rate limited (429); waiting ${Math.ceil(waitMs / 1000)} s for the reset`);
          if (blind > 0) {
            stats.rateLimitWaits++;
            await sleep(blind, signal);
            rateLimitedMs += blind;
          }
          return;
        }
        faults++;
        if (faults > policy.retries) throw err;
        const delay = backoffMs(faults - 1, { firstMs: policy.minDelayMs, maxMs: policy.maxDelayMs, jitter: true });
        const faultDeadline = Math.min(fromOperation ?? Infinity, startedAt + policy.deadlineMs + rateLimitedMs);
        // Throwing here ends the retries with this (the latest) error.
        if (Date.now() + delay > faultDeadline) throw err;
        stats.retries++;
        opts.debug?.(`${opts.operation}: attempt ${err.attemptNumber} failed (${err.name}); retrying`);
        await sleep(delay, signal);
      },
    },
  ).catch((err: unknown) => {
    throw withAttempts(err, attempts, startedAt);
  });
}
