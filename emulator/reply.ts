/**
 * What a route handler produces: either a complete response (sent, or dropped by fault injection, by the
 * server) or a stream that takes over the raw response (server-sent events).
 */
import type { IncomingMessage, ServerResponse } from "http";

export interface BodyReply {
  kind: "body";
  status: number;
  headers?: Record<string, string>;
  /** JSON-serialised unless it is a Buffer. */
  body?: unknown;
  /** Default `application/json`. */
  contentType?: string;
}

export interface StreamReply {
  kind: "stream";
  /** Takes over `res`; must end it or leave it to the client to close. */
  start(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void;
}

export type Reply = BodyReply | StreamReply;

/** A 200 (or given status) JSON reply. */
export function json(body: unknown, status = 200): BodyReply {
  return { kind: "body", status, body };
}

/** Write a {@link BodyReply} with extra headers (rate-limit headers, for instance). */
export function sendBody(res: ServerResponse, reply: BodyReply, extraHeaders: Record<string, string> = {}): void {
  const payload = reply.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(JSON.stringify(reply.body));
  res.writeHead(reply.status, {
    ...extraHeaders,
    ...(reply.headers ?? {}),
    ...(payload.length > 0 ? { "Content-Type": reply.contentType ?? "application/json" } : {}),
    "Content-Length": String(payload.length),
  });
  res.end(payload);
}
