/**
 * Classification of api client errors (src/api/errors.ts) for the provider's decisions: gone, blocked
 * by a precondition, or possibly applied. Checked by class and by the fields the classes carry, so an
 * error from another copy of the package (e.g. dist/ next to ts sources), or one withoutSecrets
 * (secrets.ts) rethrew as a plain Error with those fields, is still recognised.
 */
import { InUseError, NotFoundError } from "../api/errors";

/** Field `name` of a thrown value when it is an object (the fields api errors carry: `status`, `codes`, …). */
export function fieldOf(err: unknown, name: string): unknown {
  if (typeof err !== "object" || err === null) return undefined;
  const value: unknown = Reflect.get(err, name);
  return value;
}

/**
 * The record does not exist for the caller: a `NotFoundError` (a 404, or a GraphQL answer that only
 * says `NOT_FOUND`). What else a path's codes mean is its own (paths/graphqlErrors.ts).
 */
export function isNotFound(err: unknown): boolean {
  return err instanceof NotFoundError || fieldOf(err, "name") === "NotFoundError";
}

/** The request may have taken effect although no answer arrived (dropped connection, timeout, 5xx). */
export function isOutcomeUnknown(err: unknown): boolean {
  return fieldOf(err, "outcomeUnknown") === true;
}

/**
 * The request ran out of time rather than being answered (client timeout, or a gateway's 504): it may
 * still be in flight on the platform and take effect later.
 */
export function isTimeout(err: unknown): boolean {
  return fieldOf(err, "name") === "TimeoutError" || fieldOf(err, "status") === 504;
}

/** The error's message, for wrapping; never the error object itself (its fields are already redacted). */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The platform refused a delete because something still uses the resource: an {@link InUseError} (a port's refusal, classified by inUse.ts). */
export function isInUse(err: unknown): boolean {
  return err instanceof InUseError || fieldOf(err, "name") === "InUseError";
}
