/**
 * `GET {base_url}/v2/pods/{id}/logs` (document: getPodLogs) as server-sent events: `{ source, line, ts }` payloads,
 * event ids the `ts`. The start point and `source` filter are the worker log stream's (rest/logs.ts). The emulator
 * sends the pod's recorded lines and ends the stream (a pod's container prints nothing live here).
 */
import type { Route } from "../core";
import { backfill, parseLogQuery } from "../rest/logs";
import { SseWriter } from "../sse";
import { PodsV2 } from "./pods";
import { asV2Problem } from "./problems";

export const podLogsRoute: Route = {
  method: "GET",
  path: "/api/v2/pods/:id/logs",
  style: "rest",
  auth: "bearer",
  classify: { operations: ["getPodLogs"], scope: "read" },
  handle({ req, url, params, principal, core, operations }) {
    let lines;
    let query;
    try {
      lines = new PodsV2(core).logLines(principal.user.id, params.id);
      const header = req.headers["last-event-id"];
      query = parseLogQuery(url, Array.isArray(header) ? header[0] : header);
    } catch (e) {
      throw asV2Problem(e);
    }
    const { source, start } = query;
    const picked = backfill(
      lines.filter((e) => source === undefined || e.source === source),
      start,
    );
    return {
      kind: "stream",
      start(_req, res, headers) {
        const sse = new SseWriter(res, headers, { maxEvents: core.faults.streamEventLimit(operations), onDropped: () => core.faults.streamDropped() });
        for (const e of picked) sse.send(e.ts, { source: e.source, line: e.line, ts: e.ts });
        if (!sse.isClosed) sse.end();
      },
    };
  },
};
