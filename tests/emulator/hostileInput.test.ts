/**
 * Issue 18, emulator side: it runs on developers' machines and in CI, so a page in a browser must not
 * drive it, a request must not be able to make it spend without bound, and one user must not see
 * another's activity. Raw `http.request` is used where a header (Host, Origin) must be set exactly.
 */
import { request } from "node:http";
import { connect } from "node:net";
import type { RunningEmulator } from "../../emulator";
import { gql, rateLimitWindows, rest, start } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

interface Raw {
  status: number;
  body: string;
}
/** One request with exactly these headers (no others but Content-Length and Connection). */
function raw(method: string, url: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}), ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
const host = () => new URL(emu.urls.graphql).host;
const faultsBody = JSON.stringify({ errorRate: 1 });
const mutation = (name: string) =>
  JSON.stringify({ query: `mutation { saveEndpoint(input: { name: "${name}", templateId: "tpl_vllm", gpuIds: "AMPERE_24" }) { id } }` });
const endpointNames = async () =>
  ((await rest("GET", `${emu.urls.admin}/state?user=user_1`, undefined)).body.endpoints as { name: string }[]).map((e) => e.name);
const gqlUrl = () => `${emu.urls.graphql}?api_key=${encodeURIComponent(emu.apiKey)}`;

describe("cross-origin writes", () => {
  test("a Host other than loopback is refused (DNS rebinding), admin routes included", async () => {
    for (const [method, url, body] of [
      ["POST", `${emu.urls.admin}/faults`, faultsBody],
      ["GET", `${emu.urls.admin}/state`, undefined],
      ["POST", gqlUrl(), mutation("rebound")],
      ["GET", `${emu.urls.restV2}/v2/network-volumes`, undefined],
    ] as const) {
      const r = await raw(
        method,
        url,
        { host: `evil.example:${new URL(url).port}`, "content-type": "application/json", authorization: `Bearer ${emu.apiKey}` },
        body,
      );
      expect([url, r.status]).toEqual([url, 403]);
      expect(r.body).toMatch(/loopback host/);
    }
    expect((await rest("GET", `${emu.urls.admin}/faults`, undefined)).body.errorRate ?? 0).toBe(0);
    expect(await endpointNames()).not.toContain("rebound");
    for (const h of [host(), `localhost:${new URL(emu.urls.graphql).port}`, `[::1]:1`]) {
      expect((await raw("GET", `${emu.urls.admin}/health`, { host: h })).status).toBe(200);
    }
  });

  test("a foreign Origin is refused; a loopback Origin is not", async () => {
    for (const origin of ["http://evil.example", "null", "https://127.0.0.1.evil.example"]) {
      const admin = await raw("POST", `${emu.urls.admin}/faults`, { host: host(), origin, "content-type": "application/json" }, faultsBody);
      expect([origin, admin.status]).toEqual([origin, 403]);
      const graphql = await raw("POST", gqlUrl(), { host: host(), origin, "content-type": "application/json" }, mutation("cross-origin"));
      expect([origin, graphql.status]).toEqual([origin, 403]);
    }
    expect((await rest("GET", `${emu.urls.admin}/faults`, undefined)).body.errorRate ?? 0).toBe(0);
    expect(await endpointNames()).not.toContain("cross-origin");
    const same = await raw(
      "POST",
      `${emu.urls.admin}/faults`,
      { host: host(), origin: `http://${host()}`, "content-type": "application/json" },
      JSON.stringify({}),
    );
    expect(same.status).toBe(200);
  });

  test("a POST body that is not application/json is refused with 415 (the form a browser sends cross-site)", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", undefined]) {
      const headers: Record<string, string> = { host: host(), ...(contentType ? { "content-type": contentType } : {}) };
      const admin = await raw("POST", `${emu.urls.admin}/faults`, headers, faultsBody);
      expect([contentType, admin.status]).toEqual([contentType, 415]);
      const graphql = await raw("POST", gqlUrl(), headers, mutation("text-plain"));
      expect([contentType, graphql.status]).toEqual([contentType, 415]);
      const run = await raw(
        "POST",
        `${emu.urls.inference}/v2/flux-1-schnell/run`,
        { ...headers, authorization: `Bearer ${emu.apiKey}` },
        JSON.stringify({ input: { prompt: "x" } }),
      );
      expect([contentType, run.status]).toEqual([contentType, 415]);
    }
    expect((await rest("GET", `${emu.urls.admin}/faults`, undefined)).body.errorRate ?? 0).toBe(0);
    expect(await endpointNames()).not.toContain("text-plain");
    // A bodiless POST (job cancel, stats reset) needs no Content-Type; JSON with a charset is JSON.
    expect((await raw("POST", `${emu.urls.admin}/stats/reset`, { host: host() })).status).toBe(200);
    expect((await raw("POST", `${emu.urls.admin}/faults`, { host: host(), "content-type": "application/json; charset=utf-8" }, "{}")).status).toBe(200);
  });

  test("/_emulator/state?user= takes user ids only, so it cannot tell valid keys from invalid ones", async () => {
    const valid = await rest("GET", `${emu.urls.admin}/state?user=${encodeURIComponent(emu.apiKey)}`, undefined);
    const invalid = await rest("GET", `${emu.urls.admin}/state?user=rpa_not_a_key`, undefined);
    expect(valid.status).toBe(404);
    expect(valid).toEqual({ ...invalid, headers: valid.headers });
    expect(JSON.stringify(valid.body)).not.toContain(emu.apiKey);
    expect((await rest("GET", `${emu.urls.admin}/state?user=user_1`, undefined)).status).toBe(200);
  });
});

