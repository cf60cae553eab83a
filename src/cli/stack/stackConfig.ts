/**
 * The platform settings of a stack, read as the provider reads them: the `runpod:*` keys of the
 * stack configuration (the API key decrypted in this process only, never printed), each falling
 * back to its environment variable when unset (`resolveClientConfig`).
 */
import { ConfigurationError, type ClientConfigInput } from "../../api";
import { API_PATH_CONFIG_KEY, resolveApiPath, type ApiPath } from "../../provider/apiPath";
import { PULUMI_CONFIG_KEYS, unknownConfigKeys } from "../../provider/providerConfig";
import type { PulumiRunner } from "./pulumiCommand";

export interface StackSettings {
  /** The client's `runpod:*` settings; unset keys stay unset. */
  client: ClientConfigInput;
  /** The stack's API path (`runpod:api`, then `RUNPOD_API`, then the provider's default), as the provider resolves it. */
  api: ApiPath;
}

/**
 * The `runpod:*` settings of the stack (`pulumi config --json --show-secrets`); unset keys stay unset.
 * @throws PulumiCommandError when the configuration cannot be read (e.g. wrong passphrase);
 *   ConfigurationError for a `runpod:*` key the provider does not read, or when `runpod:api` (or
 *   `RUNPOD_API`) names no path.
 */
export async function stackSettings(pulumi: PulumiRunner, env: NodeJS.ProcessEnv = process.env): Promise<StackSettings> {
  const config = JSON.parse(await pulumi(["config", "--json", "--show-secrets"])) as Record<string, { value?: unknown } | undefined>;
  // A misspelled key would silently fall back to the environment or production, as in the provider.
  const problem = unknownConfigKeys(Object.keys(config));
  if (problem) throw new ConfigurationError(problem);
  const out: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(PULUMI_CONFIG_KEYS)) {
    const value = config[key]?.value;
    if (typeof value === "string" && value !== "") out[field] = value;
  }
  const api = config[API_PATH_CONFIG_KEY]?.value;
  return { client: out as ClientConfigInput, api: resolveApiPath(typeof api === "string" ? api : undefined, env) };
}
