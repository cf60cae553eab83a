/**
 * Classification of api client errors (src/api/errors.ts) for the provider's decisions: gone, blocked
 * by a precondition, or possibly applied. Checked by class and by the fields the classes carry, so an
 * error from another copy of the package (e.g. dist/ next to ts sources) is still recognised.
 */
import { GraphQLRequestError, InUseError, NotFoundError } from "../api/errors";

function codesOf(err: unknown): string[] {
  if (err instanceof GraphQLRequestError) return err.codes;
  const e = err as { codes?: unknown; graphqlErrors?: { code?: string }[] } | null;
  if (e && Array.isArray(e.codes)) return e.codes as string[];
  if (e && Array.isArray(e.graphqlErrors)) return e.graphqlErrors.map((g) => g.code ?? "");
  return [];
}

/** The endpoint (or other resource) does not exist for the caller: 404 or GraphQL `NOT_FOUND`. */
export function isNotFound(err: unknown): boolean {
  if (err instanceof NotFoundError) return true;
  if ((err as { name?: string } | null)?.name === "NotFoundError") return true;
  return codesOf(err).includes("NOT_FOUND");
}

/** The platform refused because of the resource's state (e.g. delete with workers > 0): `FAILED_PRECONDITION`. */
export function isFailedPrecondition(err: unknown): boolean {
  return codesOf(err).includes("FAILED_PRECONDITION");
}

/** The request may have taken effect although no answer arrived (dropped connection, timeout, 5xx). */
export function isOutcomeUnknown(err: unknown): boolean {
  return (err as { outcomeUnknown?: unknown } | null)?.outcomeUnknown === true;
}

/**
 * The request ran out of time rather than being answered (client timeout, or a gateway's 504): it may
 * still be in flight on the platform and take effect later.
 */
export function isTimeout(err: unknown): boolean {
  const e = err as { name?: unknown; status?: unknown } | null;
  return e?.name === "TimeoutError" || e?.status === 504;
}

/** The error's message, for wrapping; never the error object itself (its fields are already redacted). */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The platform refused a delete because something still uses the resource: GraphQL's `FAILED_PRECONDITION`, or an {@link InUseError} (a port's refusal, classified). */
export function isInUse(err: unknown): boolean {
  return err instanceof InUseError || (err as { name?: unknown } | null)?.name === "InUseError" || isFailedPrecondition(err);
}
