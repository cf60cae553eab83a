/**
 * Mutable emulator state behind one small interface: endpoints, jobs and rate-limit counters.
 * {@link MemoryStore} keeps it in maps; `SqliteStore` (sqliteStore.ts) persists it so a restart keeps it.
 * Seed data (users, keys, volumes, templates, GPU types) is configuration and not stored here.
 */
import type { EndpointRecord } from "./records";

/** An endpoint as stored: the platform record (without the derived `pods`) plus its owner. */
export interface EndpointRow extends Omit<EndpointRecord, "pods"> {
  userId: string;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** A job as stored. Its visible status is derived from the clock (see jobs.ts), so no timer is needed. */
export interface JobRow {
  id: string;
  endpointId: string;
  userId: string;
  input: unknown;
  /** Epoch milliseconds when the job was accepted. */
  createdAt: number;
  /** Milliseconds from acceptance to the final state (half queued, half in progress). */
  durationMs: number;
  /** Final state reached at `createdAt + durationMs`. */
  outcome: { status: "COMPLETED" | "FAILED"; output?: unknown; error?: string };
  /** Epoch milliseconds of a cancel request, if any. */
  cancelledAt?: number;
}

/** A fixed rate-limit window counter. */
export interface CounterRow {
  /** Epoch milliseconds where the current window began. */
  windowStart: number;
  count: number;
}

export interface Store {
  listEndpoints(userId?: string): EndpointRow[];
  getEndpoint(id: string): EndpointRow | undefined;
  putEndpoint(row: EndpointRow): void;
  deleteEndpoint(id: string): void;
  getJob(id: string): JobRow | undefined;
  putJob(row: JobRow): void;
  /** Jobs of one endpoint, oldest first. */
  listJobs(endpointId: string): JobRow[];
  deleteJobsOf(endpointId: string): void;
  getCounter(key: string): CounterRow | undefined;
  putCounter(key: string, row: CounterRow): void;
  close(): void;
}

const clone = <T>(v: T): T => structuredClone(v);

/** In-memory store (the default); values are copied in and out so callers cannot alias stored state. */
export class MemoryStore implements Store {
  private endpoints = new Map<string, EndpointRow>();
  private jobs = new Map<string, JobRow>();
  private counters = new Map<string, CounterRow>();

  listEndpoints(userId?: string): EndpointRow[] {
    return [...this.endpoints.values()]
      .filter((e) => userId === undefined || e.userId === userId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(clone);
  }
  getEndpoint(id: string): EndpointRow | undefined {
    const row = this.endpoints.get(id);
    return row && clone(row);
  }
  putEndpoint(row: EndpointRow): void {
    this.endpoints.set(row.id, clone(row));
  }
  deleteEndpoint(id: string): void {
    this.endpoints.delete(id);
  }
  getJob(id: string): JobRow | undefined {
    const row = this.jobs.get(id);
    return row && clone(row);
  }
  putJob(row: JobRow): void {
    this.jobs.set(row.id, clone(row));
  }
  listJobs(endpointId: string): JobRow[] {
    return [...this.jobs.values()].filter((j) => j.endpointId === endpointId).sort((a, b) => a.createdAt - b.createdAt).map(clone);
  }
  deleteJobsOf(endpointId: string): void {
    for (const [id, job] of this.jobs) if (job.endpointId === endpointId) this.jobs.delete(id);
  }
  getCounter(key: string): CounterRow | undefined {
    const row = this.counters.get(key);
    return row && { ...row };
  }
  putCounter(key: string, row: CounterRow): void {
    this.counters.set(key, { ...row });
  }
  close(): void {}
}
