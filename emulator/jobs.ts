/**
 * The job interface's engine (spec: POST .../run and .../runsync; polling, streaming, retry, purge and retention
 * from the official clients, docs/spec/platform-clients.md). A job's status is derived from the clock: IN_QUEUE for
 * the first half of `jobDurationMs`, IN_PROGRESS for the second half, then its precomputed outcome, so a restart
 * with a data file keeps it. Ordinary endpoints echo their input; image models return `image_url` and stream
 * progress chunks while they run. Final results are kept `retention.run` after `/run` and `retention.runsync`
 * after `/runsync` (counted from the final state), then the job is gone (404).
 */
import { jobId } from "./ids";
import type { JobView } from "./records";
import type { SeedPublicEndpoint } from "./seed";
import type { JobRow, Store } from "./store";
import type { WorkerPool } from "./workers";

/** Where a job runs: a user's endpoint or a public model endpoint. */
export type JobTarget = { kind: "endpoint"; endpointId: string; executionTimeoutMs: number } | { kind: "model"; model: SeedPublicEndpoint };

/** Added to waits for a job's final state (see waitUntilDone). */
const TIMER_MARGIN_MS = 5;

/** Milliseconds a job of `row` spends IN_QUEUE. */
const queuedOf = (row: JobRow): number => row.queuedMs ?? Math.floor(row.durationMs / 2);

/** Milliseconds a final job stays readable, by how it was submitted (platform: about 30 min and 1 min). */
export interface JobRetention {
  run: number;
  runsync: number;
}

export interface JobOptions {
  jobDurationMs: number;
  retention: JobRetention;
  /** Base of generated image URLs, e.g. `http://127.0.0.1:P/inference/images`. */
  imageBaseUrl: () => string;
  /** Bills a public model job's output cost (USD) when it finishes (billing.ts). */
  charge?: (userId: string, endpointId: string, amount: number, atMs: number) => void;
}

export class Jobs {
  private waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  /** Start timers of queued endpoint jobs, by job id. */
  private starts = new Map<string, NodeJS.Timeout>();

  constructor(
    private store: Store,
    private workers: WorkerPool,
    private options: JobOptions,
  ) {}

  /** When the job leaves the queue, hand it to an accepting worker of its endpoint and record which one. */
  private scheduleStart(row: JobRow): void {
    const timer = setTimeout(() => this.start(row.id), queuedOf(row));
    timer.unref();
    this.starts.set(row.id, timer);
  }

  /** Assign the job to a worker now (its start timer fired, or a status read reached its start first). */
  private start(jobId: string): JobRow | undefined {
    const timer = this.starts.get(jobId);
    if (timer === undefined) return undefined;
    clearTimeout(timer);
    this.starts.delete(jobId);
    const current = this.store.getJob(jobId);
    if (!current || current.cancelledAt !== undefined) return current;
    const workerId = this.workers.assign(current.endpointId, current.id, current.createdAt + current.durationMs);
    if (workerId === undefined) return current;
    current.workerId = workerId;
    this.store.putJob(current);
    return current;
  }

  /** Accept a job; `input` has already been validated for the target. */
  submit(userId: string, target: JobTarget, input: Record<string, unknown>, sync: boolean): JobRow {
    const id = jobId(sync);
    const endpointId = target.kind === "endpoint" ? target.endpointId : target.model.id;
    const row: JobRow = { id, endpointId, userId, input, createdAt: Date.now(), ...this.plan(id, target, input, 0) };
    this.store.putJob(row);
    if (target.kind === "endpoint") this.scheduleStart(row);
    const cost = (row.outcome.output as { cost?: unknown } | undefined)?.cost;
    if (target.kind === "model" && typeof cost === "number") this.options.charge?.(userId, endpointId, cost, row.createdAt + row.durationMs);
    return row;
  }

