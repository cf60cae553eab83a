/**
 * End to end: the real Pulumi CLI and engine run a program using this package (built in dist/)
 * against the emulator over HTTP. One stack goes through its whole life in order — each test builds
 * on the state the previous one left — because every Pulumi operation costs seconds.
 *
 * The program (tests/e2e/fixture/index.js) declares whatever the `endpoints` config holds, so each
 * scenario is a config change. The emulator is the witness: what exists there, and which operations
 * it received, is what the assertions check. Needs `npm run setup` (Pulumi CLI) and a build. The stack
 * runs the GraphQL path (`runpod:api graphql`), whose operations the assertions name.
 *
 * The emulator keeps the live platform's save semantics (`replace`) instead of running the whole file again
 * under `merge` (the merge pass, tests/tiers.js): the only saves whose outcome the semantics decide are the
 * outside edits and the scale-downs right before a delete, so the drift test edits one endpoint as each
 * reading leaves it, and the provider's own saves are proven under both in tests/provider.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv } from "../../src/api";
import type { EndpointRecord, PlatformClient, SaveEndpointInput } from "../../src/api";
import { SECRET_SIG_KEY } from "../../src/cli/stack/checkpoint";
import { ENDPOINT_TYPE, LocalStack, copyProgram, tempDir, upPhases, type RunOptions, type StateResource } from "../../scripts/exampleStack";
import type { RunPulumiResult } from "../../scripts/pulumiCli";
import { runBin, type CliResult } from "../cli/harness";

jest.setTimeout(240_000);

const FIXTURE = path.join(__dirname, "fixture");

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;
/** Everything the CLI printed in this file, for the secret scan at the end. */
const transcript: string[] = [];

type Spec = Record<string, unknown>;
let endpoints: Record<string, Spec> = {};

const API: Spec = {
  name: "e2e-api",
  templateId: "tpl_vllm",
  gpuIds: ["ADA_24", "AMPERE_24"],
  locations: ["RO", "CZ"],
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  idleTimeout: 30,
  workersMax: 3,
  fastBoot: true,
  networkVolumeName: "models",
};
const IMAGES: Spec = {
  name: "e2e-images",
  templateId: "tpl_comfy",
  gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA RTX A6000"],
  workersMax: 2,
  idleTimeout: 10,
};

async function declare(next: Record<string, Spec>): Promise<void> {
  endpoints = next;
  await stack.setConfig("endpoints", JSON.stringify(next));
}

async function pulumi(args: string[], options: RunOptions = {}): Promise<RunPulumiResult> {
  const r = await stack.run(args, options);
  transcript.push(r.stdout, r.stderr);
  return r;
}

/** Runs a command that must fail (non-zero exit). */
async function pulumiFails(args: string[], options: RunOptions = {}): Promise<RunPulumiResult> {
  const r = await stack.run(args, { ...options, expectFailure: true });
  transcript.push(r.stdout, r.stderr);
  return r;
}

/** `pulumi-runpod <args>` (the compiled bin) in the program directory, as a user runs it. */
async function runpodCli(args: string[]): Promise<CliResult> {
  const r = await runBin([...args, "--stack", stack.name], stack.env, { cwd: stack.programDir });
  transcript.push(r.stdout, r.stderr);
  return r;
}

function onEmulator(id: string): EndpointRecord | undefined {
  return emu.endpoints().find((e) => e.id === id);
}

/**
 * Flags of a verbose run: --debug shows the provider's own debug lines (one per API request); --logflow hands
 * the verbosity to the language host and the dynamic provider host.
 */
const VERBOSE = (v: number) => [`--verbose=${v}`, "--logtostderr", "--logflow", "--debug"];
/** The drift test's verbose refresh and update, scanned for the API key by the test after it. */
let verboseRuns: { refresh: RunPulumiResult; up: RunPulumiResult } | undefined;
/** The auto-named endpoint the auto-naming test leaves declared, for the drift test's update to delete. */
let autoId: string | undefined;
/** The endpoint the import test adopts, for the Endpoint.get test's update to modify. */
let adoptedId: string | undefined;

