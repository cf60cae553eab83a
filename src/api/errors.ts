/**
 * The client's one error hierarchy (spec: Errors; README › Troubleshooting).
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
 * ├─ AbortedError                  the caller's AbortSignal fired
 * └─ InUseError                    a delete refused while something still uses the resource (`cause`: the answer)
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
   * A caller that created something must look for it before trying again (docs/operations.md).
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

/** One sentence without its closing period, so a composed message never ends in "..". */
function sentence(text: string): string {
  return text.trim().replace(/[.\s]+$/, "");
}

/**
 * The platform's own words for the failure, each said once: the problem's `detail` (or `title`),
 * then the individual `errors` that do not repeat it; GraphQL messages with their code; or the body.
 */
export function summarizeProblem(d: Pick<ApiHttpErrorDetails, "problem" | "graphqlErrors" | "body">): string {
  if (d.problem) {
    const head = sentence(d.problem.detail || d.problem.title || "");
    const extra = (d.problem.errors ?? []).map(sentence).filter((e) => e && e !== head);
    return [head, ...extra].filter(Boolean).join("; ");
  }
  if (d.graphqlErrors?.length) return d.graphqlErrors.map((e) => (e.code ? `${sentence(e.message)} [${e.code}]` : sentence(e.message))).join("; ");
  return d.body ? sentence(d.body) : "";
}

/**
 * The one form of every message about an answer the platform gave: `summary (HTTP 404, doing)`,
 * then the front end's hint. `doing` says what was being done: an operation (`listWorkers`) by
 * default; each front end may name it its own way (the CLI names its command).
 */
export function composeApiMessage(parts: { summary: string; httpStatus: number; doing?: string; hint?: string; requestId?: string }): string {
  const summary = sentence(parts.summary) || "The platform refused the request";
  const context = [`HTTP ${parts.httpStatus}`, parts.doing, parts.requestId && `request id ${parts.requestId}`].filter(Boolean).join(", ");
  const hint = parts.hint ? `. ${sentence(parts.hint)}` : "";
  return `${summary} (${context})${hint}`;
}

/** The platform answered with an error status; `message` is {@link composeApiMessage} of `summary`. */
export class ApiHttpError extends PlatformError {
  readonly status: number;
  readonly httpStatus: number;
  /** The platform's words for the failure, without status or operation (see {@link summarizeProblem}). */
  readonly summary: string;
  readonly problem?: ProblemDetails;
  readonly body?: string;
  readonly graphqlErrors?: GraphQLErrorEntry[];
  readonly rateLimit?: RateLimitState;
  /** Id the platform gave the request, when the answer named one. */
  readonly requestId?: string;
  /** The client's own sentence on what to do (e.g. why a 429 was not waited out), kept by {@link explainError}. */
  readonly hint?: string;

  constructor(d: ApiHttpErrorDetails) {
    const summary = summarizeProblem(d);
    super(composeApiMessage({ summary, httpStatus: d.httpStatus ?? d.status, doing: d.operation, hint: d.hint, requestId: d.requestId }), d);
    this.status = d.status;
    this.httpStatus = d.httpStatus ?? d.status;
    this.summary = summary;
    this.problem = d.problem;
    this.body = d.body;
    this.graphqlErrors = d.graphqlErrors;
    this.rateLimit = d.rateLimit;
    this.requestId = d.requestId;
    this.hint = d.hint;
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
  /** The messages and codes, without status or operation. */
  readonly summary: string;

  constructor(errors: GraphQLErrorEntry[], httpStatus: number, options: PlatformErrorOptions = {}) {
    const summary = summarizeProblem({ graphqlErrors: errors }) || "GraphQL request failed without an error message";
    super(composeApiMessage({ summary, httpStatus, doing: options.operation }), options);
    this.summary = summary;
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

/**
 * The platform refused a delete because something still uses the resource, as the path says it
 * (GraphQL: `FAILED_PRECONDITION`; REST v2: a 400 to the delete). Keeps the refusal's message,
 * operation and status; the refusal itself is the `cause`.
 */
export class InUseError extends PlatformError {
  /** Status of the refusal's answer, when it had one. */
  readonly status?: number;

  constructor(refusal: unknown) {
    const r = refusal as { message?: unknown; operation?: unknown; status?: unknown } | null;
    super(typeof r?.message === "string" ? r.message : String(refusal), { operation: typeof r?.operation === "string" ? r.operation : undefined });
    this.status = typeof r?.status === "number" ? r.status : undefined;
    Object.defineProperty(this, "cause", { value: refusal, enumerable: false, configurable: true, writable: true });
  }
}

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
  InUseError,
]) {
  Object.defineProperty(cls.prototype, "name", { value: cls.name, enumerable: false, configurable: true, writable: true });
}

/**
 * Builds the error class that matches `status` (401, 403, 404, 429, 5xx, other 4xx → ApiHttpError).
 * Inputs must already be redacted. No hint is added here: what to do about a key or a permission
 * depends on where it was configured, which only the front end knows (see `hints` of each).
 */
export function errorForStatus(d: ApiHttpErrorDetails & { retryAfterSeconds?: number }): ApiHttpError {
  const s = d.status;
  if (s === 401) return new AuthenticationError(d);
  if (s === 403) return new PermissionError(d);
  if (s === 404) return new NotFoundError(d);
  if (s === 429) return new RateLimitError(d);
  if (s >= 500) return new ServerError(d);
  return new ApiHttpError(d);
}

/** What a front end tells its user to do about errors only it can explain (where the key is set). */
export interface FrontEndHints {
  /** After a 401: where this front end reads the key. */
  authentication?: string;
  /** After a 403. */
  permission?: string;
  /** After a 429 the client gave up waiting out: which settings allow a longer wait. */
  rateLimit?: string;
  /** After a configuration error, by its `setting` (`apiKey`, `graphqlUrl`, ...). */
  configuration?: (setting: string | undefined) => string | undefined;
}

/**
 * `err`'s message as a front end shows it: API answers composed again with the front end's `doing`
 * (e.g. the CLI's command instead of the operation) and its hint; other client errors with their
 * leading `operation:` replaced by `doing`. Anything else: its message.
 */
export function explainError(err: unknown, options: { doing?: string; hints?: FrontEndHints } = {}): string {
  const { doing, hints = {} } = options;
  if (err instanceof ApiHttpError || err instanceof GraphQLRequestError) {
    const frontEnd =
      err instanceof AuthenticationError
        ? hints.authentication
        : err instanceof PermissionError
          ? hints.permission
          : err instanceof RateLimitError
            ? hints.rateLimit
            : undefined;
    const own = err instanceof ApiHttpError ? err.hint : undefined;
    const hint =
      [own, frontEnd]
        .filter(Boolean)
        .map((h) => sentence(h as string))
        .join(". ") || undefined;
    return composeApiMessage({ summary: err.summary, httpStatus: err.httpStatus, doing: doing ?? err.operation, hint });
  }
  if (err instanceof ConfigurationError) {
    const hint = hints.configuration?.(err.setting);
    return hint ? `${sentence(err.message)}. ${sentence(hint)}` : err.message;
  }
  if (err instanceof PlatformError && doing && err.operation && err.message.startsWith(`${err.operation}: `)) {
    return `${sentence(err.message.slice(err.operation.length + 2))} (${doing})`;
  }
  return err instanceof Error ? err.message : String(err);
}
