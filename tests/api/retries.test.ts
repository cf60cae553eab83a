/**
 * Retry, pacing and idempotency rules of the client (issue #6 at the client level), against the
 * emulator's fault injection.
 */
import type { RunningEmulator } from "../../emulator";
import { DEFAULT_SEED } from "../../emulator";
import {
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
  createClient,
  parseRateLimitHeaders,
  parseRetryAfter,
  resolveClientConfig,
  type PlatformClient,
} from "../../src/api";
import { withOperationDeadline } from "../../src/api/deadline";
import { RateLimitTracker, resetJitterMs } from "../../src/api/ratelimit";
import { DNS_ATTEMPTS } from "../../src/api/retry";
import { ENDPOINT_INPUT, clientFor, closedPort, eventually, startFastEmulator, thrown } from "./helpers";

let emu: RunningEmulator;
let client: PlatformClient;

beforeAll(async () => {
  emu = await startFastEmulator();
  client = clientFor(emu);
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.setFaults({});
  emu.resetStats();
});

const named = (name: string) => emu.endpoints(emu.apiKey).filter((e) => e.name === name);
const ops = (op: string) => emu.stats().byOperation[op] ?? 0;

describe("429", () => {
  it("with no time to wait it out: RateLimitError with Retry-After seconds and the parsed windows", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 2, match: ["listNetworkVolumes"] });
    const c = clientFor(emu, { rateLimitDeadlineMs: 0 });
    const err = await thrown(() => c.listNetworkVolumes());
    expect(err).toBeInstanceOf(RateLimitError);
    const r = err as RateLimitError;
    expect(r.status).toBe(429);
    expect(r.retryAfterSeconds).toBe(2);
    expect(r.windows.minute).toMatchObject({ remaining: 0, resetSeconds: 2, quota: 0, windowSeconds: 60 });
    expect(r.exceededWindows).toEqual(["minute"]);
    expect(r.problem?.detail).toMatch(/minute/);
    expect(r.outcomeUnknown).toBe(false);
    expect(ops("listNetworkVolumes")).toBe(1);
  });

  it("with retries: waits Retry-After, then succeeds", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 1, match: ["listNetworkVolumes"] });
    const c = clientFor(emu);
    const started = Date.now();
    expect((await c.listNetworkVolumes()).length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950); // it waited the Retry-After second
    expect(c.stats.retries).toBe(0); // waiting out a rate limit is not a retry
    expect(c.stats.rateLimitWaits).toBe(1);
    expect(ops("listNetworkVolumes")).toBe(2);
  });

  it("rate limits are waited out beyond the retry count and the fault deadline, with a jitter", async () => {
    emu.setFaults({ force429: 3, retryAfterSeconds: 1, match: ["listNetworkVolumes"] });
    const c = clientFor(emu, { retry: { retries: 0, deadlineMs: 500 } });
    const started = Date.now();
    expect((await c.listNetworkVolumes()).length).toBeGreaterThan(0);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(3 * 1000);
    // Each wait is Retry-After plus a jitter of at most a second (ratelimit.ts resetJitterMs).
    expect(elapsed).toBeLessThan(3 * (1000 + 50 + 1000) + 2000);
    expect(c.stats.retries).toBe(0);
    expect(c.stats.rateLimitWaits).toBe(3);
    expect(ops("listNetworkVolumes")).toBe(4);
  });

  it("a create rejected with 429 is retried (it never took effect) and yields exactly one endpoint", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 0, match: ["saveEndpoint"] });
    const ep = await clientFor(emu).saveEndpoint({ ...ENDPOINT_INPUT, name: "r-429-create" });
    expect(named("r-429-create").map((e) => e.id)).toEqual([ep.id]);
    expect(ops("saveEndpoint")).toBe(2);
  });

  it("GraphQL 429 is a RateLimitError too", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 3, match: ["myself"] });
    const err = await thrown(() => clientFor(emu, { rateLimitDeadlineMs: 0 }).myself());
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterSeconds).toBe(3);
    expect((err as RateLimitError).windows.minute?.remaining).toBe(0);
  });

  it("paces: after a 429 the client's other calls wait for the window's reset instead of meeting another 429", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 1, match: ["listNetworkVolumes"] });
    const c = clientFor(emu);
    const first = c.listNetworkVolumes();
    await eventually(() => (c.rateLimit.minute?.remaining === 0 ? true : undefined));
    const started = Date.now();
    await c.listNetworkVolumes();
    expect(Date.now() - started).toBeGreaterThanOrEqual(500); // held back until the reported reset
    await first;
    expect(c.stats.rateLimitWaits).toBe(2); // the first call's wait and the second's
    expect(c.stats.retries).toBe(0);
    expect(ops("listNetworkVolumes")).toBe(3);
    expect(emu.stats().faultsByKind.force429).toBe(1);
  });

  it("a wait longer than the rate-limit deadline is not attempted, and the error says why", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 30, match: ["listNetworkVolumes"] });
    const c = clientFor(emu, { rateLimitDeadlineMs: 1000 });
    const err = await thrown(() => c.listNetworkVolumes());
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.message).toMatch(/Waiting 30 s for the account's rate limit to reset would pass the rate-limit deadline of the call/);
    expect(ops("listNetworkVolumes")).toBe(1);
  });

  it("an operation deadline (the engine's customTimeouts) replaces the configured one", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 30, match: ["listNetworkVolumes"] });
    const c = clientFor(emu); // ten minutes would wait the 30 s out
    const err = await thrown(() => withOperationDeadline(2000, () => c.listNetworkVolumes()));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.message).toMatch(/would pass the operation's deadline \(customTimeouts\)/);
    expect(ops("listNetworkVolumes")).toBe(1);
  });

  it("a real quota: the exhausted window is named, and no wait beyond the deadline is made", async () => {
    const tight = await startFastEmulator({ seed: { ...DEFAULT_SEED, rateLimits: { minute: 3, hour: 1000, day: 10000 } } as never });
    try {
      const c = clientFor(tight, { rateLimitDeadlineMs: 500 });
      for (let i = 0; i < 3; i++) await c.listNetworkVolumes();
      expect(c.rateLimit.minute).toMatchObject({ remaining: 0, quota: 3, windowSeconds: 60 });
      const err = await thrown(() => c.listNetworkVolumes());
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).exceededWindows).toEqual(["minute"]);
      expect((err as RateLimitError).retryAfterSeconds).toBeGreaterThan(0);
      expect(c.stats.rateLimitWaits).toBe(0);
    } finally {
      await tight.close();
    }
  });
});

