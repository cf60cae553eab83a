/**
 * How the client declares an operation, once. A request operation states the rules of its positional
 * arguments, the one request it sends (a GraphQL document and its variables, or an HTTP method,
 * address and path), the schema of the answer, and whether repeating it is safe (retry.ts). A
 * composite operation is a function built from request operations (a lookup over a listing, a poll,
 * a stream). Each interface module keeps a table of them keyed by client method name; the client is
 * built from those tables and `PlatformClient` is derived from them (clientOperations.ts, types.ts).
 */
import { z } from "zod";
import { checkArguments, type ArgumentRules } from "./arguments";
import { callWithRetry, type ClientContext } from "./context";
import { NotFoundError } from "./errors";
import { executeGraphQL } from "./graphql";
import { joinUrl, requestParsed, withQuery, type JsonRequest, type QueryParameters } from "./http";

/** The configured address an HTTP operation goes to: the spec's `{rest_url}`, `{base_url}` or `{inference_url}`. */
export type BaseUrl = "restV1Url" | "restV2Url" | "inferenceUrl";

/** The HTTP request of one call. */
export interface HttpRequestSpec {
  method: JsonRequest["method"];
  base: BaseUrl;
  /** Path segments after the base address, each encoded (ids never alter the path). */
  path: string[];
  /** A whole address the platform gave (an endpoint's `requestUrls`), sent instead of `base` + `path`. */
  url?: string;
  /** JSON body. */
  body?: unknown;
  /** Query parameters; arrays go comma-separated (OpenAPI `style: form, explode: false`), undefined ones are left out. */
  query?: QueryParameters;
}

/** Per-call settings a composite operation may give a request. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-request timeout, in milliseconds. */
  timeoutMs?: number;
}

interface RequestDeclaration<A extends unknown[], D, R> {
  /** Client operation name in messages, retry lines and errors; a table sets it to the method name. */
  readonly name: string;
  readonly args: ArgumentRules;
  /** Schema of the answer (GraphQL: of `data`). */
  readonly response: z.ZodType<D, z.ZodTypeDef, unknown>;
  /** The method's result, taken from the parsed answer. */
  readonly result: (data: D, ...args: A) => R;
  /** True when a repeat cannot have a second effect (retry.ts); may depend on the arguments. */
  readonly idempotent: boolean | ((...args: A) => boolean);
  /** A retry that finds the target gone succeeds: the earlier attempt took effect and its answer was lost. */
  readonly goneOnRetryIsDone?: boolean;
}

export interface GraphQLOperation<A extends unknown[], D, R> extends RequestDeclaration<A, D, R> {
  readonly kind: "graphql";
  /** Fixed document text; user values travel only in the variables. */
  readonly document: string;
  readonly variables: (...args: A) => Record<string, unknown> | undefined;
}

export interface HttpOperation<A extends unknown[], D, R> extends RequestDeclaration<A, D, R> {
  readonly kind: "http";
  readonly request: (...args: A) => HttpRequestSpec;
}

/** One request, under the retry policy. The answer's type (`any` here) stays inside the declaration. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer type is existential here
export type RequestOperation<A extends unknown[], R> = GraphQLOperation<A, any, R> | HttpOperation<A, any, R>;

/** A method built from request operations for one client. */
export interface CompositeOperation<F> {
  readonly kind: "composite";
  readonly build: (ctx: ClientContext) => F;
}

/** Any operation a table may hold. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arguments are checked per entry
export type Operation = RequestOperation<any, unknown> | CompositeOperation<unknown>;

/** The client method an operation declares. */
export type MethodOf<O> = O extends RequestOperation<infer A, infer R> ? (...args: A) => Promise<R> : O extends CompositeOperation<infer F> ? F : never;

/** The client methods a table of operations declares, with each entry's docstring. */
export type MethodsOf<T> = { [K in keyof T]: MethodOf<T[K]> };

type NoArguments = z.ZodTuple<[], null>;

/** The default result: the whole parsed answer. */
const wholeAnswer = (data: unknown): unknown => data;

interface RequestFields<T extends ArgumentRules, P extends unknown[], S extends z.ZodTypeAny, R> {
  /** Name when the operation is not in a table (a table names its entries after their keys). */
  name?: string;
  /** Rules of the positional arguments, checked before anything is sent (arguments.ts). */
  args?: T;
  response: S;
  /** Defaults to the whole parsed answer. */
  result?: (data: z.output<S>, ...args: P) => R;
  idempotent: boolean | ((...args: P) => boolean);
  goneOnRetryIsDone?: R extends void ? boolean : never;
}

/**
 * Declares a GraphQL operation (spec: Endpoints › POST {graphql_url}).
 * The client method's parameters are those of `variables` (none without it).
 */
