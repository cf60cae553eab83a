/**
 * The platform client: one object over every interface of the spec, built from a
 * {@link ClientConfig} and the operation table (clientOperations.ts). The key lives only inside the
 * client's closures; `config` exposes everything else.
 */
import { resolveClientConfig, type ClientConfig, type ClientConfigInput } from "./config";
import type { ClientContext } from "./context";
import type { Transport } from "./http";
import { jobUrl } from "./jobs";
import { bindOperations, bindV2Operations } from "./clientOperations";
import { RateLimitTracker } from "./ratelimit";
import { createRedactor } from "./redact";
import type { PlatformClient } from "./types";

function buildClient(config: ClientConfig): PlatformClient {
  const transport: Transport = {
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    redact: createRedactor(config.apiKey),
    rateLimit: new RateLimitTracker(),
    stats: { requests: 0, retries: 0, rateLimitWaits: 0, rateLimitPaced: 0, streamReconnects: 0 },
    debug: config.debug,
  };
  const { apiKey: _key, ...rest } = config;
  const ctx: ClientContext = { transport, config: Object.freeze({ ...rest, retry: Object.freeze({ ...config.retry }) }) };
  const client: PlatformClient & { toJSON(): Record<string, unknown> } = {
    ...bindOperations(ctx),
    v2: Object.freeze(bindV2Operations(ctx)),
    get config() {
      return ctx.config;
    },
    get rateLimit() {
      return transport.rateLimit.latest;
    },
    get stats() {
      return transport.stats;
    },
    jobUrl: (endpointId) => jobUrl(ctx.config, endpointId),
    /** Keeps `JSON.stringify(client)` to the public, key-free parts. */
    toJSON: () => ({ config: client.config, rateLimit: client.rateLimit, stats: client.stats }),
  };
  return client;
}

/**
 * Builds a client for every interface of the spec.
 *
 * The configuration is checked and normalised as by `resolveClientConfig` without environment
 * fallbacks (URLs lose trailing slashes and `/v1` / `/v2` version prefixes).
 *
 * @param config complete configuration; `timeoutMs` and retry delays in milliseconds.
 * @returns a {@link PlatformClient}; it holds the key privately and never exposes it.
 * @throws ConfigurationError when the key is missing or a setting is invalid.
 */
export function createClient(config: ClientConfig): PlatformClient {
  return buildClient(resolveClientConfig(config, {}));
}

/**
 * Builds a client from `partial` completed by the environment (`RUNPOD_API_KEY`,
 * `RUNPOD_GRAPHQL_URL`, `RUNPOD_API_URL`, `RUNPOD_REST_V2_URL`, `RUNPOD_INVOKE_URL`) and the
 * production defaults.
 * @throws ConfigurationError naming `runpod:apiKey` and `RUNPOD_API_KEY` when no key is found.
 */
export function createClientFromEnv(partial: ClientConfigInput = {}, env: NodeJS.ProcessEnv = process.env): PlatformClient {
  return buildClient(resolveClientConfig(partial, env));
}