describe("GraphQL cost", () => {
  test("a deeply nested document is a 400 parse failure, before authentication", async () => {
    const deep = `${"{ myself ".repeat(20_000)}${"}".repeat(20_000)}`;
    for (const key of [emu.apiKey, "rpa_wrong"]) {
      const r = await gql(emu, deep, undefined, key);
      expect(r.status).toBe(400);
      expect(r.body.errors[0].extensions.code).toBe("GRAPHQL_PARSE_FAILED");
    }
    const thirteen = `{ myself ${"{ id ".repeat(12)}${"}".repeat(13)}`;
    const r = await gql(emu, thirteen);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/deeper than 12 levels/);
  });

  test("20,000 aliases are refused (token limit) instead of answering megabytes", async () => {
    const query = `{ ${Array.from({ length: 20_000 }, (_, i) => `a${i}: myself { id }`).join(" ")} }`;
    const r = await gql(emu, query);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/token/i);
    expect(JSON.stringify(r.body).length).toBeLessThan(2000);
  });

  test("every parse failure is a 400", async () => {
    for (const query of ["{ myself {", "}", "query { myself { id } } garbage(", '{ myself(id: "unterminated) { id } }']) {
      const r = await gql(emu, query);
      expect([query, r.status, r.body.errors[0].extensions.code]).toEqual([query, 400, "GRAPHQL_PARSE_FAILED"]);
    }
  });

  test("each top-level field counts against the rate limit", async () => {
    const remaining = (r: { headers: Headers }) => rateLimitWindows(r.headers.get("ratelimit")).minute.r;
    const one = await gql(emu, `{ myself { id } }`);
    const five = await gql(emu, `{ ${[1, 2, 3, 4, 5].map((i) => `a${i}: myself { id }`).join(" ")} }`);
    expect(five.status).toBe(200);
    expect(remaining(one) - remaining(five)).toBe(5);
  });
});

describe("job interface", () => {
  test("/health of a public model shows only the caller's jobs", async () => {
    const mine = await rest("POST", `${emu.urls.inference}/v2/flux-1-dev/run`, emu.apiKey, { input: { prompt: "x" } });
    expect(mine.status).toBe(200);
    const health = async (key: string) => (await rest("GET", `${emu.urls.inference}/v2/flux-1-dev/health`, key)).body.jobs;
    const total = (jobs: Record<string, number>) => jobs.completed + jobs.failed + jobs.inProgress + jobs.inQueue;
    expect(total(await health(emu.apiKey))).toBe(1);
    expect(total(await health(emu.otherUserApiKey))).toBe(0);
  });

  test("a deeply nested job input is a 400, not a 500; moderate nesting still works", async () => {
    const nested = (depth: number) => `{"input":${"[".repeat(depth)}1${"]".repeat(depth)}}`;
    const ep = (await gql(emu, `mutation { saveEndpoint(input: { name: "nest", templateId: "tpl_vllm", gpuIds: "AMPERE_24" }) { id } }`)).body.data.saveEndpoint
      .id;
    const deep = await rest("POST", `${emu.urls.inference}/v2/${ep}/run`, emu.apiKey, `{"input":{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`, {
      "content-type": "application/json",
    });
    expect(deep.status).toBe(400);
    expect(deep.body.detail).toMatch(/deeper than 64 levels/);
    const fine = await rest("POST", `${emu.urls.inference}/v2/${ep}/run`, emu.apiKey, nested(30).replace(/^\{"input":/, '{"input":{"x":') + "}", {
      "content-type": "application/json",
    });
    expect(fine.status).toBe(200);
  });
});

describe("slow clients", () => {
  test("a connection that never finishes its headers is closed", async () => {
    const port = Number(new URL(emu.urls.graphql).port);
    const started = Date.now();
    const closed = await new Promise<number>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(`GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`));
      socket.on("error", reject);
      socket.resume();
      socket.on("close", () => resolve(Date.now() - started));
    });
    expect(closed).toBeLessThan(20_000);
  }, 30_000);
});
