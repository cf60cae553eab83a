import type { RunningEmulator } from "../../emulator";
import { createEndpoint, gql, readSse, rest, SAVE, start, until, type SseEvent } from "./harness";

let emu: RunningEmulator;
/** A worker that ran long enough to log over 130 lines, then was stopped: its history is frozen. */
let frozen: { url: string; history: SseEvent[] };
/** A worker that keeps running. */
let live: { url: string };

async function firstWorker(endpointId: string): Promise<string> {
  const list = await until(async () => {
    const res = await rest("GET", `${emu.urls.restV2}/v2/serverless/${endpointId}/workers`, emu.apiKey);
    return res.body.workers.length > 0 && res.body.workers;
  });
  return list[0].id;
}

beforeAll(async () => {
  emu = await start({ logIntervalMs: 5 });
  const stopped = await createEndpoint(emu, { name: "frozen", workersMin: 1 });
  const stoppedUrl = `${emu.urls.restV2}/v2/serverless/${stopped.id}/workers/${await firstWorker(stopped.id)}/logs`;
  await readSse(`${stoppedUrl}?tail=5000`, emu.apiKey, { stopWhen: (e) => e.length >= 130 });
  await gql(emu, SAVE, { input: { id: stopped.id, name: "frozen", templateId: "tpl_vllm", gpuIds: "AMPERE_24", workersMin: 0 } });
  const all = await readSse(`${stoppedUrl}?tail=5000`, emu.apiKey);
  frozen = { url: stoppedUrl, history: all.events };

  const running = await createEndpoint(emu, { name: "live", workersMin: 1 });
  live = { url: `${emu.urls.restV2}/v2/serverless/${running.id}/workers/${await firstWorker(running.id)}/logs` };
});
afterAll(() => emu.close());

describe("log stream format", () => {
  test("answers 200 with the three headers and text/event-stream", async () => {
    const res = await readSse(`${live.url}?tail=1`, emu.apiKey, { stopWhen: (e) => e.length >= 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("connection")).toBe("keep-alive");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
  });

  test("ids are <ts>/<12-digit sequence> and data carries ts, source, line", () => {
    const h = frozen.history;
    expect(h.length).toBeGreaterThanOrEqual(130);
    for (const e of h) {
      expect(e.id).toBe(`${e.ts}/${String(e.seq).padStart(12, "0")}`);
      expect(e.id).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\/\d{12}$/);
      expect(["container", "system"]).toContain(e.source);
      expect(typeof e.line).toBe("string");
    }
    // Sequence numbers are consecutive, so the whole history was delivered in order.
    h.forEach((e, i) => expect(e.seq).toBe(h[0].seq + i));
    expect(new Set(h.map((e) => e.source))).toEqual(new Set(["container", "system"]));
  });

  test("a stopped worker's stream ends after the backfill", async () => {
    const res = await readSse(`${frozen.url}?tail=5`, emu.apiKey);
    expect(res.ended).toBe("end");
  });
});

