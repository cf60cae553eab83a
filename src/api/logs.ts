/**
 * Worker log stream (spec: Endpoints › GET {base_url}/v2/serverless/{id}/workers/{workerId}/logs;
 * Events; Limits › tail) as an async iterator, parsed with eventsource-parser.
 *
 * Resume: every event's id is remembered; when the stream drops (or the server closes it while
 * following) the iterator reconnects with `Last-Event-ID` = the last delivered id, which the
 * platform resumes strictly after. Ids already delivered are skipped, and an event cut in half by
 * the drop is discarded by the parser and re-sent after the reconnect, so no line is duplicated
 * or lost.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { Response } from "node-fetch";
import { backoffMs } from "./backoff";
import { isRfc3339DateTime, requireId } from "./arguments";
import { callWithRetry, type ClientContext } from "./context";
import { InvalidArgumentError, NetworkError, ResponseValidationError } from "./errors";
import { bearerHeaders, joinUrl, openStream } from "./http";
import { composite, operationTable } from "./operation";
import { sleep } from "./ratelimit";
import { logEventDataSchema, parseResponse, type Listed } from "./schemas";
import { LOG_SOURCES, TAIL_MAX, TAIL_MIN, type LogSource } from "./spec";

/** One worker log event (spec: Events): `ts`, `source` and `line` of the event's data. */
export interface LogEvent extends Listed<typeof logEventDataSchema> {
  /** The SSE event id, used to resume. */
  id: string;
}

export interface LogStreamOptions {
  source?: LogSource;
  /** 0..5000 historical lines; default 100. */
  tail?: number;
  /** RFC 3339 resume point. */
  since?: string;
  /** Resume cursor; takes precedence over since and tail. */
  lastEventId?: string;
  /** Keep reading live events (default true); false ends once the backfill is delivered and the stream idles. */
  follow?: boolean;
  /** Abort to end the iteration cleanly. */
  signal?: AbortSignal;
  /** follow:false only — milliseconds without an event after which the backfill counts as delivered (default 1000). */
  idleMs?: number;
}

/** Quiet time after which a `follow: false` stream counts as fully delivered, in milliseconds. */
export const DEFAULT_LOG_IDLE_MS = 1000;
// Ids remembered for duplicate suppression; far more than one reconnect can replay.
const SEEN_IDS = 10_000;
// Events buffered before the socket is paused for a slow consumer.
const HIGH_WATER = 1000;

/**
 * Checks stream options before anything is sent.
 * @throws InvalidArgumentError naming the field: `endpointId`, `workerId`, `source` (container|system),
 *   `tail` (integer 0..5000), `since` (RFC 3339), `lastEventId`, `idleMs`.
 */
export function validateLogStreamOptions(endpointId: string, workerId: string, options: LogStreamOptions): void {
  validateStreamOptions("streamWorkerLogs", { endpointId, workerId }, options);
}

/** {@link validateLogStreamOptions} for any stream: `ids` are its path ids by argument name. */
function validateStreamOptions(operation: string, ids: Record<string, string>, options: LogStreamOptions): void {
  const fail = (argument: string, rule: string): never => {
    throw new InvalidArgumentError(`${operation}: ${argument} ${rule}`, argument, { operation });
  };
  for (const [name, id] of Object.entries(ids)) requireId(id, name, operation);
  if (options.source !== undefined && !LOG_SOURCES.includes(options.source)) {
    fail("source", `must be one of ${LOG_SOURCES.join(", ")} (or omitted for both), got ${JSON.stringify(options.source)}`);
  }
  if (options.tail !== undefined && (!Number.isInteger(options.tail) || options.tail < TAIL_MIN || options.tail > TAIL_MAX)) {
    fail("tail", `must be an integer from ${TAIL_MIN} to ${TAIL_MAX}, got ${JSON.stringify(options.tail)}`);
  }
  if (options.since !== undefined && !isRfc3339DateTime(options.since)) {
    fail("since", `must be an RFC 3339 date-time such as 2024-01-01T00:00:00Z, got ${JSON.stringify(options.since)}`);
  }
  if (options.lastEventId !== undefined && (typeof options.lastEventId !== "string" || options.lastEventId.trim() === "")) {
    fail("lastEventId", "must be a non-empty event id");
  }
  if (options.idleMs !== undefined && (!Number.isFinite(options.idleMs) || options.idleMs <= 0)) {
    fail("idleMs", "must be a positive number of milliseconds");
  }
}

/** Remembers the most recent ids, forgetting the oldest beyond `limit`. */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly limit: number) {}
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value as string);
  }
}

type ReadOutcome = "closed" | "dropped" | "complete" | "aborted";

interface StreamState {
  lastId?: string;
  readonly seen: RecentIds;
  /** follow:false — events stamped after this (ms epoch) are live, so the backfill is done. */
  liveAfter?: number;
  delivered: number;
}

