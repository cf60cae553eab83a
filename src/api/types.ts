/**
 * The api client's contract: record shapes (mirroring the spec's tables) and the client surface.
 * `client.ts` implements {@link PlatformClient}; the provider, CLI and benchmark use only this surface.
 */
import type { EndpointType, FastBootType, GpuTier, LogSource, RateLimitWindow, ScalerType } from "./spec";

/** Client configuration (issue #2). Every address may point at the emulator or a proxy. */
export interface ClientConfig {
  /** API key; never logged, never put in an error message. */
  apiKey: string;
  /** GraphQL entry point, e.g. `https://api.runpod.io/graphql`; the key is appended as `?api_key=`. */
  graphqlUrl: string;
  /** `{rest_url}` of the spec (without `/v1`); `/v1/endpoints` is appended. */
  restV1Url: string;
  /** `{base_url}` of the spec (without `/v2`); paths like `/v2/network-volumes` are appended. */
  restV2Url: string;
  /** `{inference_url}` of the spec (without `/v2`); job URLs are `{inferenceUrl}/v2/{endpointId}/`. */
  inferenceUrl: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /** Retry policy for 429, 5xx and dropped connections. */
  retry: RetryPolicy;
  /** Receives one line per request and retry, already redacted (optional; e.g. Pulumi `log.debug`). */
  debug?: (line: string) => void;
}

export interface RetryPolicy {
  /** Maximum retries of one request (0 disables retrying). */
  retries: number;
  /** First backoff in milliseconds; grows exponentially with jitter. */
  minDelayMs: number;
  /** Largest single backoff in milliseconds. */
  maxDelayMs: number;
  /** Total time budget for one call including all retries, in milliseconds. */
  deadlineMs: number;
}

/** An endpoint as the platform reports it (spec: Resources › Serverless endpoint, GraphQL record). */
export interface EndpointRecord {
  id: string;
  name: string;
  templateId: string;
  /** Comma-separated GPU tiers as the platform stores them, e.g. `"AMPERE_24,ADA_24"`. */
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
  pods?: { desiredStatus: string }[];
}

/** Input of `saveEndpoint`. Without `id` it creates; with `id` it modifies (must carry gpuIds, name, templateId). */
export interface SaveEndpointInput {
  id?: string;
  name: string;
  templateId: string;
  gpuIds: string;
  type?: EndpointType;
  idleTimeout?: number;
  locations?: string | null;
  fastBootType?: FastBootType | null;
  scalerType?: ScalerType;
  scalerValue?: number;
  workersMin?: number;
  workersMax?: number;
  networkVolumeId?: string | null;
}

/** An endpoint's `id` with the fields every `saveEndpoint` modify carries (spec: GraphQL › Modify endpoint). */
export type EndpointIdentity = Required<Pick<SaveEndpointInput, "id" | "name" | "templateId" | "gpuIds">>;

/** Body of `POST /v1/endpoints` (spec: Resources › REST v1 creation body). */
export interface RestCreateEndpointInput {
  name: string;
  templateId: string;
  /** GPU type names in priority order. */
  gpuTypeIds: string[];
  workersMin?: number;
  workersMax?: number;
  idleTimeout?: number;
}

export interface ServerlessDiscount {
  discountFactor: number;
  type: string;
  expirationDate: string;
}

export interface Myself {
  id: string;
  email: string;
  endpoints: EndpointRecord[];
  serverlessDiscount: ServerlessDiscount | null;
}

export interface GpuType {
  id: string;
  displayName?: string;
  memoryInGb?: number;
}

/** spec: Resources › Network volume. */
export interface NetworkVolume {
  id: string;
  name: string;
  /** Unit not shown by the spec; the platform's console uses GB. */
  size: number;
  dataCenter: string;
  type: string;
}

/** Worker listing entry; the spec does not show its shape, so only `id` is relied on. */
export interface Worker {
  id: string;
  status?: string;
  [key: string]: unknown;
}

/** One worker log event (spec: Events). `id` is the SSE event id used to resume. */
export interface LogEvent {
  id: string;
  ts: string;
  source: LogSource;
  line: string;
}

