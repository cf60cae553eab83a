/**
 * Refresh of every kind as Pulumi's dynamic provider host does it, against the emulator over real HTTP:
 * `read` gets the stored outputs only, and a refresh shows the stored inputs against the inputs `read`
 * returns. A resource unchanged since its deployment reads back with exactly its checked inputs — declared
 * fields whose unset means the platform's default included, none the program left unset added, and the
 * estimates `check` writes as it wrote them (a stopped pod's stays its list price); a change outside Pulumi
 * shows as a changed input and in the next diff or check; an import (no stored outputs) rebuilds the inputs
 * from the record alone.
 */
import type { PlatformClient } from "../../src/api/types";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { NetworkVolumeProvider } from "../../src/provider/networkVolume/provider";
import { PodProvider } from "../../src/provider/pod/provider";
import { RegistryAuthProvider } from "../../src/provider/registryAuth/provider";
import { AUTONAMED_PROPERTY, CHECKED_PROPERTY, NAME_PREFIX_PROPERTY } from "../../src/provider/reserved";
import { PlatformSession } from "../../src/provider/session";
import { TemplateProvider } from "../../src/provider/template/provider";
import { emulatorPerFile, uniqueName } from "./harness";

type Props = Record<string, unknown>;

/** The operations a refresh and the next preview use, whatever the kind. */
interface Provider {
  check(olds: Props | undefined, news: Props): Promise<{ inputs?: Props; failures?: { property: string; reason: string }[] }>;
  create(news: Props): Promise<{ id: string; outs?: Props }>;
  read(id: string, props?: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  diff(id: string, olds: Props, news: Props): Promise<{ changes?: boolean; changed: string[] }>;
  delete(id: string, props?: Props): Promise<void>;
}

let client: PlatformClient;
emulatorPerFile((_emu, c) => (client = c), { saveSemantics: "replace" });

async function checked(provider: Provider, args: Props, olds?: Props): Promise<Props> {
  const r = await provider.check(olds, args);
  expect(r.failures ?? []).toEqual([]);
  return r.inputs as Props;
}

/** Creates from `args` as `up` does, then refreshes twice as the engine does (stored outputs only). */
async function deployAndRefresh(provider: Provider, args: Props) {
  const inputs = await checked(provider, args);
  const { id, outs } = await provider.create(inputs);
  const refreshed = await provider.read(id, outs);
  const again = await provider.read(id, refreshed.props);
  return { id, inputs, outs: outs as Props, refreshed, again };
}

describe.each(["v2", "graphql"] as const)("refresh on runpod:api %s returns the checked inputs' keys", (api) => {
  const session = () => new PlatformSession(() => client, { api, warn: () => {} });

  it.each<[string, () => Provider, () => Props, string[]]>([
    [
      "Endpoint",
      () => new EndpointProvider(session()),
      () => ({
        name: uniqueName("ri-ep"),
        templateId: "tpl_vllm",
        gpuIds: ["ADA_24"],
        workersMax: 2,
        gpuCount: 2,
        allowedCudaVersions: ["12.2", "12.1"],
        executionTimeoutMs: 120000,
      }),
      ["gpuCount", "allowedCudaVersions", "executionTimeoutMs", "maxHourlyCost", "idleHourlyCost", "workerHourlyCost"],
    ],
    [
      "Template",
      () => new TemplateProvider(session()),
      () => ({ name: uniqueName("ri-tpl"), imageName: "ghcr.io/acme/llm:1", ports: ["8000/http"], env: { HF_TOKEN: "hf_ri-secret" }, volumeInGb: 10 }),
      ["imageName", "ports", "env"],
    ],
    [
      "ContainerRegistryAuth (auto-named)",
      () => new RegistryAuthProvider(session()),
      () => ({ [NAME_PREFIX_PROPERTY]: "ri-auth", username: "acme", password: "ri-s3cret" }),
      ["username", "password", AUTONAMED_PROPERTY],
    ],
    [
      "NetworkVolume",
      () => new NetworkVolumeProvider(session()),
      () => ({ name: uniqueName("ri-vol"), size: 20, dataCenterId: "EU-RO-1", type: "STANDARD" }),
      ["type", "monthlyCost"],
    ],
    [
      "Pod",
      () => new PodProvider(session()),
      () => ({
        name: uniqueName("ri-pod"),
        imageName: "runpod/pytorch:2.4.0",
        gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
        ports: ["8888/http", "22/tcp"],
        env: { HF_TOKEN: "hf_ri-pod-secret" },
        volumeInGb: 20,
        volumeMountPath: "/workspace",
        dockerArgs: "sleep infinity",
        containerDiskInGb: 30,
        dataCenterIds: ["EU-RO-1"],
      }),
      ["imageName", "ports", "env", "volumeInGb", "volumeMountPath", "dockerArgs", "containerDiskInGb", "costPerHour"],
    ],
    [
      // Stopped: the platform's cost is 0, check's estimate (the budget's figure) the list price; the estimate stays.
      "Pod (stopped)",
      () => new PodProvider(session()),
      () => ({ name: uniqueName("ri-stopped"), imageName: "runpod/pytorch:2.4.0", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], desiredStatus: "EXITED" }),
      ["imageName", "costPerHour"],
    ],
  ])("%s: a clean refresh returns exactly the checked inputs; an import rebuilds them from the record", async (_kind, make, args, declared) => {
    const provider = make();
    const { id, inputs, outs, refreshed, again } = await deployAndRefresh(provider, args());
    // The declared fields this is about are in the checked inputs (so the assertions below cover them).
    expect(Object.keys(inputs)).toEqual(expect.arrayContaining(declared));
    expect(outs[CHECKED_PROPERTY]).toMatchObject({ keys: Object.keys(inputs).sort() });

    expect(refreshed.id).toBe(id);
    expect(refreshed.inputs).toEqual(inputs);
    expect(refreshed.props?.[CHECKED_PROPERTY]).toEqual(outs[CHECKED_PROPERTY]);
    // The refreshed state refreshes the same way (the keys ride along), and shows no diff.
    expect(again.inputs).toEqual(inputs);
    expect((await provider.diff(id, again.props as Props, inputs)).changes).toBe(false);
    // The next check from the refreshed inputs is the deployment's own.
    expect(await checked(provider, { ...args(), name: inputs.name }, again.inputs)).toEqual({ ...inputs, [AUTONAMED_PROPERTY]: undefined });

    // Import: no stored outputs, so no keys; the inputs are those of the record alone, as before.
    const imported = await make().read(id, {});
    expect(imported.props).not.toHaveProperty(CHECKED_PROPERTY);
    expect(imported.inputs).not.toHaveProperty(AUTONAMED_PROPERTY);
    expect(imported.inputs?.name).toBe(inputs.name);

    await provider.delete(id, again.props as Props);
  });

  it("a change outside Pulumi shows as a changed input in the refresh and in the next diff", async () => {
    // Read after the change by another process's provider, as the next `pulumi refresh` does (no listing of this one's).
    const pods = new PodProvider(session());
    const pod = await deployAndRefresh(pods, {
      name: uniqueName("ri-drift"),
      imageName: "runpod/pytorch:2.4.0",
      gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
      ports: ["8888/http"],
      dataCenterIds: ["EU-RO-1"],
    });
    await client.v2.updatePod(pod.id, { image: "runpod/pytorch:2.5.0", ports: ["8888/http", "22/tcp"] });
    const podRead = await new PodProvider(session()).read(pod.id, pod.again.props);
    expect(podRead.inputs).toEqual({ ...pod.inputs, imageName: "runpod/pytorch:2.5.0", ports: ["8888/http", "22/tcp"] });
    const podDiff = await pods.diff(pod.id, podRead.props as Props, pod.inputs);
    expect(podDiff.changed.sort()).toEqual(["imageName", "ports"]);
    await pods.delete(pod.id, podRead.props as Props);

    const volumes = new NetworkVolumeProvider(session());
    const volume = await deployAndRefresh(volumes, { name: uniqueName("ri-grown"), size: 20, dataCenterId: "EU-RO-1", type: "STANDARD" });
    await client.v2.updateNetworkVolume(volume.id, { size: 40 });
    const volumeRead = await new NetworkVolumeProvider(session()).read(volume.id, volume.again.props);
    // The estimate is the preview's own figure; the next preview recomputes it, here refusing the shrink back to 20 GB.
    expect(volumeRead.inputs).toEqual({ ...volume.inputs, size: 40 });
    const next = await volumes.check(volumeRead.inputs, { name: volume.inputs.name, size: 20, dataCenterId: "EU-RO-1", type: "STANDARD" });
    expect(next.failures).toEqual([{ property: "size", reason: expect.stringMatching(/^size cannot shrink: the volume has 40 GB/) }]);
    await volumes.delete(volume.id, volumeRead.props as Props);
  });
});
