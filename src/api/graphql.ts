/**
 * GraphQL transport (spec: Endpoints › POST {graphql_url}?api_key=<API_KEY>; Authentication 2).
 *
 * Uses graphql-request's GraphQLClient with node-fetch underneath (through `sendBuffered`, so the
 * per-request timeout, rate-limit capture and redacted transport errors apply), sends documents
 * with variables, and turns every GraphQL `errors` array — HTTP 200 or not — into a client error.
 * graphql-request's own ClientError (whose message embeds the query, variables and response) is
 * never rethrown: only redacted fields of it are kept.
 */
import type * as GraphQLRequest from "graphql-request";
import { z } from "zod";
import { GraphQLRequestError, PlatformError, ResponseValidationError, errorForStatus, type GraphQLErrorEntry } from "./errors";
import { Headers, USER_AGENT, httpError, sendBuffered, type Transport } from "./http";
import { parseRateLimitHeaders, parseRetryAfter } from "./ratelimit";
import { parseResponse } from "./schemas";

/**
 * graphql-request, loaded at the first GraphQL request: it brings `graphql` with it, the largest part of
 * the api client's load, which a provider process on REST v2 (the default path) never needs.
 */
let graphqlRequest: typeof GraphQLRequest | undefined;
function graphqlRequestModule(): typeof GraphQLRequest {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  graphqlRequest ??= require("graphql-request") as typeof GraphQLRequest;
  return graphqlRequest;
}

/**
 * The `gql` template tag (editors highlight GraphQL in it): the document text with the values put in,
 * as graphql-request's own, without loading graphql-request.
 */
export const gql = (chunks: TemplateStringsArray, ...values: unknown[]): string =>
  chunks.reduce((text, chunk, i) => `${text}${chunk}${i in values ? String(values[i]) : ""}`, "");

/** `extensions.code` values that name one of the status classes (the emulator's and Apollo's codes). */
const CODE_STATUS: Record<string, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
};

/** The object schema inside optional, nullable, array and transformed wrappers, if any. */
function objectWithin(schema: z.ZodTypeAny): z.AnyZodObject | undefined {
  for (let t = schema; ;) {
    if (t instanceof z.ZodObject) return t;
    if (t instanceof z.ZodEffects) t = t.innerType();
    else if (t instanceof z.ZodOptional || t instanceof z.ZodNullable) t = t.unwrap();
    else if (t instanceof z.ZodArray) t = t.element;
    else return undefined;
  }
}

/**
 * The GraphQL selection set of the fields an object schema lists, nested objects included, e.g.
 * `id name pods { desiredStatus }`: documents select exactly what the schemas read (schemas.ts).
 * @throws Error when `schema` holds no object schema (a programming error).
 */
export function selectionOf(schema: z.ZodTypeAny): string {
  const object = objectWithin(schema);
  if (!object) throw new Error("selectionOf: not an object schema");
  return Object.entries(object.shape as z.ZodRawShape)
    .map(([field, type]) => (objectWithin(type) ? `${field} { ${selectionOf(type)} }` : field))
    .join(" ");
}

/** An input object for GraphQL variables: `undefined` members are not sent; `null` is kept (it clears a field). */
export function definedOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Builds the `?api_key=` address (spec: Authentication 2). The result is a secret: never log it unredacted. */
export function graphqlAddress(graphqlUrl: string, apiKey: string): string {
  const url = new URL(graphqlUrl);
  url.searchParams.set("api_key", apiKey);
  return url.toString();
}

/** The form of a GraphQL `extensions.code`, e.g. `BAD_USER_INPUT`; anything else is dropped. */
const ERROR_CODE = /^[A-Z_]{1,64}$/;

