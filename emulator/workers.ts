/**
 * Simulated workers. Every endpoint keeps as many workers of its current template version as its settings and queue
 * want (`workersMin` at least, `workersMax` at most, the rest by its scaler: scaler.ts); each becomes READY after
 * `workerStartMs` and emits a container line every `logIntervalMs` (and a system heartbeat every third tick) into a
 * bounded per-worker history that backs the log stream (spec: GET /v2/serverless/{id}/workers/...). A READY worker
 * runs one job at a time (jobs.ts hands them out); one the queue no longer needs stops after the idle timeout.
 *
 * Rollout (template image/env change or another template): replacements start first (surge); an old worker
 * keeps taking jobs until enough replacements are READY, then DRAINS (takes no new jobs, finishes its running
 * ones) and stops when it has none left. So an endpoint with `workersMin` > 0 never has zero READY workers.
 *
 * A worker whose image fails to start (the `failingImages` fault) never becomes READY: it turns UNHEALTHY after
 * `workerStartMs`, logs why, and restarts (INITIALIZING again) as long after, until it starts or is replaced. It does
 * not count as a READY replacement, so the old workers keep serving the queue throughout; with none, jobs wait.
 */
import type { LogSource } from "./facts";
import { randomId } from "./ids";
import { desiredWorkers, type Scaling } from "./scaler";

/** One stored log line. `seq` increases by one per line of the worker and forms the SSE id suffix. */
export interface LogEntry {
  seq: number;
  ts: string;
  tsMs: number;
  source: LogSource;
  line: string;
}

/**
 * THROTTLED: no data center the endpoint allows has stock of its pools (catalog.ts); it waits and is not billed.
 * UNHEALTHY: its container failed to start (`failingImages`); it waits to be restarted.
 */
export type WorkerStatus = "INITIALIZING" | "READY" | "UNHEALTHY" | "DRAINING" | "THROTTLED" | "STOPPED";

/** Why a worker's container does not start: it exits during startup, or its image cannot be pulled. */
export type StartFailure = { kind: "crash"; exitCode: number } | { kind: "pull" };

/** What a worker runs: its GPU type and the template (id, image, version) it was started from. */
export interface WorkerSpec {
  gpuTypeId: string;
  templateId: string;
  imageName: string;
  templateVersion: number;
  /** The endpoint's release (configuration version, REST v2 `endpointVersion`) the worker was started for. */
  releaseVersion?: number;
  /** GPUs per worker (0 for a CPU worker). */
  gpuCount?: number;
  /** Data center the worker was placed in, if known. */
  dataCenterId?: string | null;
  /** Whether `gpuTypeId` names a CPU flavor (CPU endpoint). */
  cpu?: boolean;
  /** No capacity where the endpoint may run: the worker waits THROTTLED until a new spec replaces it. */
  throttled?: boolean;
}

/** Metering of worker lifetimes (billing.ts): called when a worker is created and when it stops. */
export interface WorkerMeter {
  started(worker: SimWorker): void;
  stopped(worker: SimWorker): void;
}

/**
 * Workers the simulator runs per endpoint at most: REST v2 bounds `workers.min` only from below, so a larger
 * minimum runs this many (as a platform out of capacity would) instead of exhausting the emulator.
 */
export const SIMULATED_WORKERS_MAX = 100;

/** Lines kept per worker; the stream's largest `tail` is 5000, so history always covers it. */
export const HISTORY_LIMIT = 10_000;
/** Stopped workers whose logs stay readable, per endpoint. */
const RETAINED_STOPPED = 20;

export interface WorkerTiming {
  logIntervalMs: number;
  workerStartMs: number;
  /** True while idle workers write no periodic lines (the `pauseIdleLogs` fault). */
  idleLogsPaused?: () => boolean;
  /** How a worker of this image fails to start (the `failingImages` fault); asked at every start attempt. */
  startFailure?: (imageName: string) => StartFailure | undefined;
}

type Listener = { onEntry(entry: LogEntry): void; onStop(): void };

export class SimWorker {
  readonly id = randomId();
  readonly createdAt = new Date().toISOString();
  /** Epoch ms when it became READY. */
  readyAt?: number;
  status: WorkerStatus = "INITIALIZING";
  /** Ids of the jobs it is running. */
  readonly jobs = new Set<string>();
  private history: LogEntry[] = [];
  private seq = 0;
  private ticks = 0;
  /** Failed start attempts so far (`failingImages`). */
  failures = 0;
  private listeners = new Set<Listener>();
  /** The pending start, failure or restart step, then the idle tick. */
  private timer?: NodeJS.Timeout;

