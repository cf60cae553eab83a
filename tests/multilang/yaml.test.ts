/**
 * The provider plugin from a YAML program (tests/multilang/yaml/program.yaml) through the real Pulumi
 * CLI and engine against the emulator: `fn::invoke` of the network-volume lookup, `fn::secret` for a
 * template env value, typed `config:` values that drive the endpoint (integer) and a pod's `desiredStatus`
 * (string), a network volume and a CPU pod mounting it. Runs on the
 * YAML host of scripts/build-pulumi-tools.sh (`npm run tools`, run by `npm test`). Tests build on each other, in order.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { pulumiRoot, type RunPulumiResult } from "../../scripts/pulumiCli";
import { changingSteps, isEngineMarshalLine, linesWithSecrets, resourceName, usePlatform, writeProject } from "./harness";

jest.setTimeout(240_000);

const HF_TOKEN = "hf_yaml-tok-Q3v9-never-in-state";

let emu: RunningEmulator;
let platform: PlatformClient;
let work: string;
let stack: LocalStack;
const transcript: string[] = [];

async function pulumi(args: string[]): Promise<RunPulumiResult> {
  const r = await stack.run(args);
  transcript.push(r.stdout, r.stderr);
  return r;
}

beforeAll(async () => {
  const host = path.join(pulumiRoot(), "bin", "pulumi-language-yaml");
  if (!fs.existsSync(host)) throw new Error(`${host} is missing: run \`npm run tools\` (scripts/build-pulumi-tools.sh, which npm test runs)`);
  // Not a save-semantics scenario: pinned to the platform's own (replace), so it runs once.
  emu = await startEmulator({ port: 0, quiet: true, saveSemantics: "replace", workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  platform = createClientFromEnv({ apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2 }, {});
  work = tempDir("pulumi-runpod-yaml-");
  const programDir = path.join(work, "program");
  fs.mkdirSync(programDir, { recursive: true });
  writeProject(programDir, "runpod-yaml", "yaml");
  fs.appendFileSync(path.join(programDir, "Pulumi.yaml"), fs.readFileSync(path.join(__dirname, "yaml", "program.yaml"), "utf8"));
  // Previews are checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs.
  stack = await LocalStack.create({ programDir, stackName: "yaml", stateDir: path.join(work, "state"), skipPreview: true });
  await usePlatform(stack, emu.urls, emu.apiKey);
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("up creates the template, the endpoint on the volume fn::invoke looked up with the typed config's default, a volume and a pod mounting it", async () => {
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+ 5 created/);
  const out = (await stack.outputs()) as Record<string, unknown>;
  expect(out.volumeDataCenter).toBe("EU-RO-1");
  // The catalog functions by fn::invoke: the platform's own answers to the same queries.
  expect(out.gpuTypesInRomania).toEqual(await platform.v2.listGpuTypes({ include: ["AVAILABILITY"], product: ["SERVERLESS"], countryCodes: ["RO"] }));
  expect((out.gpuTypesInRomania as { availability: string }[]).every((g) => g.availability)).toBe(true);
  const europe = out.europeHighPerformance as { id: string; region: string; networkVolumeTypes: string[] }[];
  expect(europe).toEqual(await platform.v2.listDataCenters({ regions: ["EUROPE"], networkVolumeTypes: ["HIGH_PERFORMANCE"] }));
  expect(europe.length).toBeGreaterThan(0);
  expect(europe.every((d) => d.region === "EUROPE" && d.networkVolumeTypes.includes("HIGH_PERFORMANCE"))).toBe(true);
  expect(out.workersMax).toBe(3);
  const ep = emu.endpoints().find((e) => e.id === out.endpointId);
  expect(ep).toMatchObject({ templateId: out.templateId, workersMax: 3, networkVolumeId: "nv_models01", gpuIds: "ADA_24,AMPERE_24" });
  // The volume on the data center's primary tier (type unset), and the CPU pod placed where it is, mounting it.
  const volume = await platform.v2.getNetworkVolume(out.volumeId as string);
  expect(volume).toMatchObject({ size: 10, dataCenter: "EU-RO-1" });
  expect(out.volumeType).toBe(volume.type);
  expect(out.volumeMonthlyCost).toBeGreaterThan(0);
  const pod = await platform.v2.getPod(out.podId as string);
  expect(pod).toMatchObject({ cpu: { id: "cpu3c", vcpuCount: 2 }, dataCenterId: "EU-RO-1" });
  expect(pod.mounts.network?.map((m) => m.volumeId)).toEqual([out.volumeId]);
  expect(out).toMatchObject({ podDataCenter: "EU-RO-1", podCostPerHour: pod.cost });
  expect(pod.cost).toBeGreaterThan(0);
  expect(["PROVISIONING", "RUNNING"]).toContain(out.podStatus);
  await pulumi(["preview", "--expect-no-changes"]);
});

test("typed config values change one field each: only it is in detailedDiff, and up applies them (the pod stops in place)", async () => {
  await stack.setConfigs({ workersMax: "6", podStatus: "EXITED" });
  const before = (await stack.outputs()) as Record<string, unknown>;
  const steps = changingSteps((await pulumi(["preview", "--json"])).stdout);
  expect(steps.map((s) => [s.op, resourceName(s.urn), Object.keys(s.detailedDiff ?? {})]).sort()).toEqual([
    ["update", "api", ["workersMax"]],
    ["update", "box", ["desiredStatus"]],
  ]);
  await pulumi(["up", "--yes"]);
  const out = (await stack.outputs()) as Record<string, unknown>;
  expect(out.workersMax).toBe(6);
  expect(emu.endpoints().find((e) => e.id === out.endpointId)?.workersMax).toBe(6);
  expect(out).toMatchObject({ podId: before.podId, podStatus: "EXITED", podCostPerHour: 0 });
  expect((await platform.v2.getPod(out.podId as string)).status).toBe("EXITED");
});

test("refresh catches a change made outside Pulumi, and the next preview shows it as the one change", async () => {
  const id = ((await stack.outputs()) as Record<string, string>).endpointId;
  const r = emu.endpoints().find((e) => e.id === id)!;
  await platform.saveEndpoint({
    id,
    name: r.name,
    templateId: r.templateId,
    gpuIds: r.gpuIds,
    locations: r.locations,
    networkVolumeId: r.networkVolumeId,
    workersMax: 6,
    idleTimeout: 77,
  });
  await pulumi(["refresh", "--yes"]);
  const steps = changingSteps((await pulumi(["preview", "--json"])).stdout);
  expect(steps.map((s) => [s.op, resourceName(s.urn), Object.keys(s.detailedDiff ?? {})])).toEqual([["update", "api", ["idleTimeout"]]]);
  await pulumi(["up", "--yes"]);
  expect(emu.endpoints().find((e) => e.id === id)?.idleTimeout).toBe(5);
});

test("a template image whose workers fail to start is saved back, the endpoint's workers run the old image, and the up fails saying why (issue 30)", async () => {
  const { endpointId: id, templateId } = (await stack.outputs()) as Record<string, string>;
  const good = "registry.example.com/team/llm:1.0";
  const bad = "registry.example.com/team/llm:2.0";
  await stack.setConfig("workersMin", "1");
  await pulumi(["up", "--yes", "--skip-preview"]);
  emu.setFaults({ failingImages: [bad] });
  try {
    await stack.setConfig("templateImage", bad);
    const r = await stack.run(["up", "--yes", "--skip-preview"], { expectFailure: true });
    transcript.push(r.stdout, r.stderr);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(new RegExp(`Template \\S+ \\(${templateId}\\): a rollout of its new settings failed`));
    expect(out).toMatch(new RegExp(`Endpoint \\S+ \\(${id}\\): the rollout of .* failed: 1 worker failed to start \\(UNHEALTHY\\)`));
    expect(out).toContain("container exited with code 1 during startup");
    expect(out).toContain(`Rolled back: the template's previous settings were saved back (image ${good})`);
    expect(emu.templates().find((t) => t.id === templateId)?.imageName).toBe(good);
    const { workers } = await platform.v2.listEndpointWorkers(id);
    expect(workers.length).toBeGreaterThan(0);
    expect(new Set(workers.map((w) => w.image))).toEqual(new Set([good]));
    // The stack kept the previous inputs: the next preview shows the image change again.
    const steps = changingSteps((await pulumi(["preview", "--json"])).stdout);
    expect(steps.map((s) => [s.op, resourceName(s.urn), Object.keys(s.detailedDiff ?? {})])).toEqual([["update", "llm", ["imageName"]]]);
  } finally {
    emu.setFaults({ failingImages: [] });
    await stack.setConfig("templateImage", good);
  }
});

test("the fn::secret env value is a secret: not in the plain stack export nor the CLI's output", async () => {
  const exported = await stack.exportText();
  expect(exported).toContain('"env"');
  expect(linesWithSecrets(exported, [HF_TOKEN, emu.apiKey])).toEqual([]);
  expect(linesWithSecrets(transcript.join("\n"), [HF_TOKEN, emu.apiKey]).filter((l) => !isEngineMarshalLine(l))).toEqual([]);
});

test("destroy leaves nothing on the emulator", async () => {
  const out = (await stack.outputs()) as Record<string, unknown>;
  await pulumi(["destroy", "--yes"]);
  expect(emu.endpoints()).toEqual([]);
  expect(emu.templates().filter((t) => t.id === out.templateId)).toEqual([]);
  expect(await platform.v2.listPods()).toEqual([]);
  expect((await platform.v2.listNetworkVolumes()).map((v) => v.id)).not.toContain(out.volumeId);
});
