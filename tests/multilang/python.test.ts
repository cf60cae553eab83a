/**
 * The provider plugin from Python, through the real Pulumi CLI and engine against the emulator: a
 * program on the generated SDK (tests/multilang/python/__main__.py, declared by stack config) goes
 * through its whole life in order — each test builds on the state the previous one left. The engine
 * finds the plugin by `plugins.providers` in Pulumi.yaml; the program runs in the virtualenv and with
 * the minimal Python host of scripts/build-pulumi-tools.sh (`npm run tools`, run by `npm test`).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { CPU_FLAVORS, DATA_CENTERS, POOLS } from "../../emulator/catalog";
import { createClientFromEnv, type EndpointRecord, type PlatformClient } from "../../src/api";
import { LocalStack, tempDir, type RunOptions } from "../../scripts/exampleStack";
import type { RunPulumiResult } from "../../scripts/pulumiCli";
import { changingSteps, isEngineMarshalLine, linesWithSecrets, pythonSdkPath, requirePythonTooling, resourceName, usePlatform, writeProject } from "./harness";

jest.setTimeout(300_000);

const REGISTRY_PASSWORD = "regpw-Zq81-never-in-state";
const OUTSIDE_TOKEN = "outside-tok-P4w7-never-in-state";
const HF_TOKEN = "hf_tok-7Yx2-never-in-state";
const POD_TOKEN = "pod-tok-K9m3-never-in-state";
const SECRETS = [REGISTRY_PASSWORD, HF_TOKEN, POD_TOKEN, OUTSIDE_TOKEN];

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;
const transcript: string[] = [];

async function pulumi(args: string[], options: RunOptions = {}): Promise<RunPulumiResult> {
  const r = await stack.run(args, options);
  transcript.push(r.stdout, r.stderr);
  return r;
}

const onEmulator = (id: string): EndpointRecord | undefined => emu.endpoints().find((e) => e.id === id);

async function outputs(): Promise<Record<string, any>> {
  return (await stack.outputs()) as Record<string, any>;
}

async function previewSteps() {
  const r = await pulumi(["preview", "--json"]);
  return changingSteps(r.stdout);
}

beforeAll(async () => {
  requirePythonTooling();
  // Not a save-semantics scenario: pinned to the platform's own (replace), so it runs once.
  emu = await startEmulator({ port: 0, quiet: true, saveSemantics: "replace", workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-python-");
  const programDir = path.join(work, "program");
  fs.mkdirSync(programDir, { recursive: true });
  fs.copyFileSync(path.join(__dirname, "python", "__main__.py"), path.join(programDir, "__main__.py"));
  writeProject(programDir, "runpod-python", "python");
  // Previews are checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs (a Python program run each).
  stack = await LocalStack.create({ programDir, stackName: "py", stateDir: path.join(work, "state"), env: { PYTHONPATH: pythonSdkPath() }, skipPreview: true });
  await usePlatform(stack, emu.urls, emu.apiKey, { registryPassword: REGISTRY_PASSWORD, hfToken: HF_TOKEN, podToken: POD_TOKEN });
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("up creates the registry credentials, the template with its secret env, the endpoint on the looked-up volume, and a volume that an endpoint and a GPU pod both mount", async () => {
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+ 7 created/); // the stack and six resources
  const out = await outputs();
  expect(out.volumeDataCenter).toBe("EU-RO-1");
  // The catalog functions, as the emulator's catalog states them.
  expect(out.rtx4090).toEqual({ pool: "ADA_24", serverlessPrice: POOLS.find((p) => p.id === "ADA_24")!.serverlessPricePerGpuHour, availability: "HIGH" });
  expect(out.europeHighPerformance).toEqual(
    DATA_CENTERS.filter((dc) => dc.region === "EUROPE" && dc.networkVolumeTypes.includes("HIGH_PERFORMANCE"))
      .map((dc) => dc.id)
      .sort(),
  );
  expect(out.cpuFlavors).toEqual(CPU_FLAVORS.map((c) => c.id).sort());
  const ep = onEmulator(out.endpointId);
  expect(ep).toMatchObject({ templateId: out.templateId, gpuIds: "ADA_24,AMPERE_24", workersMax: 3, type: "QB", networkVolumeId: "nv_models01" });
  expect(ep?.name).toMatch(/^api-[0-9a-f]{7}$/); // auto-named from the resource name
  expect(out.endpointName).toBe(ep?.name);
  expect(out.jobUrl).toBe(`${emu.urls.inference}/v2/${out.endpointId}/`);
  const tpl = emu.templates().find((t) => t.id === out.templateId);
  expect(tpl).toMatchObject({ imageName: "registry.example.com/team/llm:1.0", containerRegistryAuthId: out.credsId });
  expect(emu.registryAuthPasswordMatches(out.credsId, REGISTRY_PASSWORD)).toBe(true);

  // The program's own volume (REST v2 whatever runpod:api says), and the second endpoint mounting it.
  expect(await client.v2.getNetworkVolume(out.scratch.id)).toMatchObject({ size: 20, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  expect(out.scratch.size).toBe(20);
  expect(out.scratch.monthlyCost).toBeCloseTo(20 * 0.14, 6); // the HIGH_PERFORMANCE list price per GB and month (docs/networkVolume.md)
  expect(onEmulator(out.batchId)).toMatchObject({ networkVolumeId: out.scratch.id, gpuIds: "ADA_24", workersMax: 1 });

  // The pod: placed on the GPU type in the volume's data center, mounting the volume (and no volume of its own),
  // its env set on the platform and a secret in the state.
  const pod = await client.v2.getPod(out.pod.id);
  expect(pod).toMatchObject({ gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 }, dataCenterId: "EU-RO-1", env: { HF_TOKEN: POD_TOKEN } });
  expect(pod.mounts.network?.map((m) => m.volumeId)).toEqual([out.scratch.id]);
  expect(pod.mounts.persistent).toBeUndefined();
  expect(out.pod).toMatchObject({
    gpuTypeId: "NVIDIA GeForce RTX 4090",
    dataCenterId: "EU-RO-1",
    costPerHour: pod.cost,
    networkVolumeId: out.scratch.id,
    desiredStatus: "RUNNING",
  });
  expect(pod.cost).toBeGreaterThan(0);
  expect(["PROVISIONING", "RUNNING"]).toContain(out.pod.status);
  const podState = (await stack.resources("runpod:index:Pod"))[0];
  expect(JSON.stringify(podState.outputs?.env)).toContain("ciphertext");
  expect(JSON.stringify(podState)).not.toContain(POD_TOKEN);
  expect(linesWithSecrets(await stack.exportText(), SECRETS)).toEqual([]);
});

test("a second preview changes nothing", async () => {
  await pulumi(["preview", "--expect-no-changes"]);
});

test("a one-field change previews as an update with only that property in detailedDiff; a volume grows in place", async () => {
  await stack.setConfigs({ workersMax: "5", volumeSize: "30" });
  const steps = await previewSteps();
  expect(steps.map((s) => resourceName(s.urn)).sort()).toEqual(["api", "scratch"]);
  const api = steps.find((s) => resourceName(s.urn) === "api")!;
  expect(api).toMatchObject({ op: "update", diffReasons: ["workersMax"], detailedDiff: { workersMax: { kind: "update" } } });
  expect(Object.keys(api.detailedDiff ?? {})).toEqual(["workersMax"]);
  const grow = steps.find((s) => resourceName(s.urn) === "scratch")!;
  expect(grow).toMatchObject({ op: "update", diffReasons: ["size"], detailedDiff: { size: { kind: "update" } } });
  expect(Object.keys(grow.detailedDiff ?? {})).toEqual(["size"]);
  const before = (await outputs()).scratch.id;
  // The up's --diff display renders the same diff a `pulumi preview --diff` would: no second preview needed.
  const diff = await pulumi(["up", "--yes", "--diff"]);
  expect(diff.stdout).toMatch(/~ workersMax: 3 => 5/);
  expect(diff.stdout).toMatch(/~ size\s*: 20 => 30/);
  const out = await outputs();
  expect(onEmulator(out.endpointId)?.workersMax).toBe(5);
  expect(out.scratch).toMatchObject({ id: before, size: 30 });
  expect(out.scratch.monthlyCost).toBeCloseTo(30 * 0.14, 6);
  expect(await client.v2.getNetworkVolume(before)).toMatchObject({ size: 30 });
});

test("the pod stops and starts in place through desiredStatus, the same pod on the same volume; a refresh of the whole stack then finds nothing to change, nor does a preview with the set of locations reordered", async () => {
  const before = await outputs();
  const { id } = before.pod;
  const volumeId = before.scratch.id;
  for (const desired of ["EXITED", "RUNNING"] as const) {
    await stack.setConfig("podStatus", desired);
    const steps = await previewSteps();
    expect(steps.map((s) => resourceName(s.urn))).toEqual(["dev"]);
    expect(steps[0]).toMatchObject({ op: "update", diffReasons: ["desiredStatus"], detailedDiff: { desiredStatus: { kind: "update" } } });
    expect(Object.keys(steps[0].detailedDiff ?? {})).toEqual(["desiredStatus"]);
    const up = await pulumi(["up", "--yes"]);
    expect(up.stdout).toMatch(/~ 1 updated/);
    const pod = await client.v2.getPod(id);
    expect(pod.status).toBe(desired);
    expect(pod.mounts.network?.map((m) => m.volumeId)).toEqual([volumeId]);
    const out = (await outputs()).pod;
    expect(out).toMatchObject({ id, desiredStatus: desired, networkVolumeId: volumeId });
    if (desired === "EXITED") expect(out).toMatchObject({ status: "EXITED", costPerHour: 0 });
    else {
      expect(["STARTING", "RUNNING"]).toContain(out.status); // the start's answer; the platform boots it after
      expect(out.costPerHour).toBe(pod.cost);
      expect(pod.cost).toBeGreaterThan(0);
    }
  }

  // Refresh reads every resource back (the pod as booted) and finds each as the program declares it.
  const refresh = await pulumi(["refresh", "--yes", "--expect-no-changes"]);
  expect(refresh.stdout).not.toMatch(/\[diff:/);
  expect(refresh.stdout).not.toMatch(/\bupdated\b|\bdeleted\b/);
  const dev = (await stack.resources("runpod:index:Pod")).find((r) => resourceName(r.urn) === "dev");
  expect(dev).toMatchObject({ id, outputs: { status: "RUNNING", desiredStatus: "RUNNING", networkVolumeId: volumeId } });
  // The program's locations, reordered, are no change either.
  await stack.setConfig("locations", JSON.stringify(["CZ", "RO"]));
  await pulumi(["preview", "--expect-no-changes"]);
});

test("a bad value fails the preview, naming the field and the allowed values, and changes nothing", async () => {
  await stack.setConfig("workersMax", "-1");
  const r = await pulumi(["preview"], { expectFailure: true });
  expect(`${r.stdout}\n${r.stderr}`).toMatch(/workersMax must be an integer at least 0; got -1/);
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/Traceback|KeyboardInterrupt/); // the engine's cancel ends the program quietly
  expect(onEmulator((await outputs()).endpointId)?.workersMax).toBe(5);
  await stack.setConfig("workersMax", "5");
});

test("`pulumi import` adopts an endpoint and a pod created outside Pulumi; declared in the program, they show no change in the next preview, where a `type` change previews as a replacement of the program's endpoint alone", async () => {
  const outside = await client.saveEndpoint({ name: "made-outside", templateId: "tpl_vllm", gpuIds: "AMPERE_80", workersMax: 2 });
  const pod = await client.v2.createPod({ name: "box-made-outside", image: "alpine:3", cpu: { id: "cpu3c", vcpuCount: 4 } });
  const file = path.join(work, "import-adopted.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      resources: [
        { type: "runpod:index:Endpoint", name: "adopted", id: outside.id },
        { type: "runpod:index:Pod", name: "adoptedPod", id: pod.id },
      ],
    }),
  );
  await pulumi(["import", "--file", file, "--yes", "--protect=false", "--generate-code=false"]);
  const adopted = (await stack.resources("runpod:index:Endpoint")).find((r) => resourceName(r.urn) === "adopted");
  expect(adopted?.id).toBe(outside.id);
  const adoptedPod = (await stack.resources("runpod:index:Pod")).find((r) => resourceName(r.urn) === "adoptedPod");
  expect(adoptedPod).toMatchObject({ id: pod.id, outputs: { name: "box-made-outside", imageName: "alpine:3", cpuFlavorId: "cpu3c", vcpuCount: 4 } });
  // One preview: the adopted two declared as imported (no step of theirs changes), and the program's endpoint's `type` changed.
  await stack.setConfigs({
    adopted: JSON.stringify({ name: "made-outside", templateId: "tpl_vllm", gpuIds: ["AMPERE_80"], workersMax: 2 }),
    adoptedPod: JSON.stringify({ name: "box-made-outside", imageName: "alpine:3", cpuFlavorId: "cpu3c", vcpuCount: 4 }),
    type: "LB",
  });
  const steps = await previewSteps();
  const replace = steps.find((s) => s.op === "replace");
  expect(replace).toMatchObject({ replaceReasons: ["type"], detailedDiff: { type: { kind: "update-replace" } } });
  expect(Object.keys(replace?.detailedDiff ?? {})).toEqual(["type"]);
  expect(steps.map((s) => resourceName(s.urn)).every((n) => n === "api")).toBe(true);
  await stack.removeConfig("type");
});

test("refresh catches a change made outside Pulumi", async () => {
  const id = (await outputs()).endpointId;
  const r = onEmulator(id)!;
  await client.saveEndpoint({
    id,
    name: r.name,
    templateId: r.templateId,
    gpuIds: r.gpuIds,
    type: r.type,
    locations: r.locations,
    idleTimeout: r.idleTimeout ?? undefined,
    scalerType: r.scalerType ?? undefined,
    scalerValue: r.scalerValue ?? undefined,
    networkVolumeId: r.networkVolumeId,
    workersMin: r.workersMin,
    workersMax: 7,
  });
  const refresh = await pulumi(["refresh", "--yes"]);
  expect(refresh.stdout).toMatch(/~ 1 updated|1 updated/);
  const state = (await stack.resources("runpod:index:Endpoint")).find((s) => s.id === id);
  expect(state?.outputs?.workersMax).toBe(7);
  // The pod as the platform reads it now: booted.
  expect((await stack.resources("runpod:index:Pod"))[0].outputs?.status).toBe("RUNNING");
  const steps = await previewSteps();
  expect(steps.find((s) => resourceName(s.urn) === "api")).toMatchObject({ op: "update", detailedDiff: { workersMax: { kind: "update" } } });
});

test("one `pulumi import --file` adopts a template, a network volume and a pod made outside Pulumi; the template's and the pod's env values are secrets in the state, though no program marked them", async () => {
  const outside = await client.saveTemplate({
    name: "tpl-made-outside",
    imageName: "nginx:1",
    isServerless: true,
    env: [{ key: "TOKEN", value: OUTSIDE_TOKEN }],
  });
  const volume = await client.v2.createNetworkVolume({ name: "vol-made-outside", size: 15, dataCenter: "EU-RO-1", type: "STANDARD" });
  const pod = await client.v2.createPod({ name: "pod-made-outside", image: "alpine:3", cpu: { id: "cpu3c", vcpuCount: 2 }, env: { TOKEN: OUTSIDE_TOKEN } });
  const file = path.join(work, "import.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      resources: [
        { type: "runpod:index:Template", name: "outsideTemplate", id: outside.id },
        { type: "runpod:index:NetworkVolume", name: "outsideVolume", id: volume.id },
        { type: "runpod:index:Pod", name: "outsidePod", id: pod.id },
      ],
    }),
  );
  await pulumi(["import", "--file", file, "--yes", "--protect=false", "--generate-code=false"]);
  const imported = (await stack.resources("runpod:index:Template")).find((r) => resourceName(r.urn) === "outsideTemplate");
  expect(imported?.id).toBe(outside.id);
  expect(JSON.stringify(imported?.outputs?.env)).toContain("ciphertext");
  const importedVolume = (await stack.resources("runpod:index:NetworkVolume")).find((r) => resourceName(r.urn) === "outsideVolume");
  expect(importedVolume).toMatchObject({ id: volume.id, outputs: { name: "vol-made-outside", size: 15, dataCenterId: "EU-RO-1", type: "STANDARD" } });
  const importedPod = (await stack.resources("runpod:index:Pod")).find((r) => resourceName(r.urn) === "outsidePod");
  expect(importedPod).toMatchObject({ id: pod.id, outputs: { name: "pod-made-outside", imageName: "alpine:3", cpuFlavorId: "cpu3c", vcpuCount: 2 } });
  expect(JSON.stringify(importedPod?.outputs?.env)).toContain("ciphertext");
  expect(linesWithSecrets(await stack.exportText(), [OUTSIDE_TOKEN])).toEqual([]);
  expect(JSON.stringify(await stack.resources())).not.toContain(OUTSIDE_TOKEN);
});

test("no secret reaches the plain stack export or the -v=9 logs (beyond the engine's own marshal lines)", async () => {
  const plain = await stack.exportText();
  expect(linesWithSecrets(plain, [...SECRETS, emu.apiKey])).toEqual([]);
  // With its preview: the scan covers the verbose logs of both phases of the up.
  const verbose = await pulumi(["up", "--yes", "-v=9", "--logtostderr"], { preview: true });
  const all = `${verbose.stdout}\n${verbose.stderr}`;
  expect(all.length).toBeGreaterThan(10_000); // really verbose
  // This up also deletes the imported template, volume and pod, which the program does not declare.
  expect(all).toMatch(/- +runpod:index:Template outsideTemplate deleted/);
  expect(all).toMatch(/- +runpod:index:NetworkVolume outsideVolume deleted/);
  expect(all).toMatch(/- +runpod:index:Pod outsidePod deleted/);
  expect((await client.v2.listNetworkVolumes()).map((v) => v.name)).not.toContain("vol-made-outside");
  expect((await client.v2.listPods()).map((p) => p.name)).not.toContain("pod-made-outside");
  expect(linesWithSecrets(all, [...SECRETS, emu.apiKey]).filter((l) => !isEngineMarshalLine(l))).toEqual([]);
  expect(linesWithSecrets(transcript.join("\n"), SECRETS).filter((l) => !isEngineMarshalLine(l))).toEqual([]);
});

test("destroy leaves nothing on the emulator", async () => {
  const out = await outputs();
  await pulumi(["destroy", "--yes"]);
  expect(emu.endpoints()).toEqual([]);
  expect(emu.templates().filter((t) => t.id === out.templateId)).toEqual([]);
  expect(emu.registryAuths()).toEqual([]);
  expect((await client.v2.listNetworkVolumes()).map((v) => v.id)).not.toContain(out.scratch.id);
  expect(await client.v2.listPods()).toEqual([]);
  expect(await stack.resources()).toEqual([]);
});
