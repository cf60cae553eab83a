/**
 * Checks of caller arguments made before any request is sent, shared by every operation module
 * so each rule and its message exist once.
 */
import { InvalidArgumentError } from "./errors";

/**
 * Requires `value` to be a string with a non-blank character (ids, cursors).
 * @param argument name of the field, shown in the message and kept on the error.
 * @param operation client operation name, e.g. `listWorkers`.
 * @returns `value`, typed as a string.
 * @throws InvalidArgumentError `<operation>: <argument> must be a non-empty string`.
 */
export function requireNonEmpty(value: unknown, argument: string, operation: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidArgumentError(`${operation}: ${argument} must be a non-empty string`, argument, { operation });
  }
  return value;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Whether `value` is an RFC 3339 date-time with an offset, e.g. `2024-01-01T00:00:00Z` — the form
 * of the log stream's `since` (spec: Endpoints › worker logs). Impossible dates are rejected.
 */
export function isRfc3339DateTime(value: unknown): value is string {
  return typeof value === "string" && RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}
