/**
 * The HTTP server and the request pipeline shared by every interface:
 *   local-only guard (loopback Host, no foreign Origin, JSON POSTs) → route → body (JSON, nesting bounded) → classify (operations, scope) → stats → latency → auth (401/403)
 *   → injected faults (forced 429, drop, 5xx) → rate limit (429) → handler → drop-after or respond
 * with `RateLimit`/`RateLimit-Policy` on every response of an authenticated request. Error answers echo the
 * request when the `echoRequest` fault is set (echo.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "http";
import { setTimeout as sleep } from "timers/promises";
import { ADMIN_PREFIX, handleAdmin } from "./admin";
import { authenticate, bearerToken } from "./auth";
import type { Classification, Core, Route } from "./core";
import { DomainError } from "./domainError";
import { withEcho } from "./echo";
import { graphqlError, graphqlRoute } from "./graphql/route";
import { problem, ProblemError } from "./problem";
import { describeExceeded, rateLimitHeaders } from "./rateLimit";
import { sendBody, type BodyReply, type Reply } from "./reply";
import { refuseForeign } from "./requestGuard";
import { inferenceRoutes } from "./rest/inference";
import { workerLogsRoute } from "./rest/logs";
import { restCreateEndpointRoute } from "./rest/v1";
import { v2Routes } from "./rest/v2";
import { findRoute } from "./router";
import { InFlight } from "./inFlight";

/** Paths of REST v2 (`{base_url}/v2/...`): their exchanges are recorded when traffic recording is on (traffic.ts). */
const V2_PREFIX = "/api/v2/";

export const ROUTES: Route[] = [graphqlRoute, restCreateEndpointRoute, ...v2Routes, workerLogsRoute, ...inferenceRoutes];

/** Request bodies above this size are refused with 413 (the spec does not show a limit). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Deepest nesting of arrays and objects a JSON body may have; deeper ones are refused with 400 before parsing. */
export const MAX_JSON_DEPTH = 64;
/** Time a client has to send its request headers, and its whole request (stream answers are not bounded). */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 60_000;

/** Nesting depth of a JSON text (brackets outside strings), computed without recursion. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyError(413, `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  // Deeper values would overflow the stack of whatever walks them later (validation, copies, JSON.stringify).
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new BodyError(400, `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BodyError(400, `The request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** An error reply in the route's style. */
function errorReply(style: Route["style"], status: number, detail: string, code: string, errors?: string[], headers?: Record<string, string>): BodyReply {
  return style === "graphql" ? graphqlError(status, detail, code, errors ? { errors } : {}, headers) : problem(status, detail, errors, headers);
}

const AUTH_CODES: Record<number, string> = { 401: "UNAUTHENTICATED", 403: "FORBIDDEN" };

/**
 * The HTTP server of every interface (not yet listening), running each request through the pipeline above.
 * Errors: 404/405/413/400 in the route's error style (spec: Errors); a handler's unexpected throw becomes a 500.
 */