describe("start point resolution", () => {
  const h = () => frozen.history;

  test("tail defaults to 100", async () => {
    const res = await readSse(frozen.url, emu.apiKey);
    expect(res.events).toEqual(h().slice(-100));
  });

  test("tail=N backfills the last N lines", async () => {
    expect((await readSse(`${frozen.url}?tail=7`, emu.apiKey)).events).toEqual(h().slice(-7));
  });

  test("tail=0 sends no backfill", async () => {
    const res = await readSse(`${frozen.url}?tail=0`, emu.apiKey);
    expect(res.events).toEqual([]);
    expect(res.ended).toBe("end");
  });

  test("since backfills the lines at or after that instant and ignores tail", async () => {
    const pivot = h()[40];
    const res = await readSse(`${frozen.url}?tail=1&since=${encodeURIComponent(pivot.ts)}`, emu.apiKey);
    expect(res.events).toEqual(h().filter((e) => Date.parse(e.ts) >= Date.parse(pivot.ts)));
    expect(res.events.length).toBeGreaterThan(1);
  });

  test("since accepts an RFC 3339 offset", async () => {
    const pivot = h()[60];
    const d = new Date(Date.parse(pivot.ts));
    // Same instant written with a +02:00 offset.
    const shifted = new Date(d.getTime() + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    const res = await readSse(`${frozen.url}?since=${encodeURIComponent(shifted)}`, emu.apiKey);
    expect(res.events[0]).toEqual(h().find((e) => Date.parse(e.ts) >= d.getTime()));
  });

  test("Last-Event-ID resumes right after that event and beats since and tail", async () => {
    const cursor = h()[20];
    const res = await readSse(`${frozen.url}?tail=3&since=${encodeURIComponent(h()[100].ts)}`, emu.apiKey, { lastEventId: cursor.id });
    expect(res.events).toEqual(h().slice(21));
  });

  test("Last-Event-ID given as a bare timestamp resumes after that instant", async () => {
    const cursor = h()[30];
    const res = await readSse(frozen.url, emu.apiKey, { lastEventId: cursor.ts });
    expect(res.events).toEqual(h().filter((e) => Date.parse(e.ts) > Date.parse(cursor.ts)));
  });

  test("source filters the backfill", async () => {
    const system = await readSse(`${frozen.url}?tail=5000&source=system`, emu.apiKey);
    expect(system.events).toEqual(h().filter((e) => e.source === "system"));
    const container = await readSse(`${frozen.url}?tail=4&source=container`, emu.apiKey);
    expect(container.events).toEqual(
      h()
        .filter((e) => e.source === "container")
        .slice(-4),
    );
  });
});

describe("live streaming", () => {
  test("backfill precedes live lines, without gaps or repeats", async () => {
    const res = await readSse(`${live.url}?tail=5`, emu.apiKey, { stopWhen: (e) => e.length >= 15 });
    expect(res.events.length).toBeGreaterThanOrEqual(15);
    res.events.forEach((e, i) => expect(e.seq).toBe(res.events[0].seq + i));
  });

  test("tail=0 streams only lines logged after connecting", async () => {
    await readSse(`${live.url}?tail=1`, emu.apiKey, { stopWhen: (e) => e.length >= 1 });
    const before = Date.now();
    const res = await readSse(`${live.url}?tail=0`, emu.apiKey, { stopWhen: (e) => e.length >= 3 });
    expect(res.events.length).toBeGreaterThanOrEqual(3);
    for (const e of res.events) expect(Date.parse(e.ts)).toBeGreaterThanOrEqual(before);
  });

  test("source=container streams only container lines live", async () => {
    const res = await readSse(`${live.url}?tail=0&source=container`, emu.apiKey, { stopWhen: (e) => e.length >= 6 });
    expect(res.events.every((e) => e.source === "container")).toBe(true);
  });

  test("reconnecting with Last-Event-ID continues with the next line", async () => {
    const first = await readSse(`${live.url}?tail=3`, emu.apiKey, { stopWhen: (e) => e.length >= 3 });
    const last = first.events[2];
    const again = await readSse(`${live.url}?tail=100`, emu.apiKey, { lastEventId: last.id, stopWhen: (e) => e.length >= 1 });
    expect(again.events[0].seq).toBe(last.seq + 1);
  });

  test("lowering workersMin stops the worker and ends its stream with a system line", async () => {
    const ep = await createEndpoint(emu, { workersMin: 1 });
    const workerId = await firstWorker(ep.id);
    const url = `${emu.urls.restV2}/v2/serverless/${ep.id}/workers/${workerId}/logs?tail=0`;
    let connected = false;
    const reading = readSse(url, emu.apiKey, { stopWhen: (e) => ((connected ||= e.length > 0), false) });
    await until(() => connected);
    await gql(emu, SAVE, { input: { id: ep.id, name: "ep", templateId: "tpl_vllm", gpuIds: "AMPERE_24", workersMin: 0 } });
    const res = await reading;
    expect(res.ended).toBe("end");
    expect(res.events[res.events.length - 1]).toMatchObject({ source: "system", line: expect.stringMatching(/stopping/) });
    expect((await rest("GET", `${emu.urls.restV2}/v2/serverless/${ep.id}/workers`, emu.apiKey)).body.workers).toEqual([]);
  });
});

describe("log stream errors", () => {
  test.each([
    ["tail=5001", /tail/],
    ["tail=-1", /tail/],
    ["tail=ten", /tail/],
    ["source=stdout", /source.*container, system/],
    ["since=yesterday", /since/],
  ])("%s is 400 problem+json with errors[]", async (query, pattern) => {
    const res = await readSse(`${frozen.url}?${query}`, emu.apiKey);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body).toMatchObject({ title: "Bad Request", status: 400, detail: expect.any(String) });
    expect(res.body.errors.join(" ")).toMatch(pattern);
  });

  test("tail=5000 is accepted", async () => {
    expect((await readSse(`${frozen.url}?tail=5000`, emu.apiKey)).status).toBe(200);
  });

  test("a malformed Last-Event-ID is 400", async () => {
    const res = await readSse(frozen.url, emu.apiKey, { lastEventId: "not-a-cursor" });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatch(/Last-Event-ID/);
  });

  test("another user's endpoint is 404; an unknown worker is 404", async () => {
    expect((await readSse(frozen.url, emu.otherUserApiKey)).status).toBe(404);
    expect((await readSse(frozen.url.replace(/workers\/[^/]+/, "workers/nosuchworker000"), emu.apiKey)).status).toBe(404);
  });

  test("a missing key is 401", async () => {
    const res = await fetch(frozen.url);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});
