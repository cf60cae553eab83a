/**
 * Simulated workers. Every endpoint keeps `workersMin` workers running; each becomes READY after
 * `workerStartMs` and emits a container line every `logIntervalMs` (and a system heartbeat every third tick)
 * into a bounded per-worker history that backs the log stream (spec: GET /v2/serverless/{id}/workers/...).
 */
import type { LogSource } from "./facts";
import { randomId } from "./ids";

/** One stored log line. `seq` increases by one per line of the worker and forms the SSE id suffix. */
export interface LogEntry {
  seq: number;
  ts: string;
  tsMs: number;
  source: LogSource;
  line: string;
}

export type WorkerStatus = "INITIALIZING" | "READY" | "STOPPED";

/** Lines kept per worker; the stream's largest `tail` is 5000, so history always covers it. */
export const HISTORY_LIMIT = 10_000;
/** Stopped workers whose logs stay readable, per endpoint. */
const RETAINED_STOPPED = 20;

export interface WorkerTiming {
  logIntervalMs: number;
  workerStartMs: number;
}

type Listener = { onEntry(entry: LogEntry): void; onStop(): void };

export class SimWorker {
  readonly id = randomId();
  readonly createdAt = new Date().toISOString();
  status: WorkerStatus = "INITIALIZING";
  private history: LogEntry[] = [];
  private seq = 0;
  private ticks = 0;
  private listeners = new Set<Listener>();
  private timers: NodeJS.Timeout[] = [];

  constructor(
    readonly endpointId: string,
    readonly gpuTypeId: string,
    private timing: WorkerTiming,
  ) {
    this.log("system", `worker ${this.id} created for endpoint ${endpointId} on ${gpuTypeId}`);
    this.log("system", "pulling image and starting container");
    const ready = setTimeout(() => {
      this.status = "READY";
      this.log("system", "worker is ready");
      this.log("container", "handler started, waiting for jobs");
      const tick = setInterval(() => this.tick(), timing.logIntervalMs);
      tick.unref();
      this.timers.push(tick);
    }, timing.workerStartMs);
    ready.unref();
    this.timers.push(ready);
  }

  private tick(): void {
    this.ticks++;
    this.log("container", `handler idle, polling queue (tick ${this.ticks})`);
    if (this.ticks % 3 === 0) this.log("system", `heartbeat: gpu ${this.gpuTypeId} healthy, uptime ${this.ticks} ticks`);
  }

  /** Append a line and deliver it to live subscribers. */
  log(source: LogSource, line: string): void {
    if (this.status === "STOPPED") return;
    const now = Date.now();
    const entry: LogEntry = { seq: ++this.seq, ts: new Date(now).toISOString(), tsMs: now, source, line };
    this.history.push(entry);
    if (this.history.length > HISTORY_LIMIT) this.history.splice(0, this.history.length - HISTORY_LIMIT);
    for (const l of this.listeners) l.onEntry(entry);
  }

  /** Snapshot of the stored history, oldest first. */
  entries(): readonly LogEntry[] {
    return this.history.slice();
  }

  /** Receive new lines until the returned function is called or the worker stops. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(reason: string): void {
    if (this.status === "STOPPED") return;
    this.log("system", `worker stopping: ${reason}`);
    this.status = "STOPPED";
    this.timers.forEach(clearTimeout);
    this.timers = [];
    for (const l of [...this.listeners]) l.onStop();
    this.listeners.clear();
  }

  /** Listing shape of GET /v2/serverless/{id}/workers (spec: not shown; see emulator/README.md). */
  toJSON(): Record<string, unknown> {
    return { id: this.id, status: this.status, createdAt: this.createdAt, gpuId: this.gpuTypeId, endpointId: this.endpointId };
  }
}

/** Keeps each endpoint's running worker count equal to its `workersMin`. */
export class WorkerPool {
  private running = new Map<string, SimWorker[]>();
  private stopped = new Map<string, SimWorker[]>();

  constructor(private timing: WorkerTiming) {}

  /** Start or stop workers of `endpointId` until `workersMin` run; newest are stopped first. */
  reconcile(endpointId: string, workersMin: number, gpuTypeId: string): void {
    const list = this.running.get(endpointId) ?? [];
    while (list.length < workersMin) list.push(new SimWorker(endpointId, gpuTypeId, this.timing));
    while (list.length > workersMin) this.retire(endpointId, list.pop()!, "workersMin lowered");
    this.running.set(endpointId, list);
  }

  private retire(endpointId: string, worker: SimWorker, reason: string): void {
    worker.stop(reason);
    const kept = this.stopped.get(endpointId) ?? [];
    kept.push(worker);
    if (kept.length > RETAINED_STOPPED) kept.shift();
    this.stopped.set(endpointId, kept);
  }

  /** Running (INITIALIZING or READY) workers of an endpoint. */
  list(endpointId: string): SimWorker[] {
    return [...(this.running.get(endpointId) ?? [])];
  }

  /** A running or recently stopped worker of an endpoint. */
  get(endpointId: string, workerId: string): SimWorker | undefined {
    return [...this.list(endpointId), ...(this.stopped.get(endpointId) ?? [])].find((w) => w.id === workerId);
  }

  /** Write a system line to every running worker of an endpoint (configuration changes). */
  announce(endpointId: string, line: string): void {
    for (const w of this.list(endpointId)) w.log("system", line);
  }

  /** Stop and forget all workers of a deleted endpoint, including their logs. */
  remove(endpointId: string): void {
    for (const w of this.list(endpointId)) w.stop("endpoint deleted");
    this.running.delete(endpointId);
    this.stopped.delete(endpointId);
  }

  close(): void {
    for (const id of [...this.running.keys()]) for (const w of this.list(id)) w.stop("emulator shutting down");
    this.running.clear();
    this.stopped.clear();
  }
}