/** The entries of a GraphQL `errors` array: messages and path strings redacted, codes kept only in {@link ERROR_CODE} form. */
function toEntries(errors: unknown, redact: (s: string) => string): GraphQLErrorEntry[] {
  if (!Array.isArray(errors)) return [];
  return errors.map((e) => {
    const o = (e ?? {}) as { message?: unknown; extensions?: { code?: unknown }; path?: unknown };
    const entry: GraphQLErrorEntry = { message: redact(typeof o.message === "string" ? o.message : JSON.stringify(o)) };
    // A code is shown in messages and drives the error class, so only the codes' own form is kept
    // (a server echoing the request there would otherwise print the key or forge a status).
    const code = o.extensions?.code;
    if (typeof code === "string" && ERROR_CODE.test(code)) entry.code = code;
    if (Array.isArray(o.path)) {
      entry.path = o.path
        .filter((p): p is string | number => typeof p === "string" || typeof p === "number")
        .map((p) => (typeof p === "string" ? redact(p) : p));
    }
    return entry;
  });
}

/**
 * Chooses the error for a GraphQL answer: the HTTP status decides first (401/403/404/429/5xx);
 * on other statuses, errors that all carry one of UNAUTHENTICATED / FORBIDDEN / NOT_FOUND /
 * RATE_LIMITED become that status class; anything else is a GraphQLRequestError.
 */
function graphqlFailure(
  t: Transport,
  operation: string,
  httpStatus: number,
  entries: GraphQLErrorEntry[],
  headers: Headers | undefined,
  bodyText: string | undefined,
): PlatformError {
  if (!entries.length && headers && (httpStatus < 200 || httpStatus >= 300)) {
    // Not a GraphQL body (e.g. a problem+json 5xx from a proxy): the REST error rules apply.
    return httpError(t, httpStatus, headers, bodyText ?? "", operation);
  }
  const common = {
    operation,
    httpStatus,
    graphqlErrors: entries.length ? entries : undefined,
    rateLimit: headers ? parseRateLimitHeaders(headers) : undefined,
    retryAfterSeconds: headers ? parseRetryAfter(headers.get("retry-after")) : undefined,
  };
  if ([401, 403, 404, 429].includes(httpStatus) || httpStatus >= 500) return errorForStatus({ ...common, status: httpStatus });
  const codes = new Set(entries.map((e) => e.code));
  if (entries.length && codes.size === 1) {
    const status = CODE_STATUS[[...codes][0] ?? ""];
    if (status) return errorForStatus({ ...common, status });
  }
  if (entries.length) return new GraphQLRequestError(entries, httpStatus, { operation });
  return new ResponseValidationError(`${operation}: GraphQL answer has neither data nor errors`, ["data: missing"], { operation });
}

export interface GraphQLCall<S extends z.ZodTypeAny> {
  /** Client operation name, e.g. `saveEndpoint`. */
  operation: string;
  /** GraphQL document; user values go in `variables`, never into this text. */
  document: string;
  variables?: Record<string, unknown>;
  /** Schema of `data`. */
  schema: S;
  signal?: AbortSignal;
}

/** A GraphQL answer as received: `data` unparsed, `errors` redacted. */
interface GraphQLAnswer {
  data: unknown;
  entries: GraphQLErrorEntry[];
  status: number;
  headers: Headers;
}

/** Sends one GraphQL request; throws for answers that are not GraphQL answers, or that carry errors at a non-2xx status. */
async function sendGraphQL(t: Transport, graphqlUrl: string, call: GraphQLCall<z.ZodTypeAny>): Promise<GraphQLAnswer> {
  const { operation } = call;
  const { ClientError, GraphQLClient } = graphqlRequestModule();
  const client = new GraphQLClient(graphqlAddress(graphqlUrl, t.apiKey), {
    // graphql-request's fetch type is cross-fetch's; ours is node-fetch with the same surface.
    fetch: ((url: string, init: Record<string, unknown>) => sendBuffered(t, url, init, { operation, signal: call.signal })) as never,
    errorPolicy: "all",
    headers: { Accept: "application/json", "User-Agent": USER_AGENT },
  });
  let result: { data?: unknown; errors?: unknown; status: number; headers: unknown };
  try {
    result = await client.rawRequest<unknown>(call.document, call.variables);
  } catch (err) {
    if (err instanceof PlatformError) throw err;
    if (err instanceof ClientError) {
      const r = err.response as { status: number; errors?: unknown; error?: unknown; headers?: Headers };
      throw graphqlFailure(t, operation, r.status, toEntries(r.errors, t.redact), r.headers, typeof r.error === "string" ? r.error : undefined);
    }
    // Anything else (e.g. a JSON parse failure of a mislabelled body) keeps only its redacted message.
    const message = t.redact(err instanceof Error ? err.message : String(err));
    throw new ResponseValidationError(`${operation}: unreadable GraphQL answer: ${message}`, [message], { operation });
  }
  return { data: result.data, entries: toEntries(result.errors, t.redact), status: result.status, headers: result.headers as Headers };
}

