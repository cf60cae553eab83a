/**
 * Errors of the emulated platform's domain rules, independent of the interface that reports them.
 * GraphQL reports them as `errors[].extensions.code`; REST maps them to problem+json statuses.
 */
export type DomainCode = "BAD_USER_INPUT" | "NOT_FOUND" | "FAILED_PRECONDITION";

export class DomainError extends Error {
  constructor(
    readonly code: DomainCode,
    message: string,
    /** Input field the error is about, when there is one. */
    readonly field?: string,
    /** Allowed values of that field, when the set is closed. */
    readonly allowed?: readonly string[],
  ) {
    super(message);
  }

  /** HTTP status used when a REST route reports this error. */
  get httpStatus(): number {
    return this.code === "NOT_FOUND" ? 404 : this.code === "FAILED_PRECONDITION" ? 409 : 400;
  }
}
