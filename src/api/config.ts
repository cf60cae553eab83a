/**
 * Client configuration: production defaults, environment fallbacks and validation (README › Configuration).
 *
 * Addresses and variable names follow the platform's own CLI (runpodctl), which has one variable
 * per address; its values carry the version prefix (`…/v1`, `…/v2`), so a trailing `/v1` or `/v2`
 * is accepted and removed here, where `ClientConfig` holds the spec's bare `{rest_url}`,
 * `{base_url}` and `{inference_url}`.
 */
import { ConfigurationError } from "./errors";
import { createRedactor, type Redactor } from "./redact";
import { MAX_TIMER_MS } from "./timers";

export { MAX_TIMER_MS };

/** Client configuration. Every address may point at the emulator or a proxy. */
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
  /** Per-request timeout in milliseconds (at most {@link MAX_TIMER_MS}). */
  timeoutMs: number;
  /**
   * Allows `http://` addresses on hosts other than loopback (the key then travels unencrypted);
   * default false: plain HTTP is accepted for `localhost`, `127.0.0.0/8` and `[::1]` only.
   */
  allowInsecureHttp: boolean;
  /** Retry policy for 5xx and dropped connections. */
  retry: RetryPolicy;
  /**
   * How long one call may wait out the account's rate limit (429 answers and pacing), in milliseconds,
   * from its start; an operation deadline (deadline.ts, e.g. the engine's `customTimeouts`) replaces it.
   */
  rateLimitDeadlineMs: number;
  /** Receives one line per request and retry, already redacted (optional; e.g. Pulumi `log.debug`). */
  debug?: (line: string) => void;
}

export interface RetryPolicy {
  /** Maximum retries of one request after a fault (0 disables retrying); waits for a rate limit are not retries. */
  retries: number;
  /** First backoff in milliseconds; grows exponentially with jitter. */
  minDelayMs: number;
  /** Largest single backoff in milliseconds. */
  maxDelayMs: number;
  /** Total time budget for one call's fault retries, in milliseconds; time spent waiting out a rate limit is not counted. */
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
  allowInsecureHttp: "RUNPOD_ALLOW_INSECURE_HTTP",
} as const;

/** The settings a front end may give `resolveClientConfig` from its own configuration. */
export type SettingName = "apiKey" | "graphqlUrl" | "restV1Url" | "restV2Url" | "inferenceUrl" | "timeoutMs" | "rateLimitDeadlineMs" | "allowInsecureHttp";

/**
 * How the caller's user knows each setting, for messages (e.g. the provider names its Pulumi config
 * keys); a setting without a name is called by its field name. The api layer knows no front end's keys.
 */
export type SettingNames = Partial<Record<SettingName, string>>;

/** Per-request timeout when none is configured, in milliseconds (runpod-python uses 30 s). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** How long a call may wait out the rate limit when nothing else says (ten minutes: two resets of the minute window and more). */
export const DEFAULT_RATE_LIMIT_DEADLINE_MS = 600_000;

/** Retry policy when none is configured. */
export const DEFAULT_RETRY: RetryPolicy = { retries: 6, minDelayMs: 250, maxDelayMs: 10_000, deadlineMs: 120_000 };

/** What a caller may pass to `resolveClientConfig`: any subset; `retry` may be partial too. */
export type ClientConfigInput = Partial<Omit<ClientConfig, "retry" | "allowInsecureHttp">> & {
  retry?: Partial<RetryPolicy>;
  /** `true`/`false`, or the strings `"true"`/`"false"` as Pulumi config and the environment give them. */
  allowInsecureHttp?: boolean | string;
};

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

