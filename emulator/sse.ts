/**
 * Server-sent events writer (spec: Events). Each event is `id: <id>` + `data: <json>` + blank line; a comment
 * line keeps idle connections open through proxies. Optionally destroys the connection after N events
 * (fault injection `dropStreamAfterEvents`).
 */
import type { ServerResponse } from "http";

/** The response headers the spec requires on the log stream. */
export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

const HEARTBEAT_MS = 15_000;

export interface SseOptions {
  /** Destroy the connection once this many events were written. */
  maxEvents?: number;
  /** Called when `maxEvents` destroyed the connection. */
  onDropped?: () => void;
}

export class SseWriter {
  private events = 0;
  private closed = false;
  private heartbeat: NodeJS.Timeout;
  private closeHandlers: (() => void)[] = [];

  /** Writes the status line and headers at once so clients see the stream open before the first event. */
  constructor(
    private res: ServerResponse,
    extraHeaders: Record<string, string>,
    private options: SseOptions = {},
  ) {
    res.writeHead(200, { ...extraHeaders, ...SSE_HEADERS });
    res.flushHeaders();
    this.heartbeat = setInterval(() => this.res.write(": keep-alive\n\n"), HEARTBEAT_MS);
    this.heartbeat.unref();
    res.on("close", () => this.finish());
    if (options.maxEvents === 0) this.drop();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Send one event; ignored once the stream is closed. */
  send(id: string, data: unknown): void {
    if (this.closed) return;
    this.events++;
    const chunk = `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
    if (this.options.maxEvents !== undefined && this.events >= this.options.maxEvents) {
      this.closed = true;
      this.res.write(chunk, () => this.drop());
    } else {
      this.res.write(chunk);
    }
  }

  private drop(): void {
    this.options.onDropped?.();
    this.res.destroy();
    this.finish();
  }

  /** End the stream normally. */
  end(): void {
    if (!this.closed) this.res.end();
    this.finish();
  }

  /** Run `fn` once when the stream ends for any reason (client gone, end(), drop). */
  onClose(fn: () => void): void {
    this.closeHandlers.push(fn);
  }

  private finish(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    const handlers = this.closeHandlers;
    this.closeHandlers = [];
    handlers.forEach((h) => h());
  }
}
