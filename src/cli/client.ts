/**
 * Builds the api client for a CLI invocation from the same configuration the provider uses:
 * `RUNPOD_API_KEY` and the address variables read by `resolveClientConfig`, with the optional
 * `--*-url` flags taking precedence. There is deliberately no `--api-key` flag: a key typed on a
 * command line ends up in shell history and process listings.
 */
import { ConfigurationError, createClient, ENV_VARS, resolveClientConfig, type ClientConfigInput, type PlatformClient } from "../api";
import { PULUMI_CONFIG_KEYS } from "../provider/providerConfig";

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
 * else its environment variable, else production (the same configuration as the provider).
 * The stack commands pass the stack's `runpod:*` configuration as `stackConfig`: it comes before
 * the environment, as in the provider, and the flags still come first.
 * @returns the client and the resolved key (for scrubbing error lines only).
 * @throws ConfigurationError (exit 2) when no key is configured or an address is invalid.
 */
export function clientFor(flags: AddressFlags, env: Record<string, string | undefined>, stackConfig?: ClientConfigInput): CliClient {
  const partial: ClientConfigInput = { ...stackConfig };
  // An unset flag is undefined, which resolveClientConfig treats as "fall back to the environment".
  for (const key of ["graphqlUrl", "restV1Url", "restV2Url", "inferenceUrl"] as const) if (flags[key] !== undefined) partial[key] = flags[key];
  if (!stackConfig && !env[ENV_VARS.apiKey]?.trim()) {
    // The api's own message points at Pulumi config too, which the after-deploy commands do not read.
    throw new ConfigurationError(`No API key configured: set the environment variable ${ENV_VARS.apiKey}`, "apiKey");
  }
  // The stack commands read the stack's keys; messages name them as the user set them.
  const config = resolveClientConfig(partial, env, stackConfig ? PULUMI_CONFIG_KEYS : { apiKey: ENV_VARS.apiKey });
  return { client: createClient(config), apiKey: config.apiKey };
}
