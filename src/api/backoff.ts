/**
 * The package's one backoff formula: the `retry` library's exponential timeout (factor 2), from
 * `firstMs` up to `maxMs`, optionally jittered ×1..2. Client retries, log-stream reconnects, create
 * settlement and in-use delete retries all pause by it.
 */
import { createTimeout } from "retry";

export interface Backoff {
  /** Pause after the first failure, in milliseconds. */
  firstMs: number;
  /** Longest pause, in milliseconds. */
  maxMs: number;
  /** Randomize each pause ×1..2, so clients sharing a limit do not retry in step. */
  jitter?: boolean;
}

/** The pause before retry number `retry` (0 for the first), in milliseconds. */
export function backoffMs(retry: number, b: Backoff): number {
  return createTimeout(retry, { minTimeout: b.firstMs, maxTimeout: b.maxMs, factor: 2, randomize: b.jitter === true });
}
