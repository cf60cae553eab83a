/**
 * Client configuration: production defaults, environment fallbacks and validation (issue #2 "Configuration").
 *
 * Addresses and variable names follow the platform's own CLI (runpodctl), which has one variable
 * per address; its values carry the version prefix (`…/v1`, `…/v2`), so a trailing `/v1` or `/v2`
 * is accepted and removed here, where `ClientConfig` holds the spec's bare `{rest_url}`,
 * `{base_url}` and `{inference_url}`.
 */
import { ConfigurationError } from "./errors";
import { createRedactor, type Redactor } from "./redact";

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

/** Production addresses, as the platform's official clients use them (spec: What the service does). */
export const DEFAULT_URLS = {
  /** runpodctl `RUNPOD_GRAPHQL_URL` default; runpod-python posts to `https://api.runpod.io/graphql`. */
  graphqlUrl: "https://api.runpod.io/graphql",
  /** runpodctl `RUNPOD_API_URL` default `https://rest.runpod.io/v1`, without `/v1`. */
  restV1Url: "https://rest.runpod.io",
  /** runpodctl `RUNPOD_REST_V2_URL` default `https://api.runpod.io/v2`, without `/v2`. */
  restV2Url: "https://api.runpod.io",
  /** runpodctl `RUNPOD_INVOKE_URL` / runpod-python `RUNPOD_ENDPOINT_BASE_URL` default `https://api.runpod.ai/v2`, without `/v2`. */
  inferenceUrl: "https://api.runpod.ai",
} as const;

/** Environment variables read when a setting is not given (names as runpodctl uses them). */
export const ENV_VARS = {
  apiKey: "RUNPOD_API_KEY",
  graphqlUrl: "RUNPOD_GRAPHQL_URL",
  restV1Url: "RUNPOD_API_URL",
  restV2Url: "RUNPOD_REST_V2_URL",
  inferenceUrl: "RUNPOD_INVOKE_URL",
} as const;

/** Pulumi provider configuration keys that feed `resolveClientConfig` (read by the provider, not here). */
export const PULUMI_CONFIG_KEYS = {
  apiKey: "runpod:apiKey",
  graphqlUrl: "runpod:graphqlUrl",
  restV1Url: "runpod:restV1Url",
  restV2Url: "runpod:restV2Url",
  inferenceUrl: "runpod:inferenceUrl",
  timeoutMs: "runpod:timeoutMs",
} as const;

/** Per-request timeout when none is configured, in milliseconds (runpod-python uses 30 s). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Retry policy when none is configured. */
export const DEFAULT_RETRY: RetryPolicy = { retries: 6, minDelayMs: 250, maxDelayMs: 10_000, deadlineMs: 120_000 };

/** What a caller may pass to `resolveClientConfig`: any subset; `retry` may be partial too. */
export type ClientConfigInput = Partial<Omit<ClientConfig, "retry">> & { retry?: Partial<RetryPolicy> };

type UrlKey = "graphqlUrl" | "restV1Url" | "restV2Url" | "inferenceUrl";
const VERSION_SUFFIX: Record<UrlKey, RegExp | undefined> = {
  graphqlUrl: undefined,
  restV1Url: /\/v1$/,
  restV2Url: /\/v2$/,
  inferenceUrl: /\/v2$/,
};

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

function normalizeUrl(key: UrlKey, raw: string, from: string, redact: Redactor): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value is echoed to help fix it, minus the key in case it was pasted there.
    throw new ConfigurationError(`${from} is not a valid URL: ${redact(JSON.stringify(raw))}`, key);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigurationError(`${from} must be an http(s) URL, got ${parsed.protocol}`, key);
  }
  if (parsed.searchParams.has("api_key")) {
    throw new ConfigurationError(`${from} must not carry api_key; set the key through ${PULUMI_CONFIG_KEYS.apiKey} or ${ENV_VARS.apiKey}`, key);
  }
  let url = raw.trim().replace(/\/+$/, "");
  const suffix = VERSION_SUFFIX[key];
  if (suffix) url = url.replace(suffix, "");
  return url;
}

