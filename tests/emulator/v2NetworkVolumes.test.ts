/**
 * REST v2 network volumes as the document specifies them (createNetworkVolume … deleteNetworkVolume): the
 * document's bounds, a size that only grows, the data center's tiers, a delete refused while an endpoint mounts
 * the volume (naming it), and storage billing (`listNetworkVolumeBilling`) at size × the tier's price.
 */
import type { RunningEmulator } from "../../emulator";
import { rest, start } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const call = (method: string, path: string, body?: unknown, key = emu.apiKey) => rest(method, `${emu.urls.restV2}/v2${path}`, key, body);
const HOUR = 3_600_000;

test("create, get, list, rename and grow in place; the answer is the document's NetworkVolume", async () => {
  const created = await call("POST", "/network-volumes", { name: "data", size: 20, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({ id: expect.any(String), name: "data", size: 20, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  const id = created.body.id;
  expect((await call("GET", `/network-volumes/${id}`)).body).toEqual(created.body);
  expect((await call("GET", "/network-volumes")).body.networkVolumes.map((v: { id: string }) => v.id)).toContain(id);

  const renamed = await call("PATCH", `/network-volumes/${id}`, { name: "data-2" });
  expect(renamed.status).toBe(200);
  expect(renamed.body).toMatchObject({ id, name: "data-2", size: 20 });
  const grown = await call("PATCH", `/network-volumes/${id}`, { size: 50 });
  expect(grown.body).toMatchObject({ id, name: "data-2", size: 50, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  // The same size is no shrink.
  expect((await call("PATCH", `/network-volumes/${id}`, { size: 50 })).status).toBe(200);
});

test("an omitted type is the data center's primary tier; a tier it does not offer is refused naming the ones it does", async () => {
  const std = await call("POST", "/network-volumes", { name: "std", size: 10, dataCenter: "US-CA-2" });
  expect(std.body.type).toBe("STANDARD");
  const hps = await call("POST", "/network-volumes", { name: "hps", size: 10, dataCenter: "US-CA-2", type: "HIGH_PERFORMANCE" });
  expect(hps.status).toBe(400);
  expect(hps.body.detail).toContain("US-CA-2 offers STANDARD");
  const nowhere = await call("POST", "/network-volumes", { name: "x", size: 10, dataCenter: "MOON-1" });
  expect(nowhere.status).toBe(400);
  expect(nowhere.body.errors[0]).toMatch(/^dataCenter: data center "MOON-1" not found/);
});

test("the document's bounds answer 422 naming the field; a shrink answers 400 naming the current size", async () => {
  for (const [body, field] of [
    [{ name: "s", size: 9, dataCenter: "EU-RO-1" }, "$.size"],
    [{ name: "s", size: 4097, dataCenter: "EU-RO-1" }, "$.size"],
    [{ name: "", size: 10, dataCenter: "EU-RO-1" }, "$.name"],
    [{ name: "s", size: 10, dataCenter: "EU-RO-1", type: "FAST" }, "$.type"],
    [{ name: "s", size: 10 }, "$.dataCenter"],
  ] as const) {
    const res = await call("POST", "/network-volumes", body);
    expect(res.status).toBe(422);
    expect(res.body.errors.join("\n")).toContain(field);
  }
  const id = (await call("POST", "/network-volumes", { name: "v", size: 40, dataCenter: "EU-RO-1" })).body.id;
  expect((await call("PATCH", `/network-volumes/${id}`, {})).status).toBe(422);
  expect((await call("PATCH", `/network-volumes/${id}`, { dataCenter: "US-TX-3" })).status).toBe(422);
  const shrink = await call("PATCH", `/network-volumes/${id}`, { size: 30 });
  expect(shrink.status).toBe(400);
  expect(shrink.body.detail).toContain("has 40 GB");
  expect((await call("GET", `/network-volumes/${id}`)).body.size).toBe(40);
});

test("a delete is refused while an endpoint mounts the volume, naming the endpoint; then it goes", async () => {
  const vol = (await call("POST", "/network-volumes", { name: "mounted", size: 10, dataCenter: "EU-RO-1" })).body;
  const ep = await call("POST", "/serverless", {
    name: "reader",
    image: "me/w:1",
    type: "QUEUE",
    gpu: { pools: ["ADA_24"] },
    dataCenterIds: ["EU-RO-1"],
    networkVolumes: [vol.id],
    workers: { min: 0, max: 1 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  });
  expect(ep.status).toBe(201);
  const refused = await call("DELETE", `/network-volumes/${vol.id}`);
  expect(refused.status).toBe(400);
  expect(refused.body.detail).toContain(`endpoint ${ep.body.id} (reader)`);
  expect((await call("DELETE", `/serverless/${ep.body.id}`)).status).toBe(204);
  expect((await call("DELETE", `/network-volumes/${vol.id}`)).status).toBe(204);
  expect((await call("GET", `/network-volumes/${vol.id}`)).status).toBe(404);
  expect((await call("DELETE", `/network-volumes/${vol.id}`)).status).toBe(404);
});

test("another user's volume is not found; seeded volumes keep working", async () => {
  const mine = (await call("POST", "/network-volumes", { name: "private", size: 10, dataCenter: "EU-RO-1" })).body;
  expect((await call("GET", `/network-volumes/${mine.id}`, undefined, emu.otherUserApiKey)).status).toBe(404);
  expect((await call("DELETE", `/network-volumes/${mine.id}`, undefined, emu.otherUserApiKey)).status).toBe(404);
  expect((await call("GET", "/network-volumes/nv_models01")).body).toEqual({
    id: "nv_models01",
    name: "models",
    size: 100,
    dataCenter: "EU-RO-1",
    type: "HIGH_PERFORMANCE",
  });
});

describe("storage billing", () => {
  beforeEach(() => emu.freezeClock());
  afterEach(() => emu.resumeClock());

  test("size × the tier's monthly price per GB, pro rata by the hour; a resize bills the new size from then; a deleted volume stops", async () => {
    const vol = (await call("POST", "/network-volumes", { name: "billed", size: 100, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" })).body;
    const std = (await call("POST", "/network-volumes", { name: "billed-std", size: 100, dataCenter: "EU-RO-1", type: "STANDARD" })).body;
    emu.advanceClock(2 * HOUR);
    const res = await call("GET", `/billing/network-volumes?bucketSize=day&lastN=2&networkVolumeId=${vol.id}`);
    expect(res.status).toBe(200);
    const hps = res.body.records.reduce((s: number, r: { highPerformanceAmount: number }) => s + r.highPerformanceAmount, 0);
    // Twice as much per GB as standard storage, and nothing standard on a high-performance volume.
    const stdRecords = (await call("GET", `/billing/network-volumes?bucketSize=day&lastN=2&networkVolumeId=${std.id}`)).body.records;
    const standard = stdRecords.reduce((s: number, r: { standardAmount: number }) => s + r.standardAmount, 0);
    expect(hps).toBeGreaterThan(0);
    expect(hps).toBeCloseTo(2 * standard, 9);
    expect(res.body.records.every((r: { standardAmount: number; networkVolumeId: string }) => r.standardAmount === 0 && r.networkVolumeId === vol.id)).toBe(
      true,
    );
    expect(res.body.metadata).toMatchObject({ uniqueNetworkVolumeCount: 1, query: { networkVolumeId: vol.id, bucketSize: "day" } });

    // Doubled for the next two hours: three times the first two hours' amount in all.
    await call("PATCH", `/network-volumes/${vol.id}`, { size: 200 });
    emu.advanceClock(2 * HOUR);
    const total = (await call("GET", `/billing/network-volumes?bucketSize=day&lastN=2&networkVolumeId=${vol.id}`)).body.metadata.totals.totalAmount;
    expect(total).toBeCloseTo(3 * hps, 9);
    await call("DELETE", `/network-volumes/${vol.id}`);
    emu.advanceClock(5 * HOUR);
    expect((await call("GET", `/billing/network-volumes?bucketSize=day&lastN=2&networkVolumeId=${vol.id}`)).body.metadata.totals.totalAmount).toBeCloseTo(
      total,
      9,
    );
    // Without the filter, one record per volume per bucket.
    const all = (await call("GET", "/billing/network-volumes?bucketSize=day&lastN=2")).body;
    const keys = all.records.map((r: { networkVolumeId: string; startTime: string }) => `${r.networkVolumeId} ${r.startTime}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.some((k: string) => k.startsWith(`${vol.id} `)) && keys.some((k: string) => k.startsWith(`${std.id} `))).toBe(true);
  });
});
