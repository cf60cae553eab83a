/**
 * The catalog functions' reads on a provider session (provider/catalog/queries.ts) against the emulator:
 * in the plugin's process the functions answer from the very reads the Endpoint's preview made, and a
 * failed read is tried again at the next call (while preview keeps its one read per session).
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api/types";
import { PlatformSession } from "../../src/provider/session";
import { emulatorPerFile } from "./harness";

let emu: RunningEmulator;
let client: PlatformClient;
emulatorPerFile((e, c) => ([emu, client] = [e, c]));

const reads = () => {
  const ops = emu.stats().byOperation;
  return { gpus: ops.listGpuTypes ?? 0, cpus: ops.listCpuTypes ?? 0, dataCenters: ops.listDataCenters ?? 0 };
};

it("after preview's catalog read, the functions without filters (and with serverless availability) cost no request", async () => {
  const session = new PlatformSession(() => client);
  const before = reads();
  const catalog = await session.catalog();
  expect(reads()).toEqual({ gpus: before.gpus + 1, cpus: before.cpus + 1, dataCenters: before.dataCenters + 1 });
  const [gpus, serverless, cpus, dataCenters] = await Promise.all([
    session.catalogSource.gpuTypes({}),
    session.catalogSource.gpuTypes({ product: ["SERVERLESS"] }),
    session.catalogSource.cpuTypes({}),
    session.catalogSource.dataCenters({}),
  ]);
  expect(reads()).toEqual({ gpus: before.gpus + 1, cpus: before.cpus + 1, dataCenters: before.dataCenters + 1 });
  expect(serverless).toEqual(catalog.data.gpus);
  expect(gpus.map((g) => g.id)).toEqual(catalog.data.gpus.map((g) => g.id));
  expect(cpus.map((c) => c.id)).toEqual(catalog.data.cpus.map((c) => c.id));
  expect(dataCenters).toEqual(catalog.data.dataCenters);
  // Another filter is a read of its own.
  await session.catalogSource.gpuTypes({ product: ["POD"] });
  expect(reads().gpus).toBe(before.gpus + 2);
});

it("a failed read is tried again at the next call", async () => {
  const session = new PlatformSession(() => client);
  emu.setFaults({ errorRate: 1, match: ["listDataCenters"] });
  try {
    await expect(session.catalogSource.dataCenters({ regions: ["ASIA"] })).rejects.toThrow();
  } finally {
    emu.setFaults({});
  }
  const before = reads().dataCenters;
  const asia = await session.catalogSource.dataCenters({ regions: ["ASIA"] });
  expect(asia.length).toBeGreaterThan(0);
  expect(asia.every((d) => d.region === "ASIA")).toBe(true);
  expect(reads().dataCenters).toBe(before + 1);
});
