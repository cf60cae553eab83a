/**
 * Builds the api client for a CLI invocation from the same configuration the provider uses:
 * `RUNPOD_API_KEY` and the address variables read by `resolveClientConfig`, with the optional
 * `--*-url` flags taking precedence. There is deliberately no `--api-key` flag: a key typed on a
 * command line ends up in shell history and process listings.
 */
import {
  ConfigurationError,
  createClient,
  ENV_VARS,
  PULUMI_CONFIG_KEYS,
  resolveClientConfig,
  type ClientConfigInput,
  type PlatformClient,
} from "../api";

/** Address overrides given as global flags; each wins over its environment variable. */
export interface AddressFlags {
  graphqlUrl?: string;
  restV1Url?: string;
  restV2Url?: string;
  inferenceUrl?: string;
}

export interface CliClient {
  client: PlatformClient;
  /** Kept only so error lines can be scrubbed of it; never printed. */
  apiKey: string;
}

/**
 * The client of one CLI invocation: key from `env.RUNPOD_API_KEY`, each address from its flag,
 * else its environment variable, else production (issue #7: same configuration as the provider).
 * @returns the client and the resolved key (for scrubbing error lines only).
 * @throws ConfigurationError (exit 2) when no key is configured or an address is invalid.
 */
export function clientFor(flags: AddressFlags, env: Record<string, string | undefined>): CliClient {
  // An unset flag is undefined, which resolveClientConfig treats as "fall back to the environment".
  const { graphqlUrl, restV1Url, restV2Url, inferenceUrl } = flags;
  const partial: ClientConfigInput = { graphqlUrl, restV1Url, restV2Url, inferenceUrl };
  if (!env[ENV_VARS.apiKey]?.trim()) {
    // The api's own message points at Pulumi config too, which the CLI does not read.
    throw new ConfigurationError(`No API key configured: set the environment variable ${ENV_VARS.apiKey}`, PULUMI_CONFIG_KEYS.apiKey);
  }
  const config = resolveClientConfig(partial, env);
  return { client: createClient(config), apiKey: config.apiKey };
}
