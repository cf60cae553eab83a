/**
 * Mutable emulator state behind one small interface: endpoints, templates, registry credentials, pods, jobs and
 * rate-limit counters. {@link MemoryStore} keeps it in maps; `SqliteStore` (sqliteStore.ts) persists it so a
 * restart keeps it. Seed data (users, keys, volumes, GPU types) is configuration and not stored here; seeded
 * templates are copied into the store once (see `markSeeded`) and are ordinary state from then on.
 */
import type { VolumeType } from "./facts";
import type { EndpointRecord, NetworkVolume, TemplateRecord } from "./records";

/**
 * An endpoint as stored: the platform record (without the derived `pods`) plus its owner. Fields added after the
 * first release may be missing from rows written by an older emulator; readers fill their defaults.
 */
export interface EndpointRow extends Omit<EndpointRecord, "pods"> {
  userId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** 0 at creation, increased by every modify. */
  version?: number;
  aiKey?: string;
  /** What only REST v2 expresses, plus the release history (absent on rows no v2 call has touched). */
  v2?: EndpointV2State;
}

/** One release: a configuration version and what changed (REST v2 `Release`). */
export interface ReleaseRow {
  id: string;
  version: number;
  /** Epoch milliseconds. */
  createdAt: number;
  createdByUserId: string | null;
  diff: { field: string; old: unknown; new: unknown }[];
}

/** REST v2 state of an endpoint that the GraphQL record has no field for. */
export interface EndpointV2State {
  /** Configuration version (`endpointVersion`); 1 at creation, increased by every release. */
  version: number;
  /** Newest last. */
  releases: ReleaseRow[];
  excludedGpuTypes?: string[];
  /** CPU endpoints: the eligible flavors; such an endpoint has `gpuIds` "". */
  cpu?: { id: string; vcpuCount: number }[];
  dataCenterIds?: string[];
  /** All attached volumes; the first is the record's `networkVolumeId`. */
  networkVolumeIds?: string[];
  /** Set only for PRIORITY_FLASHBOOT, which GraphQL's `fastBootType` cannot show (it shows FASTBOOT). */
  flashboot?: "PRIORITY_FLASHBOOT";
  /** The exact `queueDelay` when it is fractional (GraphQL's `scalerValue` is an integer). */
  queueDelay?: number;
}

/** A template as stored: the platform record plus owner, rollout version and the last release instant. */
export interface TemplateRow extends TemplateRecord {
  /** Owner; null = a public seeded template usable by every user and modifiable by none. */
  userId: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Starts at 1; increased on every change of `imageName` or `env` (workers show it as `templateVersion`). */
  version: number;
  /** Epoch milliseconds when an endpoint last stopped using the template (deletion release window). */
  releasedAt?: number;
  /** REST v2 fields GraphQL does not show (defaults: NVIDIA, true, []). */
  category?: "NVIDIA" | "AMD" | "CPU";
  startJupyter?: boolean;
  allowedCudaVersions?: string[];
  /** Set on a template REST v2 made to hold one endpoint's container settings (its bound template). */
  boundTo?: string;
  /** A public template Runpod has verified (REST v2 `listPublicTemplates` `source=verified`); seed only. */
  verified?: boolean;
}

