/**
 * Full-state modifies: an in-place update carries every managed field, so it leaves the endpoint as
 * declared whether the platform merges a modify into the stored settings or replaces them (the live
 * platform resets a field left out of a modify; platform-clients.md). Run against both readings.
 */
import type { RunningEmulator, SaveSemantics } from "../../emulator";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { checked, emulatorClient, startTestEmulator, uniqueName } from "./harness";
import { PlatformSession } from "../../src/provider/session";

// This file checks the GraphQL path's requests (saveEndpoint, myself, REST v1 create), so it pins
// runpod:api to graphql; the default path (v2) is covered by v2Path.integration.test.ts.
process.env.RUNPOD_API = "graphql";

describe.each<SaveSemantics>(["replace", "merge"])("a one-field update under %s save semantics", (saveSemantics) => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ saveSemantics });
  });
  afterAll(async () => {
    await emu.close();
  });

  it("leaves every other field as declared and sends one request", async () => {
    const provider = new EndpointProvider(new PlatformSession(() => emulatorClient(emu)));
    const args = {
      name: uniqueName("full-state"),
      templateId: "tpl_vllm",
      gpuIds: ["ADA_24", "AMPERE_24"],
      idleTimeout: 77,
      locations: ["RO", "CZ"],
      fastBoot: true,
      scalerType: "REQUEST_COUNT",
      scalerValue: 9,
      workersMin: 1,
      workersMax: 6,
      networkVolumeId: "nv_models01",
    };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    const next = await checked(provider, { ...args, workersMax: 7 }, inputs);
    expect((await provider.diff(id, outs as never, next)).changed).toEqual(["workersMax"]);

    emu.resetStats();
    await provider.update(id, outs as never, next);
    expect(emu.stats().requests).toBe(1);

    const record = emu.endpoints(emu.apiKey).find((e) => e.id === id)!;
    expect(record).toMatchObject({
      name: args.name,
      templateId: "tpl_vllm",
      gpuIds: "ADA_24,AMPERE_24",
      type: "QB",
      idleTimeout: 77,
      fastBootType: "FASTBOOT",
      scalerType: "REQUEST_COUNT",
      scalerValue: 9,
      workersMin: 1,
      workersMax: 7,
      networkVolumeId: "nv_models01",
    });
    expect(record.locations!.split(",").sort()).toEqual(["CZ", "RO"]);
    await provider.delete(id, (await provider.read(id, outs as never)).props as never);
  });
});

it("the emulator resets a field a modify leaves out under replace, and keeps it under merge", async () => {
  for (const saveSemantics of ["replace", "merge"] as const) {
    const emu = await startTestEmulator({ saveSemantics });
    try {
      const client = emulatorClient(emu);
      const base = { name: uniqueName("semantics"), templateId: "tpl_vllm", gpuIds: "ADA_24" };
      const created = await client.saveEndpoint({ ...base, idleTimeout: 77, workersMax: 6 });
      const modified = await client.saveEndpoint({ ...base, id: created.id, workersMax: 5 });
      expect(modified.idleTimeout).toBe(saveSemantics === "replace" ? 5 : 77);
      expect(modified.workersMax).toBe(5);
    } finally {
      await emu.close();
    }
  }
});
