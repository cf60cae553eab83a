/**
 * REST v2 billing accrues from what the simulated workers did: worker-seconds × the catalog's price, bucketed as the
 * document's BillingBucketSize says. The billing clock (`POST {admin}/clock`) lets workers "run" an hour at once.
 */
import type { RunningEmulator } from "../../emulator";
import { rest, start } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const call = (method: string, path: string, body?: unknown) => rest(method, `${emu.urls.restV2}/v2${path}`, emu.apiKey, body);
const HOUR = 3_600_000;

async function until<T>(check: () => Promise<T | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 15));
  }
}

const sum = (records: { totalAmount: number }[]) => records.reduce((s, r) => s + r.totalAmount, 0);

// Each billing test holds the billing clock still (`{"freeze": true}`) from before its workers start, so every amount
// is exactly N × T × price: no wall time of the test's own leaks into an expected value.
beforeEach(() => emu.freezeClock());
afterEach(() => emu.resumeClock());

test("N workers for T seconds cost exactly N × T × the pool's per-GPU price, bucketed by hour and by day", async () => {
  const price = (await call("GET", `/catalog/gpus/${encodeURIComponent("NVIDIA GeForce RTX 4090")}`)).body.price.serverless;
  expect(price).toBeGreaterThan(0);
  const N = 3;
  const T = 2 * HOUR;
  const ep = (
    await call("POST", "/serverless", {
      name: "billed",
      image: "me/w:1",
      type: "QUEUE",
      gpu: { pools: ["ADA_24"] },
      workers: { min: N, max: N },
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    })
  ).body;
  await until(async () => (await call("GET", `/serverless/${ep.id}/workers`)).body.workers.length === N);
  const frozenAt = Date.parse((await rest("GET", `${emu.urls.admin}/clock`, undefined)).body.now);
  const advanced = await rest("POST", `${emu.urls.admin}/clock`, undefined, { advanceMs: T });
  expect(advanced.status).toBe(200);
  expect(advanced.body).toMatchObject({ frozen: true, now: new Date(frozenAt + T).toISOString() });
  const res = await call("GET", `/billing/serverless?bucketSize=hour&lastN=4&serverlessId=${ep.id}`);
  expect(res.status).toBe(200);
  const { records, metadata } = res.body;
  const expected = (N * T * price) / HOUR;
  expect(sum(records)).toBeCloseTo(expected, 9);
  for (const r of records) {
    expect(r.serverlessId).toBe(ep.id);
    expect(Date.parse(r.endTime) - Date.parse(r.startTime)).toBe(HOUR);
    expect(Date.parse(r.startTime) % HOUR).toBe(0);
    expect(r.gpuAmount).toBeCloseTo(r.totalAmount, 9);
    expect(r.cpuAmount).toBe(0);
    // No bucket holds more than an hour of N workers.
    expect(r.totalAmount).toBeLessThanOrEqual(N * price + 1e-9);
  }
  // Two hours from an instant inside an hour span three hour buckets (two when it starts on the hour).
  expect(records.length).toBe(frozenAt % HOUR === 0 ? 2 : 3);
  expect(metadata).toMatchObject({ recordCount: records.length, uniqueServerlessCount: 1, query: { bucketSize: "hour", serverlessId: ep.id } });
  expect(metadata.totals.totalAmount).toBeCloseTo(sum(records), 9);

  // Day buckets hold the same spend; stopped workers accrue nothing more.
  const day = (await call("GET", `/billing/serverless?bucketSize=day&lastN=2&serverlessId=${ep.id}`)).body;
  expect(sum(day.records)).toBeCloseTo(expected, 9);
  await call("PATCH", `/serverless/${ep.id}`, { workers: { min: 0, max: 0 } });
  await until(async () => (await call("GET", `/serverless/${ep.id}/workers`)).body.workers.length === 0);
  emu.advanceClock(HOUR);
  const later = sum((await call("GET", `/billing/serverless?bucketSize=day&lastN=2&serverlessId=${ep.id}`)).body.records);
  expect(later).toBeCloseTo(expected, 9);
});

