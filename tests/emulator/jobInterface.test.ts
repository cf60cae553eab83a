/**
 * The job interface as the official clients use it (issue 15 §2; docs/spec/platform-clients.md): `runsync?wait=`,
 * `status-sync/{job}?wait=`, `stream/{job}` with partial outputs, `purge-queue`, `retry/{job}`, `health`, and result
 * retention after `/run` and `/runsync`.
 */
import type { RunningEmulator } from "../../emulator";
import { createEndpoint, rest, start, until } from "./harness";

const JOB_MS = 1600;
let emu: RunningEmulator;
let ep: any;
beforeAll(async () => {
  emu = await start({ jobDurationMs: JOB_MS, resultRetentionMs: { run: 1500, runsync: 400 } });
  // One worker, never more: a queue that waits past the scaler's delay on a loaded machine would otherwise start a
  // second one, which takes queued jobs (purge-queue) and shows in health.
  ep = await createEndpoint(emu, { name: "jobs-api", workersMin: 1, workersMax: 1 });
});
afterAll(() => emu.close());

const url = (endpointId: string, path: string) => `${emu.urls.inference}/v2/${endpointId}/${path}`;
const post = (endpointId: string, path: string, body?: unknown) => rest("POST", url(endpointId, path), emu.apiKey, body);
const get = (endpointId: string, path: string) => rest("GET", url(endpointId, path), emu.apiKey);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("runsync?wait and status-sync?wait", () => {
  test("runsync answers the unfinished job when wait runs out; status-sync waits for the final state", async () => {
    // The handler runs far longer than the wait, so the answer cannot be the finished job however late the wait's
    // timer fires on a loaded machine.
    const executionMs = 3 * JOB_MS;
    const t0 = Date.now();
    const sync = await post(ep.id, "runsync?wait=1000", { input: { q: 1, executionMs } });
    expect(Date.now() - t0).toBeLessThan(executionMs);
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ id: expect.stringMatching(/^sync-/), status: expect.stringMatching(/^IN_(QUEUE|PROGRESS)$/) });
    expect(sync.body.output).toBeUndefined();
    const done = await get(ep.id, `status-sync/${sync.body.id}?wait=${2 * executionMs}`);
    expect(done.body).toMatchObject({ id: sync.body.id, status: "COMPLETED", output: { echo: { q: 1, executionMs } } });
  });

  test("without wait, runsync waits for the result (the default 90 s covers it)", async () => {
    expect((await post(ep.id, "runsync", { input: { q: 2 } })).body).toMatchObject({ status: "COMPLETED", output: { echo: { q: 2 } } });
  });

  test("status-sync answers the current state when wait runs out", async () => {
    const job = await post(ep.id, "run", { input: { executionMs: 3 * JOB_MS } });
    const res = await get(ep.id, `status-sync/${job.body.id}?wait=1000`);
    expect(res.body.status).toMatch(/^IN_(QUEUE|PROGRESS)$/);
  });

  test.each(["999", "300001", "abc", "-5"])("wait=%s is 400 naming wait and its range", async (wait) => {
    for (const res of [await post(ep.id, `runsync?wait=${wait}`, { input: {} }), await get(ep.id, `status-sync/nope?wait=${wait}`)]) {
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(["wait: must be an integer number of milliseconds from 1000 to 300000"]);
    }
  });
});

describe("stream", () => {
  async function drain(endpointId: string, jobId: string) {
    const reads: any[] = [];
    for (;;) {
      const res = await get(endpointId, `stream/${jobId}`);
      expect(res.status).toBe(200);
      reads.push(res.body);
      if (["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"].includes(res.body.status) && res.body.stream.length === 0) return reads;
      await sleep(50);
    }
  }

  test("the image model streams progress chunks, then the image; each chunk is handed out once", async () => {
    const job = await post("flux-1-schnell", "run", { input: { prompt: "a lighthouse", width: 512, height: 512 } });
    const reads = await drain("flux-1-schnell", job.body.id);
    const outputs = reads.flatMap((r) => r.stream.map((c: any) => c.output));
    expect(outputs).toEqual([
      { progress: 0.25, step: 1, steps: 4 },
      { progress: 0.5, step: 2, steps: 4 },
      { progress: 0.75, step: 3, steps: 4 },
      { image_url: expect.stringContaining(job.body.id), width: 512, height: 512, cost: expect.any(Number) },
    ]);
    // Chunks appeared while the job ran, not all at the end.
    const firstChunkRead = reads.find((r) => r.stream.length > 0);
    expect(firstChunkRead.status).toBe("IN_PROGRESS");
    expect(reads.every((r) => r.id === job.body.id)).toBe(true);
  });

  test("an endpoint's echo handler streams its output as one chunk; a failed job streams nothing", async () => {
    const ok = await post(ep.id, "run", { input: { s: 1 } });
    expect((await drain(ep.id, ok.body.id)).flatMap((r) => r.stream)).toEqual([{ output: { echo: { s: 1 } } }]);
    const failed = await post(ep.id, "run", { input: { fail: true } });
    const reads = await drain(ep.id, failed.body.id);
    expect(reads.flatMap((r) => r.stream)).toEqual([]);
    expect(reads[reads.length - 1].status).toBe("FAILED");
  });
});