export const logOperations = operationTable({
  /**
   * Streams a worker's logs: `GET {restV2Url}/v2/serverless/{endpointId}/workers/{workerId}/logs`.
   *
   * Start point (spec order): `lastEventId` (sent as `Last-Event-ID`) › `since` › `tail` (default 100
   * on the platform). Options are validated when this function is called, before any request.
   *
   * With `follow: true` (default) the iterator runs until the consumer stops, `signal` aborts, or the
   * server closes the stream without new events (e.g. the worker stopped); it reconnects after drops. With `follow: false` it ends once the backfill is
   * delivered: when the server closes the stream, after `idleMs` (default 1000 ms) without an event,
   * or at the first live event — one stamped after the request was sent (local clock, when it agrees
   * with the response's `Date` header; otherwise after `Date` + 1 s, which may let up to a second of
   * live lines through but never cuts backfill). A local clock running behind the server's by δ < 1 s
   * leaves out lines stamped in the last δ before the request; follow mode is unaffected.
   *
   * @returns an async iterable of `{ id, ts, source, line }`; `id` is the SSE event id (resume cursor).
   * @throws InvalidArgumentError synchronously for bad options; during iteration AuthenticationError,
   *   PermissionError, NotFoundError, RateLimitError (after retries), ResponseValidationError (bad event
   *   data), NetworkError when reconnecting keeps failing. Aborting ends the iteration without error.
   */
  streamWorkerLogs: composite((ctx) => (endpointId: string, workerId: string, options: LogStreamOptions = {}): AsyncIterable<LogEvent> => {
    validateLogStreamOptions(endpointId, workerId, options);
    const stream: LogStreamTarget = { operation: "workerLogs", segments: ["serverless", endpointId, "workers", workerId, "logs"] };
    return { [Symbol.asyncIterator]: () => iterate(ctx, stream, options) };
  }),

  /**
   * Streams a pod's logs: `GET {restV2Url}/v2/pods/{podId}/logs` (REST v2 operation `getPodLogs`), with the
   * options, resume and end rules of {@link streamWorkerLogs}; event ids are the events' `ts`.
   * @throws as {@link streamWorkerLogs}; InvalidArgumentError names `podId` for a bad id.
   */
  streamPodLogs: composite((ctx) => (podId: string, options: LogStreamOptions = {}): AsyncIterable<LogEvent> => {
    validateStreamOptions("streamPodLogs", { podId }, options);
    const stream: LogStreamTarget = { operation: "getPodLogs", segments: ["pods", podId, "logs"] };
    return { [Symbol.asyncIterator]: () => iterate(ctx, stream, options) };
  }),
});

/** Which log stream: its operation name (messages, retries) and its path under `{restV2Url}/v2`. */
interface LogStreamTarget {
  operation: string;
  segments: string[];
}

async function* iterate(ctx: ClientContext, stream: LogStreamTarget, options: LogStreamOptions): AsyncGenerator<LogEvent, void, undefined> {
  const operation = stream.operation;
  const follow = options.follow ?? true;
  const signal = options.signal;
  const policy = ctx.config.retry;
  const state: StreamState = { lastId: options.lastEventId, seen: new RecentIds(SEEN_IDS), delivered: 0 };
  let fruitless = 0; // consecutive connections that delivered nothing new

  let controller: AbortController | undefined;
  const onAbort = () => controller?.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) return;
      let sentAt = Date.now();
      let res: Response;
      try {
        res = await callWithRetry(
          ctx,
          operation,
          true,
          () => {
            // A fresh controller per attempt: a timed-out attempt must not doom the next one.
            controller = new AbortController();
            if (signal?.aborted) controller.abort();
            sentAt = Date.now();
            const url = streamUrl(ctx, stream.segments, options, state.lastId);
            return openStream(ctx.transport, url, { method: "GET", headers: streamHeaders(ctx, state.lastId) }, { operation, controller });
          },
          signal,
        );
      } catch (err) {
        if (signal?.aborted) return;
        throw err;
      }
      if (!follow && state.liveAfter === undefined) state.liveAfter = backfillCutoff(sentAt, res.headers.get("date"));
      const before = state.delivered;
      const outcome: ReadOutcome = yield* readEvents(ctx, operation, res, controller as AbortController, state, follow, options.idleMs ?? DEFAULT_LOG_IDLE_MS);
      controller?.abort();
      if (outcome === "aborted" || outcome === "complete") return;
      // A clean close ends a snapshot; while following it ends the stream only when it brought
      // nothing new (e.g. the worker stopped), otherwise one more connection checks for more.
      if (outcome === "closed" && (!follow || state.delivered === before)) return;
      // Dropped, or closed after new events while following: reconnect from the last delivered id.
      fruitless = state.delivered > before || outcome === "closed" ? 0 : fruitless + 1;
      if (fruitless > policy.retries) {
        throw new NetworkError(`${operation}: the log stream ended ${fruitless} times in a row without new events`, undefined, {
          operation,
          outcomeUnknown: false,
        });
      }
      ctx.transport.stats.streamReconnects++;
      ctx.transport.debug?.(`${operation}: stream ${outcome}; reconnecting after ${state.lastId ? "the last event" : "the start"}`);
      if (fruitless > 0) await sleep(backoffMs(fruitless - 1, { firstMs: policy.minDelayMs, maxMs: policy.maxDelayMs, jitter: true }), signal);
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    controller?.abort();
  }
}

