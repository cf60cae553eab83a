/**
 * The REST v2 catalog: serverless pools and their GPU types with per-GPU prices, CPU flavors, data centers, stock
 * per pool and data center, and the `availability` fault switch that sets any of it.
 */
import type { RunningEmulator } from "../../emulator";
import { rest, start } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

const call = (path: string) => rest("GET", `${emu.urls.restV2}/v2${path}`, emu.apiKey);
const SERVERLESS = "include=AVAILABILITY&product=SERVERLESS";
const gpuById = (gpus: any[], id: string) => gpus.find((g) => g.id === id);

test("GPU types carry their serverless pool, memory, max count and per-GPU prices; availability only when asked for", async () => {
  const plain = (await call("/catalog/gpus")).body.gpus;
  expect(plain.length).toBeGreaterThanOrEqual(10);
  const rtx = gpuById(plain, "NVIDIA GeForce RTX 4090");
  expect(rtx).toEqual({
    id: "NVIDIA GeForce RTX 4090",
    name: "RTX 4090",
    pool: "ADA_24",
    manufacturer: "NVIDIA",
    memory: 24,
    secure: true,
    community: true,
    price: { secure: 0.69, community: 0.34, serverless: 1.1 },
    maxCount: { secure: 8, community: 4 },
  });
  // Every type of one pool has the pool's serverless price; pools differ.
  const byPool = new Map<string, Set<number>>();
  for (const g of plain) byPool.set(g.pool, (byPool.get(g.pool) ?? new Set()).add(g.price.serverless));
  expect([...byPool.values()].every((prices) => prices.size === 1)).toBe(true);
  expect(new Set([...byPool.values()].map((p) => [...p][0])).size).toBe(byPool.size);
  expect([...byPool.keys()].sort()).toEqual(["ADA_24", "ADA_48_PRO", "ADA_80_PRO", "AMPERE_16", "AMPERE_24", "AMPERE_48", "AMPERE_80"]);

  const stocked = gpuById((await call(`/catalog/gpus?${SERVERLESS}`)).body.gpus, "NVIDIA GeForce RTX 4090");
  expect(stocked.availability).toBe("HIGH");
  expect(stocked.dataCenters).toEqual(expect.arrayContaining([{ id: "EU-RO-1", name: "Europe Romania 1", availability: "HIGH" }]));
  expect(stocked.cudaVersions).toEqual(expect.arrayContaining([{ version: "12.8", available: true }]));
  expect((await call(`/catalog/gpus/${encodeURIComponent("NVIDIA GeForce RTX 4090")}?${SERVERLESS}`)).body).toEqual(stocked);
});

test("availability needs product and product needs availability (400); filters narrow it", async () => {
  expect((await call("/catalog/gpus?include=AVAILABILITY")).status).toBe(400);
  expect((await call("/catalog/gpus?product=SERVERLESS")).status).toBe(400);
  expect((await call("/catalog/gpus?count=2")).status).toBe(400);
  expect((await call("/catalog/gpus?include=AVAILABILITY&product=SERVERLESS&cudaVersions=12.4&minCudaVersion=12")).status).toBe(400);
  expect((await call("/catalog/gpus?include=AVAILABILITY&product=NOPE")).status).toBe(422);
  const tooMany = gpuById((await call(`/catalog/gpus?${SERVERLESS}&count=9`)).body.gpus, "NVIDIA GeForce RTX 4090");
  expect(tooMany.availability).toBe("NONE");
  expect(tooMany.dataCenters).toBeUndefined();
  const romania = (await call(`/catalog/gpus?${SERVERLESS}&countryCodes=RO`)).body.gpus;
  expect(romania.every((g: any) => g.dataCenters === undefined || g.dataCenters.every((d: any) => d.id === "EU-RO-1"))).toBe(true);
  expect(romania.some((g: any) => g.pool === "AMPERE_80")).toBe(false);
  const old = gpuById((await call(`/catalog/gpus?${SERVERLESS}&cudaVersions=11.8`)).body.gpus, "NVIDIA GeForce RTX 4090");
  expect(old).toMatchObject({ availability: "NONE" });
  expect(old.cudaVersions).toBeUndefined();
});

test("CPU flavors carry vCPU bounds, RAM per vCPU and per-vCPU prices", async () => {
  const cpus = (await call("/catalog/cpus")).body.cpus;
  expect(cpus.map((c: any) => c.id)).toEqual(["cpu3c", "cpu3g", "cpu3m", "cpu5c", "cpu5g", "cpu5m"]);
  expect((await call("/catalog/cpus/cpu5c")).body).toEqual({
    id: "cpu5c",
    name: "Compute-Optimized",
    group: "Gen 5",
    vcpu: { min: 2, max: 64 },
    ramGbPerVcpu: 2,
    price: { securePerVcpu: 0.045, serverlessPerVcpu: 0.04 },
  });
  const stocked = (await call(`/catalog/cpus?${SERVERLESS}&vcpuCount=64`)).body.cpus;
  expect(stocked.find((c: any) => c.id === "cpu5c").availability).not.toBe("NONE");
  expect(stocked.find((c: any) => c.id === "cpu3c")).toMatchObject({ availability: "NONE" });
  expect((await call(`/catalog/cpus?${SERVERLESS}&vcpuCount=6`)).status).toBe(400);
});