describe("purge-queue, retry, cancel, health", () => {
  test("purge-queue removes queued jobs only", async () => {
    // Long enough that the worker is still busy when the purge arrives, however slow the machine.
    const running = await post(ep.id, "run", { input: { keep: true, executionMs: 4 * JOB_MS } });
    await until(async () => (await get(ep.id, `status/${running.body.id}`)).body.status === "IN_PROGRESS");
    const queued = [await post(ep.id, "run", { input: { n: 1 } }), await post(ep.id, "run", { input: { n: 2 } })];
    const res = await post(ep.id, "purge-queue");
    expect(res.body).toEqual({ removed: 2, status: "completed" });
    for (const q of queued) expect((await get(ep.id, `status/${q.body.id}`)).status).toBe(404);
    expect((await get(ep.id, `status-sync/${running.body.id}?wait=${8 * JOB_MS}`)).body.status).toBe("COMPLETED");
    expect((await post(ep.id, "purge-queue")).body).toEqual({ removed: 0, status: "completed" });
  });

  test("retry re-queues a failed job; a handler that fails once then succeeds; health counts retried", async () => {
    const job = await post(ep.id, "run", { input: { fail: "once" } });
    const failed = await get(ep.id, `status-sync/${job.body.id}?wait=5000`);
    expect(failed.body).toMatchObject({ status: "FAILED", error: expect.stringMatching(/fail/) });
    expect((await post(ep.id, `retry/${job.body.id}`)).body).toEqual({ id: job.body.id, status: "IN_QUEUE" });
    expect((await get(ep.id, `status/${job.body.id}`)).body.status).toMatch(/^IN_/);
    expect((await get(ep.id, `status-sync/${job.body.id}?wait=5000`)).body).toMatchObject({ status: "COMPLETED", output: { echo: { fail: "once" } } });
    const again = await post(ep.id, `retry/${job.body.id}`);
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/is COMPLETED; only FAILED or TIMED_OUT jobs can be retried/);
    const health = await get(ep.id, "health");
    expect(health.body.jobs.retried).toBeGreaterThanOrEqual(1);
    expect(Object.keys(health.body.workers).sort()).toEqual(["idle", "initializing", "ready", "running", "throttled", "unhealthy"]);
    expect(health.body.workers.ready).toBe(1);
  });

  test("a cancelled job can be retried only if it failed; cancel answers the job", async () => {
    const job = await post(ep.id, "run", { input: {} });
    expect((await post(ep.id, `cancel/${job.body.id}`)).body).toEqual({ id: job.body.id, status: "CANCELLED" });
    expect((await post(ep.id, `retry/${job.body.id}`)).status).toBe(400);
  });
});

describe("execution time and executionTimeoutMs", () => {
  test("input.executionMs sets how long the echo handler runs; the endpoint's idle worker takes the job at once", async () => {
    const res = await post(ep.id, "runsync", { input: { executionMs: 100 } });
    expect(res.body).toMatchObject({ status: "COMPLETED", executionTime: 100, delayTime: expect.any(Number) });
    expect(res.body.delayTime).toBeLessThan(100);
  });

  test("a job running longer than the endpoint's executionTimeoutMs ends TIMED_OUT at the limit, and can be retried", async () => {
    const strict = await createEndpoint(emu, { name: "strict", executionTimeoutMs: 5000 });
    const job = await post(strict.id, "run", { input: { executionMs: 6000 } });
    const final = await get(strict.id, `status-sync/${job.body.id}?wait=20000`);
    expect(final.body).toMatchObject({ status: "TIMED_OUT", executionTime: 5000, error: expect.stringMatching(/timed out after 5000 ms/) });
    expect(final.body.output).toBeUndefined();
    expect((await get(strict.id, `stream/${job.body.id}`)).body).toEqual({ id: job.body.id, status: "TIMED_OUT", stream: [] });
    expect((await post(strict.id, `retry/${job.body.id}`)).body).toEqual({ id: job.body.id, status: "IN_QUEUE" });
  }, 30_000);

  test.each([0, 1.5, "long", 3_600_001])("input.executionMs %p is 400 naming it", async (executionMs) => {
    const res = await post(ep.id, "run", { input: { executionMs } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(["input.executionMs: must be an integer number of milliseconds from 1 to 3600000 (how long the echo handler runs)"]);
  });
});

describe("result retention", () => {
  test("a /runsync result is kept for the shorter window, a /run result for the longer one, then 404", async () => {
    const sync = await post(ep.id, "runsync", { input: {} });
    const async = await post(ep.id, "run", { input: {} });
    expect((await get(ep.id, `status-sync/${async.body.id}?wait=5000`)).body.status).toBe("COMPLETED");
    const finishedAt = Date.now();
    await sleep(Math.max(0, finishedAt + 500 - Date.now()));
    const gone = await get(ep.id, `status/${sync.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/results are kept 1500 ms after \/run and 400 ms after \/runsync/);
    expect((await get(ep.id, `status/${async.body.id}`)).body.status).toBe("COMPLETED");
    await sleep(Math.max(0, finishedAt + 1600 - Date.now()));
    expect((await get(ep.id, `status/${async.body.id}`)).status).toBe(404);
    expect((await get(ep.id, `stream/${async.body.id}`)).status).toBe(404);
  });

  test("stats name each job operation", async () => {
    emu.resetStats();
    const job = await post(ep.id, "run", { input: {} });
    await get(ep.id, `stream/${job.body.id}`);
    await get(ep.id, `status-sync/${job.body.id}?wait=1000`);
    await post(ep.id, `retry/${job.body.id}`);
    await post(ep.id, "purge-queue");
    expect(emu.stats().byOperation).toMatchObject({ run: 1, stream: 1, statusSync: 1, retry: 1, purgeQueue: 1 });
  });
});
