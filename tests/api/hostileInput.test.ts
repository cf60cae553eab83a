/**
 * Issue 18, client side: what a hostile server or a careless caller can hand the client. Servers are
 * real HTTP servers — the emulator, or a small local server where the emulator cannot misbehave in
 * the way under test (a key echoed in `extensions.code`, a redirect to another port).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "http";
import type { AddressInfo } from "net";
import type { RunningEmulator } from "../../emulator";
import {
  ConfigurationError,
  GraphQLRequestError,
  InvalidArgumentError,
  MAX_TIMER_MS,
  ResponseValidationError,
  createClient,
  isRfc3339DateTime,
  resolveClientConfig,
  waitForWorkers,
} from "../../src/api";
import { sleep } from "../../src/api/ratelimit";
import { clientFor, startFastEmulator, thrown } from "./helpers";

const KEY = "rpa_HOSTILE0123456789";

/** A local server answering every request with `handler`; records what it received. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; seen: IncomingMessage[]; server: Server }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    req.on("end", () => handler(req, res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}
const closeAll: Server[] = [];
afterAll(() => Promise.all(closeAll.map((s) => new Promise((r) => s.close(r)))));

function clientAt(base: string) {
  return createClient(
    resolveClientConfig(
      { apiKey: KEY, graphqlUrl: `${base}/graphql`, restV1Url: base, restV2Url: base, inferenceUrl: base, timeoutMs: 3000, retry: { retries: 0 } },
      {},
    ),
  );
}

describe("GraphQL extensions.code from the server", () => {
  test("a key echoed in extensions.code never reaches the message; only [A-Z_]+ codes are kept", async () => {
    const srv = await serve((req, res) => {
      const key = new URL(req.url ?? "/", "http://x").searchParams.get("api_key");
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          errors: [
            { message: "key rejected", extensions: { code: `INVALID_KEY ${key}` } },
            { message: "other", extensions: { code: "BAD_USER_INPUT" } },
          ],
        }),
      );
    });
    closeAll.push(srv.server);
    const err = await thrown(() => clientAt(srv.url).gpuTypes());
    expect(srv.seen).toHaveLength(1);
    expect(err).toBeInstanceOf(GraphQLRequestError);
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain("INVALID_KEY");
    expect(err.message).toContain("other [BAD_USER_INPUT]");
    expect((err as GraphQLRequestError).codes).toEqual(["BAD_USER_INPUT"]);
    expect(JSON.stringify(err)).not.toContain(KEY);
  });
});

describe("ids that would change the request path", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startFastEmulator();
  });
  afterAll(() => emu.close());

  test.each([".", "..", "...", "a/b", "x?y", "a b", "é"])("%j is refused before any request, naming the argument", async (id) => {
    const client = clientFor(emu);
    const before = emu.stats().requests;
    const cases: [string, () => unknown][] = [
      ["endpointId", () => client.run(id, { x: 1 })],
      ["endpointId", () => client.runSync(id, { x: 1 })],
      ["jobId", () => client.jobStatus("flux-1-schnell", id)],
      ["endpointId", () => client.listWorkers(id)],
      ["workerId", () => client.streamWorkerLogs("abc", id, { follow: false })[Symbol.asyncIterator]().next()],
    ];
    for (const [argument, call] of cases) {
      const err = await thrown(async () => call());
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as InvalidArgumentError).message).toContain(`${argument} must be a platform id`);
    }
    expect(emu.stats().requests).toBe(before);
  });

  test("ordinary ids still work (model ids with dashes, job ids)", async () => {
    const client = clientFor(emu);
    const job = await client.run("flux-1-schnell", { prompt: "x" });
    expect((await client.jobStatus("flux-1-schnell", job.id)).id).toBe(job.id);
  });
});

describe("addresses", () => {
  const base = { apiKey: KEY };
  test("plain HTTP is refused for a non-loopback host unless opted in by name", () => {
    const err = (() => {
      try {
        resolveClientConfig({ ...base, restV2Url: "http://api.example.com" }, {});
      } catch (e) {
        return e as ConfigurationError;
      }
      throw new Error("accepted");
    })();
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err.message).toMatch(/^restV2Url uses plain http:\/\/.*allowInsecureHttp = true.*RUNPOD_ALLOW_INSECURE_HTTP/);
    expect(() => resolveClientConfig({}, { RUNPOD_API_KEY: KEY, RUNPOD_INVOKE_URL: "http://10.0.0.5/v2" })).toThrow(/RUNPOD_INVOKE_URL uses plain http/);
    for (const host of ["127.0.0.1:8080", "localhost:1", "[::1]:9", "127.1.2.3"]) {
      expect(resolveClientConfig({ ...base, restV2Url: `http://${host}` }, {}).restV2Url).toBe(`http://${host}`);
    }
    expect(resolveClientConfig({ ...base, restV2Url: "http://api.example.com", allowInsecureHttp: "true" }, {}).restV2Url).toBe("http://api.example.com");
    expect(resolveClientConfig({ ...base, restV2Url: "http://api.example.com" }, { RUNPOD_ALLOW_INSECURE_HTTP: "true" }).allowInsecureHttp).toBe(true);
    expect(() => resolveClientConfig({ ...base, allowInsecureHttp: "yes please" }, {})).toThrow(/^allowInsecureHttp must be true or false/);
  });

  test.each(["https://h.example/graphql?x=1", "https://h.example/graphql#frag", "https://h.example/graphql?", "https://u:p@h.example/graphql"])(
    "base address %s is refused",
    (graphqlUrl) => {
      expect(() => resolveClientConfig({ ...base, graphqlUrl }, {})).toThrow(/^graphqlUrl .*(query|credentials)/);
    },
  );

  test("a redirect is refused and the key never reaches its target", async () => {
    const target = await serve((_req, res) => res.end("{}"));
    const redirector = await serve((req, res) => {
      res.statusCode = 307;
      res.setHeader("location", `${target.url}${req.url}`);
      res.end();
    });
    closeAll.push(target.server, redirector.server);
    const client = clientAt(redirector.url);
    for (const call of [
      () => client.listNetworkVolumes(),
      () => client.gpuTypes(),
      () => client.run("abc", {}),
      () => client.streamWorkerLogs("abc", "w1", { follow: false })[Symbol.asyncIterator]().next(),
    ]) {
      const err = await thrown(async () => call());
      expect(err).toBeInstanceOf(ResponseValidationError);
      expect(err.message).toMatch(/HTTP 307 redirecting to .*redirects are not followed/);
      expect(err.message).not.toContain(KEY);
    }
    expect(redirector.seen.length).toBeGreaterThanOrEqual(4);
    expect(target.seen).toHaveLength(0);
  });
});

describe("API key characters", () => {
  test.each([
    ["newline", "rpa_abc\nX-Injected: 1"],
    ["non-ASCII", "rpa_abcé"],
    ["space", "rpa abc"],
    ["control", "rpa_\u0007abc"],
  ])("a key with a %s is a configuration error naming the setting as the caller calls it, without the key", (_label, apiKey) => {
    const names = { apiKey: "runpod:apiKey" };
    for (const call of [() => resolveClientConfig({ apiKey }, {}, names), () => resolveClientConfig({}, { RUNPOD_API_KEY: apiKey }, names)]) {
      let err: unknown;
      try {
        call();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigurationError);
      expect((err as Error).message).toContain("runpod:apiKey");
      expect((err as Error).message).toContain("RUNPOD_API_KEY");
      expect((err as Error).message).not.toContain("abc");
    }
  });
});

describe("durations beyond what timers hold", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startFastEmulator();
  });
  afterAll(() => emu.close());

  test("waitForJob refuses pollIntervalMs / timeoutMs above 2,147,483,647 ms instead of spinning", async () => {
    const client = clientFor(emu);
    const job = await client.run("flux-1-schnell", { prompt: "x" });
    const before = emu.stats().requests;
    for (const [argument, options] of [
      ["pollIntervalMs", { pollIntervalMs: 3_000_000_000 }],
      ["timeoutMs", { timeoutMs: MAX_TIMER_MS + 1 }],
    ] as const) {
      const err = await thrown(() => client.waitForJob("flux-1-schnell", job.id, options));
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err.message).toContain(`${argument} must be a number of milliseconds`);
      expect(err.message).toContain("2147483647");
    }
    expect(emu.stats().requests).toBe(before);
    expect((await client.waitForJob("flux-1-schnell", job.id, { pollIntervalMs: 20, timeoutMs: MAX_TIMER_MS })).status).toBe("COMPLETED");
  });

  test("waitForWorkers and the sleep helper refuse them too; config timeouts as well", async () => {
    const client = clientFor(emu);
    for (const options of [
      { count: 1, timeoutMs: 3_000_000_000 },
      { count: 1, timeoutMs: 1000, pollIntervalMs: 3_000_000_000 },
    ]) {
      const err = await thrown(() => waitForWorkers(client, "abc", options));
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err.message).toMatch(/(timeoutMs|pollIntervalMs) must be a number of milliseconds from \d to 2147483647/);
    }
    expect(() => sleep(3_000_000_000)).toThrow(/at most 2147483647 ms/);
    expect(() => resolveClientConfig({ apiKey: KEY, timeoutMs: 3_000_000_000 }, {})).toThrow(/^timeoutMs must be at most 2147483647/);
    expect(() => resolveClientConfig({ apiKey: KEY, retry: { deadlineMs: 3_000_000_000 } }, {})).toThrow(/retry.deadlineMs must be at most/);
  });
});

describe("RFC 3339 date-times (log stream `since`)", () => {
  test("impossible dates are refused, a leap second is accepted", () => {
    for (const bad of [
      "2024-02-30T00:00:00Z",
      "2023-02-29T00:00:00Z",
      "2024-04-31T00:00:00Z",
      "2024-13-01T00:00:00Z",
      "2024-01-01T24:00:00Z",
      "2024-01-01T00:60:00Z",
      "2024-01-01T00:00:61Z",
      "2024-01-01T00:00:00+24:00",
    ]) {
      expect([bad, isRfc3339DateTime(bad)]).toEqual([bad, false]);
    }
    for (const good of ["2016-12-31T23:59:60Z", "2024-02-29T00:00:00Z", "2024-01-01T00:00:00.123+05:30", "2000-02-29t12:00:00z"]) {
      expect([good, isRfc3339DateTime(good)]).toEqual([good, true]);
    }
  });
});
