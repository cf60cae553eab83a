/**
 * How REST v2 answers every error (docs/spec/rest-v2-openapi.json › ErrorResponse, RFC 9457): `{ title, status,
 * detail, errors? }` as application/problem+json, `errors` naming each failure's field. Every v2 handler throws
 * these, and the v2 routes turn the shared platform's errors into them (missing = 404, refused = 400).
 */
import { BillingError } from "../billing";
import { DomainError } from "../domainError";
import { ProblemError } from "../problem";

/** A problem with the given status; `errors` lists the individual failures. */
export function v2Problem(status: number, detail: string, errors?: string[]): ProblemError {
  return new ProblemError(status, detail, errors);
}

/** The 400 (or `status`) of a request the platform's rules refuse; its one `errors` entry is the detail. */
export function refused(detail: string, status = 400): ProblemError {
  return v2Problem(status, detail, [detail]);
}

/**
 * A thrown error as v2 answers it: problems pass through; the shared platform's domain errors (GraphQL's codes)
 * become 404 when something is missing and 400 otherwise (`FAILED_PRECONDITION` included: the v2 delete operations
 * answer 400 for an in-use record); a billing window error is a 400. Anything else is rethrown as is.
 */
export function asV2Problem(e: unknown): unknown {
  if (e instanceof ProblemError) return e;
  if (e instanceof DomainError) {
    if (e.code === "NOT_FOUND") return v2Problem(404, e.message);
    return v2Problem(400, e.message, [e.field ? `${e.field}: ${e.message}` : e.message]);
  }
  if (e instanceof BillingError) return refused(e.message);
  return e;
}
