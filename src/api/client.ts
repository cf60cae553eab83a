/**
 * The platform client: one object over every interface of the spec (issue #2), built from a
 * {@link ClientConfig}. The key lives only inside the client's private state; `config` exposes
 * everything else.
 */
import { resolveClientConfig, type ClientConfigInput } from "./config";
import type { ClientContext } from "./context";
import * as endpoints from "./endpoints";
import type { Transport } from "./http";
import * as jobs from "./jobs";
import { streamWorkerLogs } from "./logs";
import { RateLimitTracker } from "./ratelimit";
import { createRedactor } from "./redact";
import { createEndpointRest } from "./restV1";
import { listNetworkVolumes, listWorkers } from "./restV2";
import type {
  ClientConfig,
  ClientStats,
  EndpointIdentity,
  EndpointRecord,
  GpuType,
  Job,
  LogEvent,
  LogStreamOptions,
  Myself,
  NetworkVolume,
  PlatformClient,
  RateLimitState,
  RestCreateEndpointInput,
  SaveEndpointInput,
  WaitForJobOptions,
  Worker,
} from "./types";

class Client implements PlatformClient {
  readonly #ctx: ClientContext;

  constructor(config: ClientConfig) {
    const transport: Transport = {
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      redact: createRedactor(config.apiKey),
      rateLimit: new RateLimitTracker(),
      stats: { requests: 0, retries: 0, rateLimitWaits: 0, streamReconnects: 0 },
      debug: config.debug,
    };
    const { apiKey: _key, ...rest } = config;
    this.#ctx = { transport, config: Object.freeze({ ...rest, retry: Object.freeze({ ...config.retry }) }) };
  }

  get config(): Readonly<Omit<ClientConfig, "apiKey">> {
    return this.#ctx.config;
  }
  get rateLimit(): RateLimitState {
    return this.#ctx.transport.rateLimit.latest;
  }
  get stats(): Readonly<ClientStats> {
    return this.#ctx.transport.stats;
  }
  jobUrl(endpointId: string): string {
    return `${jobs.jobUrl(this.#ctx, endpointId)}/`;
  }

  saveEndpoint(input: SaveEndpointInput): Promise<EndpointRecord> {
    return endpoints.saveEndpoint(this.#ctx, input);
  }
  deleteEndpoint(id: string): Promise<void> {
    return endpoints.deleteEndpoint(this.#ctx, id);
  }
  scaleDownAndDeleteEndpoint(endpoint: EndpointIdentity): Promise<void> {
    return endpoints.scaleDownAndDeleteEndpoint(this.#ctx, endpoint);
  }
  myself(): Promise<Myself> {
    return endpoints.myself(this.#ctx);
  }
  listEndpoints(): Promise<EndpointRecord[]> {
    return endpoints.listEndpoints(this.#ctx);
  }
  findEndpoint(id: string): Promise<EndpointRecord | undefined> {
    return endpoints.findEndpoint(this.#ctx, id);
  }
  findEndpointsByName(name: string, templateId?: string): Promise<EndpointRecord[]> {
    return endpoints.findEndpointsByName(this.#ctx, name, templateId);
  }
  gpuTypes(): Promise<GpuType[]> {
    return endpoints.gpuTypes(this.#ctx);
  }
  createEndpointRest(input: RestCreateEndpointInput): Promise<EndpointRecord> {
    return createEndpointRest(this.#ctx, input);
  }
  listNetworkVolumes(): Promise<NetworkVolume[]> {
    return listNetworkVolumes(this.#ctx);
  }
  listWorkers(endpointId: string): Promise<Worker[]> {
    return listWorkers(this.#ctx, endpointId);
  }
  streamWorkerLogs(endpointId: string, workerId: string, options?: LogStreamOptions): AsyncIterable<LogEvent> {
    return streamWorkerLogs(this.#ctx, endpointId, workerId, options);
  }
  run(endpointId: string, input: unknown): Promise<Job> {
    return jobs.run(this.#ctx, endpointId, input);
  }
  runSync(endpointId: string, input: unknown, options?: WaitForJobOptions): Promise<Job> {
    return jobs.runSync(this.#ctx, endpointId, input, options);
  }
  jobStatus(endpointId: string, jobId: string): Promise<Job> {
    return jobs.jobStatus(this.#ctx, endpointId, jobId);
  }
  waitForJob(endpointId: string, jobId: string, options?: WaitForJobOptions): Promise<Job> {
    return jobs.waitForJob(this.#ctx, endpointId, jobId, options);
  }

  /** Keeps `JSON.stringify(client)` to the public, key-free parts. */
  toJSON(): Record<string, unknown> {
    return { config: this.config, rateLimit: this.rateLimit, stats: this.stats };
  }
}

/**
 * Builds a client for every interface of the spec (issue #2).
 *
 * The configuration is checked and normalised as by `resolveClientConfig` without environment
 * fallbacks (URLs lose trailing slashes and `/v1` / `/v2` version prefixes).
 *
 * @param config complete configuration; `timeoutMs` and retry delays in milliseconds.
 * @returns a {@link PlatformClient}; it holds the key privately and never exposes it.
 * @throws ConfigurationError when the key is missing or a setting is invalid.
 */
export function createClient(config: ClientConfig): PlatformClient {
  return new Client(resolveClientConfig(config, {}));
}

/**
 * Builds a client from `partial` completed by the environment (`RUNPOD_API_KEY`,
 * `RUNPOD_GRAPHQL_URL`, `RUNPOD_API_URL`, `RUNPOD_REST_V2_URL`, `RUNPOD_INVOKE_URL`) and the
 * production defaults.
 * @throws ConfigurationError naming `runpod:apiKey` and `RUNPOD_API_KEY` when no key is found.
 */
export function createClientFromEnv(partial: ClientConfigInput = {}, env: NodeJS.ProcessEnv = process.env): PlatformClient {
  return new Client(resolveClientConfig(partial, env));
}
