/**
 * The API key must appear in no error text: message, stack, JSON, String(err), util.inspect — for every
 * failure class — nor in debug lines. Keys with URL-significant characters prove the encoded forms
 * (the GraphQL address carries the key as ?api_key=) are removed too.
 */
import { inspect } from "util";
import { DEFAULT_SEED, type RunningEmulator } from "../../emulator";
import {
  AbortedError,
  ApiHttpError,
  AuthenticationError,
  ConfigurationError,
  GraphQLRequestError,
  InvalidArgumentError,
  NetworkError,
  NotFoundError,
  PermissionError,
  PlatformError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  createRedactor,
  resolveClientConfig,
} from "../../src/api";
import { ENDPOINT_INPUT, clientFor, closedPort, startFastEmulator, thrown } from "./helpers";

const RW_KEY = "rpa+Secret/Key=with&chars%41?x";
const RO_KEY = "rpa+ReadOnly/Key=only&read";
const BAD_KEY = "rpa+Bogus/Key=not&known";

function forms(key: string): string[] {
  return [key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2), key.slice(4, 14)];
}

function texts(err: unknown): Record<string, string> {
  const e = err as Error;
  return {
    message: e.message,
    stack: String(e.stack),
    json: JSON.stringify(e),
    string: String(e),
    inspect: inspect(e, { showHidden: true, depth: null }),
  };
}

function expectNoKey(label: string, err: unknown, key: string): void {
  expect(err).toBeInstanceOf(PlatformError);
  for (const [where, text] of Object.entries(texts(err))) {
    for (const f of forms(key)) {
      if (text.includes(f)) throw new Error(`${label}: the key (form ${JSON.stringify(f)}) appears in ${where}: ${text}`);
    }
  }
}

let emu: RunningEmulator;
const debugLines: string[] = [];

