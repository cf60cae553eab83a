/**
 * The client's one error hierarchy (spec: Errors; issue #2 "Errors", issue #6).
 *
 * PlatformError
 * ├─ ConfigurationError            bad or missing client configuration (e.g. no API key)
 * ├─ InvalidArgumentError          caller input rejected before any request was sent
 * ├─ ApiHttpError                  the platform answered with an error status
 * │  ├─ AuthenticationError 401    key missing, malformed, expired or invalid
 * │  ├─ PermissionError 403        key valid but lacks access
 * │  ├─ NotFoundError 404          resource missing or not the caller's
 * │  ├─ RateLimitError 429         Retry-After + parsed RateLimit / RateLimit-Policy windows
 * │  └─ ServerError 5xx            outcomeUnknown = true (a server error may follow the effect)
 * ├─ GraphQLRequestError           GraphQL `errors` array not covered by a class above
 * ├─ ResponseValidationError       a response did not match the spec's shape (zod)
 * ├─ NetworkError                  connection refused / dropped; outcomeUnknown says if it may have taken effect
 * ├─ TimeoutError                  request or wait exceeded its time budget
 * └─ AbortedError                  the caller's AbortSignal fired
 *
 * Every message, and every server-supplied string kept on an error, is redacted by the code that
 * builds the error (see redact.ts); errors never keep the raw underlying library error, whose text
 * may hold the GraphQL URL with the key.
 */
import type { RateLimitState } from "./ratelimit";
import type { RateLimitWindow } from "./spec";
import { RATE_LIMIT_WINDOWS } from "./spec";

/** Body of an `application/problem+json` error (spec: Resources › Error response). */
export interface ProblemDetails {
  title: string;
  status: number;
  detail: string;
  /** Individual request-validation failures. */
  errors?: string[];
  [extra: string]: unknown;
}

/** One entry of a GraphQL `errors` array, reduced to what the client relies on. */
export interface GraphQLErrorEntry {
  message: string;
  /** `extensions.code`, e.g. `BAD_USER_INPUT`, `FORBIDDEN`. */
  code?: string;
  path?: (string | number)[];
}

export interface PlatformErrorOptions {
  /** Client operation that failed, e.g. `saveEndpoint`, `listNetworkVolumes`. */
  operation?: string;
  /** True when the request may have taken effect on the platform although no answer arrived. */
  outcomeUnknown?: boolean;
}

/** Base of every error the client throws. `message` is already free of the API key. */
export class PlatformError extends Error {
  /** Client operation that failed. */
  readonly operation?: string;
  /**
   * True when the request may have taken effect (connection dropped after sending, timeout, 5xx).
   * A caller that created something must look for it before trying again (issue #6).
   */
  readonly outcomeUnknown: boolean;

  constructor(message: string, options: PlatformErrorOptions = {}) {
    super(message);
    this.operation = options.operation;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }

  /** JSON form used by `JSON.stringify`: the public fields, never a cause object. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [k, v] of Object.entries(this)) if (v !== undefined) out[k] = v;
    return out;
  }
}

/** Client configuration is missing or invalid; `setting` names what to fix. */
export class ConfigurationError extends PlatformError {
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(message);
  }
}

/** Caller input rejected before sending (e.g. `tail` outside 0..5000); `argument` names the field. */
export class InvalidArgumentError extends PlatformError {
  constructor(
    message: string,
    readonly argument: string,
    options: PlatformErrorOptions = {},
  ) {
    super(message, options);
  }
}

export interface ApiHttpErrorDetails extends PlatformErrorOptions {
  /** Status the error stands for (404 for a GraphQL NOT_FOUND even if the HTTP answer was 200). */
  status: number;
  /** HTTP status actually received. */
  httpStatus?: number;
  /** Parsed problem details (REST), redacted. */
  problem?: ProblemDetails;
  /** Body text when it was not problem details (truncated, redacted). */
  body?: string;
  /** GraphQL errors that produced this error (GraphQL interface), redacted. */
  graphqlErrors?: GraphQLErrorEntry[];
  /** Rate-limit figures of the answer, when present. */
  rateLimit?: RateLimitState;
  /** Extra sentence telling the user what to do. */
  hint?: string;
  /** Id the platform gave the request (a request-id header of the answer), for support requests. */
  requestId?: string;
}

function describeProblem(d: ApiHttpErrorDetails): string {
  const parts: string[] = [];
  if (d.problem) {
    parts.push(`${d.problem.title} (status ${d.problem.status}): ${d.problem.detail}`);
    if (d.problem.errors?.length) parts.push(`errors: ${d.problem.errors.join("; ")}`);
  } else if (d.graphqlErrors?.length) {
    parts.push(d.graphqlErrors.map((e) => (e.code ? `${e.message} [${e.code}]` : e.message)).join("; "));
  } else if (d.body) {
    parts.push(d.body);
  }
  return parts.join(" — ");
}

/** The platform answered with an error status; the problem details are part of `message`. */
export class ApiHttpError extends PlatformError {
  readonly status: number;
  readonly httpStatus: number;
  readonly problem?: ProblemDetails;
  readonly body?: string;
  readonly graphqlErrors?: GraphQLErrorEntry[];
  readonly rateLimit?: RateLimitState;
  /** Id the platform gave the request, when the answer named one. */
  readonly requestId?: string;

