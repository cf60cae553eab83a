/**
 * The `echoRequest` fault: an error answer that repeats the request as received (method, URL with its query,
 * hence GraphQL's `api_key`, and every header, hence `Authorization`), as some gateways and proxies do in
 * their error pages. It lets tests prove that a client never surfaces its key from a server-sent body.
 */
import { STATUS_CODES, type IncomingMessage } from "http";
import type { BodyReply } from "./reply";

/** `json`: the error body keeps its format and gains the echo; `text`: a plain-text gateway page replaces it. */
export type EchoMode = "json" | "text";

interface EchoedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

function echoOf(req: IncomingMessage): { request: EchoedRequest; line: string } {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i]] = req.rawHeaders[i + 1];
  const request = { method: req.method ?? "GET", url: `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, headers };
  const line = `${request.method} ${request.url}; headers: ${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("; ")}`;
  return { request, line };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

/**
 * `reply` with the request echoed, or undefined when it is no error answer. Errors are answers with a status
 * of 400 or more and GraphQL answers carrying `errors` (those stay JSON in `text` mode when their status is 200).
 * Problem bodies get the echo in `detail`, in `errors[]` and as a `request` member; GraphQL errors in each
 * `message` and in `extensions.request`.
 */
export function withEcho(reply: BodyReply, req: IncomingMessage, mode: EchoMode): BodyReply | undefined {
  const { request, line } = echoOf(req);
  const body = reply.body;
  if (mode === "text" && reply.status >= 400) {
    const page = `${reply.status} ${STATUS_CODES[reply.status] ?? "Error"}\n\nThe gateway could not complete the request.\nRequest: ${line}\n`;
    return { ...reply, body: Buffer.from(page), contentType: "text/plain; charset=utf-8" };
  }
  if (!isObject(body)) return undefined;
  if (typeof body.detail === "string" && reply.status >= 400) {
    const errors = Array.isArray(body.errors) ? body.errors : [];
    return { ...reply, body: { ...body, detail: `${body.detail} (request: ${line})`, errors: [...errors, `request: ${line}`], request } };
  }
  if (Array.isArray(body.errors) && body.errors.length > 0 && body.errors.every(isObject)) {
    const errors = (body.errors as Record<string, unknown>[]).map((e) => ({
      ...e,
      message: `${String(e.message)} (request: ${line})`,
      extensions: { ...(isObject(e.extensions) ? e.extensions : {}), request },
    }));
    return { ...reply, body: { ...body, errors } };
  }
  return undefined;
}
