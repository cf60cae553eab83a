/**
 * What every operation module receives from the client: the transport, the configuration
 * (without the key) and a helper that runs one operation under the retry policy.
 */
import type { Transport } from "./http";
import { withRetry } from "./retry";
import type { ClientConfig } from "./config";

export interface ClientContext {
  readonly transport: Transport;
  readonly config: Readonly<Omit<ClientConfig, "apiKey">>;
}

/**
 * Runs `attempt` (one request per call; receives the 1-based attempt number) with retries.
 * @param safe true when repeating cannot produce a second effect (see retry.ts for the rules).
 */
export function callWithRetry<T>(
  ctx: ClientContext,
  operation: string,
  safe: boolean,
  attempt: (attemptNumber: number) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return withRetry(attempt, {
    operation,
    safe,
    policy: ctx.config.retry,
    rateLimitDeadlineMs: ctx.config.rateLimitDeadlineMs,
    tracker: ctx.transport.rateLimit,
    stats: ctx.transport.stats,
    signal,
    debug: ctx.transport.debug,
  });
}