/**
 * The time after which an event is live rather than backfill (ms epoch): the local send time when
 * the local clock agrees with the server's `Date` header (second resolution) to within a second,
 * otherwise the latest moment the header allows (`Date` + 1 s), which never cuts backfill.
 */
function backfillCutoff(sentAt: number, dateHeader: string | null): number {
  const date = Date.parse(dateHeader ?? "");
  if (Number.isNaN(date)) return sentAt;
  return sentAt >= date - 1000 && sentAt < date + 1000 ? sentAt : date + 1000;
}

function streamUrl(ctx: ClientContext, segments: string[], options: LogStreamOptions, lastId: string | undefined): string {
  const base = joinUrl(ctx.config.restV2Url, "v2", ...segments);
  const query = new URLSearchParams();
  if (options.source) query.set("source", options.source);
  // With a cursor the platform ignores since and tail, so they are not sent.
  if (!lastId) {
    if (options.since) query.set("since", options.since);
    else if (options.tail !== undefined) query.set("tail", String(options.tail));
  }
  const q = query.toString();
  return q ? `${base}?${q}` : base;
}

function streamHeaders(ctx: ClientContext, lastId: string | undefined): Record<string, string> {
  return bearerHeaders(ctx.transport, { Accept: "text/event-stream", "Cache-Control": "no-cache", ...(lastId ? { "Last-Event-ID": lastId } : {}) });
}

/** Delivers the events of one connection; returns why it stopped. */
async function* readEvents(
  ctx: ClientContext,
  operation: string,
  res: Response,
  controller: AbortController,
  state: StreamState,
  follow: boolean,
  idleMs: number,
): AsyncGenerator<LogEvent, ReadOutcome, undefined> {
  const body = res.body as NodeJS.ReadableStream & { destroy?: (e?: Error) => void; pause(): void; resume(): void };
  const queue: EventSourceMessage[] = [];
  let ended: "closed" | "dropped" | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const parser = createParser({
    onEvent: (message) => {
      queue.push(message);
      if (queue.length >= HIGH_WATER) body.pause();
      notify();
    },
  });
  const decoder = new TextDecoder();
  const onData = (chunk: Buffer | string) => parser.feed(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  const onEnd = () => {
    ended ??= "closed";
    notify();
  };
  const onError = () => {
    ended = "dropped";
    notify();
  };
  const onAbort = () => notify();
  body.on("data", onData);
  body.on("end", onEnd);
  body.on("error", onError);
  controller.signal.addEventListener("abort", onAbort);
  try {
    for (;;) {
      while (queue.length) {
        if (controller.signal.aborted) return "aborted"; // nothing more after an abort, even if buffered
        const message = queue.shift() as EventSourceMessage;
        if (queue.length < HIGH_WATER / 2) body.resume();
        if (message.event !== undefined && message.event !== "message") continue;
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          throw new ResponseValidationError(`${operation}: event data is not JSON`, ["data: not JSON"], { operation });
        }
        const parsed = parseResponse(logEventDataSchema, data, operation, ctx.transport.redact);
        const id = message.id ?? parsed.ts; // spec: ts is also the event id
        if (state.seen.has(id)) continue;
        if (state.liveAfter !== undefined && !follow && Date.parse(parsed.ts) > state.liveAfter) return "complete";
        state.seen.add(id);
        state.lastId = id;
        state.delivered++;
        yield { id, ts: parsed.ts, source: parsed.source, line: parsed.line };
      }
      if (controller.signal.aborted) return "aborted";
      if (ended) return ended;
      let idle = false;
      await new Promise<void>((resolve) => {
        const timer = follow
          ? undefined
          : setTimeout(() => {
              idle = true;
              resolve();
            }, idleMs);
        wake = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
      if (idle && queue.length === 0 && !ended) return "complete";
    }
  } finally {
    body.removeListener("data", onData);
    body.removeListener("end", onEnd);
    body.removeListener("error", onError);
    controller.signal.removeEventListener("abort", onAbort);
    body.on("error", () => undefined); // errors after we stop listening are expected (abort)
    body.destroy?.();
  }
}