/**
 * The plan and the update of an `up` run with its preview, as its output shows them in turn; `updated: false`
 * asserts there is no update (the preview failed) and returns the whole output as the plan.
 */
function phases(stdout: string, { updated = true } = {}): [string, string] {
  if (!updated) {
    expect(stdout).not.toMatch(/^Updating \(/m);
    return [stdout, ""];
  }
  return upPhases(stdout);
}

/** Mutating operations the emulator received since the last `emu.resetStats()`. */
function mutations(): Record<string, number> {
  const ops = emu.stats().byOperation;
  const out: Record<string, number> = {};
  for (const op of ["saveEndpoint", "restCreateEndpoint", "deleteEndpoint"]) if (ops[op]) out[op] = ops[op];
  return out;
}

/** The settings a `saveEndpoint` modify carries, besides the identity (`id`, `name`, `templateId`, `gpuIds`). */
const SAVE_SETTINGS = [
  "type",
  "idleTimeout",
  "locations",
  "fastBootType",
  "scalerType",
  "scalerValue",
  "workersMin",
  "workersMax",
  "networkVolumeId",
  "gpuCount",
  "allowedCudaVersions",
  "executionTimeoutMs",
  "workersStandby",
] as const;

/** A modify carrying every setting the platform holds for `record`, with `changes` on top: the record a `merge` reading of a partial modify leaves. */
function keepingTheRest(record: EndpointRecord, changes: Partial<SaveEndpointInput>): SaveEndpointInput {
  const kept = Object.fromEntries(SAVE_SETTINGS.filter((k) => record[k] != null).map((k) => [k, record[k]]));
  return { id: record.id, name: record.name, templateId: record.templateId, gpuIds: record.gpuIds, ...kept, ...changes } as SaveEndpointInput;
}

async function stateId(name: string): Promise<string> {
  const r = await stack.endpoint(name);
  if (!r?.id) throw new Error(`no endpoint ${name} in the stack state`);
  return r.id;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50, saveSemantics: "replace" });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs, but where a step counts the
  // preview's requests or reads the plan off the up's own preview (one CLI run for both).
  stack = await LocalStack.create({ programDir, stackName: "e2e", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  // This file checks the design's GraphQL mapping operation by operation (saveEndpoint, REST v1 create,
  // locations, gpuTypeIds); the default path (v2) runs the demo, apiPathMigration and the provider suites.
  await stack.setConfig("runpod:api", "graphql");
});