  /**
   * The handler's result. `input.fail === true` fails every attempt; `input.fail === "once"` fails the first attempt
   * only (a retry then succeeds). Echo jobs stream their output as one chunk at the end; image jobs stream progress.
   */
  private plan(id: string, target: JobTarget, input: Record<string, unknown>, attempt: number): Pick<JobRow, "queuedMs" | "durationMs" | "outcome"> {
    const queued = Math.floor(this.options.jobDurationMs / 2);
    const running = this.options.jobDurationMs - queued;
    if (target.kind === "endpoint" && typeof input.executionMs === "number") {
      // The handler would run executionMs; the endpoint's executionTimeoutMs cuts it short (TIMED_OUT).
      const limit = target.executionTimeoutMs;
      if (input.executionMs > limit) {
        return {
          queuedMs: queued,
          durationMs: queued + limit,
          outcome: { status: "TIMED_OUT", error: `execution timed out after ${limit} ms (the endpoint's executionTimeoutMs)` },
        };
      }
      return {
        queuedMs: queued,
        durationMs: queued + input.executionMs,
        outcome: this.outcome(id, target, input, attempt, queued, queued + input.executionMs),
      };
    }
    return { queuedMs: queued, durationMs: queued + running, outcome: this.outcome(id, target, input, attempt, queued, queued + running) };
  }

  private outcome(id: string, target: JobTarget, input: Record<string, unknown>, attempt: number, queued: number, duration: number): JobRow["outcome"] {
    if (input.fail === true || (input.fail === "once" && attempt === 0)) {
      return { status: "FAILED", error: `handler error: the job input requested a failure (input.fail = ${JSON.stringify(input.fail)})` };
    }
    if (target.kind === "endpoint") return { status: "COMPLETED", output: { echo: input }, stream: [{ atMs: duration, output: { echo: input } }] };
    const width = (input.width as number | undefined) ?? 1024;
    const height = (input.height as number | undefined) ?? 1024;
    const megapixels = (width * height) / 1_000_000;
    const output = {
      image_url: `${this.options.imageBaseUrl()}/${id}.png`,
      width,
      height,
      // USD, usage-based on actual output (spec: Public model endpoints); failed jobs carry no cost.
      cost: Math.round(megapixels * target.model.pricePerMegapixel * 1e6) / 1e6,
    };
    // Progress at a quarter, half and three quarters of the run, then the image.
    const steps = [1, 2, 3].map((k) => ({ atMs: queued + Math.floor(((duration - queued) * k) / 4), output: { progress: k / 4, step: k, steps: 4 } }));
    return { status: "COMPLETED", output, stream: [...steps, { atMs: duration, output }] };
  }

  /** Whether a job's result has outlived its retention (it is then deleted and reads as not found). */
  private expired(row: JobRow, now: number): boolean {
    const finishedAt = row.cancelledAt !== undefined ? Math.min(row.cancelledAt, row.createdAt + row.durationMs) : row.createdAt + row.durationMs;
    const keep = row.id.startsWith("sync-") ? this.options.retention.runsync : this.options.retention.run;
    return now >= finishedAt + keep;
  }

  /** The caller's job on that endpoint, if any and still retained. */
  find(userId: string, endpointId: string, id: string, now = Date.now()): JobRow | undefined {
    const row = this.store.getJob(id);
    if (!row || row.userId !== userId || row.endpointId !== endpointId) return undefined;
    if (this.expired(row, now)) {
      this.store.deleteJob(row.id);
      return undefined;
    }
    return row;
  }

  /** How long results are kept, for error messages. */
  retentionNote(): string {
    const { run, runsync } = this.options.retention;
    return `results are kept ${run} ms after /run and ${runsync} ms after /runsync`;
  }