test("data centers carry region, network volume types, compliance; filters and availability expansions", async () => {
  const all = (await call("/catalog/datacenters")).body.dataCenters;
  expect(all.find((d: any) => d.id === "EU-RO-1")).toEqual({
    id: "EU-RO-1",
    name: "Europe Romania 1",
    region: "EUROPE",
    globalNetwork: true,
    networkVolumeTypes: ["STANDARD", "HIGH_PERFORMANCE"],
    compliance: ["GDPR", "ISO_IEC_27001", "SOC_2_TYPE_2"],
  });
  // Every seeded network volume lives in a catalog data center that offers its type.
  for (const v of (await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey)).body.networkVolumes) {
    expect(all.find((d: any) => d.id === v.dataCenter).networkVolumeTypes).toContain(v.type);
  }
  const europe = (await call("/catalog/datacenters?regions=EUROPE&networkVolumeTypes=HIGH_PERFORMANCE")).body.dataCenters;
  expect(europe.map((d: any) => d.id).sort()).toEqual(["EU-FR-1", "EU-RO-1"]);
  const withStock = (await call("/catalog/datacenters/EU-RO-1?include=GPU_AVAILABILITY,CPU_AVAILABILITY")).body;
  expect(withStock.gpuAvailability).toEqual(expect.arrayContaining([{ id: "NVIDIA GeForce RTX 4090", name: "RTX 4090", availability: "HIGH" }]));
  expect(withStock.cpuAvailability).toEqual(expect.arrayContaining([{ id: "cpu3c", name: "Compute-Optimized", availability: "HIGH" }]));
  expect((await call("/catalog/datacenters/XX-NOPE-1")).status).toBe(404);
});

test("the availability fault sets any pool's stock in any data center, and workers are placed by it", async () => {
  const set = await rest("POST", `${emu.urls.admin}/faults`, undefined, { availability: { ADA_24: { "EU-RO-1": "NONE", "US-KS-2": "LOW" } } });
  expect(set.status).toBe(200);
  const rtx = gpuById((await call(`/catalog/gpus?${SERVERLESS}`)).body.gpus, "NVIDIA GeForce RTX 4090");
  expect(rtx.dataCenters).toEqual(
    expect.arrayContaining([
      { id: "EU-RO-1", name: "Europe Romania 1", availability: "NONE" },
      { id: "US-KS-2", name: "US Kansas 2", availability: "LOW" },
    ]),
  );
  expect((await call("/catalog/datacenters/EU-RO-1?include=GPU_AVAILABILITY")).body.gpuAvailability).toContainEqual({
    id: "NVIDIA GeForce RTX 4090",
    name: "RTX 4090",
    availability: "NONE",
  });
  // A worker restricted to EU-RO-1 and US-KS-2 lands where there is stock.
  const ep = (
    await rest("POST", `${emu.urls.restV2}/v2/serverless`, emu.apiKey, {
      name: "placed",
      image: "me/w:1",
      type: "QUEUE",
      gpu: { pools: ["ADA_24"] },
      dataCenterIds: ["EU-RO-1", "US-KS-2"],
      workers: { min: 1, max: 1 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    })
  ).body;
  const workers = (await rest("GET", `${emu.urls.restV2}/v2/serverless/${ep.id}/workers`, emu.apiKey)).body.workers;
  expect(workers[0]).toMatchObject({ dataCenterId: "US-KS-2", gpuTypeId: "NVIDIA GeForce RTX 4090" });

  emu.setFaults({ availability: { ADA_24: { "*": "NONE" } } });
  const none = gpuById((await call(`/catalog/gpus?${SERVERLESS}`)).body.gpus, "NVIDIA GeForce RTX 4090");
  expect(none.availability).toBe("NONE");
  expect(none.dataCenters).toBeUndefined();
  expect(none.cudaVersions.every((c: any) => c.available === false)).toBe(true);
  // Other pools keep their stock; a CPU flavor can be set the same way.
  expect(gpuById((await call(`/catalog/gpus?${SERVERLESS}`)).body.gpus, "NVIDIA L40S").availability).not.toBe("NONE");
  emu.setFaults({ availability: { cpu3c: { "*": "LOW" } } });
  expect((await call(`/catalog/cpus/cpu3c?${SERVERLESS}`)).body.availability).toBe("LOW");

  const bad = await rest("POST", `${emu.urls.admin}/faults`, undefined, { availability: { ADA_24: { "EU-RO-1": "PLENTY" } } });
  expect(bad.status).toBe(400);
});
