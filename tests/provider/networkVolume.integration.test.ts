/**
 * The NetworkVolume provider against the emulator over real HTTP: create, rename and grow in place, a shrink
 * failing at check (and diff) naming the current size, a data center change replacing, a delete refused while
 * an endpoint mounts the volume failing with the endpoint named, REST v2 on both `runpod:api` paths, and the
 * monthly cost at preview from the catalog's tiers.
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api";
import { isInUse } from "../../src/provider/errorKinds";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { VOLUME_PRICE_PER_GB_MONTH } from "../../src/provider/networkVolume/cost";
import { NetworkVolumeProvider } from "../../src/provider/networkVolume/provider";
import { PlatformSession } from "../../src/provider/session";
import { emulatorPerFile, uniqueName } from "./harness";
import { requestSteps } from "./requestSteps";

let emu: RunningEmulator;
let client: PlatformClient;
emulatorPerFile((e, c) => ([emu, client] = [e, c]));

type Props = Record<string, unknown>;
const on = (api: "v2" | "graphql") => new PlatformSession(() => client, { api });
const volumeProvider = (api: "v2" | "graphql" = "v2") => new NetworkVolumeProvider(on(api), { deadlineMs: 300, firstPauseMs: 50 });

async function checked(provider: NetworkVolumeProvider, args: Props, olds?: Props): Promise<Props> {
  const r = await provider.check(olds, args);
  expect(r.failures).toEqual([]);
  return r.inputs as Props;
}

describe.each(["v2", "graphql"] as const)("NetworkVolume on runpod:api %s (REST v2 either way)", (api) => {
  it("creates, renames and grows in place, reads back without drift, and deletes", async () => {
    const provider = volumeProvider(api);
    emu.resetStats();
    const inputs = await checked(provider, { name: uniqueName("vol"), size: 20, dataCenterId: "EU-RO-1" });
    // Unset type: the data center's primary tier prices the preview.
    expect(inputs.monthlyCost).toBeCloseTo(20 * VOLUME_PRICE_PER_GB_MONTH.STANDARD, 6);
    const { id, outs } = await provider.create(inputs);
    expect(outs).toMatchObject({ networkVolumeId: id, name: inputs.name, size: 20, dataCenterId: "EU-RO-1", type: "STANDARD" });
    expect(await client.v2.getNetworkVolume(id)).toEqual({ id, name: inputs.name, size: 20, dataCenter: "EU-RO-1", type: "STANDARD" });
    const ops = Object.keys(emu.stats().byOperation);
    expect(ops).toContain("createNetworkVolume");
    expect(ops.filter((op) => !/NetworkVolume|catalog|Gpu|Cpu|DataCenter/i.test(op))).toEqual([]);

    const read = await volumeProvider(api).read(id, outs as Props);
    expect((await provider.diff(id, read.props as Props, inputs)).changes).toBe(false);

    const next = await checked(provider, { ...inputs, name: `${String(inputs.name)}-renamed`, size: 60 }, inputs);
    expect(next.monthlyCost).toBeCloseTo(60 * VOLUME_PRICE_PER_GB_MONTH.STANDARD, 6);
    const diff = await provider.diff(id, read.props as Props, next);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect([...diff.changed].sort()).toEqual(["name", "size"]);
    const updated = await provider.update(id, read.props as Props, next);
    expect(updated.outs).toMatchObject({ networkVolumeId: id, name: next.name, size: 60 });
    expect(await client.v2.getNetworkVolume(id)).toMatchObject({ id, name: next.name, size: 60 });

    await provider.delete(id, updated.outs as Props);
    expect((await client.v2.listNetworkVolumes()).some((v) => v.id === id)).toBe(false);
    expect(await volumeProvider(api).read(id, updated.outs as Props)).toEqual({});
  });
});

it("a shrink fails at check and at update, naming the current size; the platform is not asked; diff only reports it (a refresh must record a volume grown outside Pulumi)", async () => {
  const provider = volumeProvider();
  const inputs = await checked(provider, { name: uniqueName("shrink"), size: 50, dataCenterId: "US-TX-3", type: "HIGH_PERFORMANCE" });
  expect(inputs.monthlyCost).toBeCloseTo(50 * VOLUME_PRICE_PER_GB_MONTH.HIGH_PERFORMANCE, 6);
  const { id, outs } = await provider.create(inputs);
  const smaller = await provider.check(inputs, { name: inputs.name, size: 40, dataCenterId: "US-TX-3", type: "HIGH_PERFORMANCE" });
  expect(smaller.failures).toEqual([{ property: "size", reason: expect.stringMatching(/^size cannot shrink: the volume has 50 GB .*got 40/) }]);
  // Grown outside Pulumi and refreshed: the stored outputs hold the current size.
  await client.v2.updateNetworkVolume(id, { size: 80 });
  const refreshed = (await volumeProvider().read(id, outs as Props)).props as Props;
  expect(refreshed.size).toBe(80);
  emu.resetStats();
  expect(await provider.diff(id, refreshed, { ...inputs, size: 60 })).toMatchObject({ changes: true, changed: ["size"], replaces: [] });
  await expect(provider.update(id, refreshed, { ...inputs, size: 60 })).rejects.toThrow(/the volume has 80 GB .*got 60/);
  expect(emu.stats().byOperation.updateNetworkVolume).toBeUndefined();
  expect((await client.v2.getNetworkVolume(id)).size).toBe(80);
  await provider.delete(id, refreshed);
});

it("a changed data center or tier replaces; a tier the data center does not offer fails at check", async () => {
  const provider = volumeProvider();
  const inputs = await checked(provider, { name: uniqueName("move"), size: 10, dataCenterId: "EU-RO-1" });
  const { id, outs } = await provider.create(inputs);
  const moved = await checked(provider, { ...inputs, dataCenterId: "US-TX-3" }, inputs);
  expect(await provider.diff(id, outs as Props, moved)).toMatchObject({ changes: true, replaces: ["dataCenterId"], deleteBeforeReplace: false });
  const faster = await checked(provider, { ...inputs, type: "HIGH_PERFORMANCE" }, inputs);
  expect(await provider.diff(id, outs as Props, faster)).toMatchObject({ changes: true, replaces: ["type"] });
  const notOffered = await provider.check(undefined, { ...inputs, dataCenterId: "US-CA-2", type: "HIGH_PERFORMANCE" });
  expect(notOffered.failures).toEqual([{ property: "type", reason: "data center US-CA-2 offers STANDARD; got HIGH_PERFORMANCE" }]);
  const unknownDc = await provider.check(undefined, { ...inputs, dataCenterId: "MOON-1" });
  expect(unknownDc.failures).toEqual([
    { property: "dataCenterId", reason: expect.stringMatching(/^dataCenterId "MOON-1" is not a data center of the catalog; known: .*EU-RO-1/) },
  ]);
  const tooBig = await provider.check(undefined, { ...inputs, size: 5000 });
  expect(tooBig.failures).toEqual([{ property: "size", reason: expect.stringContaining("4096") }]);
  await provider.delete(id, outs as Props);
});

it("check reads the catalog's data centers alone, once per session, and shares the read with the endpoints' catalog", async () => {
  const session = on("v2");
  const provider = new NetworkVolumeProvider(session);
  emu.resetStats();
  const inputs = await Promise.all(["a", "b", "c"].map((n) => checked(provider, { name: uniqueName(n), size: 10, dataCenterId: "EU-RO-1" })));
  await checked(provider, { ...inputs[0], size: 30 }, inputs[0]);
  expect(emu.stats().byOperation).toEqual({ listDataCenters: 1 });
  await session.catalog();
  expect(emu.stats().byOperation).toEqual({ listDataCenters: 1, listGpuTypes: 1, listCpuTypes: 1 });
});

/** An endpoint `endpoints` checks and creates, named after `name`, mounting volume `volumeId`. */
async function mountingEndpoint(endpoints: EndpointProvider, name: string, volumeId: string) {
  const r = (await endpoints.check(undefined, {
    name: uniqueName(name),
    templateId: "tpl_vllm",
    gpuIds: ["ADA_24"],
    dataCenterIds: ["EU-RO-1"],
    networkVolumeId: volumeId,
  })) as { inputs: Props; failures?: unknown[] };
  expect(r.failures ?? []).toEqual([]);
  return { inputs: r.inputs, ep: await endpoints.create(r.inputs) };
}

