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
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import type { RunPulumiResult } from "../../scripts/pulumiCli";
import { changingSteps, isEngineMarshalLine, linesWithSecrets, pythonSdkPath, requirePythonTooling, resourceName, usePlatform, writeProject } from "./harness";

jest.setTimeout(180_000);

const REGISTRY_PASSWORD = "regpw-Zq81-never-in-state";
const OUTSIDE_TOKEN = "outside-tok-P4w7-never-in-state";
const HF_TOKEN = "hf_tok-7Yx2-never-in-state";

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;
const transcript: string[] = [];

async function pulumi(args: string[], options: { expectFailure?: boolean } = {}): Promise<RunPulumiResult> {
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
  stack = await LocalStack.create({ programDir, stackName: "py", stateDir: path.join(work, "state"), env: { PYTHONPATH: pythonSdkPath() } });
  await usePlatform(stack, emu.urls, emu.apiKey, { registryPassword: REGISTRY_PASSWORD, hfToken: HF_TOKEN });
});

afterAll(async () => {
  if (stack) await stack.run(["destroy", "--yes"], { quiet: true }).catch(() => undefined);
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("up creates the registry credentials, the template with its secret env and the endpoint on the looked-up volume", async () => {
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+ 4 created/); // the stack and three resources
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
});

test("a second preview changes nothing", async () => {
  await pulumi(["preview", "--expect-no-changes"]);
});

test("a one-field change previews as an update with only that property in detailedDiff", async () => {
  await stack.setConfig("workersMax", "5");
  const steps = await previewSteps();
  expect(steps).toHaveLength(1);
  expect(steps[0]).toMatchObject({ op: "update", diffReasons: ["workersMax"], detailedDiff: { workersMax: { kind: "update" } } });
  expect(Object.keys(steps[0].detailedDiff ?? {})).toEqual(["workersMax"]);
  expect(resourceName(steps[0].urn)).toBe("api");
  const diff = await pulumi(["preview", "--diff"]);
  expect(diff.stdout).toMatch(/~ workersMax: 3 => 5/);
  await pulumi(["up", "--yes"]);
  expect(onEmulator((await outputs()).endpointId)?.workersMax).toBe(5);
});

test("a bad value fails the preview, naming the field and the allowed values, and changes nothing", async () => {
  await stack.run(["config", "set", "workersMax"], { input: "-1", quiet: true }); // on stdin: "-1" on the command line reads as a flag
  const r = await pulumi(["preview"], { expectFailure: true });
  expect(`${r.stdout}\n${r.stderr}`).toMatch(/workersMax must be an integer at least 0; got -1/);
  expect(onEmulator((await outputs()).endpointId)?.workersMax).toBe(5);
  await stack.setConfig("workersMax", "5");
});

test("a reordered set of locations shows no change", async () => {
  await stack.setConfig("locations", JSON.stringify(["CZ", "RO"]));
  await pulumi(["preview", "--expect-no-changes"]);
});

test("a `type` change previews as a replacement", async () => {
  await stack.setConfig("type", "LB");
  const steps = await previewSteps();
  const replace = steps.find((s) => s.op === "replace");
  expect(replace).toMatchObject({ replaceReasons: ["type"], detailedDiff: { type: { kind: "update-replace" } } });
  expect(steps.map((s) => resourceName(s.urn)).every((n) => n === "api")).toBe(true);
  await stack.run(["config", "rm", "type"], { quiet: true });
});

test("`pulumi import` adopts an endpoint created outside Pulumi; the next preview shows no changes", async () => {
  const outside = await client.saveEndpoint({ name: "made-outside", templateId: "tpl_vllm", gpuIds: "AMPERE_80", workersMax: 2 });
  await pulumi(["import", "runpod:index:Endpoint", "adopted", outside.id, "--yes", "--protect=false", "--generate-code=false"]);
  const adopted = (await stack.resources("runpod:index:Endpoint")).find((r) => resourceName(r.urn) === "adopted");
  expect(adopted?.id).toBe(outside.id);
  await stack.setConfig("adopted", JSON.stringify({ name: "made-outside", templateId: "tpl_vllm", gpuIds: ["AMPERE_80"], workersMax: 2 }));
  await pulumi(["preview", "--expect-no-changes"]);
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
  const steps = await previewSteps();
  expect(steps.find((s) => resourceName(s.urn) === "api")).toMatchObject({ op: "update", detailedDiff: { workersMax: { kind: "update" } } });
});

test("an imported template's env values are secrets in the state, though no program marked them", async () => {
  const outside = await client.saveTemplate({
    name: "tpl-made-outside",
    imageName: "nginx:1",
    isServerless: true,
    env: [{ key: "TOKEN", value: OUTSIDE_TOKEN }],
  });
  await pulumi(["import", "runpod:index:Template", "outsideTemplate", outside.id, "--yes", "--protect=false", "--generate-code=false"]);
  const imported = (await stack.resources("runpod:index:Template")).find((r) => resourceName(r.urn) === "outsideTemplate");
  expect(imported?.id).toBe(outside.id);
  expect(JSON.stringify(imported?.outputs?.env)).toContain("ciphertext");
  expect(linesWithSecrets(await stack.exportText(), [OUTSIDE_TOKEN])).toEqual([]);
  expect(JSON.stringify((await stack.resources("runpod:index:Template")).find((r) => r.id === outside.id))).not.toContain(OUTSIDE_TOKEN);
});

test("no secret reaches the plain stack export or the -v=9 logs (beyond the engine's own marshal lines)", async () => {
  const plain = await stack.exportText();
  expect(linesWithSecrets(plain, [REGISTRY_PASSWORD, HF_TOKEN, OUTSIDE_TOKEN, emu.apiKey])).toEqual([]);
  const verbose = await pulumi(["up", "--yes", "-v=9", "--logtostderr"]);
  const all = `${verbose.stdout}\n${verbose.stderr}`;
  expect(all.length).toBeGreaterThan(10_000); // really verbose
  // This up also deletes the imported template, which the program does not declare.
  expect(all).toMatch(/- +runpod:index:Template outsideTemplate deleted/);
  expect(linesWithSecrets(all, [REGISTRY_PASSWORD, HF_TOKEN, OUTSIDE_TOKEN, emu.apiKey]).filter((l) => !isEngineMarshalLine(l))).toEqual([]);
  expect(linesWithSecrets(transcript.join("\n"), [REGISTRY_PASSWORD, HF_TOKEN, OUTSIDE_TOKEN]).filter((l) => !isEngineMarshalLine(l))).toEqual([]);
});

test("destroy leaves nothing on the emulator", async () => {
  const out = await outputs();
  await pulumi(["destroy", "--yes"]);
  expect(emu.endpoints()).toEqual([]);
  expect(emu.templates().filter((t) => t.id === out.templateId)).toEqual([]);
  expect(emu.registryAuths()).toEqual([]);
  expect(await stack.resources()).toEqual([]);
});