afterAll(async () => {
  // Best effort: leave nothing behind even when a test failed half-way.
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("preview of two endpoints plans them and creates nothing", async () => {
  await declare({ api: API, images: IMAGES });
  const r = await pulumi(["preview"]);
  expect(r.stdout).toMatch(/\+ 3 to create/); // the stack and two endpoints
  expect(emu.endpoints()).toEqual([]);
  expect(mutations()).toEqual({});
});

test("up creates both endpoints as declared, with job URLs and the looked-up volume", async () => {
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+ 3 created/);
  const out = (await stack.outputs()) as Record<string, { id: string; jobUrl: string; networkVolumeId: string | null }>;

  const api = onEmulator(out.api.id);
  expect(api).toMatchObject({
    name: "e2e-api",
    templateId: "tpl_vllm",
    gpuIds: "ADA_24,AMPERE_24",
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    idleTimeout: 30,
    workersMin: 0,
    workersMax: 3,
    fastBootType: "FASTBOOT",
    networkVolumeId: "nv_models01",
  });
  expect(api!.locations!.split(",").sort()).toEqual(["CZ", "RO"]);
  expect(out.api.networkVolumeId).toBe("nv_models01");
  expect(out.api.jobUrl).toBe(`${emu.urls.inference}/v2/${out.api.id}/`);

  const images = onEmulator(out.images.id);
  expect(images).toMatchObject({ name: "e2e-images", templateId: "tpl_comfy", workersMax: 2, idleTimeout: 10, type: "QB" });
  expect(out.images.jobUrl).toBe(`${emu.urls.inference}/v2/${out.images.id}/`);
  expect(emu.endpoints()).toHaveLength(2);
  expect(emu.stats().byOperation.restCreateEndpoint).toBe(1); // gpuTypeIds go through REST v1
});

test("a second up is a no-op, also with the locations reordered: no diff, no write to the platform", async () => {
  emu.resetStats();
  await pulumi(["preview", "--expect-no-changes"]);
  // The same locations in another order are the same set: the up is still a no-op.
  await declare({ ...endpoints, api: { ...API, locations: ["CZ", "RO"] } });
  const r = await pulumi(["up", "--yes", "--expect-no-changes"]);
  expect(r.stdout).toMatch(/3 unchanged/);
  expect(mutations()).toEqual({});
});

test("a worker-count change updates in place", async () => {
  const apiId = await stateId("api");
  await declare({ ...endpoints, api: { ...API, locations: ["CZ", "RO"], workersMin: 1, workersMax: 5 } });
  emu.resetStats();
  const r = await pulumi(["up", "--yes", "--diff"]);
  expect(r.stdout).toMatch(/~ 1 updated/);
  expect(r.stdout).toMatch(/workersMax\s*:\s*3 => 5/);
  expect(await stateId("api")).toBe(apiId);
  expect(onEmulator(apiId)).toMatchObject({ workersMin: 1, workersMax: 5 });
  expect(mutations()).toEqual({ saveEndpoint: 1 });
  expect(emu.endpoints()).toHaveLength(2);
});

test("a replace-forcing change (type QB -> LB) creates a new endpoint and deletes the old one", async () => {
  const oldId = await stateId("images");
  await declare({ ...endpoints, images: { ...IMAGES, type: "LB" } });
  // With its preview, whose plan comes first in the output.
  const r = await pulumi(["up", "--yes", "--diff"], { preview: true });
  const [preview, update] = phases(r.stdout);
  expect(preview).toMatch(/\+-1 to replace/);
  expect(update).toMatch(/\+-1 replaced/);
  const newId = await stateId("images");
  expect(newId).not.toBe(oldId);
  expect(onEmulator(oldId)).toBeUndefined();
  expect(onEmulator(newId)).toMatchObject({ name: "e2e-images", type: "LB", workersMax: 2 });
  expect(emu.endpoints()).toHaveLength(2);
  // That the replace left nothing to do, the next test's plan shows.
});

test("after the replace nothing is left to do; an endpoint without a name is auto-named: kept across ups and refreshes, drawn anew on replace", async () => {
  const valid = endpoints;
  const AUTO: Spec = { templateId: "tpl_vllm", gpuIds: ["AMPERE_16"], workersMax: 1 };
  await declare({ ...valid, auto: AUTO });
  emu.resetStats();
  const first = await pulumi(["up", "--yes"], { preview: true });
  // The plan: the new endpoint, and nothing for the two the previous test left (one replaced).
  const [plan] = phases(first.stdout);
  expect(plan).toMatch(/\+ 1 to create/);
  expect(plan).toMatch(/\b3 unchanged/);
  expect(plan).not.toMatch(/to update|to replace|to delete/);
  const firstId = await stateId("auto");
  const firstName = onEmulator(firstId)!.name;
  expect(firstName).toMatch(/^auto-[0-9a-f]{7}$/);
  // One create request and no endpoint listing: a drawn name cannot belong to another endpoint. The
  // two `myself` requests are the templateId lookups of check (up's preview and its update, one each).
  expect(mutations()).toEqual({ saveEndpoint: 1 });
  expect(emu.stats().byOperation.myself).toBe(2);

  await pulumi(["refresh", "--yes"]);
  await pulumi(["preview", "--expect-no-changes"]);

  await declare({ ...valid, auto: { ...AUTO, type: "LB" } });
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+-1 replaced/);
  const secondId = await stateId("auto");
  // The engine re-checks a replacement without the old inputs, so the new endpoint gets its own name.
  expect(onEmulator(secondId)!.name).toMatch(/^auto-[0-9a-f]{7}$/);
  expect(onEmulator(secondId)!.name).not.toBe(firstName);
  expect(onEmulator(firstId)).toBeUndefined();
  // The next test's update drops it, and its last preview finds nothing left to do.
  autoId = secondId;
});

