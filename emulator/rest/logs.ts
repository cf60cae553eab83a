/**
 * `GET {base_url}/v2/serverless/{id}/workers/{workerId}/logs` as server-sent events (spec: Endpoints, Events).
 * Start point: (1) `Last-Event-ID` → lines after that cursor; (2) else `since` → lines at or after that instant;
 * (3) else the last `tail` lines (default 100, 0 = live only). Backfill precedes live lines; `source` filters
 * both. Event ids are `<ts>/<12-digit per-worker sequence>`.
 */
import { z } from "zod";
import type { Route } from "../core";
import { LOG_FACTS, type LogSource } from "../facts";
import { ProblemError } from "../problem";
import { SseWriter } from "../sse";
import type { LogEntry } from "../workers";

const rfc3339 = z.string().datetime({ offset: true });
const LEAP_SECOND = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:)60(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Milliseconds of an RFC 3339 date-time, or undefined; a leap second (`:60`, valid in RFC 3339) is the next minute's first instant. */
function instantOf(raw: string): number | undefined {
  const leap = LEAP_SECOND.exec(raw);
  const text = leap ? `${leap[1]}59${leap[2]}` : raw;
  if (!rfc3339.safeParse(text).success) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms + (leap ? 1000 : 0);
}

/** SSE id of a log entry: its timestamp, `/`, and the zero-padded sequence number. */
export function eventId(entry: LogEntry): string {
  return `${entry.ts}/${String(entry.seq).padStart(12, "0")}`;
}

type StartPoint = { kind: "after"; tsMs: number; seq: number } | { kind: "since"; tsMs: number } | { kind: "tail"; count: number };

interface LogQuery {
  source?: LogSource;
  start: StartPoint;
}

/** Validate every given parameter (even one the resolution order ignores) and resolve the start point. */
export function parseLogQuery(url: URL, lastEventId: string | undefined): LogQuery {
  const errors: string[] = [];
  const sourceRaw = url.searchParams.get("source");
  if (sourceRaw !== null && !LOG_FACTS.sources.includes(sourceRaw as LogSource)) {
    errors.push(`source: must be one of ${LOG_FACTS.sources.join(", ")}`);
  }
  const tailRaw = url.searchParams.get("tail");
  const { min, max } = LOG_FACTS.tail;
  let tail: number = LOG_FACTS.tail.default;
  if (tailRaw !== null) {
    tail = /^\d+$/.test(tailRaw) ? Number(tailRaw) : NaN;
    if (!(tail >= min && tail <= max)) errors.push(`tail: must be an integer from ${min} to ${max}`);
  }
  const sinceRaw = url.searchParams.get("since");
  const sinceMs = sinceRaw === null ? undefined : instantOf(sinceRaw);
  if (sinceRaw !== null && sinceMs === undefined) errors.push("since: must be an RFC 3339 date-time");
  let cursor: StartPoint | undefined;
  if (lastEventId !== undefined) {
    const m = /^([^/]+)(?:\/(\d{1,12}))?$/.exec(lastEventId.trim());
    if (!m || !rfc3339.safeParse(m[1]).success) {
      errors.push("Last-Event-ID: must be an event id from this stream (<date-time>/<sequence>) or an RFC 3339 date-time");
    } else {
      cursor = { kind: "after", tsMs: Date.parse(m[1]), seq: m[2] === undefined ? Infinity : Number(m[2]) };
    }
  }
  if (errors.length > 0) throw new ProblemError(400, "The log stream request is invalid.", errors);
  const start: StartPoint = cursor ?? (sinceMs !== undefined ? { kind: "since", tsMs: sinceMs } : { kind: "tail", count: tail });
  return { source: (sourceRaw as LogSource | null) ?? undefined, start };
}

/** The backfill for a start point from a worker's history (already filtered by source). */
export function backfill(entries: readonly LogEntry[], start: StartPoint): readonly LogEntry[] {
  switch (start.kind) {
    case "after":
      return entries.filter((e) => e.tsMs > start.tsMs || (e.tsMs === start.tsMs && e.seq > start.seq));
    case "since":
      return entries.filter((e) => e.tsMs >= start.tsMs);
    case "tail":
      return start.count === 0 ? [] : entries.slice(-start.count);
  }
}

export const workerLogsRoute: Route = {
  method: "GET",
  path: "/api/v2/serverless/:id/workers/:workerId/logs",
  style: "rest",
  auth: "bearer",
  classify: { operations: ["workerLogs"], scope: "read" },
  handle({ req, url, params, principal, core, operations }) {
    const endpoint = core.platform.ownedEndpoint(principal.user.id, params.id);
    const worker = core.workers.get(endpoint.id, params.workerId);
    if (!worker) throw new ProblemError(404, `Worker "${params.workerId}" not found on endpoint "${endpoint.id}".`);
    const header = req.headers["last-event-id"];
    const query = parseLogQuery(url, Array.isArray(header) ? header[0] : header);
    return {
      kind: "stream",
      start(_req, res, headers) {
        const sse = new SseWriter(res, headers, {
          maxEvents: core.faults.streamEventLimit(operations),
          onDropped: () => core.faults.streamDropped(),
        });
        const wanted = (e: LogEntry) => query.source === undefined || e.source === query.source;
        const send = (e: LogEntry) => sse.send(eventId(e), { ts: e.ts, source: e.source, line: e.line });
        // History snapshot and subscription happen in the same tick, so no line is lost or repeated.
        backfill(worker.entries().filter(wanted), query.start).forEach(send);
        if (sse.isClosed) return;
        if (worker.status === "STOPPED") return sse.end();
        const unsubscribe = worker.subscribe({ onEntry: (e) => wanted(e) && send(e), onStop: () => sse.end() });
        sse.onClose(unsubscribe);
      },
    };
  },
};
