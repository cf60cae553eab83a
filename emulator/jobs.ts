/**
 * The job interface's engine (spec: POST .../run and .../runsync; polling, streaming, retry, purge, retention and the
 * job policy from the platform's docs and official clients, docs/spec/platform-clients.md).
 *
 * An endpoint's jobs run on its workers (docs/emulator.md › Jobs run on workers): a job waits IN_QUEUE, oldest first,
 * until a READY worker of the endpoint with no job takes it; the queue drives the endpoint's scaler (scaler.ts); the
 * handler's time, and its execution timeout, count from that moment. A job no worker takes stays queued until its TTL
 * (counted from acceptance) runs out, and is then gone (404). Public model jobs run on the platform's own fleet:
 * queued for the first half of `jobDurationMs`, running for the second. A job's state is derived from its stored
 * instants, so a restart with a data file keeps it; timers only move it on (start, finish, expiry) and wake waiters.
 */
import { jobId } from "./ids";
import type { JobView } from "./records";
import { queueDemand } from "./scaler";
import type { SeedPublicEndpoint } from "./seed";
import type { JobPolicy, JobRow, Store } from "./store";
import type { WorkerPool } from "./workers";

/** Where a job runs: a user's endpoint or a public model endpoint. */
export type JobTarget = { kind: "endpoint"; endpointId: string; executionTimeoutMs: number } | { kind: "model"; model: SeedPublicEndpoint };

/** A job's TTL when its policy sets none: 24 hours (the platform's default). */
export const DEFAULT_TTL_MS = 24 * 3_600_000;

/** Added to timers waiting for an instant: timers may fire a millisecond before Date.now() reaches it. */
const TIMER_MARGIN_MS = 5;

const FINAL = new Set(["COMPLETED", "FAILED", "TIMED_OUT", "CANCELLED"]);

/** Milliseconds a final job stays readable, by how it was submitted (platform: about 30 min and 1 min). */
export interface JobRetention {
  run: number;
  runsync: number;
}

export interface JobOptions {
  /** How long a handler runs unless the input says (`input.executionMs`); public models: queue plus run. */
  jobDurationMs: number;
  retention: JobRetention;
  /** Base of generated image URLs, e.g. `http://127.0.0.1:P/inference/images`. */
  imageBaseUrl: () => string;
  /** Bills a public model job's output cost (USD) when it finishes (billing.ts). */
  charge?: (userId: string, endpointId: string, amount: number, atMs: number) => void;
}

/** A row written by an emulator before jobs ran on workers: its queue and run times were fixed at acceptance. */
type LegacyRow = Omit<JobRow, "runMs"> & { runMs?: number; durationMs?: number; queuedMs?: number };

function upgraded(row: LegacyRow): JobRow {
  if (row.runMs !== undefined || row.durationMs === undefined) return row as JobRow;
  const { durationMs, queuedMs = Math.floor(durationMs / 2), ...rest } = row;
  const stream = row.outcome.stream?.map((c) => ({ ...c, atMs: c.atMs - queuedMs }));
  return { ...rest, startedAt: row.createdAt + queuedMs, runMs: durationMs - queuedMs, outcome: { ...row.outcome, ...(stream ? { stream } : {}) } };
}

