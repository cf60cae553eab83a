import type { RunningEmulator } from "../../emulator";
import { createEndpoint, rest, start, until } from "./harness";

let emu: RunningEmulator;
let qb: any;
beforeAll(async () => {
  // Long enough that polling every 5 ms observes IN_PROGRESS (half of the duration).
  emu = await start({ jobDurationMs: 400 });
  qb = await createEndpoint(emu, { name: "jobs" });
});
afterAll(() => emu.close());

const run = (endpointId: string, body: unknown, key = emu.apiKey, mode = "run") => rest("POST", `${emu.urls.inference}/v2/${endpointId}/${mode}`, key, body);
const status = (endpointId: string, jobId: string, key = emu.apiKey) => rest("GET", `${emu.urls.inference}/v2/${endpointId}/status/${jobId}`, key);

describe("queue-based endpoint jobs", () => {
  test("/run answers a job id at once; the job moves IN_QUEUE → IN_PROGRESS → COMPLETED", async () => {
    const res = await run(qb.id, { input: { prompt: "hi", n: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), status: "IN_QUEUE" });
    const seen: string[] = [];
    const final = await until(async () => {
      const s = (await status(qb.id, res.body.id)).body;
      if (seen[seen.length - 1] !== s.status) seen.push(s.status);
      return s.status === "COMPLETED" && s;
    }, 5);
    expect(seen[seen.length - 1]).toBe("COMPLETED");
    // States only move forward.
    const order = ["IN_QUEUE", "IN_PROGRESS", "COMPLETED"];
    expect([...seen].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(seen);
    expect(seen).toContain("IN_PROGRESS");
    expect(final).toMatchObject({
      id: res.body.id,
      output: { echo: { prompt: "hi", n: 2 } },
      delayTime: expect.any(Number),
      executionTime: expect.any(Number),
    });
  });

  test("/runsync waits and returns the output", async () => {
    const res = await run(qb.id, { input: { x: 1 } }, emu.apiKey, "runsync");
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^sync-/), status: "COMPLETED", output: { echo: { x: 1 } } });
  });

  test("input.fail = true ends FAILED with an error message", async () => {
    const res = await run(qb.id, { input: { fail: true } }, emu.apiKey, "runsync");
    expect(res.body).toMatchObject({ status: "FAILED", error: expect.stringMatching(/fail/) });
    expect(res.body.output).toBeUndefined();
    const async = await run(qb.id, { input: { fail: true } });
    const final = await until(async () => {
      const s = (await status(qb.id, async.body.id)).body;
      return s.status !== "IN_QUEUE" && s.status !== "IN_PROGRESS" && s;
    });
    expect(final.status).toBe("FAILED");
  });

  test("cancel stops an unfinished job; health counts jobs", async () => {
    const res = await run(qb.id, { input: {} });
    const cancelled = await rest("POST", `${emu.urls.inference}/v2/${qb.id}/cancel/${res.body.id}`, emu.apiKey);
    expect(cancelled.body).toEqual({ id: res.body.id, status: "CANCELLED" });
    expect((await status(qb.id, res.body.id)).body.status).toBe("CANCELLED");
    const health = await rest("GET", `${emu.urls.inference}/v2/${qb.id}/health`, emu.apiKey);
    expect(health.body.jobs).toMatchObject({ completed: expect.any(Number), failed: expect.any(Number) });
    expect(health.body.jobs.completed).toBeGreaterThanOrEqual(2);
    // workersMin is 0: the queue's first job started the one worker that has run every job since (none waited the queue delay).
    expect(health.body.workers).toEqual({ idle: 1, initializing: 0, ready: 1, running: 0, throttled: 0, unhealthy: 0 });
  });

  test("a body without an input object is 400 problem+json", async () => {
    for (const body of [{}, { input: "text" }, "[1,2"]) {
      const res = await run(qb.id, body);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
  });
});

describe("job isolation and refusal", () => {
  test("jobs on an unknown endpoint are 404", async () => {
    expect((await run("doesnotexist00", { input: {} })).status).toBe(404);
  });

  test("another user cannot run on, or read jobs of, my endpoint", async () => {
    expect((await run(qb.id, { input: {} }, emu.otherUserApiKey)).status).toBe(404);
    const mine = await run(qb.id, { input: {} });
    expect((await status(qb.id, mine.body.id, emu.otherUserApiKey)).status).toBe(404);
    expect((await status(qb.id, "unknown-job")).status).toBe(404);
  });

  test("a read-only key may poll but not submit", async () => {
    const res = await run(qb.id, { input: {} }, emu.readOnlyApiKey);
    expect(res.status).toBe(403);
    const mine = await run(qb.id, { input: {} });
    expect((await status(qb.id, mine.body.id, emu.readOnlyApiKey)).status).toBe(200);
  });

  test("a missing key is 401", async () => {
    const res = await rest("POST", `${emu.urls.inference}/v2/${qb.id}/run`, undefined, { input: {} });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  test("load-balancing endpoints refuse /run and /runsync with 400", async () => {
    const lb = await createEndpoint(emu, { type: "LB" });
    for (const mode of ["run", "runsync"]) {
      const res = await run(lb.id, { input: {} }, emu.apiKey, mode);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/load-balancing/);
    }
  });
});

describe("public image model", () => {
  test("/runsync returns output.image_url that serves a PNG, and a usage cost", async () => {
    const res = await run("flux-1-schnell", { input: { prompt: "a red fox", width: 512, height: 768 } }, emu.apiKey, "runsync");
    expect(res.body).toMatchObject({
      status: "COMPLETED",
      output: { image_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/.+\.png$/), width: 512, height: 768 },
    });
    expect(res.body.output.cost).toBeCloseTo(0.512 * 0.768 * 0.0024, 6);
    const image = await fetch(res.body.output.image_url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  test("/run then status reaches COMPLETED with image_url", async () => {
    const res = await run("flux-1-dev", { input: { prompt: "a boat" } });
    const final = await until(async () => {
      const s = (await status("flux-1-dev", res.body.id)).body;
      return s.status === "COMPLETED" && s;
    });
    expect(final.output).toMatchObject({ image_url: expect.stringContaining(res.body.id), width: 1024, height: 1024 });
  });

  test.each([
    [{ width: 512, height: 512 }, /prompt/],
    [{ prompt: "", width: 512, height: 512 }, /prompt/],
    [{ prompt: "x", width: 100, height: 512 }, /width/],
    [{ prompt: "x", width: 512, height: 512.5 }, /height/],
    [{ prompt: "x", width: "512", height: 512 }, /width/],
  ])("invalid input %j is 400 naming the field", async (input, pattern) => {
    const res = await run("flux-1-schnell", { input }, emu.apiKey, "runsync");
    expect(res.status).toBe(400);
    expect(res.body.errors.join(" ")).toMatch(pattern);
  });

  test("image URLs of unknown jobs are 404", async () => {
    expect((await fetch(`${emu.urls.inference}/images/nope.png`)).status).toBe(404);
  });
});
