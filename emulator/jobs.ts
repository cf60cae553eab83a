/**
 * The job interface's engine (spec: POST .../run and .../runsync; polling shape not shown, so the platform
 * SDKs' `/status/{jobId}` is used). A job's status is derived from the clock: IN_QUEUE for the first half of
 * `jobDurationMs`, IN_PROGRESS for the second half, then its precomputed outcome. That needs no timers and
 * survives a restart with a data file. Ordinary endpoints echo their input; image models return `image_url`.
 */
import { jobId } from "./ids";
import type { JobView } from "./records";
import type { SeedPublicEndpoint } from "./seed";
import type { JobRow, Store } from "./store";
import type { WorkerPool } from "./workers";

/** Where a job runs: a user's endpoint or a public model endpoint. */
export type JobTarget = { kind: "endpoint"; endpointId: string } | { kind: "model"; model: SeedPublicEndpoint };

export interface JobOptions {
  jobDurationMs: number;
  /** Base of generated image URLs, e.g. `http://127.0.0.1:P/inference/images`. */
  imageBaseUrl: () => string;
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
    const timer = setTimeout(() => this.start(row.id), Math.floor(row.durationMs / 2));
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
    const row: JobRow = {
      id,
      endpointId,
      userId,
      input,
      createdAt: Date.now(),
      durationMs: this.options.jobDurationMs,
      outcome: this.outcome(id, target, input),
    };
    this.store.putJob(row);
    if (target.kind === "endpoint") this.scheduleStart(row);
    return row;
  }

  private outcome(id: string, target: JobTarget, input: Record<string, unknown>): JobRow["outcome"] {
    if (input.fail === true) return { status: "FAILED", error: "handler error: the job input requested a failure (input.fail = true)" };
    if (target.kind === "endpoint") return { status: "COMPLETED", output: { echo: input } };
    const width = (input.width as number | undefined) ?? 1024;
    const height = (input.height as number | undefined) ?? 1024;
    const megapixels = (width * height) / 1_000_000;
    return {
      status: "COMPLETED",
      output: {
        image_url: `${this.options.imageBaseUrl()}/${id}.png`,
        width,
        height,
        // USD, usage-based on actual output (spec: Public model endpoints); failed jobs carry no cost.
        cost: Math.round(megapixels * target.model.pricePerMegapixel * 1e6) / 1e6,
      },
    };
  }

  /** The caller's job on that endpoint, if any. */
  find(userId: string, endpointId: string, id: string): JobRow | undefined {
    const row = this.store.getJob(id);
    return row && row.userId === userId && row.endpointId === endpointId ? row : undefined;
  }

  /** Status response as the platform's SDKs read it: `{ id, status, delayTime?, executionTime?, output?, error? }`. */
  view(row: JobRow, now = Date.now()): JobView {
    const queued = Math.floor(row.durationMs / 2);
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

  /** Counts for `/health`. */
  health(endpointId: string, now = Date.now()): Record<string, number> {
    const counts = { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 };
    for (const row of this.store.listJobs(endpointId)) {
      const s = this.view(row, now).status;
      if (s === "COMPLETED") counts.completed++;
      else if (s === "FAILED") counts.failed++;
      else if (s === "IN_PROGRESS") counts.inProgress++;
      else if (s === "IN_QUEUE") counts.inQueue++;
    }
    return counts;
  }

  /** Resolve when the job has reached its final state (or at once when the emulator closes). */
  waitUntilDone(row: JobRow): Promise<void> {
    const delay = Math.max(0, row.createdAt + row.durationMs - Date.now());
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