export function createEmulatorServer(core: Core, inFlight = new InFlight()): Server {
  async function pipeline(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const refusal = refuseForeign(req);

    if (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
      if (refusal) return sendBody(res, problem(refusal.status, refusal.detail));
      let body: unknown;
      try {
        body = method === "POST" ? await readJson(req) : undefined;
      } catch (e) {
        return sendBody(res, problem((e as BodyError).status ?? 400, (e as Error).message));
      }
      return sendBody(res, handleAdmin(core, req, url, body));
    }

    // Every answer below goes through `send`, so an `echoRequest` fault reaches all error answers.
    let operations: string[] = [];
    let requestBody: unknown;
    let authenticated = false;
    let faulted = false;
    const send = (reply: BodyReply, extraHeaders?: Record<string, string>) => {
      const mode = core.faults.echoFor(operations);
      const echoed = mode && withEcho(reply, req, mode);
      if (echoed) core.faults.echoed();
      const sent = echoed || reply;
      sendBody(res, sent, extraHeaders);
      if (core.traffic && url.pathname.startsWith(V2_PREFIX)) {
        const headers = { ...(extraHeaders ?? {}), ...(sent.headers ?? {}) };
        core.traffic.record({
          method,
          path: url.pathname.slice("/api".length),
          query: url.search.replace(/^\?/, ""),
          status: sent.status,
          contentType: sent.body === undefined ? null : (sent.contentType ?? "application/json"),
          authenticated,
          fault: faulted || Boolean(echoed),
          requestBody,
          responseBody: Buffer.isBuffer(sent.body) ? sent.body.toString("utf8") : sent.body,
          headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
        });
      }
    };

    const found = findRoute(ROUTES, method, url.pathname);
    if (!found || "allowed" in found) {
      core.stats.request([]);
      // REST v2 checks the key before the route (the document gives 401 for every path without a valid key).
      if (url.pathname.startsWith(V2_PREFIX) && !refusal) {
        const auth = authenticate(core.seed, bearerToken(req), "read");
        if (!auth.ok && auth.status === 401) return send(problem(401, auth.detail));
      }
      if (found) return send(problem(405, `${method} is not allowed on ${url.pathname}.`, undefined, { Allow: found.allowed.join(", ") }));
      return send(problem(404, `No route ${method} ${url.pathname}.`));
    }
    const { route, params } = found;
    if (refusal) {
      core.stats.request([]);
      return send(errorReply(route.style, refusal.status, refusal.detail, refusal.code));
    }

    let body: unknown;
    try {
      body = method === "POST" || method === "PATCH" || method === "PUT" ? await readJson(req) : undefined;
      requestBody = body;
    } catch (e) {
      core.stats.request([]);
      const err = e as BodyError;
      return send(errorReply(route.style, err.status ?? 400, err.message, "BAD_REQUEST"));
    }

    const classified: Classification | Reply = typeof route.classify === "function" ? route.classify(body, url) : route.classify;
    if ("kind" in classified) {
      core.stats.request([]);
      return send(classified as BodyReply);
    }
    operations = classified.operations;
    const { scope } = classified;
    core.stats.request(operations);

    const latency = core.faults.latencyFor(operations);
    if (latency > 0) await sleep(latency, undefined, { ref: false });

    let principal;
    if (route.auth !== "none") {
      const key = route.auth === "apiKeyParam" ? (url.searchParams.get("api_key") ?? bearerToken(req)) : bearerToken(req);
      const auth = authenticate(core.seed, key, scope);
      if (!auth.ok) {
        // A valid key without the scope is still an authenticated caller: its answer shows the quota, uncounted.
        const headers = auth.userId === undefined ? undefined : rateLimitHeaders(core.rateLimiter.take(auth.userId, 0).windows);
        authenticated = headers !== undefined;
        return send(errorReply(route.style, auth.status, auth.detail, AUTH_CODES[auth.status], undefined, headers));
      }
      principal = auth.principal;
      authenticated = true;
    }

    const fault = core.faults.before(operations);
    faulted = fault !== null;
    if (fault?.kind === "dropBefore") return void req.socket.destroy();
    if (fault?.kind === "error5xx") {
      return send(problem(fault.status, `Injected fault: the emulator answered ${fault.status} before taking effect.`));
    }
    if (fault?.kind === "force429") {
      const headers = {
        "Retry-After": String(fault.retryAfter),
        ...(fault.rateLimitReset === null
          ? {}
          : rateLimitHeaders([{ window: "minute", quota: 0, windowSeconds: 60, remaining: 0, resetSeconds: fault.rateLimitReset }])),
      };
      const detail = `Per-user rate limit exceeded for the minute window (injected); retry in ${fault.retryAfter} seconds.`;
      return send(errorReply(route.style, 429, detail, "RATE_LIMITED", undefined, headers));
    }

    let limitHeaders: Record<string, string> = {};
    if (principal) {
      // Each top-level GraphQL field is one operation, so a document of many aliases costs as many requests.
      const decision = core.rateLimiter.take(principal.user.id, Math.max(1, operations.length));
      limitHeaders = rateLimitHeaders(decision.windows);
      if (!decision.allowed) {
        const { detail, retryAfter } = describeExceeded(decision.exceeded);
        core.stats.rateLimited();
        return send(errorReply(route.style, 429, detail, "RATE_LIMITED", undefined, { ...limitHeaders, "Retry-After": String(retryAfter) }));
      }
    }

    let reply: Reply;
    try {
      reply = await route.handle({ req, url, params, body, principal: principal!, operations, core });
    } catch (e) {
      if (e instanceof ProblemError) reply = e.toReply();
      else if (e instanceof DomainError) reply = errorReply(route.style, e.httpStatus, e.message, e.code, [e.message]);
      else {
        core.log(`internal error on ${method} ${url.pathname}: ${(e as Error).stack}`);
        reply = errorReply(route.style, 500, "Internal emulator error.", "INTERNAL_SERVER_ERROR");
      }
    }

    if (core.faults.dropAfter(operations)) return void req.socket.destroy();
    if (reply.kind === "stream") return reply.start(req, res, limitHeaders);
    send(reply, limitHeaders);
  }

  // Slow-header and slow-body connections are closed instead of held open (checked every second).
  return createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1000 }, (req, res) => {
    inFlight.track(
      pipeline(req, res).catch((e) => {
        core.log(`request failed: ${(e as Error).stack}`);
        if (!res.headersSent) sendBody(res, problem(500, "Internal emulator error."));
        else res.destroy();
      }),
    );
  });
}
