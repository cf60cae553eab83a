/**
 * The provider plugin from Go, through the real Pulumi CLI and engine against the emulator: a program on
 * the generated SDK (tests/multilang/go/main.go, its go.mod pointing at sdk/go/runpod; declared by stack
 * config) goes through its life in order — create (a network volume, an endpoint and a GPU pod both
 * mounting it), a one-field change with its detailedDiff and the volume grown in place, the pod stopped
 * and started in place, a clean refresh, `pulumi import` of an endpoint and a volume, destroy. The engine
 * runs it with the minimal Go host of scripts/build-pulumi-tools.sh, as the binary that script builds once per
 * content of the program and sdk/go/runpod (`build-pulumi-tools.sh go-program`, Pulumi.yaml
 * `runtime.options.binary`): a changed SDK is compiled before the first step, so the test still proves it compiles.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DATA_CENTERS, POOLS } from "../../emulator/catalog";
import { createClientFromEnv, type EndpointRecord, type PlatformClient } from "../../src/api";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { pulumiRoot, repoRoot, type RunPulumiResult } from "../../scripts/pulumiCli";
import { changingSteps, resourceName, usePlatform, writeProject } from "./harness";

// A changed sdk/go/runpod is compiled in beforeAll: minutes on a loaded machine with an empty Go build cache.
jest.setTimeout(600_000);

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;
/** The emulator's volumes before the stack made any (its seeded ones): what destroy must leave. */
let seededVolumeIds: string[];

const pulumi = (args: string[], options: { expectFailure?: boolean } = {}): Promise<RunPulumiResult> => stack.run(args, options);
const onEmulator = (id: string): EndpointRecord | undefined => emu.endpoints().find((e) => e.id === id);
const outputs = async () => (await stack.outputs()) as Record<string, any>;