test("refresh detects changes made outside Pulumi, under either reading of a partial modify, and up converges back (deleting the auto-named endpoint no longer declared)", async () => {
  const apiId = await stateId("api");
  const imagesId = await stateId("images");
  const imagesBefore = (await stack.endpoint("images"))!.outputs!;
  const dependentBefore = emu.saveSemantics().dependentSaves;
  // `api`: a modify that leaves its other settings out, as the live platform (`replace`) reads it: they reset too.
  const record = onEmulator(apiId)!;
  await client.saveEndpoint({ id: apiId, name: record.name, templateId: record.templateId, gpuIds: record.gpuIds, workersMax: 9 });
  expect(emu.saveSemantics().dependentSaves).toBe(dependentBefore + 1);
  expect(onEmulator(apiId)).toMatchObject({ workersMax: 9, workersMin: 0, networkVolumeId: null });
  expect(onEmulator(apiId)!.idleTimeout).not.toBe(30);
  // `images`: one setting changed, every other kept, as a `merge` reading leaves it (a save both readings agree on).
  await client.saveEndpoint(keepingTheRest(onEmulator(imagesId)!, { workersMax: 7 }));
  expect(emu.saveSemantics().dependentSaves).toBe(dependentBefore + 1);

  // Verbose, for the log scan of the next test.
  const refresh = await pulumi(["refresh", "--yes", ...VERBOSE(8)]);
  expect(refresh.stdout).toMatch(/~ 2 updated/);
  const api = (await stack.endpoint("api"))!.outputs!;
  expect(api).toMatchObject({ workersMax: 9, workersMin: 0, idleTimeout: onEmulator(apiId)!.idleTimeout });
  expect(api.networkVolumeId ?? null).toBeNull();
  // Nothing but the edited setting and what derives from it (the cost of its workers) moved.
  const images = (await stack.endpoint("images"))!.outputs!;
  // Secret outputs (env, releasedContainer) are sealed afresh with a new nonce at every write: compare them as sealed.
  expect(sealedAsOne(images)).toEqual(sealedAsOne({ ...imagesBefore, workersMax: 7, maxHourlyCost: images.maxHourlyCost }));
  expect(images.maxHourlyCost).toBeCloseTo(((imagesBefore.maxHourlyCost as number) / 2) * 7, 6);

  // The update's diff shows the drift the refresh recorded, each setting going back to its declared value;
  // the same update deletes the previous test's auto-named endpoint, which the program no longer declares.
  const { auto: _auto, ...declared } = endpoints;
  await declare(declared);
  const up = await pulumi(["up", "--yes", "--diff", ...VERBOSE(9)]);
  expect(up.stdout).toMatch(/workersMax\s*:\s*9 => 5/);
  expect(up.stdout).toMatch(/idleTimeout\s*:\s*\d+ => 30/);
  expect(up.stdout).toMatch(/workersMax\s*:\s*7 => 2/);
  verboseRuns = { refresh, up };
  expect(onEmulator(apiId)).toMatchObject({
    workersMin: 1,
    workersMax: 5,
    idleTimeout: 30,
    scalerValue: 4,
    networkVolumeId: "nv_models01",
    fastBootType: "FASTBOOT",
  });
  expect(onEmulator(imagesId)).toMatchObject({ workersMax: 2, idleTimeout: 10, type: "LB" });
  expect(onEmulator(autoId!)).toBeUndefined();
  await pulumi(["preview", "--expect-no-changes"]);
});

