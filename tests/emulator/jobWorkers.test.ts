/**
 * Jobs run on workers (issue 40, item 1; docs/emulator.md › Jobs run on workers): a job stays IN_QUEUE until a READY
 * worker of its endpoint with no job takes it, its time counts from then, the queue makes the scaler start workers
 * (QUEUE_DELAY, REQUEST_COUNT) up to workers.max, idle ones stop after the idle timeout, and a job on an endpoint whose
 * workers cannot start (`failingImages`) stays queued until its TTL. The job policy is validated and honoured.
 */
import type { RunningEmulator } from "../../emulator";
import { rest, start, until } from "./harness";

const WORKER_START_MS = 300;
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start({ workerStartMs: WORKER_START_MS, jobDurationMs: 200, logIntervalMs: 1000 });
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

interface AdminWorker {
  id: string;
  status: string;
  createdAt: string;
  imageName: string;
  jobsInProgress: number;
}

async function endpoint(body: Record<string, unknown>): Promise<string> {
  const res = await rest("POST", `${emu.urls.restV2}/v2/serverless`, emu.apiKey, {
    name: "jobs-on-workers",
    type: "QUEUE",
    image: "acme/jobs:1",
    gpu: { pools: ["ADA_24"] },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.id;
}
const workers = async (id: string): Promise<AdminWorker[]> => (await rest("GET", `${emu.urls.admin}/workers?endpoint=${id}`, undefined)).body;
const run = (id: string, body: unknown) => rest("POST", `${emu.urls.inference}/v2/${id}/run`, emu.apiKey, body);
const status = (id: string, job: string) => rest("GET", `${emu.urls.inference}/v2/${id}/status/${job}`, emu.apiKey);
const finalOf = async (id: string, job: string, wait = 20_000) =>
  (await rest("GET", `${emu.urls.inference}/v2/${id}/status-sync/${job}?wait=${wait}`, emu.apiKey)).body;

test("with workers.min 0 a job waits IN_QUEUE while the worker the queue started boots; its time counts from the take", async () => {
  const id = await endpoint({ workers: { min: 0, max: 2 } });
  expect(await workers(id)).toEqual([]);
  const job = (await run(id, { input: { executionMs: 200 } })).body;
  expect((await status(id, job.id)).body).toEqual({ id: job.id, status: "IN_QUEUE" });
  const started = await workers(id);
  expect(started.map((w) => w.status)).toEqual(["INITIALIZING"]);
  const done = await finalOf(id, job.id);
  expect(done).toMatchObject({ status: "COMPLETED", workerId: started[0].id, executionTime: 200 });
  expect(done.delayTime).toBeGreaterThanOrEqual(WORKER_START_MS - 10);
});

test("a worker runs one job at a time; jobs waiting past queueDelay make the scaler add workers, never beyond workers.max", async () => {
  const id = await endpoint({ workers: { min: 1, max: 2 }, scaling: { type: "QUEUE_DELAY", queueDelay: 0.5 } });
  await until(async () => (await workers(id)).some((w) => w.status === "READY"));
  const t0 = Date.now();
  const jobs: string[] = [];
  for (let i = 0; i < 3; i++) jobs.push((await run(id, { input: { i, executionMs: 1500 } })).body.id);
  const seen = await Promise.all(jobs.map(async (j) => (await status(id, j)).body.status));
  expect(seen.filter((s) => s === "IN_PROGRESS")).toHaveLength(1);
  expect(seen.filter((s) => s === "IN_QUEUE")).toHaveLength(2);
  const most = { count: 0 };
  const finals = await Promise.all(
    jobs.map(async (j) => {
      const f = await finalOf(id, j);
      most.count = Math.max(most.count, (await workers(id)).length);
      return f;
    }),
  );
  expect(finals.map((f) => f.status)).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);
  const list = await workers(id);
  expect(list).toHaveLength(2);
  expect(most.count).toBeLessThanOrEqual(2);
  // The second worker was started only once a job had waited the queue delay.
  const second = list.map((w) => Date.parse(w.createdAt)).sort((a, b) => a - b)[1];
  expect(second).toBeGreaterThanOrEqual(t0 + 500 - 5);
  // Three jobs on two workers: one of them waited for a worker to finish a job.
  expect(Math.max(...finals.map((f) => f.delayTime))).toBeGreaterThanOrEqual(1000);
});

test("REQUEST_COUNT starts a worker per requestCount jobs at once; low-priority jobs start none; idle workers stop after idleTimeout", async () => {
  const id = await endpoint({ workers: { min: 0, max: 3 }, scaling: { type: "REQUEST_COUNT", requestCount: 1 } });
  const low = (await run(id, { input: { low: true }, policy: { lowPriority: true } })).body.id;
  expect(await workers(id)).toEqual([]);
  expect((await status(id, low)).body.status).toBe("IN_QUEUE");
  const a = (await run(id, { input: { a: 1 } })).body.id;
  const b = (await run(id, { input: { b: 1 } })).body.id;
  expect(await workers(id)).toHaveLength(2);
  const finals = await Promise.all([low, a, b].map((j) => finalOf(id, j)));
  expect(finals.map((f) => f.status)).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);

  // The v2 document's idleTimeout does not apply to REQUEST_COUNT on queue endpoints; GraphQL's (5 s default) does.
  const idle = await endpoint({ workers: { min: 0, max: 1, idleTimeout: 1 } });
  const job = (await run(idle, { input: {} })).body.id;
  expect((await finalOf(idle, job)).status).toBe("COMPLETED");
  const doneAt = Date.now();
  expect(await workers(idle)).toHaveLength(1);
  await until(async () => (await workers(idle)).length === 0);
  expect(Date.now() - doneAt).toBeGreaterThanOrEqual(900);
});