beforeAll(async () => {
  const host = path.join(pulumiRoot(), "bin", "pulumi-language-go");
  if (!fs.existsSync(host)) throw new Error(`${host} is missing: run \`npm run tools\` (scripts/build-pulumi-tools.sh, which npm test runs)`);
  emu = await startEmulator({ port: 0, quiet: true, saveSemantics: "replace", workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  seededVolumeIds = (await client.v2.listNetworkVolumes()).map((v) => v.id).sort();
  work = tempDir("pulumi-runpod-go-");
  const programDir = path.join(work, "program");
  fs.mkdirSync(programDir, { recursive: true });
  // tests/multilang/go built against this checkout's sdk/go/runpod: kept by content, compiled only when that changed.
  const binary = execFileSync("bash", [path.join(repoRoot(), "scripts", "build-pulumi-tools.sh"), "go-program"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  writeProject(programDir, "runpod-go", "go", { binary });
  // Previews are checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs (a Go program run each).
  stack = await LocalStack.create({
    programDir,
    stackName: "go",
    stateDir: path.join(work, "state"),
    skipPreview: true,
  });
  await usePlatform(stack, emu.urls, emu.apiKey);
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("up creates the template, a network volume, an endpoint and a GPU pod both mounting it; the catalog functions answer as the emulator's catalog states; a second preview changes nothing", async () => {
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+ 5 created/); // the stack, the template, the volume, the endpoint and the pod
  const out = await outputs();
  const ep = onEmulator(out.endpointId);
  expect(ep).toMatchObject({ templateId: out.templateId, gpuIds: "ADA_24,AMPERE_24", workersMax: 3, networkVolumeId: out.volumeId });
  expect(ep?.name).toMatch(/^api-[0-9a-f]{7}$/);
  expect(out.endpointName).toBe(ep?.name);
  expect(await client.v2.getNetworkVolume(out.volumeId)).toMatchObject({ size: 10, dataCenter: "EU-RO-1", type: "STANDARD" });
  expect(out.volumeSize).toBe(10);
  expect(out.volumeMonthlyCost).toBeCloseTo(10 * 0.07, 6); // the STANDARD list price per GB and month (docs/networkVolume.md)
  // The GPU pod: on the GPU type asked for, in the volume's data center, mounting the volume.
  const pod = await client.v2.getPod(out.pod.id);
  expect(pod).toMatchObject({ gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 }, dataCenterId: "EU-RO-1", image: "runpod/pytorch:2.4.0" });
  expect(pod.mounts.network?.map((m) => m.volumeId)).toEqual([out.volumeId]);
  expect(out.pod).toMatchObject({
    networkVolumeId: out.volumeId,
    gpuTypeId: "NVIDIA GeForce RTX 4090",
    dataCenterId: "EU-RO-1",
    desiredStatus: "RUNNING",
    costPerHour: pod.cost,
  });
  expect(pod.cost).toBeGreaterThan(0);
  expect(["PROVISIONING", "RUNNING"]).toContain(out.pod.status);
  expect(out.rtx4090).toEqual({ pool: "ADA_24", serverlessPrice: POOLS.find((p) => p.id === "ADA_24")!.serverlessPricePerGpuHour, availability: "HIGH" });
  expect(out.europeHighPerformance).toEqual(
    DATA_CENTERS.filter((dc) => dc.region === "EUROPE" && dc.networkVolumeTypes.includes("HIGH_PERFORMANCE"))
      .map((dc) => dc.id)
      .sort(),
  );
  await pulumi(["preview", "--expect-no-changes"]);
});

test("a one-field change previews as an update with only that property in detailedDiff; the volume grows in place; up applies both", async () => {
  await stack.setConfigs({ workersMax: "5", volumeSize: "20" });
  const before = await outputs();
  const steps = changingSteps((await pulumi(["preview", "--json"])).stdout);
  expect(steps.map((s) => resourceName(s.urn)).sort()).toEqual(["api", "data"]);
  const api = steps.find((s) => resourceName(s.urn) === "api")!;
  expect(api).toMatchObject({ op: "update", diffReasons: ["workersMax"], detailedDiff: { workersMax: { kind: "update" } } });
  expect(Object.keys(api.detailedDiff ?? {})).toEqual(["workersMax"]);
  const grow = steps.find((s) => resourceName(s.urn) === "data")!;
  expect(grow).toMatchObject({ op: "update", diffReasons: ["size"], detailedDiff: { size: { kind: "update" } } });
  expect(Object.keys(grow.detailedDiff ?? {})).toEqual(["size"]);
  await pulumi(["up", "--yes"]);
  const out = await outputs();
  expect(out.workersMax).toBe(5);
  expect(onEmulator(out.endpointId)?.workersMax).toBe(5);
  // The same volume, grown; still mounted by the endpoint and the pod.
  expect(out).toMatchObject({ volumeId: before.volumeId, volumeSize: 20 });
  expect(out.volumeMonthlyCost).toBeCloseTo(20 * 0.07, 6);
  expect(await client.v2.getNetworkVolume(before.volumeId)).toMatchObject({ id: before.volumeId, size: 20 });
  expect(onEmulator(out.endpointId)?.networkVolumeId).toBe(before.volumeId);
  expect((await client.v2.getPod(before.pod.id)).mounts.network?.map((m) => m.volumeId)).toEqual([before.volumeId]);
});

test("the pod stops (desiredStatus EXITED, previewed as that one in-place change) and starts again, the same pod throughout; a refresh then finds nothing changed", async () => {
  const { pod: before } = await outputs();
  await stack.setConfig("podStatus", "EXITED");
  const steps = changingSteps((await pulumi(["preview", "--json"])).stdout);
  expect(steps.map((s) => [s.op, resourceName(s.urn), Object.keys(s.detailedDiff ?? {})])).toEqual([["update", "dev", ["desiredStatus"]]]);
  expect(steps[0]).toMatchObject({ diffReasons: ["desiredStatus"], detailedDiff: { desiredStatus: { kind: "update" } } });
  await pulumi(["up", "--yes"]);
  expect((await client.v2.getPod(before.id)).status).toBe("EXITED");
  expect((await outputs()).pod).toMatchObject({ id: before.id, status: "EXITED", desiredStatus: "EXITED", costPerHour: 0 });

  await stack.setConfig("podStatus", "RUNNING");
  const start = await pulumi(["up", "--yes"]);
  expect(start.stdout).toMatch(/~ 1 updated/);
  expect(start.stdout).toMatch(/runpod:index:Pod dev updated .*\[diff: ~desiredStatus\]/);
  const pod = await client.v2.getPod(before.id);
  expect(pod.status).toBe("RUNNING");
  expect(pod.mounts.network?.map((m) => m.volumeId)).toEqual([before.networkVolumeId]);
  expect((await outputs()).pod).toMatchObject({ id: before.id, status: "RUNNING", desiredStatus: "RUNNING", costPerHour: pod.cost });
  expect((await client.v2.listPods()).map((p) => p.id)).toEqual([before.id]);

  // Every resource's state is what the platform now reads: refresh changes nothing.
  await pulumi(["refresh", "--yes", "--expect-no-changes"]);
}, 1_200_000);

test("`pulumi import` adopts an endpoint and a network volume created outside Pulumi; declared in the program, the next preview shows no changes", async () => {
  const outside = await client.saveEndpoint({ name: "made-outside", templateId: "tpl_vllm", gpuIds: "AMPERE_80", workersMax: 2 });
  const volume = await client.v2.createNetworkVolume({ name: "vol-made-outside", size: 25, dataCenter: "EU-CZ-1", type: "STANDARD" });
  const file = path.join(work, "import.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      resources: [
        { type: "runpod:index:Endpoint", name: "adopted", id: outside.id },
        { type: "runpod:index:NetworkVolume", name: "adoptedVolume", id: volume.id },
      ],
    }),
  );
  await pulumi(["import", "--file", file, "--yes", "--protect=false", "--generate-code=false"]);
  const adopted = (await stack.resources("runpod:index:Endpoint")).find((r) => resourceName(r.urn) === "adopted");
  expect(adopted?.id).toBe(outside.id);
  const adoptedVolume = (await stack.resources("runpod:index:NetworkVolume")).find((r) => resourceName(r.urn) === "adoptedVolume");
  expect(adoptedVolume).toMatchObject({ id: volume.id, outputs: { name: "vol-made-outside", size: 25, dataCenterId: "EU-CZ-1", type: "STANDARD" } });
  await stack.setConfigs({
    adopted: JSON.stringify({ name: "made-outside", templateId: "tpl_vllm", gpuIds: ["AMPERE_80"], workersMax: 2 }),
    adoptedVolume: JSON.stringify({ name: "vol-made-outside", size: 25, dataCenterId: "EU-CZ-1", type: "STANDARD" }),
  });
  await pulumi(["preview", "--expect-no-changes"]);
});

test("destroy leaves nothing on the emulator", async () => {
  const out = await outputs();
  await pulumi(["destroy", "--yes"]);
  expect(emu.endpoints()).toEqual([]);
  expect(emu.templates().filter((t) => t.id === out.templateId)).toEqual([]);
  // The program's volume and the adopted one are deleted with the rest: the emulator's own seeded ones remain.
  expect((await client.v2.listNetworkVolumes()).map((v) => v.id).sort()).toEqual(seededVolumeIds);
  expect(await client.v2.listPods()).toEqual([]);
  expect(await stack.resources()).toEqual([]);
});