test("verbose logs of a refresh and an update do not contain the API key", () => {
  // The drift test's refresh (verbosity 8, reading the three endpoints) and update (verbosity 9, a modify of two, a delete of one).
  const { refresh, up } = verboseRuns!;
  const logs = (refresh.stdout + refresh.stderr + up.stdout + up.stderr).split("\n");
  expect(logs.length).toBeGreaterThan(1000); // the logs really are verbose
  expect(logs.some((l) => l.includes("runpod:apiKey"))).toBe(true); // the key's config entry went through the engine...

  // ...and its value shows only where the Pulumi engine itself traces, at the highest verbosity,
  // each field it marshals for the provider's Configure call, secrets unwrapped (an engine
  // behaviour: it does the same for every provider's secret config). Nothing from this package,
  // its program or its provider prints it, at any verbosity.
  const engineConfigureTrace = /"msg":"Marshaling property for RPC\[Provider\[0x[0-9a-f]+\]\.Configure\(\)\.inputs\]: value=\{/;
  const leaks = logs.filter((l) => l.includes(emu.apiKey));
  expect(leaks.filter((l) => !engineConfigureTrace.test(l))).toEqual([]);
  expect(refresh.stdout + refresh.stderr).not.toContain(emu.apiKey); // verbosity 8: no exception at all
});

test("refresh drops an endpoint deleted outside Pulumi; up creates it again", async () => {
  const oldId = await stateId("images");
  const record = onEmulator(oldId)!;
  await client.saveEndpoint({ id: oldId, name: record.name, templateId: record.templateId, gpuIds: record.gpuIds, workersMin: 0, workersMax: 0 });
  await client.deleteEndpoint(oldId);
  expect(onEmulator(oldId)).toBeUndefined();

  await pulumi(["refresh", "--yes"]);
  expect(await stack.endpoint("images")).toBeUndefined();

  await pulumi(["up", "--yes"]);
  const newId = await stateId("images");
  expect(newId).not.toBe(oldId);
  expect(onEmulator(newId)).toMatchObject({ name: "e2e-images", type: "LB" });
});

test("invalid inputs fail at preview naming the field and its accepted values; nothing is created", async () => {
  const before = emu
    .endpoints()
    .map((e) => e.id)
    .sort();
  const valid = endpoints;
  const state = await stack.resources();
  emu.resetStats();

  // One `pulumi up` of an endpoint with two problems (the engine stops at the first resource that fails its
  // check): its preview reports each, and it goes no further.
  await declare({ ...valid, bad: { name: "e2e-bad", templateId: "tpl_vllm", gpuIds: ["H100_80"], workersMin: 4, workersMax: 2 } });
  const up = await pulumiFails(["up", "--yes"], { preview: true });
  const [preview] = phases(up.stdout + up.stderr, { updated: false });
  expect(preview).toMatch(/property gpuIds .*has a problem: gpuIds .*AMPERE_16.*got \["H100_80"\]/);
  expect(preview).toMatch(/has a problem: workersMin/);

  expect(
    emu
      .endpoints()
      .map((e) => e.id)
      .sort(),
  ).toEqual(before);
  expect(mutations()).toEqual({});
  expect(await stack.resources()).toEqual(state); // nothing left behind (the next test's preview finds nothing to do)
  await declare(valid);
});