beforeAll(async () => {
  const seed = {
    ...DEFAULT_SEED,
    apiKeys: [
      { key: RW_KEY, userId: "user_1", scopes: ["read", "write"] },
      { key: RO_KEY, userId: "user_1", scopes: ["read"] },
    ],
  };
  emu = await startFastEmulator({ seed: seed as never });
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

describe("the API key never appears in error text", () => {
  it("the redactor removes the key in every form and any api_key parameter", () => {
    const redact = createRedactor(RW_KEY);
    const url = new URL("http://h/graphql");
    url.searchParams.set("api_key", RW_KEY);
    for (const text of [url.toString(), `Bearer ${RW_KEY}`, `"${RW_KEY}"`, JSON.stringify({ k: RW_KEY }), `x?api_key=anything&y=1`]) {
      const out = redact(text);
      for (const f of forms(RW_KEY)) expect(out).not.toContain(f);
      expect(out).not.toContain("anything");
    }
    expect(redact(url.toString())).toBe("http://h/graphql?api_key=REDACTED");
  });

  it("holds for every failure class", async () => {
    const client = clientFor(emu, { apiKey: RW_KEY, debug: (l) => debugLines.push(l), retry: { retries: 1 } });
    const ro = clientFor(emu, { apiKey: RO_KEY, debug: (l) => debugLines.push(l) });
    const bad = clientFor(emu, { apiKey: BAD_KEY, debug: (l) => debugLines.push(l) });
    const port = await closedPort();
    const cases: [string, Error, string, new (...a: never[]) => Error][] = [];
    const add = async (label: string, key: string, cls: new (...a: never[]) => Error, fn: () => unknown) => cases.push([label, await thrown(fn), key, cls]);

    await add("configuration: key pasted into a URL", RW_KEY, ConfigurationError, () =>
      resolveClientConfig({ apiKey: RW_KEY, graphqlUrl: `not a url ${RW_KEY}` }, {}),
    );
    await add("configuration: api_key in the GraphQL URL", RW_KEY, ConfigurationError, () =>
      resolveClientConfig({ apiKey: RW_KEY, graphqlUrl: `http://h/graphql?api_key=${encodeURIComponent(RW_KEY)}` }, {}),
    );
    await add("invalid argument", RW_KEY, InvalidArgumentError, () => client.streamWorkerLogs("e", "w", { tail: 9999 }));
    await add("HTTP 400 problem", RW_KEY, ApiHttpError, () => client.createEndpointRest({ name: "s", templateId: "tpl_vllm", gpuTypeIds: ["nope"] }));
    await add("401 GraphQL", BAD_KEY, AuthenticationError, () => bad.myself());
    await add("401 REST", BAD_KEY, AuthenticationError, () => bad.listNetworkVolumes());
    await add("403 GraphQL", RO_KEY, PermissionError, () => ro.saveEndpoint({ ...ENDPOINT_INPUT }));
    await add("403 REST", RO_KEY, PermissionError, () => ro.createEndpointRest({ name: "s", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"] }));
    await add("404 GraphQL", RW_KEY, NotFoundError, () => client.deleteEndpoint("missing0000000"));
    await add("404 REST", RW_KEY, NotFoundError, () => client.listWorkers("missing0000000"));
    await add("GraphQL validation", RW_KEY, GraphQLRequestError, () => client.saveEndpoint({ ...ENDPOINT_INPUT, gpuIds: "BOGUS" }));

    emu.setFaults({ force429: 2, retryAfterSeconds: 5, match: ["myself", "listNetworkVolumes"] });
    await add("429 GraphQL", RW_KEY, RateLimitError, () => clientFor(emu, { apiKey: RW_KEY, rateLimitDeadlineMs: 0 }).myself());
    await add("429 REST", RW_KEY, RateLimitError, () => clientFor(emu, { apiKey: RW_KEY, rateLimitDeadlineMs: 0 }).listNetworkVolumes());

    emu.setFaults({ errorRate: 1, match: ["gpuTypes", "listNetworkVolumes"] });
    await add("5xx GraphQL", RW_KEY, ServerError, () => client.gpuTypes());
    await add("5xx REST", RW_KEY, ServerError, () => client.listNetworkVolumes());

    emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint", "listNetworkVolumes"] });
    await add("dropped GraphQL", RW_KEY, NetworkError, () => client.saveEndpoint({ ...ENDPOINT_INPUT }));
    await add("dropped REST", RW_KEY, NetworkError, () => client.listNetworkVolumes());
    const refused = clientFor(emu, {
      apiKey: RW_KEY,
      graphqlUrl: `http://127.0.0.1:${port}/graphql`,
      restV2Url: `http://127.0.0.1:${port}`,
      retry: { retries: 0 },
    });
    await add("refused GraphQL (URL with key)", RW_KEY, NetworkError, () => refused.myself());
    await add("refused REST", RW_KEY, NetworkError, () => refused.listNetworkVolumes());

    emu.setFaults({ latencyMs: 300, match: ["myself", "jobStatus"] });
    const slow = clientFor(emu, { apiKey: RW_KEY, timeoutMs: 50, retry: { retries: 0 } });
    await add("timeout GraphQL", RW_KEY, TimeoutError, () => slow.myself());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await add("aborted", RW_KEY, AbortedError, () => client.waitForJob("flux-1-schnell", "some-job", { signal: controller.signal }));

    emu.setFaults({});
    const wrongShape = clientFor(emu, { apiKey: RW_KEY, graphqlUrl: `${emu.urls.admin}/stats/reset`, retry: { retries: 0 } });
    await add("unexpected response shape", RW_KEY, ResponseValidationError, () => wrongShape.myself());

    for (const [label, err, key, cls] of cases) {
      expect([label, err]).toEqual([label, expect.any(cls)]);
      expectNoKey(label, err, key);
    }
    const covered = new Set(cases.map(([, err]) => err.constructor.name));
    expect([...covered].sort()).toEqual(
      [
        "AbortedError",
        "ApiHttpError",
        "AuthenticationError",
        "ConfigurationError",
        "GraphQLRequestError",
        "InvalidArgumentError",
        "NetworkError",
        "NotFoundError",
        "PermissionError",
        "RateLimitError",
        "ResponseValidationError",
        "ServerError",
        "TimeoutError",
      ].sort(),
    );
    expect(debugLines.length).toBeGreaterThan(0);
    expect(debugLines.some((l) => l.includes("api_key=REDACTED"))).toBe(true);
    for (const line of debugLines) for (const key of [RW_KEY, RO_KEY, BAD_KEY]) for (const f of forms(key)) expect(line).not.toContain(f);
  });
});
