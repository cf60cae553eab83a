/**
 * HTTP transport shared by every interface: node-fetch with a per-request timeout (AbortController),
 * bearer authentication, problem+json error parsing, rate-limit header capture on every answer,
 * and translation of every failure into the client's error classes with the key redacted.
 * Spec: Authentication (1), Errors, Limits.
 */
import fetch, { Headers, Response, type RequestInit } from "node-fetch";
import type { z } from "zod";
import { AbortedError, NetworkError, ResponseValidationError, TimeoutError, errorForStatus, type ApiHttpError, type ProblemDetails } from "./errors";
import { parseRateLimitHeaders, parseRetryAfter, type HeaderSource, type RateLimitTracker } from "./ratelimit";
import { redactValue, type Redactor } from "./redact";
import { parseResponse, problemDetailsSchema } from "./schemas";

/** Counters a client keeps, for reports (the reliability suite's summary line). */
export interface ClientStats {
  /** Requests put on the wire, including retries and stream reconnects. */
  requests: number;
  /** Attempts repeated after a fault (5xx, timeout, dropped connection); a 429 waited out is not one. */
  retries: number;
  /** Times a request waited for a rate-limit window to reset (a window used up, or a 429 waited out). */
  rateLimitWaits: number;
  /** Times a request was held back by pacing before the window was used up. */
  rateLimitPaced: number;
  /** Log-stream reconnects after a dropped or closed stream. */
  streamReconnects: number;
}

/** Everything a request needs from its client; built once by `createClient`. */
export interface Transport {
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly redact: Redactor;
  readonly rateLimit: RateLimitTracker;
  readonly stats: ClientStats;
  /** Receives one redacted line per request, when set. */
  readonly debug?: (line: string) => void;
}

export interface SendOptions {
  /** Client operation name for messages, e.g. `listNetworkVolumes`. */
  operation: string;
  /** Caller's cancellation. */
  signal?: AbortSignal;
  /** Overrides the client's per-request timeout, in milliseconds. */
  timeoutMs?: number;
}

/** `User-Agent` of every request, REST and GraphQL alike. */
export const USER_AGENT = "pulumi-runpod-client/0.1";
const BODY_EXCERPT = 2000;
// System errors raised before any byte of the request could reach the server.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH", "ERR_INVALID_URL"]);

interface Attempt {
  controller: AbortController;
  timedOut: () => boolean;
  finish: () => void;
}

/**
 * Links the caller's signal and a timeout to one AbortController for one request; `controller`
 * is given when the caller keeps driving it after the attempt (an event stream's body).
 */