it("a delete refused while an endpoint mounts the volume fails as in-use naming the endpoint; after the endpoint goes it succeeds", async () => {
  const session = on("v2");
  const provider = new NetworkVolumeProvider(session, { deadlineMs: 300, firstPauseMs: 50 });
  const vol = await provider.create(await checked(provider, { name: uniqueName("mounted"), size: 10, dataCenterId: "EU-RO-1" }));
  // Another deployment's endpoint (its own session): this one may yet let go, so the refusal is retried.
  const endpoints = new EndpointProvider(on("v2"));
  const { inputs: epInputs, ep } = await mountingEndpoint(endpoints, "reader", vol.id);

  const err = await provider.delete(vol.id, vol.outs as Props).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err).toBeInstanceOf(Error);
  expect(err!.message).toContain(`is still in use by endpoints ${ep.id} (${String(epInputs.name)})`);
  expect(isInUse((err as Error & { cause?: unknown }).cause)).toBe(true);
  expect((await client.v2.getNetworkVolume(vol.id)).id).toBe(vol.id);

  await endpoints.delete(ep.id, ep.outs as Props);
  await provider.delete(vol.id, vol.outs as Props);
  expect((await client.v2.listNetworkVolumes()).some((v) => v.id === vol.id)).toBe(false);
});