function positiveInt(value: unknown, setting: string, allowZero = false): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || (!allowZero && n === 0)) {
    throw new ConfigurationError(`${setting} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${JSON.stringify(value)}`, setting);
  }
  return n;
}

/**
 * Completes a partial configuration from the environment and the production defaults.
 *
 * Precedence per setting: `partial` (e.g. Pulumi config) → environment variable (see {@link ENV_VARS})
 * → default ({@link DEFAULT_URLS}, {@link DEFAULT_TIMEOUT_MS}, {@link DEFAULT_RETRY}).
 * URLs lose trailing slashes and the version prefix the spec appends (`/v1` on restV1Url,
 * `/v2` on restV2Url and inferenceUrl). Empty strings count as unset.
 *
 * @param partial settings already known; `timeoutMs` and retry figures are milliseconds / counts.
 * @param env environment to read fallbacks from (default `process.env`).
 * @returns a complete {@link ClientConfig}.
 * @throws ConfigurationError when no API key is found (the message names `runpod:apiKey` and
 *   `RUNPOD_API_KEY`), when a URL is malformed or carries `api_key`, or when a number is invalid.
 */
export function resolveClientConfig(partial: ClientConfigInput = {}, env: NodeJS.ProcessEnv = process.env): ClientConfig {
  const apiKey = nonEmpty(partial.apiKey) ?? nonEmpty(env[ENV_VARS.apiKey]);
  if (!apiKey) {
    throw new ConfigurationError(
      `No API key configured: set the Pulumi config key \`${PULUMI_CONFIG_KEYS.apiKey}\` (pulumi config set --secret ${PULUMI_CONFIG_KEYS.apiKey} ...) or the environment variable ${ENV_VARS.apiKey}`,
      PULUMI_CONFIG_KEYS.apiKey,
    );
  }
  const redact = createRedactor(apiKey);
  const url = (key: UrlKey): string => {
    const given = nonEmpty(partial[key]);
    if (given) return normalizeUrl(key, given, `${PULUMI_CONFIG_KEYS[key]} / ${key}`, redact);
    const fromEnv = nonEmpty(env[ENV_VARS[key]]);
    if (fromEnv) return normalizeUrl(key, fromEnv, `environment variable ${ENV_VARS[key]}`, redact);
    return DEFAULT_URLS[key];
  };
  const retryIn = partial.retry ?? {};
  const retry: RetryPolicy = {
    retries: positiveInt(retryIn.retries ?? DEFAULT_RETRY.retries, "retry.retries", true),
    minDelayMs: positiveInt(retryIn.minDelayMs ?? DEFAULT_RETRY.minDelayMs, "retry.minDelayMs", true),
    maxDelayMs: positiveInt(retryIn.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs, "retry.maxDelayMs", true),
    deadlineMs: positiveInt(retryIn.deadlineMs ?? DEFAULT_RETRY.deadlineMs, "retry.deadlineMs"),
  };
  if (retry.maxDelayMs < retry.minDelayMs) {
    throw new ConfigurationError(`retry.maxDelayMs (${retry.maxDelayMs}) must be ≥ retry.minDelayMs (${retry.minDelayMs})`, "retry.maxDelayMs");
  }
  return {
    apiKey,
    graphqlUrl: url("graphqlUrl"),
    restV1Url: url("restV1Url"),
    restV2Url: url("restV2Url"),
    inferenceUrl: url("inferenceUrl"),
    timeoutMs: positiveInt(partial.timeoutMs ?? DEFAULT_TIMEOUT_MS, PULUMI_CONFIG_KEYS.timeoutMs),
    retry,
    ...(partial.debug ? { debug: partial.debug } : {}),
  };
}
