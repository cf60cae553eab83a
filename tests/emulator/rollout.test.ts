/**
 * Rollout of a template change onto the workers of its endpoints (issue 14, Emulator and "Rollout under load"):
 * replacements start first, old workers drain (finish their jobs, take no new ones) and stop once replacements are
 * READY. While jobs keep the endpoint's workers busy through the job interface, every job completes on the worker it
 * started on and the endpoint never has fewer READY workers than workersMin. Checked by polling the worker listing.
 */
import type { RunningEmulator } from "../../emulator";
import { createEndpoint, createTemplate, gql, rest, SAVE, saveTemplate, start, until } from "./harness";

const WORKER_START_MS = 200;
const JOB_DURATION_MS = 500;

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start({ workerStartMs: WORKER_START_MS, jobDurationMs: JOB_DURATION_MS, logIntervalMs: 50 });
});
afterAll(() => emu.close());

interface Worker {
  id: string;
  status: string;
  imageName: string;
  templateId: string;
  templateVersion: number;
  jobsInProgress: number;
}

const listWorkers = async (endpointId: string): Promise<Worker[]> =>
  // The simulator's own view (READY/DRAINING, template version); REST v2's listing is tested in v2Endpoints.test.ts.
  (await rest("GET", `${emu.urls.admin}/workers?endpoint=${endpointId}`, undefined)).body;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll the worker listing until stopped; every snapshot keeps its time. */