test("on an endpoint whose workers cannot start, a job stays IN_QUEUE while the scaler starts workers up to workers.max, until its TTL", async () => {
  emu.setFaults({ failingImages: ["acme/broken:1"] });
  const id = await endpoint({ image: "acme/broken:1", workers: { min: 0, max: 2 }, scaling: { type: "QUEUE_DELAY", queueDelay: 0.5 } });
  const submitted = Date.now();
  const job = (await run(id, { input: {}, policy: { ttl: 10_000 } })).body.id;
  const failing = (await until(async () => {
    const list = await workers(id);
    return list.length === 2 && list.some((w) => w.status === "UNHEALTHY") && list;
  })) as AdminWorker[];
  expect(failing.every((w) => w.imageName === "acme/broken:1" && w.jobsInProgress === 0)).toBe(true);
  expect((await status(id, job)).body).toEqual({ id: job, status: "IN_QUEUE" });
  const health = (await rest("GET", `${emu.urls.inference}/v2/${id}/health`, emu.apiKey)).body;
  expect(health.jobs).toMatchObject({ inQueue: 1, inProgress: 0, completed: 0 });
  expect(health.workers.ready).toBe(0);

  // status-sync is woken by the expiry: the job is gone.
  const gone = await rest("GET", `${emu.urls.inference}/v2/${id}/status-sync/${job}?wait=30000`, emu.apiKey);
  expect(gone.status).toBe(404);
  expect(Date.now() - submitted).toBeGreaterThanOrEqual(10_000);
  // Nothing is queued any more: the failing workers are stopped.
  await until(async () => (await workers(id)).length === 0);
}, 40_000);

test("the job policy is validated naming the field; policy.executionTimeout cuts the handler from when a worker took the job", async () => {
  const id = await endpoint({ workers: { min: 1, max: 1 } });
  const bad: [unknown, string][] = [
    [{ ttl: 5000 }, "policy.ttl: must be an integer number of milliseconds from 10000 to 604800000"],
    [{ executionTimeout: "long" }, "policy.executionTimeout: must be an integer number of milliseconds from 5000 to 604800000"],
    [{ lowPriority: "yes" }, "policy.lowPriority: must be true or false"],
    [7, "policy: Expected object, received number"],
  ];
  for (const [policy, error] of bad) {
    const res = await run(id, { input: {}, policy });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([error]);
  }
  const job = (await run(id, { input: { executionMs: 6000 }, policy: { executionTimeout: 5000 } })).body.id;
  const final = await finalOf(id, job);
  expect(final).toMatchObject({
    status: "TIMED_OUT",
    executionTime: 5000,
    error: expect.stringMatching(/after 5000 ms \(the job's policy\.executionTimeout\)/),
  });
}, 30_000);