export interface LogStreamOptions {
  source?: LogSource;
  /** 0..5000 historical lines; default 100. */
  tail?: number;
  /** RFC 3339 resume point. */
  since?: string;
  /** Resume cursor; takes precedence over since and tail. */
  lastEventId?: string;
  /** Keep reading live events (default true); false ends once the backfill is delivered and the stream idles. */
  follow?: boolean;
  /** Abort to end the iteration cleanly. */
  signal?: AbortSignal;
  /** follow:false only — milliseconds without an event after which the backfill counts as delivered (default 1000). */
  idleMs?: number;
}

export type JobStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";

export interface Job {
  id: string;
  status: JobStatus;
  output?: unknown;
  error?: string;
  [key: string]: unknown;
}

/** Options of `waitForJob` (and the polling part of `runSync`). */
export interface WaitForJobOptions {
  /** Pause between status polls, in milliseconds (default 1000). */
  pollIntervalMs?: number;
  /** Overall limit in milliseconds (default 10 minutes); for `runSync` also the request timeout. */
  timeoutMs?: number;
  /** Called with every status seen. */
  onStatus?: (job: Job) => void;
  /** Stops waiting (AbortedError). */
  signal?: AbortSignal;
}

/** Counters a client keeps, for reports (issue #6 summary line). */
export interface ClientStats {
  /** Requests put on the wire, including retries and stream reconnects. */
  requests: number;
  /** Attempts repeated after a retryable failure. */
  retries: number;
  /** Times a request was held back by rate-limit pacing. */
  rateLimitWaits: number;
  /** Log-stream reconnects after a dropped or closed stream. */
  streamReconnects: number;
}

/** One parsed member of `RateLimit` (r = remaining, t = seconds to reset) and `RateLimit-Policy` (q = quota, w = window seconds). */
export interface RateLimitWindowState {
  remaining?: number;
  resetSeconds?: number;
  quota?: number;
  windowSeconds?: number;
}
export type RateLimitState = Partial<Record<RateLimitWindow, RateLimitWindowState>>;

/** The whole client surface (issue #2). */
export interface PlatformClient {
  readonly config: Readonly<Omit<ClientConfig, "apiKey">>;
  /** Latest `RateLimit` figures seen on any REST response, per window. */
  readonly rateLimit: RateLimitState;
  /** Request, retry and pacing counters of this client. */
  readonly stats: Readonly<ClientStats>;
  /** `{inferenceUrl}/v2/{id}/` */
  jobUrl(endpointId: string): string;

  // GraphQL
  saveEndpoint(input: SaveEndpointInput): Promise<EndpointRecord>;
  deleteEndpoint(id: string): Promise<void>;
  /** Scale to zero workers and delete, in one request (endpoints.ts `scaleDownAndDeleteEndpoint`). */
  scaleDownAndDeleteEndpoint(endpoint: EndpointIdentity): Promise<void>;
  myself(): Promise<Myself>;
  listEndpoints(): Promise<EndpointRecord[]>;
  /** One endpoint by id, or undefined when the caller has none with that id. */
  findEndpoint(id: string): Promise<EndpointRecord | undefined>;
  /** Endpoints with this name (and template, when given): the lookup after a create with unknown outcome. */
  findEndpointsByName(name: string, templateId?: string): Promise<EndpointRecord[]>;
  gpuTypes(): Promise<GpuType[]>;

  // REST v1
  createEndpointRest(input: RestCreateEndpointInput): Promise<EndpointRecord>;

  // REST v2
  listNetworkVolumes(): Promise<NetworkVolume[]>;
  listWorkers(endpointId: string): Promise<Worker[]>;
  streamWorkerLogs(endpointId: string, workerId: string, options?: LogStreamOptions): AsyncIterable<LogEvent>;

  // Job interface
  run(endpointId: string, input: unknown): Promise<Job>;
  runSync(endpointId: string, input: unknown, options?: WaitForJobOptions): Promise<Job>;
  jobStatus(endpointId: string, jobId: string): Promise<Job>;
  /** Polls until the job is COMPLETED, FAILED, CANCELLED or TIMED_OUT. */
  waitForJob(endpointId: string, jobId: string, options?: WaitForJobOptions): Promise<Job>;
}
