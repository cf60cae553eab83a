/**
 * The `failingImages` fault (issue 30, item 1): workers of a release whose image is listed fail to start. They cycle
 * INITIALIZING → UNHEALTHY → restarted and log why; the previous release's worker keeps serving every job sent
 * meanwhile; the releases' rollout summary says the rollout is still in progress; the previous image put back rolls to
 * healthy workers; a cleared fault lets the image start. Over real HTTP, on both the REST v2 and the GraphQL path.
 */
import type { RunningEmulator } from "../../emulator";
import { createEndpoint, createTemplate, readSse, rest, saveTemplate, start, until, type SseEvent } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start({ workerStartMs: 100, jobDurationMs: 200, logIntervalMs: 50 });
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

interface V2Worker {
  id: string;
  status: string;
  isStale: boolean;
  version: number;
  image: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const v2 = (path: string) => `${emu.urls.restV2}/v2/serverless${path}`;
const listing = async (endpointId: string) => (await rest("GET", v2(`/${endpointId}/workers`), emu.apiKey)).body;
const releases = async (endpointId: string) => (await rest("GET", v2(`/${endpointId}/releases`), emu.apiKey)).body;

/** Wait until the endpoint runs exactly one worker, ready (IDLE or RUNNING), on `image` and the current version. */
async function oneHealthyWorker(endpointId: string, image: string): Promise<V2Worker> {
  const worker = await until(async () => {
    const { workers, endpointVersion } = await listing(endpointId);
    const [w] = workers as V2Worker[];
    return workers.length === 1 && ["IDLE", "RUNNING"].includes(w.status) && w.image === image && w.version === endpointVersion && !w.isStale && w;
  });
  return worker as V2Worker;
}

/** The endpoint's worker running `image` once it exists (the replacement a release starts). */
async function workerOn(endpointId: string, image: string): Promise<V2Worker> {
  const worker = await until(async () => ((await listing(endpointId)).workers as V2Worker[]).find((w) => w.image === image));
  return worker!;
}

/** Follow a worker's log stream until it shows `failures` failed starts; returns what it read. */
async function failedStarts(endpointId: string, workerId: string, failures: number): Promise<SseEvent[]> {
  const res = await readSse(v2(`/${endpointId}/workers/${workerId}/logs?tail=5000`), emu.apiKey, {
    stopWhen: (events) => events.some((e) => e.line.includes(`failed start ${failures})`)),
  });
  expect(res.status).toBe(200);
  return res.events;
}

/** A stopped worker's whole log (the stream ends with the worker's history). */
async function wholeLog(endpointId: string, workerId: string): Promise<SseEvent[]> {
  const res = await readSse(v2(`/${endpointId}/workers/${workerId}/logs?tail=5000`), emu.apiKey);
  expect(res.ended).toBe("end");
  return res.events;
}

interface Job {
  id: string;
  /** Whether it was sent while the new release's workers were failing. */
  duringFailure: boolean;
  final?: { status: string; workerId?: string };
}

/**
 * Jobs sent through /run one after another until stopped, each polled to its final state before the next is sent
 * (one job at a time keeps the old worker busy without a queue for the scaler to add workers for). `sent(n)` waits
 * for n more jobs to be accepted, so the phases of a test are counted in jobs, not in wall time.
 */
function sendJobs(endpointId: string) {
  const jobs: Job[] = [];
  const polls: Promise<void>[] = [];
  let failing = false;
  let sending = true;
  const sender = (async () => {
    while (sending) {
      const res = await rest("POST", `${emu.urls.inference}/v2/${endpointId}/run`, emu.apiKey, { input: { n: jobs.length } });
      expect(res.status).toBe(200);
      const job: Job = { id: res.body.id, duringFailure: failing };
      jobs.push(job);
      const poll = (async () => {
        for (;;) {
          const s = await rest("GET", `${emu.urls.inference}/v2/${endpointId}/status/${job.id}`, emu.apiKey);
          if (!["IN_QUEUE", "IN_PROGRESS"].includes(s.body.status)) return void (job.final = s.body);
          await sleep(25);
        }
      })();
      polls.push(poll);
      await poll;
    }
  })();
  return {
    jobs,
    failing: (on: boolean) => void (failing = on),
    sent: async (n: number) => {
      const target = jobs.length + n;
      while (jobs.length < target) await sleep(10);
    },
    /** Stop sending and wait for every job's final state. */
    stop: async () => {
      sending = false;
      await sender;
      await Promise.all(polls);
      return jobs;
    },
  };
}

/** Every job sent was answered (COMPLETED) by a worker; the ones sent during the failure by the old worker. */
function expectAllAnswered(jobs: Job[], oldWorkerId: string, failingIds: string[]): void {
  const answered = jobs.filter((j) => j.final?.status === "COMPLETED" && j.final.workerId !== undefined);
  expect(answered.length).toBe(jobs.length);
  const during = jobs.filter((j) => j.duringFailure);
  expect(during.length).toBeGreaterThanOrEqual(3);
  for (const j of during) expect(j.final!.workerId).toBe(oldWorkerId);
  for (const j of jobs) expect(failingIds).not.toContain(j.final!.workerId);
}

test("the fault's entries are validated: an unknown failure kind is refused naming the field", async () => {
  const res = await rest("POST", `${emu.urls.admin}/faults`, undefined, { failingImages: [{ image: "acme/x:1", failure: "boom" }] });
  expect(res.status).toBe(400);
  expect(JSON.stringify(res.body)).toMatch(/failingImages/);
  const ok = await rest("POST", `${emu.urls.admin}/faults`, undefined, { failingImages: ["acme/x:1", { image: "acme/y:1", failure: "pull" }] });
  expect(ok.status).toBe(200);
  expect(ok.body.failingImages).toEqual(["acme/x:1", { image: "acme/y:1", failure: "pull" }]);
});

test("REST v2: a bad image's workers crash-loop UNHEALTHY while the old worker answers every job; the old image put back rolls to health; a cleared fault lets the image start", async () => {
  const created = await rest("POST", v2(""), emu.apiKey, {
    name: "failing-v2",
    image: "acme/app:1",
    type: "QUEUE",
    gpu: { pools: ["ADA_24"] },
    workers: { min: 1, max: 2 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  });
  expect(created.status).toBe(201);
  const id = created.body.id;
  const old = await oneHealthyWorker(id, "acme/app:1");
  expect(old.version).toBe(1);

  emu.setFaults({ failingImages: ["acme/app:2"] });
  const traffic = sendJobs(id);
  await traffic.sent(2);
  traffic.failing(true);
  expect((await rest("PATCH", v2(`/${id}`), emu.apiKey, { image: "acme/app:2" })).status).toBe(200);
  const bad = await workerOn(id, "acme/app:2");
  expect(bad.version).toBe(2);

  // The worker's log says why, once per failed start, and that it restarts.
  const log = await failedStarts(id, bad.id, 2);
  const lines = log.map((e) => `${e.source}: ${e.line}`);
  expect(lines).toContain("container: handler failed to start: process exited with code 1");
  expect(lines).toContain("system: container exited with code 1 during startup");
  expect(lines.some((l) => /^system: restarting container \(restart 1\)/.test(l))).toBe(true);
  expect(lines).not.toContain("system: worker is ready");

  // The listing shows it UNHEALTHY between restarts; the old worker stays, stale, and serves.
  const failingView = await until(async () => {
    const view = await listing(id);
    return view.workers.some((w: V2Worker) => w.id === bad.id && w.status === "UNHEALTHY") && view;
  });
  expect(failingView.endpointVersion).toBe(2);
  expect(failingView.summary).toMatchObject({ unhealthy: 1, total: 2 });
  expect(failingView.workers.find((w: V2Worker) => w.id === old.id)).toMatchObject({ isStale: true, version: 1, image: "acme/app:1" });
  expect(["IDLE", "RUNNING"]).toContain(failingView.workers.find((w: V2Worker) => w.id === old.id).status);
  const health = (await rest("GET", `${emu.urls.inference}/v2/${id}/health`, emu.apiKey)).body;
  expect(health.workers.ready).toBe(1);

  // Releases: the new one exists, but its worker failing to start runs nothing (issue 40); the rollout is not over.
  const during = await releases(id);
  expect(during.endpointVersion).toBe(2);
  expect(during.rollout).toEqual({ inProgress: true, workersOnLatest: 0, workersTotal: 2, percentOnLatest: 0 });
  expect(during.releases.map((r: any) => [r.version, r.workerCount])).toEqual([
    [2, 0],
    [1, 1],
  ]);
  expect(during.releases[0].diff).toContainEqual({ field: "image", old: "acme/app:1", new: "acme/app:2" });

  await traffic.sent(4);
  traffic.failing(false);
  // Putting the previous image back is a new release; its worker starts and replaces both.
  expect((await rest("PATCH", v2(`/${id}`), emu.apiKey, { image: "acme/app:1" })).status).toBe(200);
  const restored = await oneHealthyWorker(id, "acme/app:1");
  expect(restored.version).toBe(3);
  expect([old.id, bad.id]).not.toContain(restored.id);
  await traffic.sent(2);
  const jobs = await traffic.stop();
  expectAllAnswered(jobs, old.id, [bad.id]);
  expect((await releases(id)).rollout).toEqual({ inProgress: false, workersOnLatest: 1, workersTotal: 1, percentOnLatest: 100 });
  // The failed worker was stopped, never having been ready; its log stays readable.
  const badLog = (await wholeLog(id, bad.id)).map((e) => e.line);
  expect(badLog).not.toContain("worker is ready");
  expect(badLog[badLog.length - 1]).toMatch(/^worker stopping: /);

  // Cleared, the same image starts in a later release.
  emu.setFaults({ failingImages: [] });
  expect((await rest("PATCH", v2(`/${id}`), emu.apiKey, { image: "acme/app:2" })).status).toBe(200);
  const fixed = await oneHealthyWorker(id, "acme/app:2");
  expect(fixed.version).toBe(4);
  expect((await wholeLog(id, restored.id)).map((e) => e.line)).toContain("worker stopping: drained");
});

test("GraphQL: a template save to an image that cannot be pulled leaves the old worker serving; the template saved back rolls to health", async () => {
  const template = await createTemplate(emu, { imageName: "acme/tpl:1" });
  const ep = await createEndpoint(emu, { name: "failing-gql", templateId: template.id, workersMin: 1, workersMax: 2 });
  const old = await oneHealthyWorker(ep.id, "acme/tpl:1");

  emu.setFaults({ failingImages: [{ image: "acme/tpl:2", failure: "pull" }] });
  const traffic = sendJobs(ep.id);
  await traffic.sent(2);
  traffic.failing(true);
  expect((await saveTemplate(emu, { ...template, imageName: "acme/tpl:2" })).body.errors).toBeUndefined();
  const bad = await workerOn(ep.id, "acme/tpl:2");
  const lines = (await failedStarts(ep.id, bad.id, 2)).map((e) => `${e.source}: ${e.line}`);
  expect(lines).toContain("system: image pull failed: acme/tpl:2: manifest unknown (no such tag or digest in the registry)");
  expect(lines.some((l) => l.startsWith("container: "))).toBe(false);
  expect((await releases(ep.id)).rollout).toMatchObject({ inProgress: true, workersOnLatest: 0, workersTotal: 2 });
  await traffic.sent(4);
  traffic.failing(false);

  expect((await saveTemplate(emu, { ...template, imageName: "acme/tpl:1" })).body.errors).toBeUndefined();
  const restored = await oneHealthyWorker(ep.id, "acme/tpl:1");
  expect([old.id, bad.id]).not.toContain(restored.id);
  await traffic.sent(2);
  expectAllAnswered(await traffic.stop(), old.id, [bad.id]);
  expect((await releases(ep.id)).rollout.inProgress).toBe(false);
});

test("clearing the fault while a worker fails lets it start on its next restart, and the rollout completes", async () => {
  const template = await createTemplate(emu, { imageName: "acme/late:1" });
  const ep = await createEndpoint(emu, { name: "failing-cleared", templateId: template.id, workersMin: 1, workersMax: 2 });
  const old = await oneHealthyWorker(ep.id, "acme/late:1");
  emu.setFaults({ failingImages: [{ image: "acme/late:2", exitCode: 137 }] });
  await saveTemplate(emu, { ...template, imageName: "acme/late:2" });
  const bad = await workerOn(ep.id, "acme/late:2");
  const lines = (await failedStarts(ep.id, bad.id, 1)).map((e) => e.line);
  expect(lines).toContain("container exited with code 137 during startup");
  emu.setFaults({});
  // The same worker becomes ready (no new release), and the old one is drained.
  expect((await oneHealthyWorker(ep.id, "acme/late:2")).id).toBe(bad.id);
  expect((await wholeLog(ep.id, old.id)).map((e) => e.line)).toContain("worker stopping: drained");
});