describe("5xx", () => {
  it("reads are retried until they succeed", async () => {
    emu.setFaults({ errorRate: 0.6, seed: 7, match: ["listNetworkVolumes", "myself"] });
    const c = clientFor(emu, { retry: { retries: 10 } });
    await c.listNetworkVolumes();
    await c.myself();
    const injected = emu.stats().faultsByKind.error5xx ?? 0;
    expect(injected).toBeGreaterThan(0);
    expect(c.stats.retries).toBe(injected);
  });

  it("reads give up with a ServerError once retries are spent", async () => {
    emu.setFaults({ errorRate: 1, match: ["gpuTypes"] });
    const c = clientFor(emu, { retry: { retries: 2 } });
    const err = await thrown(() => c.gpuTypes());
    expect(err).toBeInstanceOf(ServerError);
    expect([500, 502, 503]).toContain((err as ServerError).status);
    expect((err as ServerError).problem?.detail).toMatch(/Injected fault/);
    expect(ops("gpuTypes")).toBe(3);
  });

  it("modify (saveEndpoint with id) and delete are retried", async () => {
    const ep = await client.saveEndpoint({ ...ENDPOINT_INPUT, name: "r-5xx-modify" });
    emu.setFaults({ errorRate: 0.6, seed: 11, match: ["saveEndpoint", "deleteEndpoint"] });
    const c = clientFor(emu, { retry: { retries: 10 } });
    await c.saveEndpoint({ ...ENDPOINT_INPUT, id: ep.id, name: "r-5xx-modify", workersMax: 0 });
    await c.deleteEndpoint(ep.id);
    expect(named("r-5xx-modify")).toEqual([]);
    expect(emu.stats().faultsByKind.error5xx ?? 0).toBeGreaterThan(0);
  });

  it("creates are not retried: ServerError with outcomeUnknown", async () => {
    emu.setFaults({ errorRate: 1, match: ["saveEndpoint", "restCreateEndpoint", "run"] });
    const gql = await thrown(() => client.saveEndpoint({ ...ENDPOINT_INPUT, name: "r-5xx-create" }));
    expect(gql).toBeInstanceOf(ServerError);
    expect((gql as ServerError).outcomeUnknown).toBe(true);
    const rest = await thrown(() => client.createEndpointRest({ name: "r-5xx-create", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"] }));
    expect(rest).toBeInstanceOf(ServerError);
    expect((rest as ServerError).outcomeUnknown).toBe(true);
    expect(await thrown(() => client.run("flux-1-schnell", { prompt: "x" }))).toBeInstanceOf(ServerError);
    expect(ops("saveEndpoint")).toBe(1);
    expect(ops("restCreateEndpoint")).toBe(1);
    expect(ops("run")).toBe(1);
  });
});

describe("dropped connections", () => {
  it("a create dropped after taking effect: NetworkError with outcomeUnknown, not retried, exactly one endpoint", async () => {
    emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
    const err = await thrown(() => client.saveEndpoint({ ...ENDPOINT_INPUT, name: "r-drop-create" }));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).outcomeUnknown).toBe(true);
    expect(ops("saveEndpoint")).toBe(1);
    emu.setFaults({});
    expect(named("r-drop-create")).toHaveLength(1);
    // What the provider does next: look for it instead of creating again.
    expect((await client.findEndpointsByName("r-drop-create", ENDPOINT_INPUT.templateId)).map((e) => e.id)).toEqual(named("r-drop-create").map((e) => e.id));
  });

  it("the REST create and /run behave the same", async () => {
    emu.setFaults({ dropAfterRate: 1, match: ["restCreateEndpoint", "run"] });
    const rest = await thrown(() => client.createEndpointRest({ name: "r-drop-rest", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"] }));
    expect((rest as NetworkError).outcomeUnknown).toBe(true);
    expect(await thrown(() => client.run("flux-1-schnell", { prompt: "x", width: 512, height: 512 }))).toBeInstanceOf(NetworkError);
    expect(ops("restCreateEndpoint")).toBe(1);
    expect(ops("run")).toBe(1);
    expect(named("r-drop-rest")).toHaveLength(1);
  });

  it("reads dropped before or after are retried", async () => {
    emu.setFaults({ dropBeforeRate: 0.3, dropAfterRate: 0.3, seed: 3, match: ["listNetworkVolumes"] });
    const c = clientFor(emu, { retry: { retries: 12 } });
    for (let i = 0; i < 5; i++) expect((await c.listNetworkVolumes()).length).toBe(2);
    const drops = (emu.stats().faultsByKind.dropBefore ?? 0) + (emu.stats().faultsByKind.dropAfter ?? 0);
    expect(drops).toBeGreaterThan(0);
    expect(c.stats.retries).toBe(drops);
  });

  it("a delete whose answer was lost counts as done when the retry finds it gone", async () => {
    const ep = await client.saveEndpoint({ ...ENDPOINT_INPUT, name: "r-drop-delete", workersMax: 0 });
    emu.setFaults({ dropAfterRate: 0.5, seed: 2, match: ["deleteEndpoint"] });
    const c = clientFor(emu, { retry: { retries: 10 } });
    await c.deleteEndpoint(ep.id);
    expect(named("r-drop-delete")).toEqual([]);
    expect(emu.stats().faultsByKind.dropAfter ?? 0).toBeGreaterThan(0);
    expect(ops("deleteEndpoint")).toBeGreaterThan(1);
  });

  it("a refused connection never reached the platform: NetworkError without outcomeUnknown, retried even for creates", async () => {
    const port = await closedPort();
    const base = `http://127.0.0.1:${port}`;
    const c = createClient(
      resolveClientConfig(
        {
          apiKey: emu.apiKey,
          graphqlUrl: `${base}/graphql`,
          restV1Url: base,
          restV2Url: base,
          inferenceUrl: base,
          retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 },
        },
        {},
      ),
    );
    const err = await thrown(() => c.saveEndpoint({ ...ENDPOINT_INPUT, name: "r-refused" }));
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe("ECONNREFUSED");
    expect((err as NetworkError).outcomeUnknown).toBe(false);
    expect(c.stats.requests).toBe(3);
    // What happened, in the sending direction, and how long the client kept at it.
    expect(err.message).toMatch(
      /^saveEndpoint: could not send the request \(ECONNREFUSED\): .*; the request was not delivered \(gave up after 3 attempts over \d+\.\d s\)$/,
    );
  });

  it("a host name that does not resolve (a typo in an address) is not retried, and says so at once", async () => {
    const c = createClient(
      resolveClientConfig(
        {
          apiKey: emu.apiKey,
          graphqlUrl: "https://no-such-host.invalid/graphql",
          restV2Url: "https://no-such-host.invalid",
          retry: { retries: 6, minDelayMs: 200 },
        },
        {},
      ),
    );
    const started = Date.now();
    const err = await thrown(() => c.myself());
    expect(err).toBeInstanceOf(NetworkError);
    expect(["ENOTFOUND", "EAI_AGAIN"]).toContain((err as NetworkError).code);
    expect(err.message).toMatch(/^myself: could not send the request \((ENOTFOUND|EAI_AGAIN)\)/);
    expect(err.message).not.toMatch(/reading/);
    // ENOTFOUND: one attempt; a resolver that is down (EAI_AGAIN): DNS_ATTEMPTS, not the whole policy.
    expect(c.stats.requests).toBeLessThanOrEqual(DNS_ATTEMPTS);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("timeouts", () => {
  it("every request has a timeout; reads retry, creates report an unknown outcome", async () => {
    // The client's timeout also covers connecting: under load a 100 ms one fired before the request
    // reached the emulator, so the timeout is a second and the answer comes three seconds late.
    emu.setFaults({ latencyMs: 3000, match: ["gpuTypes", "saveEndpoint"] });
    const c = clientFor(emu, { timeoutMs: 1000, retry: { retries: 1 } });
    const read = await thrown(() => c.gpuTypes());
    expect(read).toBeInstanceOf(TimeoutError);
    expect((read as TimeoutError).timeoutMs).toBe(1000);
    expect(ops("gpuTypes")).toBe(2);
    const create = await thrown(() => c.saveEndpoint({ ...ENDPOINT_INPUT, name: "r-timeout" }));
    expect(create).toBeInstanceOf(TimeoutError);
    expect((create as TimeoutError).outcomeUnknown).toBe(true);
    expect(ops("saveEndpoint")).toBe(1);
    // The platform finished the create after the client stopped waiting.
    await eventually(() => (named("r-timeout").length === 1 ? true : undefined));
  });
});

describe("rate-limit parsing and pacing", () => {
  const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n.toLowerCase()] ?? null });

  it("parses tokens and strings, ignores unknown windows and malformed headers", () => {
    expect(
      parseRateLimitHeaders(headers({ ratelimit: 'minute;r=0;t=12, "hour";r=5;t=100, week;r=1', "ratelimit-policy": "minute;q=10;w=60, day;q=99;w=86400" })),
    ).toEqual({
      minute: { remaining: 0, resetSeconds: 12, quota: 10, windowSeconds: 60 },
      hour: { remaining: 5, resetSeconds: 100 },
      day: { quota: 99, windowSeconds: 86400 },
    });
    expect(parseRateLimitHeaders(headers({ ratelimit: "minute;r=(" }))).toBeUndefined();
    expect(parseRateLimitHeaders(headers({}))).toBeUndefined();
    expect(parseRetryAfter("7")).toBe(7);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(30);
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  it("holds requests while a window is used up, counting requests sent since the last figures", () => {
    const t = new RateLimitTracker();
    const now = 1_000_000;
    t.update({ minute: { remaining: 2, resetSeconds: 30 }, hour: { remaining: 500, resetSeconds: 900 } }, now);
    expect(t.delayMs(now)).toBe(0);
    t.update({ minute: { remaining: 0, resetSeconds: 30 } }, now);
    expect(t.delayMs(now)).toBe(30_000);
    expect(t.delayMs(now + 29_000)).toBe(1000);
    expect(t.delayMs(now + 30_000)).toBe(0);
    expect(t.latest.minute).toEqual({ remaining: 0, resetSeconds: 30 });
  });

  it("spends the last unit once: concurrent sends after `remaining: 1` wait for the reset", async () => {
    const t = new RateLimitTracker();
    t.update({ minute: { remaining: 1, resetSeconds: 60 } });
    await t.beforeSend(Date.now() + 10); // takes the last unit at once
    expect(t.delayMs()).toBeGreaterThan(59_000);
    // A deadline shorter than the reset: no wait, the request goes out (and meets the platform's 429).
    await t.beforeSend(Date.now() + 10);
    expect(t.waits).toBe(0);
    // With a reset inside the deadline it waits, and the window counts as unknown afterwards.
    t.update({ minute: { remaining: 0, resetSeconds: 0.05 } });
    await t.beforeSend(Date.now() + 5000);
    expect(t.waits).toBe(1);
    expect(t.delayMs()).toBe(0);
  });

  it("paces before the limit: a window under half its quota and ahead of its time spreads what is left until its reset", async () => {
    const t = new RateLimitTracker();
    const start = Date.now();
    // 4 of 40 left with 0.6 s of a 1 s window to go: spent faster than the window runs.
    t.update({ minute: { remaining: 4, resetSeconds: 0.6, quota: 40, windowSeconds: 1 } }, start);
    const went: number[] = [];
    const holds = await Promise.all(Array.from({ length: 5 }, () => t.beforeSend(start + 60_000).then((hold) => (went.push(Date.now() - start), hold))));
    expect(holds).toEqual(["none", "paced", "paced", "paced", "reset"]);
    went.sort((a, b) => a - b);
    // Slots 0.2 s apart (the 0.6 s left over the 3 units left after the first), the fifth after the reset.
    for (const [i, low] of [0, 200, 400, 600].entries()) expect(went[i]).toBeGreaterThanOrEqual(low - 5);
    expect(went[3]).toBeLessThan(600 + 400);
    expect(went[4]).toBeGreaterThanOrEqual(600 + 50);
  });

  it("a window with half its quota left, or on pace with its time, is not paced", async () => {
    const t = new RateLimitTracker();
    const start = Date.now();
    t.update({ minute: { remaining: 30, resetSeconds: 50, quota: 40, windowSeconds: 60 } }, start);
    expect(await Promise.all([t.beforeSend(start + 1000), t.beforeSend(start + 1000)])).toEqual(["none", "none"]);
    t.update({ minute: { remaining: 10, resetSeconds: 10, quota: 40, windowSeconds: 60 } }, start); // 25% left, 17% of the time
    expect(await t.beforeSend(start + 1000)).toBe("none");
    expect(Date.now() - start).toBeLessThan(500);
  });

  it("the jitter of a wait for a reset: a tenth of the wait, at least 1 s, at most 10 s", () => {
    expect(resetJitterMs(60_000, () => 1)).toBe(6000);
    expect(resetJitterMs(2000, () => 1)).toBe(1000);
    expect(resetJitterMs(3_600_000, () => 1)).toBe(10_000);
    expect(resetJitterMs(60_000, () => 0)).toBe(0);
  });
});