test("`pulumi-runpod import` adopts an existing endpoint without writing to the platform", async () => {
  const existing = await client.saveEndpoint({
    name: "e2e-adopted",
    templateId: "tpl_vllm",
    gpuIds: "AMPERE_16,AMPERE_24",
    idleTimeout: 20,
    workersMax: 2,
  });
  const adopted: Spec = { name: "e2e-adopted", templateId: "tpl_vllm", gpuIds: ["AMPERE_16", "AMPERE_24"], idleTimeout: 20, workersMax: 2 };
  await declare({ ...endpoints, adopted });
  emu.resetStats();
  const imported = await runpodCli(["import", "adopted", existing.id]);
  expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: "" });
  expect(imported.stdout).toMatch(
    new RegExp(`^imported endpoint ${existing.id} as urn:pulumi:e2e::runpod-e2e::pulumi-nodejs:dynamic/runpod:Endpoint::adopted;`),
  );
  expect(await stateId("adopted")).toBe(existing.id);
  expect((await stack.endpoint("adopted"))!.outputs).toMatchObject({ name: "e2e-adopted", workersMax: 2, gpuIds: ["AMPERE_16", "AMPERE_24"] });
  await pulumi(["preview", "--expect-no-changes"]); // declared as it is, and the rest as before the failed up: nothing to do
  expect(mutations()).toEqual({});
  expect(emu.endpoints()).toHaveLength(3);
  adoptedId = existing.id; // that it is then managed, the Endpoint.get test's update shows
});