test("a running clock accrues again after a freeze, from the frozen reading on", async () => {
  const ep = (
    await call("POST", "/serverless", {
      name: "resumed",
      image: "me/w:1",
      type: "QUEUE",
      gpu: { pools: ["ADA_24"] },
      workers: { min: 1, max: 1 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    })
  ).body;
  await until(async () => (await call("GET", `/serverless/${ep.id}/workers`)).body.workers.length === 1);
  const spend = async () => sum((await call("GET", `/billing/serverless?bucketSize=day&lastN=2&serverlessId=${ep.id}`)).body.records);
  const first = await spend();
  const frozenAt = emu.advanceClock(0);
  // Wall time passes (a real wait, bounded by the time it checks), yet a frozen clock accrues nothing.
  const wallBefore = Date.now();
  await until(async () => Date.now() - wallBefore >= 20);
  expect(await spend()).toBe(first);
  expect(emu.advanceClock(0)).toBe(frozenAt);
  const wallResume = Date.now();
  const resumedAt = emu.resumeClock();
  // It goes on from the frozen reading: never behind it, and ahead only by the wall time resuming itself took.
  expect(resumedAt).toBeGreaterThanOrEqual(frozenAt);
  expect(resumedAt - frozenAt).toBeLessThanOrEqual(Date.now() - wallResume);
  await until(async () => (await spend()) > first);
  const bad = await rest("POST", `${emu.urls.admin}/clock`, undefined, { freeze: "yes" });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toContain("freeze must be true or false");
});

test("CPU workers bill vCPUs × the flavor's per-vCPU price as cpuAmount; records survive the endpoint's delete", async () => {
  const flavor = (await call("GET", "/catalog/cpus/cpu5c")).body;
  const ep = (
    await call("POST", "/serverless", {
      name: "cpu-billed",
      image: "me/w:1",
      type: "QUEUE",
      cpu: [{ id: "cpu5c", vcpuCount: 4 }],
      workers: { min: 1, max: 1 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    })
  ).body;
  await until(async () => (await call("GET", `/serverless/${ep.id}/workers`)).body.workers.length === 1);
  emu.advanceClock(HOUR);
  expect((await call("DELETE", `/serverless/${ep.id}`)).status).toBe(204);
  emu.advanceClock(HOUR);
  const { records } = (await call("GET", `/billing/serverless?bucketSize=day&lastN=2&serverlessId=${ep.id}`)).body;
  const cpu = records.reduce((s: number, r: any) => s + r.cpuAmount, 0);
  expect(cpu).toBeCloseTo(4 * flavor.price.serverlessPerVcpu, 9);
  expect(records.every((r: any) => r.gpuAmount === 0)).toBe(true);
});

test("public model endpoints bill their jobs' cost under /v2/billing/endpoints, not under serverless", async () => {
  const before = (await call("GET", "/billing/endpoints?bucketSize=day&lastN=1")).body.metadata.totals.totalAmount;
  const job = await rest("POST", `${emu.urls.inference}/v2/flux-1-schnell/runsync`, emu.apiKey, { input: { prompt: "a cat", width: 1024, height: 1024 } });
  expect(job.body.status).toBe("COMPLETED");
  const after = (await call("GET", "/billing/endpoints?bucketSize=day&lastN=1")).body;
  expect(after.metadata.totals.totalAmount - before).toBeCloseTo(job.body.output.cost, 9);
  expect(after.records.every((r: any) => Object.keys(r).sort().join() === "endTime,startTime,totalAmount")).toBe(true);
  const serverless = (await call("GET", "/billing/serverless?bucketSize=day&lastN=1")).body.records;
  expect(serverless.some((r: any) => r.serverlessId === "flux-1-schnell")).toBe(false);
});

test("the query window follows the document: snapped to buckets, lastN excludes startTime/endTime, bad values 400", async () => {
  const res = await call("GET", "/billing/serverless?startTime=2026-03-10T13:45:00Z&endTime=2026-03-12T01:00:00Z&bucketSize=day");
  expect(res.body.metadata.query).toMatchObject({ startTime: "2026-03-10T00:00:00Z", endTime: "2026-03-13T00:00:00Z", bucketSize: "day", serverlessId: null });
  const week = (await call("GET", "/billing/serverless?startTime=2026-03-11T10:00:00Z&endTime=2026-03-12T00:00:00Z&bucketSize=week")).body.metadata.query;
  expect(week.startTime).toBe("2026-03-09T00:00:00Z"); // a Monday
  expect((await call("GET", "/billing/serverless?lastN=3&startTime=2026-03-10T00:00:00Z")).status).toBe(400);
  expect((await call("GET", "/billing/serverless?bucketSize=minute")).status).toBe(400);
  expect((await call("GET", "/billing/serverless?lastN=0")).status).toBe(400);
  const bad = await rest("POST", `${emu.urls.admin}/clock`, undefined, { advanceMs: -5 });
  expect(bad.status).toBe(400);
});
