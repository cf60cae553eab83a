import type { RunningEmulator } from "../../emulator";
import { createEndpoint, gql, rateLimitWindows, readSse, rest, SAVE, start, until } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

const createRest = (name: string) =>
  fetch(`${emu.urls.restV1}/v1/endpoints`, {
    method: "POST",
    headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name, templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"] }),
  });
const names = () => emu.endpoints(emu.apiKey).map((e) => e.name);

describe("fault injection", () => {
  test("errorRate 1 answers 500/502/503 problem+json before the request takes effect", async () => {
    emu.setFaults({ errorRate: 1 });
    emu.resetStats();
    const res = await createRest("never-created");
    expect([500, 502, 503]).toContain(res.status);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await res.json()).status).toBe(res.status);
    expect(names()).not.toContain("never-created");
    expect(emu.stats()).toMatchObject({ requests: 1, byOperation: { restCreateEndpoint: 1 }, faultsInjected: 1, faultsByKind: { error5xx: 1 } });
  });

  test("a seeded errorRate gives the same pattern every time", async () => {
    const pattern = async () => {
      emu.setFaults({ errorRate: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey)).status);
      return statuses;
    };
    const first = await pattern();
    expect(await pattern()).toEqual(first);
    expect(first).toContain(200);
    expect(first.some((s) => s >= 500)).toBe(true);
    emu.setFaults({ errorRate: 0.5, seed: 43 });
    const other: number[] = [];
    for (let i = 0; i < 24; i++) other.push((await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey)).status);
    expect(other).not.toEqual(first);
  });

  test("dropBeforeRate 1 destroys the connection and nothing happens", async () => {
    emu.setFaults({ dropBeforeRate: 1 });
    emu.resetStats();
    await expect(createRest("dropped-before")).rejects.toThrow();
    expect(names()).not.toContain("dropped-before");
    expect(emu.stats().faultsByKind).toEqual({ dropBefore: 1 });
  });

  test("dropAfterRate 1 applies the request, then destroys the connection without a response (REST)", async () => {
    emu.setFaults({ dropAfterRate: 1 });
    await expect(createRest("dropped-after")).rejects.toThrow();
    expect(names()).toContain("dropped-after");
    expect(emu.stats().faultsByKind.dropAfter).toBeGreaterThanOrEqual(1);
  });

  test("dropAfterRate 1 applies a GraphQL mutation before dropping", async () => {
    emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
    await expect(gql(emu, SAVE, { input: { name: "gql-dropped-after", templateId: "tpl_vllm", gpuIds: "AMPERE_16" } })).rejects.toThrow();
    expect(names()).toContain("gql-dropped-after");
    // Queries are not matched, so they still answer.
    expect((await gql(emu, `{ myself { id } }`)).status).toBe(200);
  });

  test("force429 answers the next N matching requests with 429 and Retry-After, then recovers", async () => {
    emu.setFaults({ force429: 2, retryAfterSeconds: 3, match: ["listNetworkVolumes"] });
    const url = `${emu.urls.restV2}/v2/network-volumes`;
    for (let i = 0; i < 2; i++) {
      const res = await rest("GET", url, emu.apiKey);
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("3");
      expect(res.body).toMatchObject({ status: 429, detail: expect.stringMatching(/minute/) });
      expect(res.headers.get("ratelimit")).toMatch(/minute;r=0/);
    }
    // A non-matching operation is untouched while the matching one recovers after N.
    expect((await gql(emu, `{ gpuTypes { id } }`)).status).toBe(200);
    expect((await rest("GET", url, emu.apiKey)).status).toBe(200);
  });

  test("force429 on GraphQL uses the GraphQL errors shape", async () => {
    emu.setFaults({ force429: 1 });
    const res = await gql(emu, `{ myself { id } }`);
    expect(res.status).toBe(429);
    expect(res.body.errors[0].extensions.code).toBe("RATE_LIMITED");
  });

  test("rateLimitResetSeconds sets the RateLimit reset of forced 429s apart from Retry-After", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 2, rateLimitResetSeconds: 0, match: ["listNetworkVolumes"] });
    const res = await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(rateLimitWindows(res.headers.get("ratelimit")).minute).toEqual({ r: 0, t: 0 });
    expect(rateLimitWindows(res.headers.get("ratelimit-policy")).minute).toEqual({ q: 0, w: 60 });
  });

  test("omitRateLimitHeaders: forced 429s carry Retry-After only, on REST and GraphQL", async () => {
    emu.setFaults({ force429: 2, retryAfterSeconds: 2, omitRateLimitHeaders: true });
    for (const res of [await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey), await gql(emu, `{ myself { id } }`)]) {
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("2");
      expect(res.headers.get("ratelimit")).toBeNull();
      expect(res.headers.get("ratelimit-policy")).toBeNull();
    }
    // Ordinary answers keep their headers.
    expect((await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey)).headers.get("ratelimit")).toMatch(/minute;r=/);
  });

  test("rateLimitResetSeconds and omitRateLimitHeaders together are refused, naming the field", () => {
    expect(() => emu.setFaults({ force429: 1, rateLimitResetSeconds: 1, omitRateLimitHeaders: true })).toThrow(/rateLimitResetSeconds/);
  });

  describe("echoRequest", () => {
    const volumesUrl = () => `${emu.urls.restV2}/v2/network-volumes`;
    const keyInUrl = () => `api_key=${emu.apiKey}`;

    test("json: GraphQL errors echo the URL with api_key in each message and in extensions.request", async () => {
      emu.setFaults({ echoRequest: "json" });
      emu.resetStats();
      const res = await gql(emu, SAVE, { input: { name: "echo", templateId: "tpl_vllm", gpuIds: "H100" } });
      expect(res.status).toBe(200);
      const [error] = res.body.errors;
      expect(error.message).toMatch(/^Invalid gpuIds/);
      expect(error.message).toContain(keyInUrl());
      expect(error.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "gpuIds" });
      expect(error.extensions.request).toMatchObject({ method: "POST", url: expect.stringContaining(keyInUrl()) });
      expect(emu.stats().faultsByKind).toEqual({ echoRequest: 1 });
    });

    test("json: REST and job-interface problems echo the Authorization header in detail, errors and request", async () => {
      emu.setFaults({ echoRequest: "json" });
      for (const url of [`${emu.urls.restV2}/v2/serverless/nope/workers`, `${emu.urls.inference}/v2/nope/status/job1`]) {
        const res = await rest("GET", url, emu.apiKey);
        expect(res.status).toBe(404);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(res.body.detail).toMatch(/^Endpoint "nope" not found\./);
        expect(res.body.detail).toContain(`Bearer ${emu.apiKey}`);
        expect(res.body.errors.join(" ")).toContain(`Bearer ${emu.apiKey}`);
        expect(Object.values(res.body.request.headers)).toContain(`Bearer ${emu.apiKey}`);
      }
    });

    test("json: successful answers are untouched", async () => {
      emu.setFaults({ echoRequest: "json" });
      emu.resetStats();
      const res = await rest("GET", volumesUrl(), emu.apiKey);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(emu.apiKey);
      expect(emu.stats().faultsByKind).toEqual({});
    });

    test("text: error answers become a plain-text page with the request; GraphQL 200 errors stay JSON", async () => {
      emu.setFaults({ echoRequest: "text", errorRate: 1, match: ["listNetworkVolumes"] });
      const failed = await rest("GET", volumesUrl(), emu.apiKey);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(failed.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(failed.body).toContain(`Bearer ${emu.apiKey}`);
      emu.setFaults({ echoRequest: "text" });
      const unauthenticated = await gql(emu, `{ myself { id } }`, undefined, "rpa_wrong_key_echoed");
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body).toContain("api_key=rpa_wrong_key_echoed");
      const invalid = await gql(emu, SAVE, { input: { name: "echo", templateId: "tpl_vllm", gpuIds: "H100" } });
      expect(invalid.body.errors[0].message).toContain(keyInUrl());
    });

    test("match limits the echo to the listed operations", async () => {
      emu.setFaults({ echoRequest: "json", match: ["jobStatus"] });
      const res = await rest("GET", `${emu.urls.restV2}/v2/serverless/nope/workers`, emu.apiKey);
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(emu.apiKey);
    });
  });

  test("latencyMs delays matching requests", async () => {
    emu.setFaults({ latencyMs: 250, match: ["gpuTypes"] });
    const t0 = Date.now();
    await gql(emu, `{ gpuTypes { id } }`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
  });

  test("dropStreamAfterEvents destroys each log stream after N events", async () => {
    const ep = await createEndpoint(emu, { workersMin: 1 });
    const workers = await until(async () => {
      const r = await rest("GET", `${emu.urls.restV2}/v2/serverless/${ep.id}/workers`, emu.apiKey);
      return r.body.workers.length > 0 && r.body.workers;
    });
    const url = `${emu.urls.restV2}/v2/serverless/${ep.id}/workers/${workers[0].id}/logs?tail=2`;
    emu.setFaults({ dropStreamAfterEvents: 5 });
    emu.resetStats();
    const res = await readSse(url, emu.apiKey);
    expect(res.events).toHaveLength(5);
    expect(res.ended).toBe("error");
    expect(emu.stats().faultsByKind).toEqual({ dropStream: 1 });
    // Every connection gets its own budget; resuming continues where the dropped one stopped.
    const again = await readSse(url, emu.apiKey, { lastEventId: res.events[4].id });
    expect(again.events[0].seq).toBe(res.events[4].seq + 1);
    expect(again.events).toHaveLength(5);
    await gql(emu, SAVE, { input: { id: ep.id, name: "ep", templateId: "tpl_vllm", gpuIds: "AMPERE_24", workersMin: 0 } });
  });
});