export function graphqlOperation<
  S extends z.ZodTypeAny,
  T extends ArgumentRules = NoArguments,
  V extends (...args: z.output<T>) => Record<string, unknown> | undefined = (...args: z.output<T>) => undefined,
  R = z.output<S>,
>(d: RequestFields<T, Parameters<V>, S, R> & { document: string; variables?: V }): GraphQLOperation<Parameters<V>, z.output<S>, R> {
  return {
    kind: "graphql",
    name: d.name ?? "",
    args: d.args ?? z.tuple([]),
    document: d.document,
    variables: d.variables ?? (() => undefined),
    response: d.response,
    result: d.result ?? (wholeAnswer as never),
    idempotent: d.idempotent,
    goneOnRetryIsDone: d.goneOnRetryIsDone === true,
  };
}

/**
 * Declares a bearer-authenticated JSON operation (REST v1, REST v2, job interface).
 * The client method's parameters are those of `request`.
 */
export function httpOperation<
  S extends z.ZodTypeAny,
  Q extends (...args: z.output<T>) => HttpRequestSpec,
  T extends ArgumentRules = NoArguments,
  R = z.output<S>,
>(d: RequestFields<T, Parameters<Q>, S, R> & { request: Q }): HttpOperation<Parameters<Q>, z.output<S>, R> {
  return {
    kind: "http",
    name: d.name ?? "",
    args: d.args ?? z.tuple([]),
    request: d.request,
    response: d.response,
    result: d.result ?? (wholeAnswer as never),
    idempotent: d.idempotent,
    goneOnRetryIsDone: d.goneOnRetryIsDone === true,
  };
}

/**
 * The same request as `op`, answering `then` of its result: one declaration serving two methods
 * (`listWorkers` is `v2.listEndpointWorkers`' workers). The table it joins names it.
 */
export function mapResult<A extends unknown[], D, R, S>(op: HttpOperation<A, D, R>, then: (result: R) => S): HttpOperation<A, D, S> {
  return { ...op, result: (data, ...args) => then(op.result(data, ...args)) };
}

/** Declares an operation with its own logic, built per client from `ctx`. */
export function composite<F>(build: (ctx: ClientContext) => F): CompositeOperation<F> {
  return { kind: "composite", build };
}

/**
 * A table of operations keyed by client method name; each request operation is named after its key
 * (after `prefix`, e.g. `v2.` for the operations of `client.v2`).
 * `T` is checked in the result type, not bounded: a bound would give each entry a contextual result
 * type of `unknown` and override the answer's type.
 */
export function operationTable<T>(table: T, prefix = ""): T extends { [K in keyof T]: Operation } ? T : never {
  const entries = Object.entries(table as Record<string, Operation>);
  return Object.fromEntries(entries.map(([name, op]) => [name, op.kind === "composite" ? op : { ...op, name: prefix + name }])) as never;
}

/**
 * Performs a request operation: checks the arguments, then sends the request under the retry policy.
 * @returns the operation's result from the parsed answer.
 * @throws InvalidArgumentError before sending, then the errors of `executeGraphQL` / `requestParsed`
 *   once retries are used up (retry.ts).
 */
export async function perform<A extends unknown[], R>(ctx: ClientContext, op: RequestOperation<A, R>, args: A, call: CallOptions = {}): Promise<R> {
  const operation = op.name;
  checkArguments(operation, op.args, args);
  const safe = typeof op.idempotent === "function" ? op.idempotent(...args) : op.idempotent;
  let send: () => Promise<unknown>;
  if (op.kind === "graphql") {
    const request = { operation, document: op.document, variables: op.variables(...args), schema: op.response, signal: call.signal };
    send = () => executeGraphQL(ctx.transport, ctx.config.graphqlUrl, request);
  } else {
    const { method, base, path, url, body, query } = op.request(...args);
    const request: JsonRequest = {
      method,
      url: withQuery(url ?? joinUrl(ctx.config[base], ...path), query),
      body,
      operation,
      signal: call.signal,
      timeoutMs: call.timeoutMs,
    };
    send = () => requestParsed(ctx.transport, request, op.response);
  }
  return callWithRetry(
    ctx,
    operation,
    safe,
    async (attempt) => {
      let data: unknown;
      try {
        data = await send();
      } catch (err) {
        if (op.goneOnRetryIsDone && attempt > 1 && err instanceof NotFoundError) return undefined as R;
        throw err;
      }
      return op.result(data, ...args);
    },
    call.signal,
  );
}

/** The method `op` declares, for the client of `ctx`. */
export function bind<O extends Operation>(ctx: ClientContext, op: O): MethodOf<O> {
  if (op.kind === "composite") return op.build(ctx) as MethodOf<O>;
  return ((...args: unknown[]) => perform(ctx, op, args)) as MethodOf<O>;
}