export class Jobs {
  /** Waiters for a job's next change, by job id. */
  private waiters = new Map<string, Set<() => void>>();
  /** The pending step of each job: its TTL while queued, its finish while running. */
  private timers = new Map<string, NodeJS.Timeout>();
  /** When each endpoint's scaler looks at its queue again (a job passing the queue delay). */
  private rechecks = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private store: Store,
    private workers: WorkerPool,
    private options: JobOptions,
  ) {
    workers.listener = {
      workerFree: (endpointId) => this.pump(endpointId),
      endpointRemoved: (endpointId) => this.forget(endpointId),
    };
  }

  // ---- instants --------------------------------------------------------------------------------------------------

  private static finishAt(row: JobRow): number | undefined {
    return row.startedAt === undefined ? undefined : row.startedAt + row.runMs;
  }

  /** When the job reached its final state (finished, or cancelled first), if it has. */
  private static endedAt(row: JobRow, now: number): number | undefined {
    const finish = Jobs.finishAt(row);
    if (row.cancelledAt !== undefined && (finish === undefined || row.cancelledAt < finish)) return row.cancelledAt;
    return finish !== undefined && finish <= now ? finish : undefined;
  }

  private static ttlAt(row: JobRow): number {
    return row.createdAt + (row.policy?.ttl ?? DEFAULT_TTL_MS);
  }

  private static queued(row: JobRow): boolean {
    return row.startedAt === undefined && row.cancelledAt === undefined;
  }

  /** Whether the job is gone: past its TTL, or its result past its retention. */
  private expired(row: JobRow, now: number): boolean {
    if (now >= Jobs.ttlAt(row)) return true;
    const ended = Jobs.endedAt(row, now);
    const keep = row.id.startsWith("sync-") ? this.options.retention.runsync : this.options.retention.run;
    return ended !== undefined && now >= ended + keep;
  }

  // ---- the queue -------------------------------------------------------------------------------------------------

  /** The endpoint's stored jobs, oldest first. */
  private rows(endpointId: string): JobRow[] {
    return this.store.listJobs(endpointId).map(upgraded);
  }

  /** Hand the endpoint's queued jobs, oldest first, to its free workers; then let its scaler look at the queue. */
  private pump(endpointId: string): void {
    if (this.closed) return;
    const now = Date.now();
    for (const row of this.rows(endpointId)) {
      if (!Jobs.queued(row)) continue;
      if (this.expired(row, now)) {
        this.drop(row);
        continue;
      }
      const worker = this.workers.freeWorker(endpointId);
      if (!worker) break;
      row.startedAt = now;
      row.workerId = worker.id;
      this.store.putJob(row);
      this.workers.occupy(worker, row.id);
      this.arm(row.id, row.runMs, () => this.finish(row.id));
      this.notify(row.id);
    }
    this.scale(endpointId, now);
  }

  /** Tell the endpoint's workers what its queue wants (scaler.ts), and when to look again. */
  private scale(endpointId: string, now = Date.now()): void {
    const scaling = this.workers.scaling(endpointId);
    if (!scaling || this.closed) return;
    const queuedSince: number[] = [];
    let running = 0;
    for (const row of this.rows(endpointId)) {
      if (this.expired(row, now)) continue;
      if (Jobs.queued(row)) {
        if (!row.policy?.lowPriority) queuedSince.push(row.createdAt);
      } else if (Jobs.endedAt(row, now) === undefined && row.workerId !== undefined) running++;
    }
    const { wanted, recheckAt } = queueDemand(scaling, { queuedSince, running }, now);
    this.workers.setDemand(endpointId, wanted);
    clearTimeout(this.rechecks.get(endpointId));
    this.rechecks.delete(endpointId);
    if (recheckAt !== undefined) {
      const timer = setTimeout(() => this.scale(endpointId), Math.max(0, recheckAt - Date.now()) + TIMER_MARGIN_MS);
      timer.unref();
      this.rechecks.set(endpointId, timer);
    }
  }

  /** The handler is done: free the worker for the next job. */
  private finish(jobId: string): void {
    this.timers.delete(jobId);
    // Freeing the worker hands it the next queued job and lets the scaler look again (pump).
    this.workers.release(jobId);
    this.notify(jobId);
  }

  /** Run `step` after `ms` as the job's one pending step. */
  private arm(jobId: string, ms: number, step: () => void): void {
    clearTimeout(this.timers.get(jobId));
    const timer = setTimeout(step, Math.max(0, ms));
    timer.unref();
    this.timers.set(jobId, timer);
  }

  /** A queued job's TTL: once it runs out the job is gone, unless a worker took it first. */
  private armTtl(row: JobRow): void {
    this.arm(row.id, Jobs.ttlAt(row) - Date.now() + TIMER_MARGIN_MS, () => {
      this.timers.delete(row.id);
      const current = this.store.getJob(row.id);
      if (current && Jobs.queued(current)) {
        this.drop(current);
        this.scale(current.endpointId);
      }
    });
  }

  private drop(row: JobRow): void {
    clearTimeout(this.timers.get(row.id));
    this.timers.delete(row.id);
    this.store.deleteJob(row.id);
    this.notify(row.id);
  }

  /** The endpoint was deleted: its jobs went with it. */
  private forget(endpointId: string): void {
    clearTimeout(this.rechecks.get(endpointId));
    this.rechecks.delete(endpointId);
    for (const row of this.store.listJobs(endpointId)) {
      clearTimeout(this.timers.get(row.id));
      this.timers.delete(row.id);
      this.notify(row.id);
    }
  }

  private notify(jobId: string): void {
    const set = this.waiters.get(jobId);
    if (!set) return;
    this.waiters.delete(jobId);
    for (const wake of set) wake();
  }

  /** Resolves on the job's next change or after `ms`. */
  private change(jobId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      const set = this.waiters.get(jobId) ?? new Set();
      this.waiters.set(jobId, set);
      const wake = () => {
        clearTimeout(timer);
        set.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      timer.unref();
      set.add(wake);
    });
  }

  /** Start timers for the stored jobs after a restart with a data file: queued ones wait for the new workers. */
  restore(endpointIds: string[]): void {
    const now = Date.now();
    for (const endpointId of endpointIds) {
      for (const row of this.rows(endpointId)) {
        if (Jobs.queued(row)) this.armTtl(row);
        const finish = Jobs.finishAt(row);
        // Its worker did not survive the restart; the job still ends when it would have.
        if (finish !== undefined && finish > now && row.cancelledAt === undefined) this.arm(row.id, finish - now, () => this.notify(row.id));
      }
      this.pump(endpointId);
    }
  }

  // ---- the interface ---------------------------------------------------------------------------------------------

  /** Accept a job; `input` and `policy` have already been validated for the target. */
  submit(userId: string, target: JobTarget, input: Record<string, unknown>, sync: boolean, policy: JobPolicy = {}): JobRow {
    const id = jobId(sync);
    const endpointId = target.kind === "endpoint" ? target.endpointId : target.model.id;
    const createdAt = Date.now();
    const row: JobRow = { id, endpointId, userId, input, createdAt, ...this.plan(id, target, input, 0, policy) };
    if (Object.keys(policy).length > 0) row.policy = policy;
    if (target.kind === "model") row.startedAt = createdAt + Math.floor(this.options.jobDurationMs / 2);
    this.store.putJob(row);
    if (target.kind === "endpoint") {
      this.armTtl(row);
      this.pump(endpointId);
    }
    const cost = (row.outcome.output as { cost?: unknown } | undefined)?.cost;
    if (target.kind === "model" && typeof cost === "number") this.options.charge?.(userId, endpointId, cost, row.startedAt! + row.runMs);
    return this.store.getJob(id) ?? row;
  }

  /**
   * How long the handler runs and its result. `input.fail === true` fails every attempt; `input.fail === "once"` fails
   * the first attempt only (a retry then succeeds). `input.executionMs` sets an endpoint handler's run, cut at the
   * execution timeout (the policy's, else the endpoint's) as TIMED_OUT. Echo jobs stream their output as one chunk at
   * the end; image jobs stream progress.
   */
  private plan(id: string, target: JobTarget, input: Record<string, unknown>, attempt: number, policy: JobPolicy): Pick<JobRow, "runMs" | "outcome"> {
    if (target.kind === "model") return this.modelRun(id, target.model, input, attempt);
    const wanted = typeof input.executionMs === "number" ? input.executionMs : this.options.jobDurationMs;
    const limit = policy.executionTimeout ?? target.executionTimeoutMs;
    if (wanted > limit) {
      const whose = policy.executionTimeout !== undefined ? "the job's policy.executionTimeout" : "the endpoint's executionTimeoutMs";
      return { runMs: limit, outcome: { status: "TIMED_OUT", error: `execution timed out after ${limit} ms (${whose})` } };
    }
    if (Jobs.fails(input, attempt)) return { runMs: wanted, outcome: Jobs.failure(input) };
    return { runMs: wanted, outcome: { status: "COMPLETED", output: { echo: input }, stream: [{ atMs: wanted, output: { echo: input } }] } };
  }

  private static fails(input: Record<string, unknown>, attempt: number): boolean {
    return input.fail === true || (input.fail === "once" && attempt === 0);
  }

  private static failure(input: Record<string, unknown>): JobRow["outcome"] {
    return { status: "FAILED", error: `handler error: the job input requested a failure (input.fail = ${JSON.stringify(input.fail)})` };
  }

  private modelRun(id: string, model: SeedPublicEndpoint, input: Record<string, unknown>, attempt: number): Pick<JobRow, "runMs" | "outcome"> {
    const runMs = this.options.jobDurationMs - Math.floor(this.options.jobDurationMs / 2);
    if (Jobs.fails(input, attempt)) return { runMs, outcome: Jobs.failure(input) };
    const width = (input.width as number | undefined) ?? 1024;
    const height = (input.height as number | undefined) ?? 1024;
    const megapixels = (width * height) / 1_000_000;
    const output = {
      image_url: `${this.options.imageBaseUrl()}/${id}.png`,
      width,
      height,
      // USD, usage-based on actual output (spec: Public model endpoints); failed jobs carry no cost.
      cost: Math.round(megapixels * model.pricePerMegapixel * 1e6) / 1e6,
    };
    // Progress at a quarter, half and three quarters of the run, then the image.
    const steps = [1, 2, 3].map((k) => ({ atMs: Math.floor((runMs * k) / 4), output: { progress: k / 4, step: k, steps: 4 } }));
    return { runMs, outcome: { status: "COMPLETED", output, stream: [...steps, { atMs: runMs, output }] } };
  }

  /** The caller's job on that endpoint, if any and still retained. */
  find(userId: string, endpointId: string, id: string, now = Date.now()): JobRow | undefined {
    const stored = this.store.getJob(id);
    if (!stored || stored.userId !== userId || stored.endpointId !== endpointId) return undefined;
    const row = upgraded(stored);
    if (this.expired(row, now)) {
      this.drop(row);
      return undefined;
    }
    return row;
  }

  /** How long results are kept, for error messages. */
  retentionNote(): string {
    const { run, runsync } = this.options.retention;
    return `results are kept ${run} ms after /run and ${runsync} ms after /runsync; a job no worker took is gone after its policy.ttl`;
  }

  /**
   * `/stream/{job}`: `{ id, status, stream: [{ output }] }` with the partial outputs produced since the last read
   * (each chunk is handed out once). Final when the status is final and `stream` is empty.
   */
  stream(row: JobRow, now = Date.now()): { id: string; status: string; stream: { output: unknown }[] } {
    const view = this.view(row, now);
    const until = Math.min(now, row.cancelledAt ?? Infinity);
    const started = row.startedAt;
    const ready = started === undefined ? [] : (row.outcome.stream ?? []).filter((c) => started + c.atMs <= until);
    const fresh = ready.slice(row.streamed ?? 0);
    if (fresh.length > 0) {
      row.streamed = ready.length;
      this.store.putJob(row);
    }
    return { id: row.id, status: view.status, stream: fresh.map((c) => ({ output: c.output })) };
  }

  /**
   * `/retry/{job}`: re-queue a FAILED or TIMED_OUT job with the same input (a new attempt of the handler).
   * Returns null when the job is in another state.
   */
  retry(row: JobRow, target: JobTarget, now = Date.now()): JobView | null {
    const status = this.view(row, now).status;
    if (status !== "FAILED" && status !== "TIMED_OUT") return null;
    row.retries = (row.retries ?? 0) + 1;
    row.createdAt = now;
    Object.assign(row, this.plan(row.id, target, row.input as Record<string, unknown>, row.retries, row.policy ?? {}));
    delete row.startedAt;
    delete row.workerId;
    delete row.streamed;
    if (target.kind === "model") row.startedAt = now + Math.floor(this.options.jobDurationMs / 2);
    this.store.putJob(row);
    if (target.kind === "endpoint") {
      this.armTtl(row);
      this.pump(row.endpointId);
    }
    return { id: row.id, status: "IN_QUEUE" };
  }

  /** `/purge-queue`: remove the endpoint's jobs still IN_QUEUE (running ones are left alone); returns how many. */
  purgeQueue(userId: string, endpointId: string, now = Date.now()): number {
    let removed = 0;
    for (const row of this.rows(endpointId)) {
      if (row.userId !== userId || this.view(row, now).status !== "IN_QUEUE") continue;
      this.drop(row);
      removed++;
    }
    this.scale(endpointId, now);
    return removed;
  }

  /** Status response as the platform's SDKs read it: `{ id, status, delayTime?, executionTime?, workerId?, output?, error? }`. */
  view(row: JobRow, now = Date.now()): JobView {
    const finish = Jobs.finishAt(row);
    if (row.cancelledAt !== undefined && (finish === undefined || row.cancelledAt < finish)) return { id: row.id, status: "CANCELLED" };
    if (row.startedAt === undefined || finish === undefined || now < row.startedAt) return { id: row.id, status: "IN_QUEUE" };
    const worker = row.workerId === undefined ? {} : { workerId: row.workerId };
    const delayTime = row.startedAt - row.createdAt;
    if (now < finish) return { id: row.id, status: "IN_PROGRESS", delayTime, ...worker };
    const job: JobView = { id: row.id, status: row.outcome.status, delayTime, executionTime: row.runMs, ...worker };
    if (row.outcome.output !== undefined) job.output = row.outcome.output;
    if (row.outcome.error !== undefined) job.error = row.outcome.error;
    return job;
  }

  /** Cancel a job that has not finished (taking it off the queue, or stopping its handler); a finished job is left as it is. */
  cancel(row: JobRow, now = Date.now()): JobView {
    if (Jobs.endedAt(row, now) === undefined) {
      row.cancelledAt = now;
      this.store.putJob(row);
      clearTimeout(this.timers.get(row.id));
      this.timers.delete(row.id);
      this.workers.release(row.id);
      this.notify(row.id);
      this.scale(row.endpointId, now);
    }
    return this.view(row, now);
  }

  /** Counts for `/health`: the jobs of `userId` only (a public model's queue is shared by every user). */
  health(userId: string, endpointId: string, now = Date.now()): Record<string, number> {
    const counts = { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 };
    for (const row of this.rows(endpointId)) {
      if (row.userId !== userId || this.expired(row, now)) continue;
      if ((row.retries ?? 0) > 0) counts.retried++;
      const s = this.view(row, now).status;
      if (s === "COMPLETED") counts.completed++;
      else if (s === "FAILED") counts.failed++;
      else if (s === "IN_PROGRESS") counts.inProgress++;
      else if (s === "IN_QUEUE") counts.inQueue++;
    }
    return counts;
  }

  /**
   * Resolve when the job has reached its final state or is gone, or `maxMs` passed (or at once when the emulator
   * closes). Woken by the job's changes: a worker taking it, its end, a cancel, its expiry.
   */
  async waitUntilDone(row: JobRow, maxMs = Infinity): Promise<void> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const stored = this.store.getJob(row.id);
      const now = Date.now();
      if (this.closed || !stored || now >= deadline) return;
      const current = upgraded(stored);
      if (this.expired(current, now) || FINAL.has(this.view(current, now).status)) return;
      const finish = Jobs.finishAt(current);
      const next = Math.min(deadline, Jobs.ttlAt(current) + TIMER_MARGIN_MS, finish === undefined ? Infinity : finish + TIMER_MARGIN_MS);
      await this.change(row.id, next - now);
    }
  }

  /** A job's current row (after a wait), or the given one when it is gone. */
  latest(row: JobRow): JobRow {
    const stored = this.store.getJob(row.id);
    return stored ? upgraded(stored) : row;
  }

  close(): void {
    this.closed = true;
    for (const t of [...this.timers.values(), ...this.rechecks.values()]) clearTimeout(t);
    this.timers.clear();
    this.rechecks.clear();
    for (const id of [...this.waiters.keys()]) this.notify(id);
  }
}