/** Registry credentials as stored: the password only as a salted SHA-256 digest, never in clear. */
export interface RegistryAuthRow {
  id: string;
  userId: string;
  name: string;
  username: string;
  passwordSalt: string;
  passwordSha256: string;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** A network volume as stored (REST v2 `NetworkVolume` plus owner and creation instant); seeded volumes are copied in once. */
export interface NetworkVolumeRow extends Omit<NetworkVolume, "type"> {
  type: VolumeType;
  userId: string;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** A pod as stored (REST v2 `Pod`; emulator/v2/pods.ts renders it): its settings, placement, status and log. */
export interface PodRow {
  id: string;
  userId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  name: string;
  image: string;
  args: string;
  disk: number;
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
  status: "PROVISIONING" | "STARTING" | "RUNNING" | "EXITED" | "ERROR";
  /** Wall time (ms) at which a PROVISIONING / STARTING pod is RUNNING. */
  bootAt: number;
  mounts: { persistent?: { size: number; path: string }; network?: { volumeId: string; path: string }[] };
  gpu?: { id: string; count: number };
  cpu?: { id: string; vcpuCount: number; memory: number };
  cloud: "SECURE" | "COMMUNITY";
  dataCenterId: string;
  cudaVersion: string | null;
  locked: boolean;
  globalNetworking: boolean;
  /** USD per hour while it runs. */
  rate: { gpuPerHour: number; cpuPerHour: number };
  /** Epoch milliseconds (wall) of the last start, or null. */
  startedAt: number | null;
  /** Log lines, oldest first. */
  log: { ts: string; tsMs: number; seq: number; source: "container" | "system"; line: string }[];
}

/** A job's policy as sent with it (`policy` of the /run and /runsync body). */
export interface JobPolicy {
  /** Milliseconds the handler may run once a worker takes the job (default: the endpoint's execution timeout). */
  executionTimeout?: number;
  /** Milliseconds from acceptance after which the job is gone, whatever its state (default 24 h). */
  ttl?: number;
  /** The job does not make the scaler start workers. */
  lowPriority?: boolean;
}

/** A job as stored. Its visible status is derived from these instants and the clock (see jobs.ts). */
export interface JobRow {
  id: string;
  endpointId: string;
  userId: string;
  input: unknown;
  /** Epoch milliseconds when the job was accepted (or re-queued by `/retry`). */
  createdAt: number;
  /** Milliseconds the handler runs once a worker takes the job (already cut at the execution timeout). */
  runMs: number;
  /** Epoch milliseconds when a worker took the job off the queue; absent while it is queued. */
  startedAt?: number;
  /** Simulated worker that runs the job (public models: none). */
  workerId?: string;
  policy?: JobPolicy;
  /** Final state reached at `startedAt + runMs`; `stream` holds the partial outputs and when each appears (ms after `startedAt`). */
  outcome: { status: "COMPLETED" | "FAILED" | "TIMED_OUT"; output?: unknown; error?: string; stream?: { atMs: number; output: unknown }[] };
  /** Stream chunks already handed out by `/stream` (each is delivered once). */
  streamed?: number;
  /** Times `/retry` re-queued the job. */
  retries?: number;
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
  listTemplates(userId?: string): TemplateRow[];
  getTemplate(id: string): TemplateRow | undefined;
  putTemplate(row: TemplateRow): void;
  deleteTemplate(id: string): void;
  listRegistryAuths(userId?: string): RegistryAuthRow[];
  getRegistryAuth(id: string): RegistryAuthRow | undefined;
  putRegistryAuth(row: RegistryAuthRow): void;
  deleteRegistryAuth(id: string): void;
  listNetworkVolumes(userId?: string): NetworkVolumeRow[];
  getNetworkVolume(id: string): NetworkVolumeRow | undefined;
  putNetworkVolume(row: NetworkVolumeRow): void;
  deleteNetworkVolume(id: string): void;
  listPods(userId?: string): PodRow[];
  getPod(id: string): PodRow | undefined;
  putPod(row: PodRow): void;
  deletePod(id: string): void;
  /** Small per-user settings (e.g. `pubKey:user_1`). */
  getSetting(key: string): string | undefined;
  putSetting(key: string, value: string): void;
  /** Whether a seed entry (e.g. `template:tpl_1`) was already copied into the store. */
  isSeeded(key: string): boolean;
  markSeeded(key: string): void;
  getJob(id: string): JobRow | undefined;
  putJob(row: JobRow): void;
  /** Jobs of one endpoint, oldest first. */
  listJobs(endpointId: string): JobRow[];
  deleteJob(id: string): void;
  deleteJobsOf(endpointId: string): void;
  getCounter(key: string): CounterRow | undefined;
  putCounter(key: string, row: CounterRow): void;
  close(): void;
}

const clone = <T>(v: T): T => structuredClone(v);

/** In-memory store (the default); values are copied in and out so callers cannot alias stored state. */
export class MemoryStore implements Store {
  private endpoints = new Map<string, EndpointRow>();
  private templates = new Map<string, TemplateRow>();
  private registryAuths = new Map<string, RegistryAuthRow>();
  private networkVolumes = new Map<string, NetworkVolumeRow>();
  private pods = new Map<string, PodRow>();
  private seeded = new Set<string>();
  private settings = new Map<string, string>();
  private jobs = new Map<string, JobRow>();
  private counters = new Map<string, CounterRow>();

  private static byOwner<T extends { userId: string | null; createdAt: number }>(rows: Iterable<T>, userId?: string): T[] {
    return [...rows]
      .filter((r) => userId === undefined || r.userId === userId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(clone);
  }

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
  listTemplates(userId?: string): TemplateRow[] {
    return MemoryStore.byOwner(this.templates.values(), userId);
  }
  getTemplate(id: string): TemplateRow | undefined {
    const row = this.templates.get(id);
    return row && clone(row);
  }
  putTemplate(row: TemplateRow): void {
    this.templates.set(row.id, clone(row));
  }
  deleteTemplate(id: string): void {
    this.templates.delete(id);
  }
  listRegistryAuths(userId?: string): RegistryAuthRow[] {
    return MemoryStore.byOwner(this.registryAuths.values(), userId);
  }
  getRegistryAuth(id: string): RegistryAuthRow | undefined {
    const row = this.registryAuths.get(id);
    return row && clone(row);
  }
  putRegistryAuth(row: RegistryAuthRow): void {
    this.registryAuths.set(row.id, clone(row));
  }
  deleteRegistryAuth(id: string): void {
    this.registryAuths.delete(id);
  }
  listNetworkVolumes(userId?: string): NetworkVolumeRow[] {
    return MemoryStore.byOwner(this.networkVolumes.values(), userId);
  }
  getNetworkVolume(id: string): NetworkVolumeRow | undefined {
    const row = this.networkVolumes.get(id);
    return row && clone(row);
  }
  putNetworkVolume(row: NetworkVolumeRow): void {
    this.networkVolumes.set(row.id, clone(row));
  }
  deleteNetworkVolume(id: string): void {
    this.networkVolumes.delete(id);
  }
  listPods(userId?: string): PodRow[] {
    return MemoryStore.byOwner(this.pods.values(), userId);
  }
  getPod(id: string): PodRow | undefined {
    const row = this.pods.get(id);
    return row && clone(row);
  }
  putPod(row: PodRow): void {
    this.pods.set(row.id, clone(row));
  }
  deletePod(id: string): void {
    this.pods.delete(id);
  }
  getSetting(key: string): string | undefined {
    return this.settings.get(key);
  }
  putSetting(key: string, value: string): void {
    this.settings.set(key, value);
  }
  isSeeded(key: string): boolean {
    return this.seeded.has(key);
  }
  markSeeded(key: string): void {
    this.seeded.add(key);
  }
  getJob(id: string): JobRow | undefined {
    const row = this.jobs.get(id);
    return row && clone(row);
  }
  putJob(row: JobRow): void {
    this.jobs.set(row.id, clone(row));
  }
  listJobs(endpointId: string): JobRow[] {
    return [...this.jobs.values()]
      .filter((j) => j.endpointId === endpointId)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(clone);
  }
  deleteJob(id: string): void {
    this.jobs.delete(id);
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
