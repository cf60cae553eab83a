import { inspect } from "util";
import {
  ConfigurationError,
  DEFAULT_RETRY,
  DEFAULT_RATE_LIMIT_DEADLINE_MS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_URLS,
  ENV_VARS,
  createClient,
  createClientFromEnv,
  resolveClientConfig,
} from "../../src/api";

describe("resolveClientConfig", () => {
  it("uses the production addresses when nothing else is given", () => {
    const c = resolveClientConfig({ apiKey: "k-123" }, {});
    expect(c).toEqual({
      apiKey: "k-123",
      graphqlUrl: "https://api.runpod.io/graphql",
      restV1Url: "https://rest.runpod.io",
      restV2Url: "https://api.runpod.io",
      inferenceUrl: "https://api.runpod.ai",
      timeoutMs: DEFAULT_TIMEOUT_MS,
      rateLimitDeadlineMs: DEFAULT_RATE_LIMIT_DEADLINE_MS,
      retry: DEFAULT_RETRY,
      allowInsecureHttp: false,
    });
    expect(DEFAULT_URLS.graphqlUrl).toBe(c.graphqlUrl);
    // Waiting out the account's rate limit may take two resets of the minute window and more.
    expect(DEFAULT_RATE_LIMIT_DEADLINE_MS).toBeGreaterThanOrEqual(10 * 60_000);
  });

  it("rateLimitDeadlineMs: a whole number of milliseconds, 0 (never wait) allowed, named as the front end calls it", () => {
    expect(resolveClientConfig({ apiKey: "k", rateLimitDeadlineMs: "900000" as never }, {}).rateLimitDeadlineMs).toBe(900_000);
    expect(resolveClientConfig({ apiKey: "k", rateLimitDeadlineMs: 0 }, {}).rateLimitDeadlineMs).toBe(0);
    expect(() =>
      resolveClientConfig({ apiKey: "k", rateLimitDeadlineMs: "ten minutes" as never }, {}, { rateLimitDeadlineMs: "runpod:rateLimitDeadlineMs" }),
    ).toThrow(/runpod:rateLimitDeadlineMs must be a non-negative integer, got "ten minutes"/);
  });

  it("falls back to the runpodctl environment variables, accepting their /v1 and /v2 suffixes", () => {
    const env = {
      RUNPOD_API_KEY: "env-key",
      RUNPOD_GRAPHQL_URL: "http://proxy.local/graphql/",
      RUNPOD_API_URL: "http://proxy.local/rest/v1",
      RUNPOD_REST_V2_URL: "http://proxy.local/api/v2/",
      RUNPOD_INVOKE_URL: "http://proxy.local/inference/v2",
      // Plain HTTP to a non-loopback host needs the opt-in.
      RUNPOD_ALLOW_INSECURE_HTTP: "true",
    };
    const c = resolveClientConfig({}, env);
    expect(c.apiKey).toBe("env-key");
    expect(c.graphqlUrl).toBe("http://proxy.local/graphql");
    expect(c.restV1Url).toBe("http://proxy.local/rest");
    expect(c.restV2Url).toBe("http://proxy.local/api");
    expect(c.inferenceUrl).toBe("http://proxy.local/inference");
    expect(Object.values(ENV_VARS).sort()).toEqual(Object.keys(env).sort());
  });

  it("prefers explicit settings over the environment and ignores empty strings", () => {
    const c = resolveClientConfig(
      { apiKey: "explicit", graphqlUrl: "", restV1Url: "https://x.test", timeoutMs: 1234, retry: { retries: 0 } },
      { RUNPOD_API_KEY: "env", RUNPOD_GRAPHQL_URL: "https://env.test/graphql" },
    );
    expect(c.apiKey).toBe("explicit");
    expect(c.graphqlUrl).toBe("https://env.test/graphql");
    expect(c.restV1Url).toBe("https://x.test");
    expect(c.timeoutMs).toBe(1234);
    expect(c.retry).toEqual({ ...DEFAULT_RETRY, retries: 0 });
  });

  it("names the setting as the caller calls it, and the environment variable, when the key is missing", () => {
    for (const partial of [{}, { apiKey: "" }, { apiKey: "   " }]) {
      let err: unknown;
      try {
        resolveClientConfig(partial, { RUNPOD_API_KEY: "" }, { apiKey: "runpod:apiKey" });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigurationError);
      expect((err as ConfigurationError).setting).toBe("apiKey");
      expect((err as Error).message).toBe("No API key configured (runpod:apiKey or the environment variable RUNPOD_API_KEY)");
    }
    // The api layer knows no front end's keys: without names, the field name.
    expect(() => resolveClientConfig({}, {})).toThrow(/^No API key configured \(apiKey or the environment variable RUNPOD_API_KEY\)$/);
    expect(() => createClientFromEnv({}, {})).toThrow(ConfigurationError);
  });

  it("rejects malformed addresses, keys in addresses and bad numbers", () => {
    expect(() => resolveClientConfig({ apiKey: "k", graphqlUrl: "not a url" }, {})).toThrow(/graphqlUrl.*not a valid URL/);
    expect(() => resolveClientConfig({ apiKey: "k", restV2Url: "ftp://x" }, {})).toThrow(/http\(s\)/);
    expect(() => resolveClientConfig({ apiKey: "k", graphqlUrl: "http://x/graphql?api_key=secret" }, {})).toThrow(/must not carry api_key/);
    expect(() => resolveClientConfig({ apiKey: "k", timeoutMs: 0 }, {})).toThrow(/timeoutMs/);
    expect(() => resolveClientConfig({ apiKey: "k", timeoutMs: 1.5 }, {})).toThrow(ConfigurationError);
    expect(() => resolveClientConfig({ apiKey: "k", retry: { retries: -1 } }, {})).toThrow(/retry.retries/);
    expect(() => resolveClientConfig({ apiKey: "k", retry: { minDelayMs: 100, maxDelayMs: 10 } }, {})).toThrow(/maxDelayMs/);
  });

  it("createClient exposes the configuration without the key", () => {
    const client = createClient(resolveClientConfig({ apiKey: "top-secret-key" }, {}));
    expect(client.config).not.toHaveProperty("apiKey");
    expect(JSON.stringify(client)).not.toContain("top-secret-key");
    expect(inspect(client, { depth: null, showHidden: true })).not.toContain("top-secret-key");
    expect(client.jobUrl("abc")).toBe("https://api.runpod.ai/v2/abc/");
  });
});