/**
 * Sends one GraphQL request (one attempt; retries are the caller's).
 *
 * @param graphqlUrl address without the key; the key is added as `api_key`.
 * @returns `data` parsed by `call.schema`.
 * @throws AuthenticationError / PermissionError / NotFoundError / RateLimitError / ServerError
 *   (status or error code), GraphQLRequestError (other `errors`, all messages kept),
 *   ResponseValidationError, and the transport errors of `sendBuffered`.
 */
export async function executeGraphQL<S extends z.ZodTypeAny>(t: Transport, graphqlUrl: string, call: GraphQLCall<S>): Promise<z.output<S>> {
  const answer = await sendGraphQL(t, graphqlUrl, call);
  if (answer.entries.length || answer.data == null) throw graphqlFailure(t, call.operation, answer.status, answer.entries, answer.headers, undefined);
  return parseResponse(call.schema, answer.data, call.operation, t.redact);
}

/** What {@link executeGraphQLFields} returns: `data` (a failed field is null) and the errors of each failed field. */
export interface GraphQLFieldsResult<T> {
  data: T;
  /** Errors by top-level response key (the first element of their `path`). */
  fieldErrors: Map<string, GraphQLErrorEntry[]>;
}

/**
 * Sends one request whose document has several top-level fields, e.g. two mutations that GraphQL
 * executes one after the other (GraphQL specification, "Mutation": root fields run serially). An error
 * of one field (an error with a `path`) does not fail the call; it is returned under that field, so the
 * caller decides what each outcome means ({@link fieldFailure} turns one into the client's error).
 *
 * @returns `data` parsed by `call.schema` and the field errors.
 * @throws as {@link executeGraphQL} for errors of the request itself: errors without a `path`, which a
 *   GraphQL service reports when it refuses a document before executing any of it (GraphQL
 *   specification, "Response": request errors), and answers without `data`.
 */
export async function executeGraphQLFields<S extends z.ZodTypeAny>(
  t: Transport,
  graphqlUrl: string,
  call: GraphQLCall<S>,
): Promise<GraphQLFieldsResult<z.output<S>>> {
  const answer = await sendGraphQL(t, graphqlUrl, call);
  if (answer.entries.some((e) => !e.path?.length) || answer.data == null) {
    throw graphqlFailure(t, call.operation, answer.status, answer.entries, answer.headers, undefined);
  }
  const fieldErrors = new Map<string, GraphQLErrorEntry[]>();
  for (const entry of answer.entries) {
    const key = String(entry.path![0]);
    fieldErrors.set(key, [...(fieldErrors.get(key) ?? []), entry]);
  }
  return { data: parseResponse(call.schema, answer.data, call.operation, t.redact), fieldErrors };
}

/**
 * The client error for the errors of failed fields, as {@link executeGraphQL} would throw it for a
 * document of those fields alone: NOT_FOUND → NotFoundError, and so on; others → GraphQLRequestError.
 */
export function fieldFailure(t: Transport, operation: string, entries: GraphQLErrorEntry[]): PlatformError {
  return graphqlFailure(t, operation, 200, entries, undefined, undefined);
}

/**
 * Whether `err` is a refusal of the whole document before any of it ran: GraphQL request errors, which
 * carry no `path` (e.g. a gateway that takes only one mutation field per request).
 */
export function refusedBeforeExecution(err: unknown): boolean {
  return err instanceof GraphQLRequestError && err.errors.length > 0 && err.errors.every((e) => !e.path?.length);
}