/** Whether `hostname` (as `URL` gives it) is the local machine: `localhost`, `127.0.0.0/8` or `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

function normalizeUrl(key: UrlKey, raw: string, from: string, redact: Redactor, allowInsecureHttp: boolean, names: Required<SettingNames>): string {
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
    throw new ConfigurationError(`${from} must not carry api_key; set the key through ${names.apiKey} or ${ENV_VARS.apiKey}`, key);
  }
  // Paths are appended to the base, so a query or fragment would end up in the middle of them.
  if (parsed.search || parsed.hash || /[?#]/.test(raw)) {
    throw new ConfigurationError(`${from} must be a base address without query (?) or fragment (#), got ${redact(JSON.stringify(raw))}`, key);
  }
  if (parsed.username || parsed.password) {
    throw new ConfigurationError(`${from} must not carry credentials (user:password@); set the key through ${names.apiKey} or ${ENV_VARS.apiKey}`, key);
  }
  if (parsed.protocol === "http:" && !allowInsecureHttp && !isLoopbackHost(parsed.hostname)) {
    throw new ConfigurationError(
      `${from} uses plain http:// on ${parsed.hostname}, which would send the API key unencrypted; use https://, ` +
        `or opt in with ${names.allowInsecureHttp} = true (environment variable ${ENV_VARS.allowInsecureHttp}=true). Plain HTTP is allowed for loopback hosts only`,
      key,
    );
  }
  let url = raw.trim().replace(/\/+$/, "");
  const suffix = VERSION_SUFFIX[key];
  if (suffix) url = url.replace(suffix, "");
  return url;
}

function positiveInt(value: unknown, setting: string, allowZero = false, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || (!allowZero && n === 0)) {
    throw new ConfigurationError(`${setting} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${JSON.stringify(value)}`, setting);
  }
  if (n > max) throw new ConfigurationError(`${setting} must be at most ${max}, got ${n}`, setting);
  return n;
}

function booleanSetting(value: unknown, setting: string): boolean {
  if (value === undefined || value === "" || typeof value === "boolean") return value === true;
  const text = String(value).trim().toLowerCase();
  if (text === "true" || text === "1") return true;
  if (text === "false" || text === "0") return false;
  throw new ConfigurationError(`${setting} must be true or false, got ${JSON.stringify(value)}`, setting);
}

// Visible ASCII only: the key travels in an HTTP header and a query string, where anything else is
// either refused by the HTTP stack (surfacing as a misleading connection failure) or a header injection.
const API_KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/**
 * Completes a partial configuration from the environment and the production defaults.
 *
 * Precedence per setting: `partial` (e.g. Pulumi config) → environment variable (see {@link ENV_VARS})
 * → default ({@link DEFAULT_URLS}, {@link DEFAULT_TIMEOUT_MS}, {@link DEFAULT_RATE_LIMIT_DEADLINE_MS}, {@link DEFAULT_RETRY}).
 * URLs lose trailing slashes and the version prefix the spec appends (`/v1` on restV1Url,
 * `/v2` on restV2Url and inferenceUrl). Empty strings count as unset.
 *
 * @param partial settings already known; `timeoutMs` and retry figures are milliseconds / counts.
 * @param env environment to read fallbacks from (default `process.env`).
 * @param settingNames how the caller's user knows each setting (e.g. `runpod:apiKey`), for messages.
 * @returns a complete {@link ClientConfig}.
 * Plain `http://` is accepted for loopback hosts only unless `allowInsecureHttp` (`runpod:allowInsecureHttp`,
 * `RUNPOD_ALLOW_INSECURE_HTTP`) is true.
 *
 * @throws ConfigurationError when no API key is found or it holds anything but visible ASCII (the
 *   message names the setting (as `settingNames` calls it) and `RUNPOD_API_KEY`, never the key), when a URL is malformed, carries
 *   `api_key`, a query, a fragment or credentials, or is plain HTTP to a non-loopback host without the
 *   opt-in, or when a number is invalid or a duration exceeds {@link MAX_TIMER_MS}.
 */
export function resolveClientConfig(partial: ClientConfigInput = {}, env: NodeJS.ProcessEnv = process.env, settingNames: SettingNames = {}): ClientConfig {
  const names: Required<SettingNames> = {
    apiKey: "apiKey",
    graphqlUrl: "graphqlUrl",
    restV1Url: "restV1Url",
    restV2Url: "restV2Url",
    inferenceUrl: "inferenceUrl",
    timeoutMs: "timeoutMs",
    rateLimitDeadlineMs: "rateLimitDeadlineMs",
    allowInsecureHttp: "allowInsecureHttp",
    ...settingNames,
  };
  // Where the key can be set, each place once (a front end may call the setting by its variable).
  const keyPlaces = [...new Set([names.apiKey, ENV_VARS.apiKey])];
  const apiKey = nonEmpty(partial.apiKey) ?? nonEmpty(env[ENV_VARS.apiKey]);
  if (!apiKey) {
    // What to do is the front end's hint: only it knows where its user sets the key.
    throw new ConfigurationError(`No API key configured (${keyPlaces.join(" or the environment variable ")})`, "apiKey");
  }
  if (!API_KEY_CHARACTERS.test(apiKey)) {
    // The key itself is never shown, not even in part.
    throw new ConfigurationError(
      `The API key (${keyPlaces.join(" / ")}) contains a space, a line break, a control or a non-ASCII character; platform keys are visible ASCII only — check for a stray newline or a pasted quote`,
      "apiKey",
    );
  }
  const redact = createRedactor(apiKey);
  const allowInsecureHttp =
    partial.allowInsecureHttp !== undefined && partial.allowInsecureHttp !== ""
      ? booleanSetting(partial.allowInsecureHttp, names.allowInsecureHttp)
      : booleanSetting(env[ENV_VARS.allowInsecureHttp], ENV_VARS.allowInsecureHttp);
  const url = (key: UrlKey): string => {
    const given = nonEmpty(partial[key]);
    if (given) return normalizeUrl(key, given, names[key], redact, allowInsecureHttp, names);
    const fromEnv = nonEmpty(env[ENV_VARS[key]]);
    if (fromEnv) return normalizeUrl(key, fromEnv, `environment variable ${ENV_VARS[key]}`, redact, allowInsecureHttp, names);
    return DEFAULT_URLS[key];
  };
  const retryIn = partial.retry ?? {};
  const retry: RetryPolicy = {
    retries: positiveInt(retryIn.retries ?? DEFAULT_RETRY.retries, "retry.retries", true),
    minDelayMs: positiveInt(retryIn.minDelayMs ?? DEFAULT_RETRY.minDelayMs, "retry.minDelayMs", true, MAX_TIMER_MS),
    maxDelayMs: positiveInt(retryIn.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs, "retry.maxDelayMs", true, MAX_TIMER_MS),
    deadlineMs: positiveInt(retryIn.deadlineMs ?? DEFAULT_RETRY.deadlineMs, "retry.deadlineMs", false, MAX_TIMER_MS),
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
    timeoutMs: positiveInt(partial.timeoutMs ?? DEFAULT_TIMEOUT_MS, names.timeoutMs, false, MAX_TIMER_MS),
    rateLimitDeadlineMs: positiveInt(partial.rateLimitDeadlineMs ?? DEFAULT_RATE_LIMIT_DEADLINE_MS, names.rateLimitDeadlineMs, true, MAX_TIMER_MS),
    retry,
    allowInsecureHttp,
    ...(partial.debug ? { debug: partial.debug } : {}),
  };
}