describe("admin routes", () => {
  test("POST /faults sets the configuration; GET /faults shows it", async () => {
    const set = await rest("POST", `${emu.urls.admin}/faults`, undefined, { errorRate: 1, match: ["gpuTypes"], seed: 3 });
    expect(set.status).toBe(200);
    expect((await rest("GET", `${emu.urls.admin}/faults`, undefined)).body).toMatchObject({ errorRate: 1, match: ["gpuTypes"], seed: 3 });
    expect((await gql(emu, `{ gpuTypes { id } }`)).status).toBeGreaterThanOrEqual(500);
    await rest("POST", `${emu.urls.admin}/faults`, undefined, {});
    expect((await gql(emu, `{ gpuTypes { id } }`)).status).toBe(200);
  });

  test("an invalid fault configuration is 400 and leaves the old one", async () => {
    emu.setFaults({ latencyMs: 1 });
    const res = await rest("POST", `${emu.urls.admin}/faults`, undefined, { errorRate: 2, bogus: true });
    expect(res.status).toBe(400);
    expect(res.body.errors.join(" ")).toMatch(/errorRate/);
    expect((await rest("GET", `${emu.urls.admin}/faults`, undefined)).body.latencyMs).toBe(1);
    expect(() => emu.setFaults({ dropAfterRate: -1 })).toThrow(/dropAfterRate/);
  });

  test("GET /stats counts requests and operations; POST /stats/reset zeroes them; admin calls are not counted", async () => {
    await rest("POST", `${emu.urls.admin}/stats/reset`, undefined);
    await gql(emu, `{ myself { id } }`);
    await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey);
    await rest("GET", `${emu.urls.restV2}/v2/nothing-here`, emu.apiKey);
    const stats = (await rest("GET", `${emu.urls.admin}/stats`, undefined)).body;
    expect(stats).toEqual({ requests: 3, byOperation: { myself: 1, listNetworkVolumes: 1 }, faultsInjected: 0, faultsByKind: {}, rateLimited: 0 });
    expect(emu.stats()).toEqual(stats);
    const reset = await rest("POST", `${emu.urls.admin}/stats/reset`, undefined);
    expect(reset.body.requests).toBe(0);
  });

  test("faults given at start apply from the first request", async () => {
    const other = await start({ faults: { force429: 1 } });
    try {
      expect((await rest("GET", `${other.urls.restV2}/v2/network-volumes`, other.apiKey)).status).toBe(429);
      expect((await rest("GET", `${other.urls.restV2}/v2/network-volumes`, other.apiKey)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe("pauseIdleLogs", () => {
  test("idle workers write no periodic lines while set; they resume when it is cleared", async () => {
    const ep = await createEndpoint(emu, { name: "paused-logs", workersMin: 1 });
    const workers = await until(async () => {
      const res = await rest("GET", `${emu.urls.restV2}/v2/serverless/${ep.id}/workers`, emu.apiKey);
      return res.body.workers.length > 0 && res.body.workers;
    });
    const url = `${emu.urls.restV2}/v2/serverless/${ep.id}/workers/${workers[0].id}/logs?tail=5000`;
    // Events read until the stream has been quiet for 150 ms, or for 500 ms at most (a running worker never goes quiet).
    const count = async () => {
      const end = Date.now() + 500;
      const stop = new AbortController();
      const res = await fetch(url, { headers: { authorization: `Bearer ${emu.apiKey}` }, signal: stop.signal });
      const reader = res.body!.getReader();
      let text = "";
      for (;;) {
        let timer: NodeJS.Timeout | undefined;
        const quiet = new Promise<"quiet">((r) => (timer = setTimeout(() => r("quiet"), 150)));
        const chunk = await Promise.race([reader.read(), quiet]);
        clearTimeout(timer);
        if (chunk === "quiet" || chunk.done || Date.now() > end) break;
        text += Buffer.from(chunk.value).toString("utf8");
      }
      stop.abort();
      return text.split("\n").filter((l) => l.startsWith("data:")).length;
    };
    // Running: the history grows at the worker's interval (10 ms here).
    const first = await count();
    await until(async () => (await count()) > first);
    emu.setFaults({ pauseIdleLogs: true });
    const paused = await count();
    // Many intervals of wall time pass (each read waits out its idle time), and the history stands still.
    for (let i = 0; i < 3; i++) expect(await count()).toBe(paused);
    emu.setFaults({});
    await until(async () => (await count()) > paused);
  });
});
