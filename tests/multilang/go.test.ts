/**
 * The provider plugin from Go, through the real Pulumi CLI and engine against the emulator: a program on
 * the generated SDK (tests/multilang/go/main.go, its go.mod pointing at sdk/go/runpod; declared by stack
 * config) goes through its life in order — create, a one-field change with its detailedDiff, `pulumi
 * import`, destroy. The engine runs it with the minimal Go host of scripts/build-pulumi-tools.sh, which
 * compiles it on each run (`npm run tools` warms the Go build cache, so a run only links).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DATA_CENTERS, POOLS } from "../../emulator/catalog";
import { createClientFromEnv, type EndpointRecord, type PlatformClient } from "../../src/api";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { pulumiRoot, repoRoot, type RunPulumiResult } from "../../scripts/pulumiCli";
import { GO_MODULE } from "../../scripts/pluginSdk";
import { changingSteps, resourceName, usePlatform, writeProject } from "./harness";

// Each CLI run compiles (links) the program: minutes on a loaded machine.
jest.setTimeout(600_000);

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;

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
  work = tempDir("pulumi-runpod-go-");
  const programDir = path.join(work, "program");
  fs.mkdirSync(programDir, { recursive: true });
  for (const f of ["main.go", "go.mod", "go.sum"]) fs.copyFileSync(path.join(__dirname, "go", f), path.join(programDir, f));
  // The copy's replace points at this checkout's SDK by absolute path.
  execFileSync("go", ["mod", "edit", `-replace=${GO_MODULE}=${path.join(repoRoot(), "sdk", "go", "runpod")}`], {
    cwd: programDir,
    env: { ...process.env, GOTOOLCHAIN: "local" },
  });
  writeProject(programDir, "runpod-go", "go");
  stack = await LocalStack.create({ programDir, stackName: "go", stateDir: path.join(work, "state"), env: { GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" } });
  await usePlatform(stack, emu.urls, emu.apiKey);
});

afterAll(async () => {
  if (stack) await stack.run(["destroy", "--yes"], { quiet: true }).catch(() => undefined);
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("up creates the template and the endpoint; the catalog functions answer as the emulator's catalog states; a second preview changes nothing", async () => {
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+ 3 created/); // the stack, the template and the endpoint
  const out = await outputs();
  const ep = onEmulator(out.endpointId);
  expect(ep).toMatchObject({ templateId: out.templateId, gpuIds: "ADA_24,AMPERE_24", workersMax: 3 });
  expect(ep?.name).toMatch(/^api-[0-9a-f]{7}$/);
  expect(out.endpointName).toBe(ep?.name);
  expect(out.rtx4090).toEqual({ pool: "ADA_24", serverlessPrice: POOLS.find((p) => p.id === "ADA_24")!.serverlessPricePerGpuHour, availability: "HIGH" });
  expect(out.europeHighPerformance).toEqual(
    DATA_CENTERS.filter((dc) => dc.region === "EUROPE" && dc.networkVolumeTypes.includes("HIGH_PERFORMANCE"))
      .map((dc) => dc.id)
      .sort(),
  );
  await pulumi(["preview", "--expect-no-changes"]);
});

test("a one-field change previews as an update with only that property in detailedDiff, and up applies it", async () => {
  await stack.setConfig("workersMax", "5");
  const steps = changingSteps((await pulumi(["preview", "--json"])).stdout);
  expect(steps).toHaveLength(1);
  expect(steps[0]).toMatchObject({ op: "update", diffReasons: ["workersMax"], detailedDiff: { workersMax: { kind: "update" } } });
  expect(Object.keys(steps[0].detailedDiff ?? {})).toEqual(["workersMax"]);
  expect(resourceName(steps[0].urn)).toBe("api");
  await pulumi(["up", "--yes"]);
  const out = await outputs();
  expect(out.workersMax).toBe(5);
  expect(onEmulator(out.endpointId)?.workersMax).toBe(5);
});

test("`pulumi import` adopts an endpoint created outside Pulumi; declared in the program, the next preview shows no changes", async () => {
  const outside = await client.saveEndpoint({ name: "made-outside", templateId: "tpl_vllm", gpuIds: "AMPERE_80", workersMax: 2 });
  await pulumi(["import", "runpod:index:Endpoint", "adopted", outside.id, "--yes", "--protect=false", "--generate-code=false"]);
  const adopted = (await stack.resources("runpod:index:Endpoint")).find((r) => resourceName(r.urn) === "adopted");
  expect(adopted?.id).toBe(outside.id);
  await stack.setConfig("adopted", JSON.stringify({ name: "made-outside", templateId: "tpl_vllm", gpuIds: ["AMPERE_80"], workersMax: 2 }));
  await pulumi(["preview", "--expect-no-changes"]);
});

test("destroy leaves nothing on the emulator", async () => {
  const out = await outputs();
  await pulumi(["destroy", "--yes"]);
  expect(emu.endpoints()).toEqual([]);
  expect(emu.templates().filter((t) => t.id === out.templateId)).toEqual([]);
  expect(await stack.resources()).toEqual([]);
});