  constructor(
    readonly endpointId: string,
    readonly spec: WorkerSpec,
    private timing: WorkerTiming,
    private onReady: () => void = () => {},
    private onStop: () => void = () => {},
  ) {
    this.log("system", `worker ${this.id} created for endpoint ${endpointId} on ${spec.gpuTypeId}`);
    if (spec.throttled) {
      this.status = "THROTTLED";
      this.log("system", "waiting for capacity: no allowed data center has stock of the selected pools");
      return;
    }
    this.attemptStart();
  }

  private schedule(ms: number, step: () => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(step, ms);
    this.timer.unref();
  }

  /** Pull the image and start the container: READY after `workerStartMs`, unless the image fails to start. */
  private attemptStart(): void {
    this.status = "INITIALIZING";
    const what = `image ${this.spec.imageName} (template ${this.spec.templateId} version ${this.spec.templateVersion})`;
    this.log("system", this.failures === 0 ? `pulling ${what} and starting container` : `restarting container (restart ${this.failures}): pulling ${what}`);
    this.schedule(this.timing.workerStartMs, () => {
      if (this.status !== "INITIALIZING") return;
      const failure = this.timing.startFailure?.(this.spec.imageName);
      if (failure) return this.failStart(failure);
      this.status = "READY";
      this.readyAt = Date.now();
      this.log("system", "worker is ready");
      this.log("container", "handler started, waiting for jobs");
      clearTimeout(this.timer);
      this.timer = setInterval(() => this.tick(), this.timing.logIntervalMs);
      this.timer.unref();
      this.onReady();
    });
  }

  /** The start failed: UNHEALTHY with the reason in the log, and a restart after `workerStartMs`. */
  private failStart(failure: StartFailure): void {
    this.status = "UNHEALTHY";
    this.failures++;
    const wait = this.timing.workerStartMs;
    if (failure.kind === "pull") {
      this.log("system", `image pull failed: ${this.spec.imageName}: manifest unknown (no such tag or digest in the registry)`);
    } else {
      this.log("container", `handler failed to start: process exited with code ${failure.exitCode}`);
      this.log("system", `container exited with code ${failure.exitCode} during startup`);
    }
    this.log("system", `worker is unhealthy (failed start ${this.failures}); restarting in ${wait} ms`);
    this.schedule(wait, () => {
      if (this.status === "UNHEALTHY") this.attemptStart();
    });
  }

  private tick(): void {
    if (this.timing.idleLogsPaused?.()) return;
    this.ticks++;
    this.log("container", `handler idle, polling queue (tick ${this.ticks})`);
    if (this.ticks % 3 === 0) this.log("system", `heartbeat: gpu ${this.spec.gpuTypeId} healthy, uptime ${this.ticks} ticks`);
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
    clearTimeout(this.timer);
    for (const l of [...this.listeners]) l.onStop();
    this.listeners.clear();
    this.onStop();
  }

  /** Started and running its release: READY, or DRAINING its last jobs (never-ready workers are not). */
  get up(): boolean {
    return this.readyAt !== undefined && (this.status === "READY" || this.status === "DRAINING");
  }

  get gpuTypeId(): string {
    return this.spec.gpuTypeId;
  }

  /** Stop taking jobs; the pool stops the worker once its running jobs are done. */
  drain(reason: string): void {
    if (this.status === "DRAINING" || this.status === "STOPPED") return;
    this.status = "DRAINING";
    this.log("system", `worker draining: ${reason}; finishing ${this.jobs.size} running job(s), taking no new ones`);
  }

  /** Listing shape of GET /v2/serverless/{id}/workers (spec: not shown; see emulator/README.md). */
  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      status: this.status,
      createdAt: this.createdAt,
      gpuId: this.spec.gpuTypeId,
      endpointId: this.endpointId,
      imageName: this.spec.imageName,
      templateId: this.spec.templateId,
      templateVersion: this.spec.templateVersion,
      jobsInProgress: this.jobs.size,
      failures: this.failures,
    };
  }
}

/** What the job queue hears from the pool: a worker may take a job; an endpoint's workers are gone. */
export interface PoolListener {
  workerFree(endpointId: string): void;
  endpointRemoved(endpointId: string): void;
}

/** An endpoint's target: what new workers run, its scaling settings and what its queue wants (scaler.ts). */
interface Target {
  spec: WorkerSpec;
  scaling: Scaling;
  /** Workers the queue wants, before `min` and `max`. */
  demand: number;
}

