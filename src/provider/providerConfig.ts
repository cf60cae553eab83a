/**
 * Client settings from Pulumi configuration. The dynamic provider host hands the stack's whole
 * configuration, keys with their namespace (`runpod:apiKey`), to the provider's `configure` hook
 * (@pulumi/pulumi ≥ 3.139, `cmd/dynamic-provider` ConfigureRequest); the program process reads the same
 * keys through `pulumi.Config`. Whatever is not set there falls back to the environment in
 * `resolveClientConfig` (RUNPOD_API_KEY, RUNPOD_GRAPHQL_URL, ...).
 */
import type { ClientConfigInput, SettingName } from "../api/config";
import { explainError, type FrontEndHints } from "../api/errors";
import { API_PATH_CONFIG_KEY } from "./apiPath";

/** The stack configuration keys the provider reads, by client setting (README › Configuration). */
export const PULUMI_CONFIG_KEYS = {
  apiKey: "runpod:apiKey",
  graphqlUrl: "runpod:graphqlUrl",
  restV1Url: "runpod:restV1Url",
  restV2Url: "runpod:restV2Url",
  inferenceUrl: "runpod:inferenceUrl",
  timeoutMs: "runpod:timeoutMs",
  rateLimitDeadlineMs: "runpod:rateLimitDeadlineMs",
  allowInsecureHttp: "runpod:allowInsecureHttp",
} as const satisfies Record<SettingName, string>;

const SET_KEY = `pulumi config set --secret ${PULUMI_CONFIG_KEYS.apiKey} <key>`;

/** What the provider and program lookups tell their user to do: the key lives in the stack configuration. */
export const PULUMI_HINTS: FrontEndHints = {
  authentication: `Check the API key: set it with \`${SET_KEY}\` (or the environment variable RUNPOD_API_KEY)`,
  permission: "The API key is valid but lacks permission for this action; use a key with read/write access",
  rateLimit:
    "The rate limit is the account's, shared by every stack and process using the key: allow a longer wait (runpod:rateLimitDeadlineMs, " +
    "or the resource's customTimeouts with the provider plugin) or run fewer operations at once (`pulumi up --parallel`; docs/configuration.md)",
  configuration: (setting) => (setting === "apiKey" ? `Set it with \`${SET_KEY}\`` : undefined),
};

/**
 * Adds the Pulumi front end's hint to a client error, keeping its class and fields (the engine shows
 * `message`); other errors are returned unchanged.
 */
export function withPulumiHint(err: unknown): unknown {
  if (err instanceof Error) err.message = explainError(err, { hints: PULUMI_HINTS });
  return err;
}

/** Anything that answers a full config key (`runpod:apiKey`) with its value or undefined. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/**
 * The client settings present in `source` under the `runpod:` keys (`apiKey`, `graphqlUrl`,
 * `restV1Url`, `restV2Url`, `inferenceUrl`, `timeoutMs` and `rateLimitDeadlineMs` in milliseconds); absent keys stay unset.
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

/** The catalog checks' and budget guard's settings (catalog/settings.ts reads them). */
export const CATALOG_CONFIG_KEYS = {
  requireAvailability: "runpod:requireAvailability",
  maxHourlyCost: "runpod:maxHourlyCost",
} as const;

/** The provider's own settings beside the client's (`PULUMI_CONFIG_KEYS`): keys the stack may set too. */
export const PROVIDER_SETTING_KEYS: readonly string[] = [API_PATH_CONFIG_KEY, ...Object.values(CATALOG_CONFIG_KEYS)];

/** Edit distance (insert, delete, substitute) between two short strings. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/**
 * The problem with the `runpod:*` keys among `keys` (a stack's whole configuration), or undefined:
 * a key the provider does not read is a typo whose setting would silently fall back to the
 * environment or to production (e.g. `runpod:graphQLUrl` sending a preview to the live platform).
 * @returns one message naming each unknown key with the closest known one ("did you mean").
 */
export function unknownConfigKeys(keys: Iterable<string>): string | undefined {
  const known: string[] = [...Object.values(PULUMI_CONFIG_KEYS), ...PROVIDER_SETTING_KEYS];
  const problems: string[] = [];
  for (const key of keys) {
    if (!key.startsWith("runpod:") || known.includes(key)) continue;
    const scored = known.map((k) => ({ k, d: k.toLowerCase() === key.toLowerCase() ? 0 : distance(k.toLowerCase(), key.toLowerCase()) }));
    const best = scored.sort((x, y) => x.d - y.d)[0];
    problems.push(best && best.d <= 4 ? `${key} (did you mean ${best.k}?)` : key);
  }
  if (problems.length === 0) return undefined;
  return `Unknown configuration key${problems.length > 1 ? "s" : ""} ${problems.join(", ")}: the provider reads only ${known.join(", ")}. Rename or remove ${problems.length > 1 ? "them" : "it"} (pulumi config rm <key>)`;
}