test("`pulumi-runpod import` of an id the platform does not know fails (exit 2) and leaves the state as it was", async () => {
  const before = await stack.resources();
  await declare({ ...endpoints, ghost: { name: "e2e-ghost", templateId: "tpl_vllm", gpuIds: ["AMPERE_16"] } });
  const ghost = await runpodCli(["import", "ghost", "nosuchendpoint1"]);
  expect(ghost.code).toBe(2);
  expect(ghost.stderr).toMatch(/^pulumi-runpod: no endpoint with id "nosuchendpoint1" is visible with this stack's API key; nothing was imported\n$/);
  // An endpoint the stack already holds, or a name the program does not declare, is refused before any change.
  const twice = await runpodCli(["import", "ghost", await stateId("adopted")]);
  expect(twice.code).toBe(2);
  expect(twice.stderr).toMatch(/endpoint \S+ is already in the stack, as urn:pulumi:e2e::runpod-e2e::pulumi-nodejs:dynamic\/runpod:Endpoint::adopted/);
  // The state, not the preview (which leaves unchanged resources out), says a name is already managed.
  const managed = await runpodCli(["import", "adopted", "nosuchendpoint1"]);
  expect(managed.code).toBe(2);
  expect(managed.stderr).toMatch(
    /^pulumi-runpod: the stack already manages urn:pulumi:e2e::runpod-e2e::pulumi-nodejs:dynamic\/runpod:Endpoint::adopted \(id \S+\)/,
  );
  const undeclared = await runpodCli(["import", "nowhere", "nosuchendpoint1"]);
  expect(undeclared.code).toBe(2);
  expect(undeclared.stderr).toMatch(/the program declares no pulumi-runpod resource named "nowhere"/);
  expect((await stack.resources()).map((r) => r.urn)).toEqual(before.map((r) => r.urn));
  const { ghost: _ghost, ...rest } = endpoints;
  await declare(rest);
});

test("an imported endpoint is then managed, and Endpoint.get reads an existing endpoint without managing it (one up); dropping the lookup leaves the endpoint", async () => {
  const existing = await client.saveEndpoint({ name: "e2e-looked-up", templateId: "tpl_comfy", gpuIds: "AMPERE_80", workersMax: 5 });
  await declare({ ...endpoints, adopted: { ...endpoints.adopted, workersMax: 4 } });
  await stack.setConfig("lookups", JSON.stringify({ found: existing.id }));
  emu.resetStats();
  await pulumi(["up", "--yes"]);
  expect(onEmulator(adoptedId!)!.workersMax).toBe(4);
  expect(emu.endpoints()).toHaveLength(3 + 1); // the three managed ones and the looked-up one: nothing created
  expect((await stack.outputs()).found).toEqual({ id: existing.id, name: "e2e-looked-up", gpuIds: ["AMPERE_80"], workersMax: 5 });
  expect((await stack.endpoint("found"))!.external).toBe(true);
  expect(mutations()).toEqual({ saveEndpoint: 1 }); // the adopted endpoint's modify; the lookup writes nothing

  emu.resetStats();
  await stack.removeConfig("lookups");
  await pulumi(["up", "--yes"]);
  expect(await stack.endpoint("found")).toBeUndefined();
  expect(onEmulator(existing.id)).toBeDefined();
  expect(mutations()).toEqual({});
  await client.saveEndpoint({ id: existing.id, name: existing.name, templateId: existing.templateId, gpuIds: existing.gpuIds, workersMax: 0 });
  await client.deleteEndpoint(existing.id);
});

test("the API key is not in the exported state, nor in plain text in any state file", async () => {
  const plain = await stack.exportText();
  const state = JSON.parse(plain) as { deployment: { resources: StateResource[] } };
  expect(state.deployment.resources.filter((r) => r.type === ENDPOINT_TYPE)).toHaveLength(3);
  expect(plain).not.toContain(emu.apiKey);
  for (const file of listFiles(stack.stateDir)) {
    expect({ file, leaks: fs.readFileSync(file, "utf8").includes(emu.apiKey) }).toEqual({ file, leaks: false });
  }

  // Decrypted, the key shows up exactly once: as the engine stores every provider's configuration,
  // the `runpod:apiKey` secret of the default `pulumi-nodejs` provider. No endpoint and no output holds it.
  const shown = JSON.parse(await stack.exportText({ showSecrets: true })) as { deployment: { resources: StateResource[] } };
  const holders = shown.deployment.resources.filter((r) => JSON.stringify(r).includes(emu.apiKey));
  expect(holders.map((r) => r.type)).toEqual(["pulumi:providers:pulumi-nodejs"]);
  const { ["runpod:apiKey"]: inInputs, ...otherInputs } = holders[0].inputs ?? {};
  const { ["runpod:apiKey"]: inOutputs, ...otherOutputs } = holders[0].outputs ?? {};
  expect(JSON.stringify(inInputs)).toContain(emu.apiKey);
  expect(JSON.stringify(inOutputs)).toContain(emu.apiKey);
  expect(JSON.stringify([otherInputs, otherOutputs])).not.toContain(emu.apiKey);
  expect(plain).toContain('"runpod:apiKey": {'); // ...and is stored encrypted (a secret object), not as a string
});

test("destroy scales every endpoint to zero, deletes it, and leaves none on the emulator", async () => {
  expect(onEmulator(await stateId("api"))!.workersMin).toBe(1); // deletion needs scale-to-zero first
  emu.resetStats();
  const r = await pulumi(["destroy", "--yes"]);
  expect(r.stdout).toMatch(/- 4 deleted/); // three endpoints and the stack
  expect(emu.endpoints()).toEqual([]);
  expect(emu.stats().byOperation.deleteEndpoint).toBe(3);
  // Two requests per endpoint: a look at its workers (a delete would cancel a running job), then the scale-down and the delete together; no endpoint listing.
  expect(emu.stats().byOperation.listWorkers).toBe(3);
  expect(emu.stats().requests).toBe(6);
  expect(await stack.resources()).toEqual([]);
});

test("no CLI output of this file contains the API key (apart from the engine's verbosity-9 trace above)", () => {
  expect(transcript.length).toBeGreaterThan(20);
  const lines = transcript
    .join("\n")
    .split("\n")
    .filter((l) => l.includes(emu.apiKey));
  expect(lines.filter((l) => !l.includes(".Configure().inputs]: value="))).toEqual([]);
});

function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** The state's secret envelopes (Pulumi's secret signature key) as one marker, whatever their ciphertext. */
function sealedAsOne(outputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v !== null && typeof v === "object" && SECRET_SIG_KEY in v ? "[secret]" : v]));
}