/**
 * Keeps each endpoint's workers at what its settings and queue want (scaler.ts), on its current template version:
 * rolling, draining, and stopping workers the queue no longer needs after the idle timeout. A worker runs one job
 * at a time.
 */
export class WorkerPool {
  private running = new Map<string, SimWorker[]>();
  private stopped = new Map<string, SimWorker[]>();
  private targets = new Map<string, Target>();
  /** The worker running each job. */
  private jobWorkers = new Map<string, SimWorker>();
  private idleTimers = new Map<SimWorker, NodeJS.Timeout>();
  /** Set by the job queue (jobs.ts). */
  listener?: PoolListener;

  constructor(
    private timing: WorkerTiming,
    private meter?: WorkerMeter,
  ) {}

  private static current(w: SimWorker, spec: WorkerSpec): boolean {
    return (
      w.spec.templateId === spec.templateId && w.spec.templateVersion === spec.templateVersion && (w.spec.releaseVersion ?? 1) === (spec.releaseVersion ?? 1)
    );
  }

  /** Workers to run now: the queue's demand within the endpoint's min and max (and the simulator's ceiling). */
  private static desired(target: Target): number {
    return Math.min(desiredWorkers(target.scaling, target.demand), SIMULATED_WORKERS_MAX);
  }

  /** Whether a running worker runs an older configuration than its endpoint's current one (REST v2 `isStale`). */
  isStale(w: SimWorker): boolean {
    const target = this.targets.get(w.endpointId);
    return target !== undefined && !WorkerPool.current(w, target.spec);
  }

  /** The spec new workers of an endpoint get. */
  targetSpec(endpointId: string): WorkerSpec | undefined {
    return this.targets.get(endpointId)?.spec;
  }

  /** The endpoint's scaling settings (undefined for an endpoint the pool does not run). */
  scaling(endpointId: string): Scaling | undefined {
    return this.targets.get(endpointId)?.scaling;
  }

  /**
   * The endpoint's settings changed (or it was created): start missing workers built from `spec`, drain surplus ones
   * at once (idle and not yet ready ones first, newest first), and drain workers of another template version once
   * their replacements are READY.
   */
  reconcile(endpointId: string, scaling: Scaling, spec: WorkerSpec): void {
    this.targets.set(endpointId, { spec, scaling, demand: this.targets.get(endpointId)?.demand ?? 0 });
    this.apply(endpointId, true);
    this.listener?.workerFree(endpointId);
  }

  /**
   * The queue wants `demand` workers (scaler.ts): start missing ones; surplus workers that are not ready are stopped,
   * ready ones stop once idle for the idle timeout.
   */
  setDemand(endpointId: string, demand: number): void {
    const target = this.targets.get(endpointId);
    if (!target || target.demand === demand) return;
    target.demand = demand;
    this.apply(endpointId, false);
  }

  private apply(endpointId: string, settingsChanged: boolean): void {
    const target = this.targets.get(endpointId)!;
    const { spec } = target;
    const count = WorkerPool.desired(target);
    const list = this.running.get(endpointId) ?? [];
    this.running.set(endpointId, list);
    // Throttled workers give way as soon as the spec finds capacity.
    if (!spec.throttled) {
      for (const w of list.filter((x) => x.status === "THROTTLED")) {
        list.splice(list.indexOf(w), 1);
        this.retire(endpointId, w, "capacity found; replaced");
      }
    }
    const fresh = list.filter((w) => w.status !== "DRAINING" && WorkerPool.current(w, spec));
    for (let n = fresh.length; n < count; n++) {
      const worker: SimWorker = new SimWorker(
        endpointId,
        spec,
        this.timing,
        () => this.becameFree(worker),
        () => this.meter?.stopped(worker),
      );
      list.push(worker);
      if (!spec.throttled) this.meter?.started(worker);
    }
    // Surplus: workers not ready serve nobody; idle ones next; busy ones finish their job first (draining).
    const rank = (w: SimWorker) => (w.status !== "READY" ? 0 : w.jobs.size === 0 ? 1 : 2);
    const surplus = fresh
      .slice()
      .reverse()
      .sort((a, b) => rank(a) - rank(b))
      .slice(0, Math.max(0, fresh.length - count));
    for (const w of surplus) {
      if (settingsChanged) w.drain("scaling settings lowered");
      else if (w.status !== "READY") w.drain("no longer needed by the queue");
    }
    this.settle(endpointId);
  }

