/**
 * Records as the emulated platform answers them (spec: Resources). The emulator's own statement, kept apart
 * from the client's types so that each side is checked against the other, not against itself.
 */
import type { EndpointType, FastBootType, ScalerType } from "./facts";

/** An endpoint as GraphQL `myself.endpoints`, `saveEndpoint` and REST v1 creation return it. */
export interface EndpointRecord {
  id: string;
  name: string;
  templateId: string;
  /** Comma-separated GPU tiers, e.g. `"AMPERE_24,ADA_24"`. */
  gpuIds: string;
  type: EndpointType;
  /** Seconds before idle workers shut down. */
  idleTimeout: number | null;
  /** Comma-separated region codes; null or empty = any region. */
  locations: string | null;
  fastBootType: FastBootType | null;
  scalerType: ScalerType | null;
  scalerValue: number | null;
  workersMin: number;
  workersMax: number;
  networkVolumeId: string | null;
  /** GPUs per worker. */
  gpuCount: number;
  /** Comma-separated CUDA versions; null or "" = any. */
  allowedCudaVersions: string | null;
  minCudaVersion: string | null;
  /** Milliseconds a job may run. */
  executionTimeoutMs: number;
  workersStandby: number;
  /** One `{ desiredStatus: "RUNNING" }` per running simulated worker. */
  pods?: { desiredStatus: string }[];
}

/** Read-only endpoint fields the official clients select (GraphQL only; not part of {@link EndpointRecord}, which round-trips as a save input). */
export interface EndpointMeta {
  /** Owner. */
  userId: string;
  /** RFC 3339. */
  createdAt: string;
  /** 0 at creation, increased by every modify. */
  version: number;
  /** Key of the endpoint's OpenAI-compatible route (simulated: random, fixed at creation). */
  aiKey: string;
}

/**
 * `saveEndpoint` input as received: without `id` it creates, with `id` it modifies. Any optional field
 * may be absent or null; values are checked by the platform (platform.ts), not trusted by type.
 */
export interface SaveEndpointInput {
  id?: string | null;
  name?: string | null;
  templateId?: string | null;
  gpuIds?: string | null;
  type?: string | null;
  idleTimeout?: number | null;
  locations?: string | null;
  fastBootType?: string | null;
  scalerType?: string | null;
  scalerValue?: number | null;
  workersMin?: number | null;
  workersMax?: number | null;
  networkVolumeId?: string | null;
  /** The official clients' name for fastBootType (`FLASHBOOT`). */
  flashBootType?: string | null;
  gpuCount?: number | null;
  allowedCudaVersions?: string | null;
  minCudaVersion?: string | null;
  executionTimeoutMs?: number | null;
  workersStandby?: number | null;
}

/** A network volume in `GET /v2/network-volumes` (`size` in GB). */
export interface NetworkVolume {
  id: string;
  name: string;
  size: number;
  dataCenter: string;
  type: string;
}

export type JobStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";

/** A job as `/run`, `/runsync`, `/status` and `/cancel` answer it: `{ id, status, delayTime?, executionTime?, output?, error? }`. */
export interface JobView {
  id: string;
  status: JobStatus;
  /** Milliseconds spent queued. */
  delayTime?: number;
  /** Milliseconds spent running. */
  executionTime?: number;
  /** Simulated worker running (or that ran) the job, when one was accepting jobs as it left the queue. */
  workerId?: string;
  output?: unknown;
  error?: string;
}

/** One environment variable of a template. */
export interface EnvVar {
  key: string;
  value: string;
}

/** A template as `saveTemplate` and `myself.podTemplates` answer it (platform-clients.md). */
export interface TemplateRecord {
  id: string;
  name: string;
  imageName: string;
  dockerArgs: string;
  /** GB. */
  containerDiskInGb: number;
  /** GB. */
  volumeInGb: number;
  volumeMountPath: string;
  /** `port/protocol` items, comma separated. */
  ports: string;
  env: EnvVar[];
  isServerless: boolean;
  /** Registry credentials to pull a private image; null or "" = none. */
  containerRegistryAuthId: string | null;
  startSsh: boolean;
  isPublic: boolean;
  readme: string;
}

/** `saveTemplate` input as received: without `id` it creates, with `id` it modifies. Values are checked, not trusted. */
export interface SaveTemplateInput {
  id?: string | null;
  name?: string | null;
  imageName?: string | null;
  dockerArgs?: string | null;
  containerDiskInGb?: number | null;
  volumeInGb?: number | null;
  volumeMountPath?: string | null;
  ports?: string | null;
  env?: { key?: string | null; value?: string | null }[] | null;
  isServerless?: boolean | null;
  containerRegistryAuthId?: string | null;
  startSsh?: boolean | null;
  isPublic?: boolean | null;
  readme?: string | null;
}

/** Registry credentials as answered: the password is never part of any answer. */
export interface RegistryAuthRecord {
  id: string;
  name: string;
}

/** Registry credentials as the admin state and the running handle list them: never the password. */
export interface RegistryAuthState extends RegistryAuthRecord {
  userId: string;
  username: string;
}

/** A template as the admin state and the running handle list it. */
export interface TemplateState extends TemplateRecord {
  /** Owner; null = public seeded template. */
  userId: string | null;
  /** Increased on each image or env change; workers show it as `templateVersion`. */
  templateVersion: number;
  /** Set on a template REST v2 made for one endpoint's container settings: that endpoint's id. */
  boundToEndpoint?: string;
}
