/**
 * `gpuCount`, `allowedCudaVersions`, `executionTimeoutMs` and the output `workersStandby` against the
 * emulator over HTTP, under both readings of a modify (the platform replaces the settings, or merges
 * them): declared values reach the platform by `saveEndpoint` and by the REST v1 create; unset ones
 * show no diff and survive every update, including values set outside Pulumi.
 */
import type { RunningEmulator, SaveSemantics } from "../../emulator";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { checked, emulatorClient, startTestEmulator, uniqueName } from "./harness";
import { PlatformSession } from "../../src/provider/session";

// This file checks the GraphQL path's requests (saveEndpoint, myself, REST v1 create), so it pins
// runpod:api to graphql; the default path (v2) is covered by v2Path.integration.test.ts.
process.env.RUNPOD_API = "graphql";

/** A `saveEndpoint` modify as another tool would send it: the record's fields plus `changes` (GraphQL over HTTP, bearer auth). */
async function modifyOutside(emu: RunningEmulator, id: string, changes: Record<string, unknown>): Promise<void> {
  const rec = emu.endpoints(emu.apiKey).find((e) => e.id === id)!;
  const input = {
    id,
    name: rec.name,
    templateId: rec.templateId,
    gpuIds: rec.gpuIds,
    idleTimeout: rec.idleTimeout,
    scalerValue: rec.scalerValue,
    workersMin: rec.workersMin,
    workersMax: rec.workersMax,
    gpuCount: rec.gpuCount,
    allowedCudaVersions: rec.allowedCudaVersions,
    executionTimeoutMs: rec.executionTimeoutMs,
    workersStandby: rec.workersStandby,
    ...changes,
  };
  const res = await fetch(emu.urls.graphql, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${emu.apiKey}` },
    body: JSON.stringify({ query: "mutation m($input: EndpointInput!) { saveEndpoint(input: $input) { id } }", variables: { input } }),
  });
  const body = (await res.json()) as { errors?: unknown };
  expect(body.errors).toBeUndefined();
}

describe.each<SaveSemantics>(["replace", "merge"])("platform fields under %s save semantics", (saveSemantics) => {
  let emu: RunningEmulator;
  let provider: EndpointProvider;
  beforeAll(async () => {
    emu = await startTestEmulator({ saveSemantics });
    provider = new EndpointProvider(new PlatformSession(() => emulatorClient(emu)));
  });
  afterAll(async () => {
    await emu.close();
  });
  const live = (id: string) => emu.endpoints(emu.apiKey).find((e) => e.id === id)!;

  it("set at create, changed in place, then unset: no diff, and every update keeps the platform's values", async () => {
    const args = {
      name: uniqueName("fields"),
      templateId: "tpl_vllm",
      gpuIds: ["ADA_24"],
      gpuCount: 2,
      allowedCudaVersions: ["12.2", "12.1"],
      executionTimeoutMs: 120000,
    };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect(live(id)).toMatchObject({ gpuCount: 2, allowedCudaVersions: "12.2,12.1", executionTimeoutMs: 120000 });
    expect(outs).toMatchObject({ gpuCount: 2, allowedCudaVersions: ["12.2", "12.1"], executionTimeoutMs: 120000, workersStandby: 0 });

    // Same set of CUDA versions in another order: no diff.
    const reordered = await checked(provider, { ...args, allowedCudaVersions: ["12.1", "12.2"] }, inputs);
    expect((await provider.diff(id, outs as never, reordered)).changes).toBe(false);

    // One field changed in place, one request; the other two stay as declared.
    const more = await checked(provider, { ...args, gpuCount: 4 }, inputs);
    expect(await provider.diff(id, outs as never, more)).toMatchObject({ changes: true, changed: ["gpuCount"], replaces: [] });
    emu.resetStats();
    const { outs: outs2 } = await provider.update(id, outs as never, more);
    expect(emu.stats().requests).toBe(1);
    expect(live(id)).toMatchObject({ gpuCount: 4, allowedCudaVersions: "12.2,12.1", executionTimeoutMs: 120000 });

    // The three removed from the program: no diff; another field's update leaves them on the platform.
    const { gpuCount: _g, allowedCudaVersions: _c, executionTimeoutMs: _e, ...rest } = args;
    const unset = await checked(provider, rest, more);
    expect((await provider.diff(id, outs2 as never, unset)).changes).toBe(false);
    const scaled = await checked(provider, { ...rest, workersMax: 5 }, more);
    expect((await provider.diff(id, outs2 as never, scaled)).changed).toEqual(["workersMax"]);
    const { outs: outs3 } = await provider.update(id, outs2 as never, scaled);
    expect(live(id)).toMatchObject({ workersMax: 5, gpuCount: 4, allowedCudaVersions: "12.2,12.1", executionTimeoutMs: 120000 });
    expect(outs3).toMatchObject({ gpuCount: 4, allowedCudaVersions: ["12.2", "12.1"], executionTimeoutMs: 120000 });
    await provider.delete(id, outs3 as never);
  });

  it("values set outside Pulumi for unset fields, and workersStandby, show after a refresh, make no diff, and survive an update", async () => {
    const args = { name: uniqueName("outside"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 0 };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect(outs).toMatchObject({ gpuCount: 1, allowedCudaVersions: [], executionTimeoutMs: 600000, workersStandby: 0 });

    await modifyOutside(emu, id, { gpuCount: 3, executionTimeoutMs: 900000, allowedCudaVersions: "12.4", workersStandby: 1 });
    const read = await provider.read(id, outs as never);
    // A "scale to zero" endpoint that the platform keeps warm is visible.
    expect(read.props).toMatchObject({ workersMin: 0, workersStandby: 1, gpuCount: 3, executionTimeoutMs: 900000, allowedCudaVersions: ["12.4"] });
    expect((await provider.diff(id, read.props as never, inputs)).changes).toBe(false);

    const next = await checked(provider, { ...args, idleTimeout: 30 }, inputs);
    await provider.update(id, read.props as never, next);
    expect(live(id)).toMatchObject({ idleTimeout: 30, gpuCount: 3, executionTimeoutMs: 900000, allowedCudaVersions: "12.4", workersStandby: 1 });
    await provider.delete(id, (await provider.read(id, read.props as never)).props as never);
  });

  it("the REST v1 create (gpuTypeIds) sends them in its body: one request, no follow-up saveEndpoint", async () => {
    const args = {
      name: uniqueName("rest"),
      templateId: "tpl_vllm",
      gpuTypeIds: ["NVIDIA L4"],
      gpuCount: 2,
      allowedCudaVersions: ["12.1", "12.2"],
      executionTimeoutMs: 60000,
    };
    const inputs = await checked(provider, args);
    emu.resetStats();
    const { id, outs } = await provider.create(inputs);
    expect(emu.stats().byOperation).toEqual({ restCreateEndpoint: 1 });
    expect(live(id)).toMatchObject({ gpuCount: 2, allowedCudaVersions: "12.1,12.2", executionTimeoutMs: 60000 });
    expect((await provider.diff(id, outs as never, inputs)).changes).toBe(false);
    await provider.delete(id, outs as never);
  });

  it("a value the platform refuses is a clear error from the create, naming the field", async () => {
    // Past check (which would stop it at preview): what the platform itself answers.
    const inputs = { ...(await checked(provider, { name: uniqueName("refused"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] })), gpuCount: 99 };
    await expect(provider.create(inputs)).rejects.toThrow(/gpuCount/);
  });
});
