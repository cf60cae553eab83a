/**
 * pulumi-runpod: Pulumi resources for the serverless GPU platform.
 *
 * - {@link Endpoint}: a serverless endpoint (dynamic provider); {@link EndpointArgs}, {@link EndpointOutputs}.
 * - {@link Template}: the image, env and disk an endpoint runs; {@link TemplateArgs}, {@link TemplateOutputs}.
 * - {@link Pod}: a GPU or CPU pod (REST v2 on every API path); {@link PodArgs}, {@link PodOutputs}.
 * - {@link ContainerRegistryAuth}: private registry credentials; {@link ContainerRegistryAuthArgs}, {@link ContainerRegistryAuthOutputs}.
 * - {@link getNetworkVolume} / {@link getNetworkVolumes} (+ `...Output`): network volume lookups.
 * - {@link createClient} / {@link createClientFromEnv} / {@link resolveClientConfig}: the platform API client
 *   (the whole client surface is `pulumi-runpod/api`); {@link spec}: the spec's value sets.
 *
 * Provider internals (models, field lists, defaults, the README tables' renderers) are
 * `pulumi-runpod/provider`.
 *
 * Configuration: `pulumi config set --secret runpod:apiKey <key>` (or RUNPOD_API_KEY); addresses via
 * `runpod:graphqlUrl`, `runpod:restV1Url`, `runpod:restV2Url`, `runpod:inferenceUrl` (or RUNPOD_GRAPHQL_URL,
 * RUNPOD_API_URL, RUNPOD_REST_V2_URL, RUNPOD_INVOKE_URL), e.g. to point at the local emulator.
 */
import type * as api from "./api";

export * from "./resources";
export type { ClientConfigInput, PlatformClient } from "./api";
export * as spec from "./api/spec";

// The api client loads at the first call: most programs never call it, and loading it costs every
// `pulumi up` tens of milliseconds.
/* eslint-disable @typescript-eslint/no-require-imports */
const client = (): typeof api => require("./api");

/** A platform API client (see `pulumi-runpod/api` `createClient`). */
export function createClient(...args: Parameters<typeof api.createClient>): ReturnType<typeof api.createClient> {
  return client().createClient(...args);
}

/** A platform API client configured from RUNPOD_* environment variables (see `pulumi-runpod/api`). */
export function createClientFromEnv(...args: Parameters<typeof api.createClientFromEnv>): ReturnType<typeof api.createClientFromEnv> {
  return client().createClientFromEnv(...args);
}

/** Client configuration from explicit settings and the environment (see `pulumi-runpod/api`). */
export function resolveClientConfig(...args: Parameters<typeof api.resolveClientConfig>): ReturnType<typeof api.resolveClientConfig> {
  return client().resolveClientConfig(...args);
}