  /** A worker became READY or finished its job: it may take a job, and it stops if the queue leaves it idle. */
  private becameFree(worker: SimWorker): void {
    this.settle(worker.endpointId);
    if (worker.status === "READY" && worker.jobs.size === 0) this.armIdle(worker);
    this.listener?.workerFree(worker.endpointId);
  }

  /** After the idle timeout, an idle worker beyond what the endpoint wants stops. */
  private armIdle(worker: SimWorker): void {
    const target = this.targets.get(worker.endpointId);
    if (!target) return;
    clearTimeout(this.idleTimers.get(worker));
    const timer = setTimeout(() => {
      this.idleTimers.delete(worker);
      const t = this.targets.get(worker.endpointId);
      if (!t || worker.status !== "READY" || worker.jobs.size > 0) return;
      const fresh = this.list(worker.endpointId).filter((w) => w.status !== "DRAINING" && WorkerPool.current(w, t.spec));
      if (fresh.length <= WorkerPool.desired(t)) return;
      worker.drain(`idle for ${t.scaling.idleTimeoutMs} ms with no job queued`);
      this.settle(worker.endpointId);
    }, target.scaling.idleTimeoutMs);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  /** Drain old-version workers that READY replacements cover; stop draining workers that have no job left. */
  private settle(endpointId: string): void {
    const target = this.targets.get(endpointId);
    const list = this.running.get(endpointId);
    if (!target || !list) return;
    const readyFresh = list.filter((w) => w.status === "READY" && WorkerPool.current(w, target.spec)).length;
    // READY old workers are kept longest: they are the ones still serving while replacements start.
    const stale = list
      .filter((w) => w.status !== "DRAINING" && !WorkerPool.current(w, target.spec))
      .sort((a, b) => Number(b.status === "READY") - Number(a.status === "READY"));
    const keep = Math.max(0, WorkerPool.desired(target) - readyFresh);
    const { templateId, templateVersion } = target.spec;
    for (const w of stale.slice(keep)) w.drain(`replaced by template ${templateId} version ${templateVersion}`);
    for (const w of list.filter((x) => x.status === "DRAINING" && x.jobs.size === 0)) {
      list.splice(list.indexOf(w), 1);
      this.retire(endpointId, w, "drained");
    }
  }

  private retire(endpointId: string, worker: SimWorker, reason: string): void {
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
    worker.stop(reason);
    const kept = this.stopped.get(endpointId) ?? [];
    kept.push(worker);
    if (kept.length > RETAINED_STOPPED) kept.shift();
    this.stopped.set(endpointId, kept);
  }

  /**
   * A READY worker of the endpoint with no job, if any: one of the current version first, else an old one still
   * serving while its replacements start.
   */
  freeWorker(endpointId: string): SimWorker | undefined {
    const target = this.targets.get(endpointId);
    const free = this.list(endpointId).filter((w) => w.status === "READY" && w.jobs.size === 0);
    return free.find((w) => target !== undefined && WorkerPool.current(w, target.spec)) ?? free[0];
  }

  /** `worker` takes job `jobId` off the queue. */
  occupy(worker: SimWorker, jobId: string): void {
    clearTimeout(this.idleTimers.get(worker));
    this.idleTimers.delete(worker);
    worker.jobs.add(jobId);
    this.jobWorkers.set(jobId, worker);
  }

  /** The job is over (finished or cancelled): free its worker, which may take the next job or, draining, stop. */
  release(jobId: string): void {
    const worker = this.jobWorkers.get(jobId);
    if (!worker) return;
    this.jobWorkers.delete(jobId);
    worker.jobs.delete(jobId);
    this.becameFree(worker);
  }

  /** Running (INITIALIZING, READY or DRAINING) workers of an endpoint. */
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

  private stopAll(workers: SimWorker[], reason: string): void {
    for (const w of workers) {
      for (const jobId of w.jobs) this.jobWorkers.delete(jobId);
      w.jobs.clear();
      clearTimeout(this.idleTimers.get(w));
      this.idleTimers.delete(w);
      w.stop(reason);
    }
  }

  /** Stop and forget all workers of a deleted endpoint, including their logs. */
  remove(endpointId: string): void {
    this.stopAll(this.list(endpointId), "endpoint deleted");
    this.running.delete(endpointId);
    this.stopped.delete(endpointId);
    this.targets.delete(endpointId);
    this.listener?.endpointRemoved(endpointId);
  }

  close(): void {
    for (const id of [...this.running.keys()]) this.stopAll(this.list(id), "emulator shutting down");
    this.running.clear();
    this.stopped.clear();
    this.targets.clear();
  }
}