function startAttempt(timeoutMs: number, signal?: AbortSignal, controller = new AbortController()): Attempt {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  return {
    controller,
    timedOut: () => timedOut,
    finish: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}

/** Converts anything node-fetch throws into a redacted client error. */
function transportError(err: unknown, attempt: Attempt, t: Transport, opts: SendOptions, timeoutMs: number, phase: "request" | "response body"): Error {
  const e = err as { name?: string; message?: string; code?: string; errno?: string };
  if (e?.name === "AbortError" || attempt.controller.signal.aborted) {
    if (attempt.timedOut()) {
      return new TimeoutError(`${opts.operation}: no complete answer within ${timeoutMs} ms; the request may have taken effect`, timeoutMs, {
        operation: opts.operation,
        outcomeUnknown: true,
      });
    }
    return new AbortedError(`${opts.operation}: aborted by the caller`, { operation: opts.operation, outcomeUnknown: true });
  }
  const code = e?.code ?? e?.errno;
  const sent = !(code && NOT_SENT_CODES.has(code));
  const reason = t.redact(String(e?.message ?? err));
  const what =
    phase === "response body"
      ? "connection failed while reading the response body"
      : sent
        ? "connection failed before the answer arrived"
        : "could not send the request";
  return new NetworkError(
    `${opts.operation}: ${what}${code ? ` (${code})` : ""}: ${reason}` + (sent ? "; the request may have taken effect" : "; the request was not delivered"),
    code,
    { operation: opts.operation, outcomeUnknown: sent },
  );
}

/**
 * Refuses a redirect answer: following it would send the bearer key (or the GraphQL `api_key`) to
 * whatever address the server names, another port or host included.
 * @throws ResponseValidationError naming the status and the (redacted) target; not retried.
 */
function refuseRedirect(t: Transport, res: Response, operation: string): void {
  if (res.status < 300 || res.status > 399 || !res.headers.has("location")) return;
  res.body?.resume?.();
  const target = t.redact(res.headers.get("location") ?? "");
  throw new ResponseValidationError(
    `${operation}: the server answered HTTP ${res.status} redirecting to ${target}; redirects are not followed, so the API key never goes to another address — configure the final address instead`,
    [`status: ${res.status} redirect`],
    { operation },
  );
}

/**
 * Sends one request and reads its whole body inside the timeout.
 * Records rate-limit headers; does not judge the status.
 *
 * @returns a node-fetch Response whose body is the buffered text (safe to read once more).
 * @throws TimeoutError (outcomeUnknown), AbortedError, NetworkError (outcomeUnknown unless the
 *   connection was refused or the host unresolvable).
 */
export async function sendBuffered(t: Transport, url: string, init: RequestInit, opts: SendOptions): Promise<Response> {
  const timeoutMs = opts.timeoutMs ?? t.timeoutMs;
  const attempt = startAttempt(timeoutMs, opts.signal);
  const method = init.method ?? "GET";
  t.stats.requests++;
  try {
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: "manual", signal: attempt.controller.signal as RequestInit["signal"] });
    } catch (err) {
      throw transportError(err, attempt, t, opts, timeoutMs, "request");
    }
    refuseRedirect(t, res, opts.operation);
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw transportError(err, attempt, t, opts, timeoutMs, "response body");
    }
    t.rateLimit.update(parseRateLimitHeaders(res.headers));
    t.debug?.(t.redact(`${opts.operation}: ${method} ${url} -> ${res.status}`));
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers, url: res.url });
  } finally {
    attempt.finish();
  }
}

/**
 * Opens a response whose body is read later (event streams). The timeout covers the wait for
 * the status line and headers only; `controller` (owned by the caller) ends the body.
 * Non-2xx answers are read whole and thrown as errors.
 *
 * @throws the classes of {@link sendBuffered} and {@link httpError}.
 */
export async function openStream(t: Transport, url: string, init: RequestInit, opts: SendOptions & { controller: AbortController }): Promise<Response> {
  const timeoutMs = opts.timeoutMs ?? t.timeoutMs;
  // The caller's controller drives the request and, later, the body; the timeout only guards the headers.
  const attempt = startAttempt(timeoutMs, undefined, opts.controller);
  t.stats.requests++;
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: "manual", signal: attempt.controller.signal as RequestInit["signal"] });
  } catch (err) {
    throw transportError(err, attempt, t, opts, timeoutMs, "request");
  } finally {
    attempt.finish();
  }
  refuseRedirect(t, res, opts.operation);
  t.rateLimit.update(parseRateLimitHeaders(res.headers));
  t.debug?.(t.redact(`${opts.operation}: ${init.method ?? "GET"} ${url} -> ${res.status} (stream)`));
  if (!res.ok) {
    let text = "";
    try {
      text = await res.text();
    } catch {
      // The status alone still classifies the error.
    }
    throw httpError(t, res.status, res.headers, text, opts.operation);
  }
  return res;
}

/**
 * Builds the error for a non-2xx REST answer: problem details parsed and shown whole, the
 * rate-limit windows and `Retry-After` attached, every string redacted (spec: Errors).
 */
