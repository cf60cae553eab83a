/**
 * Client settings from Pulumi configuration. The dynamic provider host hands the stack's whole
 * configuration, keys with their namespace (`runpod:apiKey`), to the provider's `configure` hook
 * (@pulumi/pulumi ≥ 3.139, `cmd/dynamic-provider` ConfigureRequest); the program process reads the same
 * keys through `pulumi.Config`. Whatever is not set there falls back to the environment in
 * `resolveClientConfig` (RUNPOD_API_KEY, RUNPOD_GRAPHQL_URL, ...).
 */
import { PULUMI_CONFIG_KEYS, type ClientConfigInput } from "../api/config";
import { API_PATH_CONFIG_KEY } from "./apiPath";

/** Anything that answers a full config key (`runpod:apiKey`) with its value or undefined. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/**
 * The client settings present in `source` under the `runpod:` keys (`apiKey`, `graphqlUrl`,
 * `restV1Url`, `restV2Url`, `inferenceUrl`, `timeoutMs` in milliseconds); absent keys stay unset.
 * Values are not validated here: `resolveClientConfig` does it and names the key in its error.
 */
export function clientInputFromConfig(source: ConfigSource): ClientConfigInput {
  const out: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(PULUMI_CONFIG_KEYS)) {
    const value = source.get(key);
    if (value !== undefined && value !== "") out[field] = value;
  }
  return out as ClientConfigInput;
}

/**
 * The API path set in `source` (`runpod:api`), unvalidated; unset when absent or empty. The session
 * validates it at first use (apiPath.ts `resolveApiPath`), falling back to `RUNPOD_API`, then the default.
 */
export function apiPathFromConfig(source: ConfigSource): string | undefined {
  const value = source.get(API_PATH_CONFIG_KEY);
  return value === undefined || value === "" ? undefined : value;
}
