/**
 * The check of an endpoint or pod that mounts a volume of the stack (src/provider/stackMounts.ts)
 * against the emulator: with the program's hand-over of the declared volumes it records which mounted ids
 * were declared volumes, and refuses, naming the volume and every resource mounting it, once the program
 * stops declaring one; a volume it might be (declared after, its id not awaited), a retained one, one
 * still declared under its name, or no hand-over at all (the plugin path) refuse nothing.
 */
import type { PlatformClient } from "../../src/api";
import { STACK_VOLUMES_PROPERTY, type StackVolumes } from "../../src/provider/catalog/stackMembers";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { NetworkVolumeProvider } from "../../src/provider/networkVolume/provider";
import { PodProvider } from "../../src/provider/pod/provider";
import { NAME_PREFIX_PROPERTY, STACK_MOUNTS_PROPERTY } from "../../src/provider/reserved";
import { PlatformSession } from "../../src/provider/session";
import { emulatorPerFile, uniqueName } from "./harness";

type Props = Record<string, unknown>;

let client: PlatformClient;
let volume: { id: string; name: string };
emulatorPerFile((_emu, c) => (client = c));
beforeAll(async () => {
  const provider = new NetworkVolumeProvider(new PlatformSession(() => client, { api: "v2" }));
  const name = uniqueName("models");
  const { inputs } = await provider.check(undefined, { name, size: 10, dataCenterId: "EU-RO-1" });
  volume = { id: (await provider.create(inputs as never)).id, name };
});

const session = () => new PlatformSession(() => client, { api: "v2" });
const endpointArgs = (volumeId: string): Props => ({
  [NAME_PREFIX_PROPERTY]: "llm",
  templateId: "tpl_vllm",
  gpuIds: ["ADA_24"],
  dataCenterIds: ["EU-RO-1"],
  networkVolumeId: volumeId,
});
const handed = (volumes: StackVolumes["volumes"], mountedBy: StackVolumes["mountedBy"] = {}) => ({
  [STACK_VOLUMES_PROPERTY]: { volumes, mountedBy },
});

/** The endpoint's checked inputs at a deployment that declared the volume as `models`. */
async function deployed(): Promise<Props> {
  const r = await new EndpointProvider(session()).check(undefined, { ...endpointArgs(volume.id), ...handed([{ key: "models", id: volume.id }]) });
  expect(r.failures).toEqual([]);
  return r.inputs as Props;
}

test("an endpoint records a mounted volume the program declares, and carries the record while the volume stays declared or unseen", async () => {
  const olds = await deployed();
  expect(olds[STACK_MOUNTS_PROPERTY]).toEqual({ [volume.id]: "models" });
  expect(olds).not.toHaveProperty(STACK_VOLUMES_PROPERTY);
  // Still declared under its name (e.g. its id not known at this preview): recorded, no refusal.
  for (const volumes of [[{ key: "models", id: null }], [{ key: "models" }], [{ key: "other", id: "vol-x" }, { key: "late" }]]) {
    const r = await new EndpointProvider(session()).check(olds, { ...endpointArgs(volume.id), ...handed(volumes) });
    expect({ volumes, failures: r.failures }).toEqual({ volumes, failures: [] });
    expect(r.inputs?.[STACK_MOUNTS_PROPERTY]).toEqual({ [volume.id]: "models" });
  }
  // No hand-over (the plugin path): nothing refused, the record kept.
  const plugin = await new EndpointProvider(session()).check(olds, endpointArgs(volume.id));
  expect(plugin.failures).toEqual([]);
  expect(plugin.inputs?.[STACK_MOUNTS_PROPERTY]).toEqual({ [volume.id]: "models" });
  // Declared with retainOnDelete: removing it leaves it on the platform, so it is not recorded.
  const retained = await new EndpointProvider(session()).check(olds, {
    ...endpointArgs(volume.id),
    ...handed([{ key: "models", id: volume.id, retained: true }]),
  });
  expect(retained.failures).toEqual([]);
  expect(retained.inputs).not.toHaveProperty(STACK_MOUNTS_PROPERTY);
});

test("an endpoint mounting a recorded volume the program no longer declares fails its check, naming the volume and every resource mounting it", async () => {
  const olds = await deployed();
  const s = session();
  const r = await new EndpointProvider(s).check(olds, {
    ...endpointArgs(volume.id),
    ...handed([{ key: "scratch", id: null }], { [volume.id]: ["endpoint llm", "pod nb"] }),
  });
  expect(r.failures).toEqual([
    {
      property: "networkVolumeId",
      reason:
        `NetworkVolume models (network volume "${volume.name}" ${volume.id}) is no longer declared, so this deployment would delete it, ` +
        "but endpoint llm, pod nb of this stack still mount it, and the platform refuses to delete a mounted volume. " +
        "Keep models declared, or remove the mount from them first and delete the volume in a later deployment",
    },
  ]);
  // Unmounted, the volume may go.
  const { networkVolumeId: _mount, ...unmounted } = endpointArgs(volume.id);
  const moved = await new EndpointProvider(session()).check(olds, { ...unmounted, ...handed([]) });
  expect(moved.failures).toEqual([]);
  expect(moved.inputs).not.toHaveProperty(STACK_MOUNTS_PROPERTY);
});

test("a pod mounting a recorded volume the program no longer declares fails its check the same way", async () => {
  const args = {
    [NAME_PREFIX_PROPERTY]: "nb",
    name: uniqueName("nb"),
    imageName: "runpod/pytorch:2.4.0",
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
    networkVolumeId: volume.id,
  };
  const first = await new PodProvider(session()).check(undefined, { ...args, ...handed([{ key: "models", id: volume.id }]) });
  expect(first.failures).toEqual([]);
  expect(first.inputs?.[STACK_MOUNTS_PROPERTY]).toEqual({ [volume.id]: "models" });
  const r = await new PodProvider(session()).check(first.inputs, { ...args, ...handed([], { [volume.id]: ["pod nb"] }) });
  expect(r.failures).toEqual([
    {
      property: "networkVolumeId",
      reason:
        `NetworkVolume models (network volume "${volume.name}" ${volume.id}) is no longer declared, so this deployment would delete it, ` +
        "but pod nb of this stack still mounts it, and the platform refuses to delete a mounted volume. " +
        "Keep models declared, or remove the mount from it first and delete the volume in a later deployment",
    },
  ]);
});