  constructor(d: ApiHttpErrorDetails) {
    const what = describeProblem(d);
    const head = `${d.operation ?? "request"} failed with HTTP ${d.httpStatus ?? d.status}`;
    const id = d.requestId ? ` (request id ${d.requestId})` : "";
    super([head + (what ? `: ${what}` : "") + id, d.hint].filter(Boolean).join(". "), d);
    this.status = d.status;
    this.httpStatus = d.httpStatus ?? d.status;
    this.problem = d.problem;
    this.body = d.body;
    this.graphqlErrors = d.graphqlErrors;
    this.rateLimit = d.rateLimit;
    this.requestId = d.requestId;
  }
}

/** 401: the API key is missing, malformed, expired or invalid (spec: Authentication 4). */
export class AuthenticationError extends ApiHttpError {}
/** 403: the API key is valid but lacks access to the resource or action (spec: Authentication 4). */
export class PermissionError extends ApiHttpError {}
/** 404: the resource does not exist or is not the caller's (spec: Errors). */
export class NotFoundError extends ApiHttpError {}
/** 5xx. `outcomeUnknown` is true: a server error can follow the effect, the client cannot tell. */
export class ServerError extends ApiHttpError {
  constructor(d: ApiHttpErrorDetails) {
    super({ ...d, outcomeUnknown: d.outcomeUnknown ?? true });
  }
}

/** 429: per-user rate limit exceeded (spec: Errors, Limits). */
export class RateLimitError extends ApiHttpError {
  /** `Retry-After` in seconds, when sent. */
  readonly retryAfterSeconds?: number;
  /** Parsed `RateLimit` / `RateLimit-Policy` per window. */
  readonly windows: RateLimitState;
  /** Windows whose remaining count is 0 (or named by `detail` when no header says so). */
  readonly exceededWindows: RateLimitWindow[];

  constructor(d: ApiHttpErrorDetails & { retryAfterSeconds?: number }) {
    super(d);
    this.retryAfterSeconds = d.retryAfterSeconds;
    this.windows = d.rateLimit ?? {};
    const fromHeaders = RATE_LIMIT_WINDOWS.filter((w) => this.windows[w]?.remaining === 0);
    const text = `${d.problem?.detail ?? ""} ${(d.graphqlErrors ?? []).map((e) => e.message).join(" ")}`.toLowerCase();
    this.exceededWindows = fromHeaders.length ? fromHeaders : RATE_LIMIT_WINDOWS.filter((w) => text.includes(w));
  }
}

/** A GraphQL answer carried an `errors` array (HTTP 200 or not); all messages and codes are kept. */
export class GraphQLRequestError extends PlatformError {
  readonly errors: GraphQLErrorEntry[];
  readonly messages: string[];
  readonly codes: string[];
  readonly httpStatus: number;

  constructor(errors: GraphQLErrorEntry[], httpStatus: number, options: PlatformErrorOptions = {}) {
    const list = errors.map((e) => (e.code ? `${e.message} [${e.code}]` : e.message)).join("; ");
    super(`${options.operation ?? "GraphQL request"} failed (HTTP ${httpStatus}): ${list || "no error message"}`, options);
    this.errors = errors;
    this.messages = errors.map((e) => e.message);
    this.codes = errors.map((e) => e.code).filter((c): c is string => typeof c === "string");
    this.httpStatus = httpStatus;
  }
}

/** A response did not have the shape the spec describes; `issues` lists each mismatch as `path: problem`. */
export class ResponseValidationError extends PlatformError {
  constructor(
    message: string,
    readonly issues: string[],
    options: PlatformErrorOptions = {},
  ) {
    super(message, options);
  }
}

/** The connection failed. `code` is the system error code (e.g. `ECONNREFUSED`, `ECONNRESET`). */
export class NetworkError extends PlatformError {
  constructor(
    message: string,
    readonly code: string | undefined,
    options: PlatformErrorOptions,
  ) {
    super(message, options);
  }
}

/** A request (or a wait such as `waitForJob`) took longer than `timeoutMs`. */
export class TimeoutError extends PlatformError {
  constructor(
    message: string,
    readonly timeoutMs: number,
    options: PlatformErrorOptions,
  ) {
    super(message, options);
  }
}

/** The caller's AbortSignal fired while a request was in flight. */
export class AbortedError extends PlatformError {}

// Set `name` on the prototypes so stack headers and `String(err)` show the class name.
for (const cls of [
  PlatformError,
  ConfigurationError,
  InvalidArgumentError,
  ApiHttpError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  ServerError,
  RateLimitError,
  GraphQLRequestError,
  ResponseValidationError,
  NetworkError,
  TimeoutError,
  AbortedError,
]) {
  Object.defineProperty(cls.prototype, "name", { value: cls.name, enumerable: false, configurable: true, writable: true });
}

const AUTH_HINT = "Check the API key: set Pulumi config `runpod:apiKey` (as a secret) or the RUNPOD_API_KEY environment variable";
const PERMISSION_HINT = "The API key is valid but lacks permission for this action; use a key with read/write access";

/**
 * Builds the error class that matches `status` (401, 403, 404, 429, 5xx, other 4xx → ApiHttpError).
 * Inputs must already be redacted.
 */
export function errorForStatus(d: ApiHttpErrorDetails & { retryAfterSeconds?: number }): ApiHttpError {
  const s = d.status;
  if (s === 401) return new AuthenticationError({ ...d, hint: d.hint ?? AUTH_HINT });
  if (s === 403) return new PermissionError({ ...d, hint: d.hint ?? PERMISSION_HINT });
  if (s === 404) return new NotFoundError(d);
  if (s === 429) return new RateLimitError(d);
  if (s >= 500) return new ServerError(d);
  return new ApiHttpError(d);
}
