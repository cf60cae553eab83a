/**
 * The Pod provider against the emulator over real HTTP: preview checks and the cost estimate from the pod
 * catalog, create of a GPU pod, env values kept out of errors, an in-place update (PATCH of only what changed),
 * replacing changes, `desiredStatus` EXITED then RUNNING through podAction, drift, the GPU-type fallback of
 * `gpuTypeIds`, a CPU pod, delete — on `runpod:api v2` and on `graphql` (pods speak REST v2 on both).
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api/types";
import { NetworkVolumeProvider } from "../../src/provider/networkVolume/provider";
import { POD_SECRET_FIELDS } from "../../src/provider/pod/model";
import { podsMounting } from "../../src/provider/pod/mounts";
import { PodProvider } from "../../src/provider/pod/provider";
import { PlatformSession } from "../../src/provider/session";
import { emulatorPerFile, uniqueName } from "./harness";
import { requestSteps } from "./requestSteps";

const SECRET = "hf_p0d-s3cr3t-value";
const RTX4090 = "NVIDIA GeForce RTX 4090";

let emu: RunningEmulator;
let client: PlatformClient;
const warnings: string[] = [];
emulatorPerFile((e, c) => ([emu, client] = [e, c]));
beforeEach(() => {
  emu.setFaults({});
  warnings.length = 0;
});

const providerOn = (api: "v2" | "graphql") => new PodProvider(new PlatformSession(() => client, { api, warn: (m) => warnings.push(m) }));

async function checkedBy(provider: PodProvider, args: Record<string, unknown>, olds?: Record<string, unknown>) {
  const r = await provider.check(olds, args);
  expect(r.failures).toEqual([]);
  return r.inputs as Record<string, unknown>;
}

const platformPod = async (id: string) => client.v2.getPod(id);

describe.each(["v2", "graphql"] as const)("Pod provider on runpod:api %s", (api) => {
  test("GPU pod: create, no-op diff, in-place update, stop and start through podAction, drift, replacing changes, delete", async () => {
    const provider = providerOn(api);
    const args = {
      name: uniqueName("pod"),
      imageName: "runpod/pytorch:2.4.0",
      gpuTypeIds: [RTX4090],
      ports: ["8888/http", "22/tcp"],
      env: { MODEL: "llama", HF_TOKEN: SECRET },
      volumeInGb: 20,
      dataCenterIds: ["US-TX-3"],
    };
    const inputs = await checkedBy(provider, args);
    const price = (await client.v2.getGpuType(RTX4090)).price.secure;
    expect(inputs.costPerHour).toBeCloseTo(price, 6);

    const { id, outs } = await provider.create(inputs);
    let pod = await platformPod(id);
    expect(pod).toMatchObject({ name: args.name, image: args.imageName, gpu: { id: RTX4090, count: 1 }, dataCenterId: "US-TX-3", env: args.env });
    expect(pod.mounts).toEqual({ persistent: { size: 20, path: "/workspace" } });
    expect(outs).toMatchObject({ gpuTypeId: RTX4090, gpuTypeIds: [RTX4090], dataCenterId: "US-TX-3", volumeMountPath: "/workspace", desiredStatus: "RUNNING" });
    expect(outs?.costPerHour).toBeCloseTo(price, 6);
    expect(String(outs?.sshCommand)).toMatch(/^ssh \S+@/);
    // The resource registers env as a Pulumi secret output (no plain value in state).
    expect(POD_SECRET_FIELDS).toEqual(["env"]);
    expect(await provider.diff(id, outs as never, inputs)).toMatchObject({ changes: false, replaces: [] });

    // Refresh: the pod now runs, with its direct SSH endpoint; no diff.
    const read = await provider.read(id, outs as never);
    expect(read.props).toMatchObject({ status: "RUNNING" });
    expect(String(read.props?.sshDirectCommand)).toMatch(/^ssh root@\S+ -p \d+$/);
    expect(await provider.diff(id, read.props as never, inputs)).toMatchObject({ changes: false });

    // In place: image and env (PATCH carries only those).
    const next = await checkedBy(provider, { ...args, imageName: "runpod/pytorch:2.5.0", env: { MODEL: "mistral", HF_TOKEN: SECRET } }, inputs);
    const d = await provider.diff(id, read.props as never, next);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(d.changed.sort()).toEqual(["env", "imageName"]);
    emu.resetStats();
    const updated = await provider.update(id, read.props as never, next);
    expect(emu.stats().requests).toBe(1);
    pod = await platformPod(id);
    expect(pod).toMatchObject({ image: "runpod/pytorch:2.5.0", env: { MODEL: "mistral", HF_TOKEN: SECRET }, status: "RUNNING" });

    // Stop in place through podAction, then start again.
    const stop = await checkedBy(
      provider,
      { ...args, imageName: "runpod/pytorch:2.5.0", env: { MODEL: "mistral", HF_TOKEN: SECRET }, desiredStatus: "EXITED" },
      next,
    );
    expect(await provider.diff(id, updated.outs as never, stop)).toMatchObject({ changed: ["desiredStatus"], replaces: [] });
    const stopped = await provider.update(id, updated.outs as never, stop);
    expect(stopped.outs).toMatchObject({ status: "EXITED", desiredStatus: "EXITED", costPerHour: 0, sshDirectCommand: null });
    expect((await platformPod(id)).status).toBe("EXITED");
    const run = await checkedBy(provider, { ...stop, desiredStatus: "RUNNING" }, stop);
    const running = await provider.update(id, stopped.outs as never, run);
    expect(running.outs).toMatchObject({ status: "RUNNING", desiredStatus: "RUNNING" });
    expect(running.outs?.costPerHour).toBeCloseTo(price, 6);

    // Drift: stopped outside Pulumi, a refresh shows it and the next diff starts it again.
    await client.v2.podAction(id, { action: "stop" });
    const drifted = await provider.read(id, running.outs as never);
    expect(drifted.props).toMatchObject({ desiredStatus: "EXITED", status: "EXITED" });
    expect(await provider.diff(id, drifted.props as never, run)).toMatchObject({ changed: ["desiredStatus"], replaces: [] });

    // Replacing changes: the GPU count, the data centers, removing the volume.
    for (const [field, value] of [
      ["gpuCount", 2],
      ["dataCenterIds", ["EU-RO-1"]],
      ["volumeInGb", 0],
    ] as const) {
      const changed = await checkedBy(provider, { ...run, [field]: value }, run);
      expect(await provider.diff(id, drifted.props as never, changed)).toMatchObject({ changes: true, replaces: [field] });
    }
    // The volume's size grows in place.
    const grown = await checkedBy(provider, { ...run, volumeInGb: 40 }, run);
    expect(await provider.diff(id, drifted.props as never, grown)).toMatchObject({ replaces: [] });

    await provider.delete(id, drifted.props as never);
    await expect(platformPod(id)).rejects.toMatchObject({ status: 404 });
    await provider.delete(id, drifted.props as never);
    expect(await provider.read(id, drifted.props as never)).toEqual({});
  });
});

test("preview: unknown GPU types and data centers fail naming the field and the nearest values; one of GPU or CPU", async () => {
  const provider = providerOn("v2");
  const r = await provider.check(undefined, { name: "p", imageName: "x:1", gpuTypeIds: ["NVIDIA GeForce RTX 4091"], dataCenterIds: ["US-TX-4"] });
  const reasons = (r.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
  expect(reasons).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^gpuTypeIds: .*"NVIDIA GeForce RTX 4091" is not a GPU type of the catalog; nearest: "NVIDIA GeForce RTX 4090"/),
      expect.stringMatching(/^dataCenterIds: .*"US-TX-4" is not a data center of the catalog; nearest: "US-TX-3"/),
    ]),
  );
  const neither = await provider.check(undefined, { name: "p", imageName: "x:1" });
  expect(neither.failures).toEqual([expect.objectContaining({ property: "gpuTypeIds" })]);
  const both = await provider.check(undefined, { name: "p", imageName: "x:1", gpuTypeIds: [RTX4090], cpuFlavorId: "cpu3c", vcpuCount: 4 });
  expect(both.failures).toEqual(expect.arrayContaining([expect.objectContaining({ property: "cpuFlavorId" })]));
  const noImage = await provider.check(undefined, { name: "p", gpuTypeIds: [RTX4090] });
  expect(noImage.failures).toEqual([expect.objectContaining({ property: "imageName" })]);
  const tooMany = await provider.check(undefined, { name: "p", imageName: "x:1", gpuTypeIds: [RTX4090], gpuCount: 64 });
  expect(tooMany.failures).toEqual([
    expect.objectContaining({ property: "gpuCount", reason: expect.stringMatching(/at most \d+ x "NVIDIA GeForce RTX 4090"/) }),
  ]);
  const cloud = await provider.check(undefined, { name: "p", imageName: "x:1", gpuTypeIds: ["NVIDIA L4"], cloudType: "COMMUNITY" });
  expect(cloud.failures).toEqual([expect.objectContaining({ property: "cloudType" })]);
  const badCloud = await provider.check(undefined, { name: "p", imageName: "x:1", gpuTypeIds: [RTX4090], cloudType: "PRIVATE" });
  expect(badCloud.failures).toEqual([expect.objectContaining({ property: "cloudType", reason: expect.stringMatching(/SECURE.*COMMUNITY/) })]);
  const secret = await provider.check(undefined, { name: "p", imageName: "x:1", gpuTypeIds: [RTX4090], startSsh: true, env: { PUBLIC_KEY: SECRET } });
  expect(secret.failures).toEqual([expect.objectContaining({ property: "env" })]);
  expect(JSON.stringify(secret.failures)).not.toContain(SECRET);
});

test("gpuTypeIds are tried in order: a type the platform cannot place moves to the next", async () => {
  const provider = providerOn("v2");
  // Checked inputs as the engine would hold them; L4 is not offered on COMMUNITY cloud, so createPod refuses it (400).
  const inputs = await checkedBy(provider, { name: uniqueName("fallback"), imageName: "x:1", gpuTypeIds: [RTX4090], cloudType: "COMMUNITY" });
  const { id, outs } = await provider.create({ ...inputs, gpuTypeIds: ["NVIDIA L4", RTX4090] });
  expect(outs).toMatchObject({ gpuTypeId: RTX4090, gpuTypeIds: ["NVIDIA L4", RTX4090], cloudType: "COMMUNITY" });
  await provider.delete(id, outs as never);
});

test("a CPU pod created stopped (desiredStatus EXITED): created, then stopped through podAction", async () => {
  const provider = providerOn("v2");
  const inputs = await checkedBy(provider, { name: uniqueName("cpu"), imageName: "alpine:3", cpuFlavorId: "cpu3c", vcpuCount: 4, desiredStatus: "EXITED" });
  const flavor = await client.v2.getCpuType("cpu3c");
  expect(inputs.costPerHour).toBeCloseTo(flavor.price.securePerVcpu * 4, 6);
  const { id, outs } = await provider.create(inputs);
  expect(outs).toMatchObject({ cpuFlavorId: "cpu3c", vcpuCount: 4, gpuTypeId: null, status: "EXITED", desiredStatus: "EXITED" });
  expect(await provider.diff(id, outs as never, inputs)).toMatchObject({ changes: false });
  await provider.delete(id, outs as never);
});

test("the pod catalog is read by part, each once per session: a CPU pod reads CPU flavors only; GPU types and data centers when a pod needs them", async () => {
  const provider = providerOn("v2");
  const cpuPod = (i: number) => ({ name: `cpu-${i}`, imageName: "alpine:3", cpuFlavorId: "cpu3c", vcpuCount: 2 });
  emu.resetStats();
  await Promise.all([1, 2, 3].map((i) => checkedBy(provider, cpuPod(i))));
  expect(emu.stats().byOperation).toEqual({ listCpuTypes: 1 });
  await checkedBy(provider, cpuPod(4));
  await checkedBy(provider, { name: "gpu", imageName: "x:1", gpuTypeIds: [RTX4090] });
  expect(emu.stats().byOperation).toEqual({ listCpuTypes: 1, listGpuTypes: 1 });
  const placed = await Promise.all(
    [1, 2].map((i) => checkedBy(provider, { name: `placed-${i}`, imageName: "x:1", gpuTypeIds: [RTX4090], dataCenterIds: ["US-TX-3"] })),
  );
  await checkedBy(provider, { ...cpuPod(5), dataCenterIds: ["EU-RO-1"] });
  expect(emu.stats().byOperation).toEqual({ listCpuTypes: 1, listGpuTypes: 1, listDataCenters: 1 });
  expect(placed[0].costPerHour).toBeCloseTo((await client.v2.getGpuType(RTX4090)).price.secure, 6);
});

test("reads of one session share one listPods (a refresh of N pods lists once); a pod this process changed is read fresh", async () => {
  const writer = providerOn("v2");
  const made = await Promise.all(
    [1, 2, 3].map(async (i) =>
      writer.create(await checkedBy(writer, { name: uniqueName(`listed-${i}`), imageName: "alpine:3", cpuFlavorId: "cpu3c", vcpuCount: 2 })),
    ),
  );
  const reader = providerOn("v2");
  emu.resetStats();
  const reads = await Promise.all(made.map((m) => reader.read(m.id, m.outs as never)));
  expect(reads.map((r) => r.id)).toEqual(made.map((m) => m.id));
  expect(reads.map((r) => r.props?.imageName)).toEqual(["alpine:3", "alpine:3", "alpine:3"]);
  expect(emu.stats().byOperation).toEqual({ listPods: 1 });

  const [first] = made;
  const next = await checkedBy(reader, { ...(reads[0].inputs as Record<string, unknown>), imageName: "alpine:3.20" }, reads[0].inputs as never);
  const updated = await reader.update(first.id, reads[0].props as never, next);
  emu.resetStats();
  expect((await reader.read(first.id, updated.outs as never)).props).toMatchObject({ imageName: "alpine:3.20" });
  expect(emu.stats().byOperation).toEqual({ listPods: 1 });

  await Promise.all(made.map((m) => reader.delete(m.id, m.outs as never)));
  emu.resetStats();
  expect(await reader.read(first.id, updated.outs as never)).toEqual({});
  expect(emu.stats().byOperation).toEqual({ listPods: 1 });
});

test("a pod mounts a network volume created in the same process; the volume's delete is refused at once naming the pod", async () => {
  const session = new PlatformSession(() => client, { api: "v2", warn: (m) => warnings.push(m) });
  const volumes = new NetworkVolumeProvider(session, { deadlineMs: 300, firstPauseMs: 50 });
  const pods = new PodProvider(session);
  // The session's volume listing is warm from before the volume exists; the pod's check must still find it.
  await session.networkVolumes();
  const vInputs = (await volumes.check(undefined, { name: uniqueName("vol"), size: 20, dataCenterId: "EU-RO-1" })).inputs;
  const volume = await volumes.create(vInputs);
  const inputs = await checkedBy(pods, {
    name: uniqueName("mounter"),
    imageName: "x:1",
    gpuTypeIds: [RTX4090],
    networkVolumeId: volume.id,
    volumeMountPath: "/data",
  });
  const pod = await pods.create(inputs);
  expect(pod.outs).toMatchObject({ networkVolumeId: volume.id, volumeMountPath: "/data", dataCenterId: "EU-RO-1" });
  expect(await podsMounting(client, volume.id)).toBe(`pods ${pod.id} (${String(inputs.name)})`);
  // The pod was checked in this process (the program still declares it): refused at once, naming it, no retries.
  await expect(volumes.delete(volume.id, volume.outs as never)).rejects.toThrow(
    new RegExp(`still used by pod ${String(inputs.name)} of this stack, which the program still declares using it.*pod ${pod.id} \\(${String(inputs.name)}\\)`),
  );
  await pods.delete(pod.id, pod.outs as never);
  await volumes.delete(volume.id, volume.outs as never);
  expect(await podsMounting(client, volume.id)).toBe("");
});

test("with templateId, unset fields are the template's and a declared env is the pod's whole env: no diff after create", async () => {
  const provider = providerOn("v2");
  const template = await client.v2.createTemplate({
    name: uniqueName("podtpl"),
    image: "runpod/pytorch:2.4.0",
    env: { FROM_TEMPLATE: "1" },
    ports: ["8888/http"],
    startSsh: false,
    startJupyter: false,
  });
  const inputs = await checkedBy(provider, { name: uniqueName("tplpod"), templateId: template.id, gpuTypeIds: [RTX4090], env: { MINE: "2" } });
  const { id, outs } = await provider.create(inputs);
  const created = await platformPod(id);
  expect(created).toMatchObject({ image: "runpod/pytorch:2.4.0", ports: ["8888/http"] });
  expect(created.env).toEqual({ MINE: "2" });
  expect(outs).toMatchObject({ templateId: template.id, imageName: "runpod/pytorch:2.4.0", env: { MINE: "2" } });
  expect(await provider.diff(id, outs as never, inputs)).toMatchObject({ changes: false });
  const refreshed = await provider.read(id, outs as never);
  expect(await provider.diff(id, refreshed.props as never, inputs)).toMatchObject({ changes: false });

  // Another template, in place: its image applies, the declared env stays the pod's env.
  const other = await client.v2.createTemplate({
    name: uniqueName("podtpl2"),
    image: "runpod/pytorch:2.5.0",
    env: { OTHER: "3" },
    startSsh: false,
    startJupyter: false,
  });
  const next = await checkedBy(provider, { ...inputs, templateId: other.id }, inputs);
  expect(await provider.diff(id, refreshed.props as never, next)).toMatchObject({ changed: ["templateId"], replaces: [] });
  const updated = await provider.update(id, refreshed.props as never, next);
  const after = await platformPod(id);
  expect(after.image).toBe("runpod/pytorch:2.5.0");
  expect(after.env).toEqual({ MINE: "2" });
  expect(await provider.diff(id, updated.outs as never, next)).toMatchObject({ changes: false });
  await provider.delete(id, outs as never);
});

test("placement preferences: a gpuTypeIds or dataCenterIds list that still allows where the pod runs is no change (an import, a reorder); one that leaves it out replaces", async () => {
  const provider = providerOn("v2");
  const args = { name: uniqueName("placed"), imageName: "runpod/pytorch:2.4.0", gpuTypeIds: [RTX4090], dataCenterIds: ["EU-RO-1"] };
  const inputs = await checkedBy(provider, args);
  const { id, outs } = await provider.create(inputs);
  expect(outs).toMatchObject({ gpuTypeId: RTX4090, dataCenterId: "EU-RO-1" });

  const wider = await checkedBy(provider, { ...args, gpuTypeIds: ["NVIDIA RTX A6000", RTX4090], dataCenterIds: ["US-TX-3", "EU-RO-1"] }, inputs);
  expect(await provider.diff(id, outs as never, wider)).toMatchObject({ changes: false, changed: [], replaces: [] });
  const anywhere = await checkedBy(provider, { ...args, dataCenterIds: [] }, inputs);
  expect(await provider.diff(id, outs as never, anywhere)).toMatchObject({ changes: false, replaces: [] });

  // An import reads the record alone (no preferences): the program's wider lists are no change either.
  const imported = await providerOn("v2").read(id, {} as never);
  expect(imported.inputs).toMatchObject({ gpuTypeIds: [RTX4090], dataCenterIds: [] });
  expect(await provider.diff(id, imported.props as never, wider)).toMatchObject({ changes: false, replaces: [] });

  const elsewhere = await checkedBy(provider, { ...args, dataCenterIds: ["US-TX-3"] }, inputs);
  expect(await provider.diff(id, outs as never, elsewhere)).toMatchObject({ changes: true, changed: ["dataCenterIds"], replaces: ["dataCenterIds"] });
  const otherGpu = await checkedBy(provider, { ...args, gpuTypeIds: ["NVIDIA RTX A6000"] }, inputs);
  expect(await provider.diff(id, outs as never, otherGpu)).toMatchObject({ changes: true, changed: ["gpuTypeIds"], replaces: ["gpuTypeIds"] });
  // With another change beside it, the allowed list is still left out of the diff.
  const image = await checkedBy(provider, { ...args, imageName: "runpod/pytorch:2.5.0", dataCenterIds: ["US-TX-3", "EU-RO-1"] }, inputs);
  expect(await provider.diff(id, outs as never, image)).toMatchObject({ changes: true, changed: ["imageName"], replaces: [] });
  await provider.delete(id, outs as never);
});

test("a pod's life sends the same requests on both paths, operation by operation (the benchmark tier counts them through the CLI on v2 alone)", async () => {
  const sent = async (api: "v2" | "graphql"): Promise<Record<string, Record<string, number>>> => {
    const provider = providerOn(api);
    const { ops, step } = requestSteps(emu);
    const args = { name: uniqueName(`paths-${api}`), imageName: "alpine:3", cpuFlavorId: "cpu3c", vcpuCount: 2 };
    const inputs = await step("check", () => checkedBy(provider, args));
    const { id, outs } = await step("create", () => provider.create(inputs as never));
    const read = await step("read", () => providerOn(api).read(id, outs as never));
    const next = await step("check again", () => checkedBy(provider, { ...args, imageName: "alpine:3.20" }, inputs));
    await step("diff", () => provider.diff(id, read.props as never, next as never));
    const updated = await step("update", () => provider.update(id, read.props as never, next as never));
    await step("delete", () => provider.delete(id, updated.outs as never));
    return ops;
  };
  const v2 = await sent("v2");
  expect(v2).toMatchObject({ create: { createPod: 1 }, update: { updatePod: 1 }, delete: { deletePod: 1 } });
  expect(await sent("graphql")).toEqual(v2);
});