  /**
   * `/stream/{job}`: `{ id, status, stream: [{ output }] }` with the partial outputs produced since the last read
   * (each chunk is handed out once). Final when the status is final and `stream` is empty.
   */
  stream(row: JobRow, now = Date.now()): { id: string; status: string; stream: { output: unknown }[] } {
    const view = this.view(row, now);
    const until = row.cancelledAt ?? Infinity;
    const ready = (row.outcome.stream ?? []).filter((c) => row.createdAt + c.atMs <= Math.min(now, until));
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
    Object.assign(row, this.plan(row.id, target, row.input as Record<string, unknown>, row.retries));
    delete row.workerId;
    delete row.streamed;
    this.store.putJob(row);
    if (target.kind === "endpoint") this.scheduleStart(row);
    return { id: row.id, status: "IN_QUEUE" };
  }

  /** `/purge-queue`: remove the endpoint's jobs still IN_QUEUE (running ones are left alone); returns how many. */
  purgeQueue(userId: string, endpointId: string, now = Date.now()): number {
    let removed = 0;
    for (const row of this.store.listJobs(endpointId)) {
      if (row.userId !== userId || this.view(row, now).status !== "IN_QUEUE") continue;
      const timer = this.starts.get(row.id);
      if (timer) clearTimeout(timer);
      this.starts.delete(row.id);
      this.store.deleteJob(row.id);
      removed++;
    }
    return removed;
  }

  /** Status response as the platform's SDKs read it: `{ id, status, delayTime?, executionTime?, output?, error? }`. */
  view(row: JobRow, now = Date.now()): JobView {
    const queued = queuedOf(row);
    if (now - row.createdAt >= queued && this.starts.has(row.id)) row = this.start(row.id) ?? row;
    const finishedAt = row.createdAt + row.durationMs;
    if (row.cancelledAt !== undefined && row.cancelledAt < finishedAt) return { id: row.id, status: "CANCELLED" };
    const elapsed = now - row.createdAt;
    if (elapsed < queued) return { id: row.id, status: "IN_QUEUE" };
    const worker = row.workerId === undefined ? {} : { workerId: row.workerId };
    if (elapsed < row.durationMs) return { id: row.id, status: "IN_PROGRESS", delayTime: queued, ...worker };
    const job: JobView = { id: row.id, status: row.outcome.status, delayTime: queued, executionTime: row.durationMs - queued, ...worker };
    if (row.outcome.output !== undefined) job.output = row.outcome.output;
    if (row.outcome.error !== undefined) job.error = row.outcome.error;
    return job;
  }

  /** Cancel a job that has not finished; a finished job is left as it is. */
  cancel(row: JobRow, now = Date.now()): JobView {
    if (now < row.createdAt + row.durationMs && row.cancelledAt === undefined) {
      row.cancelledAt = now;
      this.store.putJob(row);
      this.workers.release(row.id);
    }
    return this.view(row, now);
  }

  /** Counts for `/health`: the jobs of `userId` only (a public model's queue is shared by every user). */
  health(userId: string, endpointId: string, now = Date.now()): Record<string, number> {
    const counts = { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 };
    for (const row of this.store.listJobs(endpointId)) {
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

  /** Resolve when the job has reached its final state or `maxMs` passed (or at once when the emulator closes). */
  waitUntilDone(row: JobRow, maxMs = Infinity): Promise<void> {
    const finishedAt = row.cancelledAt !== undefined ? row.cancelledAt : row.createdAt + row.durationMs;
    // Timers may fire a millisecond before Date.now() reaches the target; the margin keeps the answer final.
    const delay = Math.min(maxMs, Math.max(0, finishedAt - Date.now() + TIMER_MARGIN_MS));
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.waits.delete(entry);
          resolve();
        }, delay),
        resolve,
      };
      entry.timer.unref();
      this.waits.add(entry);
    });
  }

  close(): void {
    for (const t of this.starts.values()) clearTimeout(t);
    this.starts.clear();
    for (const w of this.waits) {
      clearTimeout(w.timer);
      w.resolve();
    }
    this.waits.clear();
  }
}