function watchWorkers(endpointId: string) {
  const snapshots: { at: number; workers: Worker[] }[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const workers = await listWorkers(endpointId);
      snapshots.push({ at: Date.now(), workers });
      await sleep(15);
    }
  })();
  return {
    snapshots,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

interface JobTrace {
  id: string;
  final?: any;
  /** Observations while IN_PROGRESS: time and worker. */
  running: { at: number; workerId?: string }[];
}

/**
 * Keep `inFlight` jobs unfinished through /run while `during` runs (a worker runs one job at a time, so as many as
 * workersMin keep every worker busy without a queue that makes the scaler add workers), then poll every job to its
 * final state. `during` waits on `sent(n)` (n more jobs sent) rather than on wall time, so a slow machine still sends
 * enough of them.
 */
async function jobsDuring(endpointId: string, inFlight: number, during: (sent: (n: number) => Promise<void>) => Promise<void>): Promise<JobTrace[]> {
  const traces: JobTrace[] = [];
  const sent = async (n: number) => {
    const target = traces.length + n;
    while (traces.length < target) await sleep(10);
  };
  let sending = true;
  const pollers: Promise<void>[] = [];
  const sender = (async () => {
    while (sending) {
      if (traces.filter((t) => t.final === undefined).length >= inFlight) {
        await sleep(10);
        continue;
      }
      const res = await rest("POST", `${emu.urls.inference}/v2/${endpointId}/run`, emu.apiKey, { input: { n: traces.length } });
      expect(res.status).toBe(200);
      const trace: JobTrace = { id: res.body.id, running: [] };
      traces.push(trace);
      pollers.push(
        (async () => {
          for (;;) {
            const s = await rest("GET", `${emu.urls.inference}/v2/${endpointId}/status/${trace.id}`, emu.apiKey);
            if (s.body.status === "IN_PROGRESS") trace.running.push({ at: Date.now(), workerId: s.body.workerId });
            if (!["IN_QUEUE", "IN_PROGRESS"].includes(s.body.status)) {
              trace.final = s.body;
              return;
            }
            await sleep(25);
          }
        })(),
      );
    }
  })();
  await during(sent);
  sending = false;
  await sender;
  await Promise.all(pollers);
  return traces;
}

async function readyWorkers(endpointId: string, count: number, imageName: string): Promise<Worker[]> {
  return (await until<Worker[] | undefined>(async () => {
    const workers = await listWorkers(endpointId);
    return workers.length === count && workers.every((w) => w.status === "READY" && w.imageName === imageName) ? workers : undefined;
  }))!;
}

/** The checks shared by every rollout: all jobs completed where they started, READY never below workersMin, old workers drained. */
async function checkRollout(endpointId: string, traces: JobTrace[], snapshots: { at: number; workers: Worker[] }[], oldIds: Set<string>, workersMin: number) {
  expect(traces.length).toBeGreaterThanOrEqual(10);
  for (const t of traces) {
    expect(t.final).toMatchObject({ id: t.id, status: "COMPLETED", output: { echo: expect.any(Object) } });
    // The worker seen while running is the one that finished the job.
    for (const r of t.running) expect(r.workerId).toBe(t.final.workerId);
  }
  const onOld = traces.filter((t) => oldIds.has(t.final.workerId));
  const onNew = traces.filter((t) => t.final.workerId !== undefined && !oldIds.has(t.final.workerId));
  expect(onOld.length).toBeGreaterThan(0);
  expect(onNew.length).toBeGreaterThan(0);
  // A worker stays listed for as long as a job of its own is seen running.
  for (const t of onOld.filter((x) => x.running.length > 0)) {
    const from = t.running[0].at;
    const to = t.running[t.running.length - 1].at;
    for (const s of snapshots.filter((x) => x.at > from && x.at < to)) expect(s.workers.map((w) => w.id)).toContain(t.final.workerId);
  }
  const minReady = Math.min(...snapshots.map((s) => s.workers.filter((w) => w.status === "READY").length));
  expect(minReady).toBeGreaterThanOrEqual(workersMin);
  // None is left at the end.
  expect(snapshots[snapshots.length - 1].workers.some((w) => oldIds.has(w.id))).toBe(false);
  // An old worker busy at the switch drained, finishing its jobs, rather than stopping. Its own system log says so
  // (a polled snapshot can miss a drain shorter than the polling interval on a loaded machine).
  const drainLines = await Promise.all([...oldIds].map((id) => systemLog(endpointId, id)));
  expect(drainLines.some((text) => /worker draining: .*; finishing [1-9]\d* running job\(s\)/.test(text))).toBe(true);
}

/** A stopped worker's system log, whole (the stream ends with the worker's history). */
async function systemLog(endpointId: string, workerId: string): Promise<string> {
  const res = await fetch(`${emu.urls.restV2}/v2/serverless/${endpointId}/workers/${workerId}/logs?source=system&tail=5000`, {
    headers: { authorization: `Bearer ${emu.apiKey}` },
  });
  return res.text();
}

test("a template image change rolls the endpoint's workers under load: no job lost or moved, never fewer READY workers than workersMin", async () => {
  const template = await createTemplate(emu, { imageName: "acme/llm-worker:1.4.2" });
  const ep = await createEndpoint(emu, { name: "rollout", templateId: template.id, workersMin: 2, workersMax: 3 });
  const before = await readyWorkers(ep.id, 2, "acme/llm-worker:1.4.2");
  expect(before.map((w) => [w.templateId, w.templateVersion])).toEqual([
    [template.id, 1],
    [template.id, 1],
  ]);
  const oldIds = new Set(before.map((w) => w.id));

  const watch = watchWorkers(ep.id);
  const traces = await jobsDuring(ep.id, 2, async (sent) => {
    await sent(6);
    const res = await saveTemplate(emu, { ...template, imageName: "acme/llm-worker:1.4.3" });
    expect(res.body.errors).toBeUndefined();
    await readyWorkers(ep.id, 2, "acme/llm-worker:1.4.3");
    await sent(4);
  });
  await watch.stop();

  await checkRollout(ep.id, traces, watch.snapshots, oldIds, 2);
  const after = await listWorkers(ep.id);
  expect(after).toHaveLength(2);
  for (const w of after) expect(w).toMatchObject({ status: "READY", imageName: "acme/llm-worker:1.4.3", templateId: template.id, templateVersion: 2 });
  expect(after.some((w) => oldIds.has(w.id))).toBe(false);
  // Stopped old workers keep their logs, which tell the story.
  const oldId = [...oldIds][0];
  const logs = await until(async () => {
    const res = await fetch(`${emu.urls.restV2}/v2/serverless/${ep.id}/workers/${oldId}/logs?source=system&tail=50`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    const text = await res.text();
    return text.includes("worker stopping: drained") && text;
  });
  expect(logs).toMatch(/worker draining: replaced by template \w+ version 2/);
});

test("an env change rolls too; other template changes leave the workers alone", async () => {
  const template = await createTemplate(emu, { env: [{ key: "MODEL", value: "a" }] });
  const ep = await createEndpoint(emu, { name: "env-roll", templateId: template.id, workersMin: 1 });
  const [first] = await readyWorkers(ep.id, 1, template.imageName);
  await saveTemplate(emu, { ...template, readme: "new docs", containerDiskInGb: 50 });
  await sleep(WORKER_START_MS + 50);
  expect((await listWorkers(ep.id)).map((w) => w.id)).toEqual([first.id]);
  await saveTemplate(emu, { ...template, env: [{ key: "MODEL", value: "b" }] });
  const [second] = (await until<Worker[] | undefined>(async () => {
    const ws = await listWorkers(ep.id);
    return ws.length === 1 && ws[0].status === "READY" && ws[0].templateVersion === 2 ? ws : undefined;
  }))!;
  expect(second.id).not.toBe(first.id);
});

test("switching an endpoint to another template (updateEndpointTemplate) rolls its workers under load", async () => {
  const a = await createTemplate(emu, { imageName: "acme/a:1" });
  const b = await createTemplate(emu, { imageName: "acme/b:1" });
  const ep = await createEndpoint(emu, { name: "switch", templateId: a.id, workersMin: 1, workersMax: 2 });
  const oldIds = new Set((await readyWorkers(ep.id, 1, "acme/a:1")).map((w) => w.id));
  const watch = watchWorkers(ep.id);
  const traces = await jobsDuring(ep.id, 1, async (sent) => {
    await sent(6);
    const res = await gql(emu, `mutation($input: UpdateEndpointTemplateInput!) { updateEndpointTemplate(input: $input) { id templateId } }`, {
      input: { endpointId: ep.id, templateId: b.id },
    });
    expect(res.body.data.updateEndpointTemplate).toEqual({ id: ep.id, templateId: b.id });
    await readyWorkers(ep.id, 1, "acme/b:1");
    await sent(4);
  });
  await watch.stop();
  await checkRollout(ep.id, traces, watch.snapshots, oldIds, 1);
  expect((await listWorkers(ep.id)).map((w) => [w.templateId, w.imageName])).toEqual([[b.id, "acme/b:1"]]);
});

test("saveEndpoint with another templateId rolls the workers the same way", async () => {
  const a = await createTemplate(emu, { imageName: "acme/c:1" });
  const b = await createTemplate(emu, { imageName: "acme/d:1" });
  const ep = await createEndpoint(emu, { name: "save-switch", templateId: a.id, workersMin: 1 });
  const [old] = await readyWorkers(ep.id, 1, "acme/c:1");
  const res = await gql(emu, SAVE, { input: { id: ep.id, name: ep.name, templateId: b.id, gpuIds: ep.gpuIds, workersMin: 1 } });
  expect(res.body.errors).toBeUndefined();
  // Surge: the old worker stays READY while its replacement starts.
  const during = await listWorkers(ep.id);
  expect(during.find((w) => w.id === old.id)?.status).toBe("READY");
  expect(during.some((w) => w.imageName === "acme/d:1" && w.status === "INITIALIZING")).toBe(true);
  const [fresh] = await readyWorkers(ep.id, 1, "acme/d:1");
  expect(fresh.id).not.toBe(old.id);
});

test("an endpoint scaled to zero has no workers to roll; a job starts a worker of the new template and runs on it", async () => {
  const template = await createTemplate(emu);
  const ep = await createEndpoint(emu, { name: "zero", templateId: template.id, workersMin: 0 });
  await saveTemplate(emu, { ...template, imageName: "acme/worker:2" });
  expect(await listWorkers(ep.id)).toEqual([]);
  const job = await rest("POST", `${emu.urls.inference}/v2/${ep.id}/runsync`, emu.apiKey, { input: { x: 1 } });
  expect(job.body).toMatchObject({ status: "COMPLETED", workerId: expect.any(String) });
  // It waited in the queue while its worker started.
  expect(job.body.delayTime).toBeGreaterThanOrEqual(WORKER_START_MS);
  expect((await listWorkers(ep.id)).map((w) => [w.id, w.imageName, w.templateVersion])).toEqual([[job.body.workerId, "acme/worker:2", 2]]);
});
