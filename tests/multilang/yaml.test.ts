/**
 * The provider plugin from a YAML program (tests/multilang/yaml/program.yaml) through the real Pulumi
 * CLI and engine against the emulator: `fn::invoke` of the network-volume lookup, `fn::secret` for a
 * template env value, and a typed `config:` value (integer) that drives the endpoint. Runs on the
 * YAML host of scripts/build-pulumi-tools.sh (`npm run tools`, run by `npm test`). Tests build on each other, in order.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv } from "../../src/api";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { pulumiRoot, type RunPulumiResult } from "../../scripts/pulumiCli";
import { changingSteps, isEngineMarshalLine, linesWithSecrets, resourceName, usePlatform, writeProject } from "./harness";

jest.setTimeout(120_000);

const HF_TOKEN = "hf_yaml-tok-Q3v9-never-in-state";

let emu: RunningEmulator;
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
  work = tempDir("pulumi-runpod-yaml-");
  const programDir = path.join(work, "program");
  fs.mkdirSync(programDir, { recursive: true });
  writeProject(programDir, "runpod-yaml", "yaml");
  fs.appendFileSync(path.join(programDir, "Pulumi.yaml"), fs.readFileSync(path.join(__dirname, "yaml", "program.yaml"), "utf8"));
  stack = await LocalStack.create({ programDir, stackName: "yaml", stateDir: path.join(work, "state") });
  await usePlatform(stack, emu.urls, emu.apiKey);
});

afterAll(async () => {
  if (stack) await stack.run(["destroy", "--yes"], { quiet: true }).catch(() => undefined);
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("up creates the template and the endpoint on the volume fn::invoke looked up, with the typed config's default", async () => {
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+ 3 created/);
  const out = (await stack.outputs()) as Record<string, unknown>;
  expect(out.volumeDataCenter).toBe("EU-RO-1");
  // The catalog functions by fn::invoke: the platform's own answers to the same queries.
  const platform = createClientFromEnv({ apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2 }, {});
  expect(out.gpuTypesInRomania).toEqual(await platform.v2.listGpuTypes({ include: ["AVAILABILITY"], product: ["SERVERLESS"], countryCodes: ["RO"] }));
  expect((out.gpuTypesInRomania as { availability: string }[]).every((g) => g.availability)).toBe(true);
  const europe = out.europeHighPerformance as { id: string; region: string; networkVolumeTypes: string[] }[];
  expect(europe).toEqual(await platform.v2.listDataCenters({ regions: ["EUROPE"], networkVolumeTypes: ["HIGH_PERFORMANCE"] }));
  expect(europe.length).toBeGreaterThan(0);
  expect(europe.every((d) => d.region === "EUROPE" && d.networkVolumeTypes.includes("HIGH_PERFORMANCE"))).toBe(true);
  expect(out.workersMax).toBe(3);
  const ep = emu.endpoints().find((e) => e.id === out.endpointId);
  expect(ep).toMatchObject({ templateId: out.templateId, workersMax: 3, networkVolumeId: "nv_models01", gpuIds: "ADA_24,AMPERE_24" });
  await pulumi(["preview", "--expect-no-changes"]);
});

test("a typed config value changes one field: only it is in detailedDiff, and up applies it", async () => {
  await stack.setConfig("workersMax", "6");
  const steps = changingSteps((await pulumi(["preview", "--json"])).stdout);
  expect(steps.map((s) => [s.op, resourceName(s.urn), Object.keys(s.detailedDiff ?? {})])).toEqual([["update", "api", ["workersMax"]]]);
  await pulumi(["up", "--yes"]);
  const out = (await stack.outputs()) as Record<string, unknown>;
  expect(out.workersMax).toBe(6);
  expect(emu.endpoints().find((e) => e.id === out.endpointId)?.workersMax).toBe(6);
});

test("refresh catches a change made outside Pulumi, and the next preview shows it as the one change", async () => {
  const id = ((await stack.outputs()) as Record<string, string>).endpointId;
  const client = createClientFromEnv({ apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2 }, {});
  const r = emu.endpoints().find((e) => e.id === id)!;
  await client.saveEndpoint({
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
});