export function httpError(t: Transport, status: number, headers: Headers, text: string, operation: string): ApiHttpError {
  const requestId = requestIdOf(headers, t.redact);
  let problem: ProblemDetails | undefined;
  let body: string | undefined;
  try {
    const parsed = problemDetailsSchema.safeParse(JSON.parse(text));
    if (parsed.success) problem = redactValue(parsed.data as ProblemDetails, t.redact);
  } catch {
    // Not JSON: keep an excerpt of the text instead.
  }
  if (!problem && text) body = t.redact(text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}…` : text);
  return errorForStatus({
    status,
    httpStatus: status,
    operation,
    problem,
    body,
    rateLimit: parseRateLimitHeaders(headers),
    retryAfterSeconds: parseRetryAfter(headers.get("retry-after")),
    requestId,
  });
}

/**
 * Headers that may carry the id the platform gives a request. The REST v2 document names none, so the
 * conventional names are read, in this order; the first present one is kept for support requests.
 */
export const REQUEST_ID_HEADERS = ["x-request-id", "request-id", "x-correlation-id"] as const;

/** The request id an answer carries (see {@link REQUEST_ID_HEADERS}), redacted and cut to 200 characters. */
export function requestIdOf(headers: HeaderSource, redact: Redactor): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name)?.trim();
    if (value) return redact(value.slice(0, 200));
  }
  return undefined;
}

export interface JsonRequest extends SendOptions {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  /** JSON-serialisable request body. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Headers of every bearer-authenticated request (spec: Authentication 1). */
export function bearerHeaders(t: Transport, extra: Record<string, string> = {}): Record<string, string> {
  return { Authorization: `Bearer ${t.apiKey}`, Accept: "application/json", "User-Agent": USER_AGENT, ...extra };
}

/**
 * One bearer-authenticated JSON request (REST v1, REST v2, job interface).
 *
 * @returns the parsed JSON body of a 2xx answer (`undefined` for an empty body).
 * @throws ApiHttpError subclasses for non-2xx, ResponseValidationError for a non-JSON 2xx body,
 *   and the transport errors of {@link sendBuffered}.
 */
export async function requestJson(t: Transport, req: JsonRequest): Promise<unknown> {
  const headers = bearerHeaders(t, req.body !== undefined ? { "Content-Type": "application/json", ...req.headers } : req.headers);
  const res = await sendBuffered(t, req.url, { method: req.method, headers, body: req.body !== undefined ? JSON.stringify(req.body) : undefined }, req);
  const text = await res.text();
  if (!res.ok) throw httpError(t, res.status, res.headers, text, req.operation);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseValidationError(`${req.operation}: HTTP ${res.status} answer is not JSON: ${t.redact(text.slice(0, 200))}`, ["body: not JSON"], {
      operation: req.operation,
    });
  }
}

/**
 * {@link requestJson} followed by validation of the answer against `schema`.
 * @returns the parsed body, shaped by `schema`.
 * @throws ResponseValidationError when the body does not match, and the errors of {@link requestJson}.
 */
export async function requestParsed<S extends z.ZodTypeAny>(t: Transport, req: JsonRequest, schema: S): Promise<z.output<S>> {
  return parseResponse(schema, await requestJson(t, req), req.operation, t.redact);
}

/**
 * Joins a base URL and path segments, encoding each segment (ids never alter the path).
 * @throws Error for an empty or dot-only segment, which URL parsing would drop or resolve
 *   (`..` climbs a level even encoded); operations check their ids first (arguments.ts `idArgument`).
 */
export function joinUrl(base: string, ...segments: string[]): string {
  const bad = segments.find((s) => s === "" || /^\.+$/.test(s));
  if (bad !== undefined) throw new Error(`joinUrl: path segment ${JSON.stringify(bad)} would change the path`);
  return `${base.replace(/\/+$/, "")}/${segments.map((s) => encodeURIComponent(s)).join("/")}`;
}

/** Query parameter values an operation may send; `undefined` leaves the parameter out. */
export type QueryParameters = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/**
 * Appends `query` to `url`. Arrays are sent comma-separated in one parameter, the REST v2 document's
 * `style: form, explode: false`; undefined values and empty arrays are left out.
 */
export function withQuery(url: string, query: QueryParameters | undefined): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.append(name, value.join(","));
    } else params.append(name, String(value));
  }
  // A comma is allowed in a query (RFC 3986 sub-delims) and is the list separator: keep it readable.
  const text = params.toString().replace(/%2C/gi, ",");
  return text ? `${url}?${text}` : url;
}

export { Headers };