it("a delete refused while an endpoint this deployment keeps mounts the volume fails at once, naming it, without retries", async () => {
  const session = on("v2");
  const provider = new NetworkVolumeProvider(session, { deadlineMs: 60_000, firstPauseMs: 50 });
  const vol = await provider.create(await checked(provider, { name: uniqueName("kept"), size: 10, dataCenterId: "EU-RO-1" }));
  // Checked in the same session: the program still declares it, mounting the volume.
  const endpoints = new EndpointProvider(session);
  const { inputs: epInputs, ep } = await mountingEndpoint(endpoints, "keeper", vol.id);

  emu.resetStats();
  const err = await provider.delete(vol.id, vol.outs as Props).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(err!.message).toContain(
    `Network volume "${String((vol.outs as Props).name)}" (${vol.id}) is still used by endpoint ${String(epInputs.name)} of this stack, which the program still declares using it, and the platform refuses to delete it`,
  );
  expect(err!.message).not.toContain("of retries");
  expect(isInUse((err as Error & { cause?: unknown }).cause)).toBe(true);
  expect(emu.stats().byOperation.deleteNetworkVolume).toBe(1); // one try, no retry
  expect((await client.v2.getNetworkVolume(vol.id)).id).toBe(vol.id);

  await endpoints.delete(ep.id, ep.outs as Props);
  await new NetworkVolumeProvider(on("v2")).delete(vol.id, vol.outs as Props);
});

it("a volume's life sends the same requests on both paths, operation by operation (the benchmark tier counts them through the CLI on v2 alone)", async () => {
  const sent = async (api: "v2" | "graphql"): Promise<Record<string, Record<string, number>>> => {
    const provider = volumeProvider(api);
    const { ops, step } = requestSteps(emu);
    const inputs = await step("check", () => checked(provider, { name: uniqueName(`paths-${api}`), size: 10, dataCenterId: "EU-RO-1" }));
    const { id, outs } = await step("create", () => provider.create(inputs));
    const read = await step("read", () => volumeProvider(api).read(id, outs as Props));
    const next = await step("check again", () => checked(provider, { ...inputs, size: 20 }, inputs));
    await step("diff", () => provider.diff(id, read.props as Props, next));
    const updated = await step("update", () => provider.update(id, read.props as Props, next));
    await step("delete", () => provider.delete(id, updated.outs as Props));
    return ops;
  };
  const v2 = await sent("v2");
  expect(v2).toMatchObject({ create: { createNetworkVolume: 1 }, update: { updateNetworkVolume: 1 }, delete: { deleteNetworkVolume: 1 } });
  expect(await sent("graphql")).toEqual(v2);
});
