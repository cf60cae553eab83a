/**
 * The deadline of the operation a call belongs to (a resource's create, update or delete), set by the
 * front end that knows it — the provider plugin, from the engine's `customTimeouts` — and read by the
 * retry policy, so a rate-limit wait never outlives the operation that asked for it. Calls outside any
 * such scope get the configured `rateLimitDeadlineMs` from their own start (retry.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<number>();

/**
 * Runs `fn` with its calls bound to finish waiting by `timeoutMs` from now.
 * @param timeoutMs the operation's time budget in milliseconds; 0, negative or undefined sets no
 *   deadline (the engine sends 0 when the resource has no `customTimeouts`).
 */
export function withOperationDeadline<T>(timeoutMs: number | undefined, fn: () => Promise<T>): Promise<T> {
  if (!(timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs))) return fn();
  return scope.run(Date.now() + timeoutMs, fn);
}

/** The current operation's deadline (ms epoch), or undefined outside {@link withOperationDeadline}. */
export function operationDeadline(): number | undefined {
  return scope.getStore();
}
