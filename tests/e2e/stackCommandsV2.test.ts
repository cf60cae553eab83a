/**
 * The stack commands (`pulumi-runpod import`, `recover`, `orphans`) on a stack of the default API path
 * (REST v2: `runpod:api` unset), through the real Pulumi CLI and the compiled bin against the emulator.
 * They list and delete through v2 (`GET /v2/serverless`, `PATCH` + `DELETE /v2/serverless/{id}`),
 * as the provider does; the GraphQL path's counterparts run in lifecycle.test.ts and tests/interrupted.
 * Needs `npm run setup` (Pulumi CLI) and a build (dist/).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { ENDPOINT_TYPE, LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import { runBin, type CliResult } from "../cli/harness";
import { endProcesses, runUntilKilled } from "../interrupted/harness";

jest.setTimeout(600_000);

const FIXTURE = path.join(__dirname, "fixture");
const API = { templateId: "tpl_vllm", gpuIds: ["ADA_24"], dataCenterIds: ["EU-RO-1"], workersMax: 2, idleTimeout: 10 };

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-v2cmd-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up` and `destroy` skip theirs, but where a step checks the preview's requests.
  stack = await LocalStack.create({ programDir, stackName: "v2cmd", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey); // no runpod:api: the default path
});

// No destroy at the end: the emulator, the stack's only platform, closes with everything on it.
afterAll(async () => {
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const declare = (endpoints: Record<string, unknown>) => stack.setConfig("endpoints", JSON.stringify(endpoints));
const runpodCli = (args: string[]): Promise<CliResult> => runBin([...args, "--stack", stack.name], stack.env, { cwd: stack.programDir });
const ops = () => emu.stats().byOperation;
const GRAPHQL_WRITES = ["saveEndpoint", "restCreateEndpoint"];

test("up on the default path creates through REST v2 only", async () => {
  // `extra` is the endpoint the next test makes an orphan: created by this up, not by an up of its own.
  await declare({ api: API, extra: { ...API, workersMax: 1 } });
  emu.resetStats();
  await stack.run(["up", "--yes"], { preview: true });
  const ids = (await stack.resources(ENDPOINT_TYPE)).map((r) => r.id!);
  expect(ids).toHaveLength(2);
  const onPlatform = emu.endpoints().map((e) => e.id);
  expect(onPlatform.sort()).toEqual(ids.sort());
  expect(ops().createEndpoint).toBe(2);
  for (const op of [...GRAPHQL_WRITES, "myself"]) expect(ops()[op]).toBeUndefined();
});

test("`orphans` lists through v2; `orphans --delete --yes` deletes the orphan through v2 as a destroy does (a look at its workers; no job running, no scale-down)", async () => {
  const none = await runpodCli(["orphans"]);
  expect({ code: none.code, stdout: none.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(/^no orphans/) });
  // An endpoint the stack created (the first test's up) and then forgot (`pulumi state delete`): its checkpoint
  // history proves it the stack's.
  const forgotten = (await stack.endpoint("extra"))!;
  const orphan = { id: forgotten.id!, name: String(forgotten.outputs?.name) };
  await stack.run(["state", "delete", forgotten.urn, "--yes"]);
  await declare({ api: API });
  emu.resetStats();
  const listed = await runpodCli(["orphans"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(orphan.id);
  expect(listed.stdout).toMatch(new RegExp(`${orphan.id} +${orphan.name} +recorded resource extra`));
  expect(ops().listEndpoints).toBeGreaterThanOrEqual(1);
  expect(ops().myself).toBeUndefined();
  const deleted = await runpodCli(["orphans", "--delete", "--yes"]);
  expect({ code: deleted.code, stderr: deleted.stderr }).toEqual({ code: 0, stderr: "" });
  expect(deleted.stdout).toContain(`deleted endpoint ${orphan.id} (${orphan.name})`);
  expect(emu.endpoints().map((e) => e.id)).toEqual([(await stack.endpoint("api"))!.id]);
  expect(ops()).toMatchObject({ listWorkers: 1, deleteEndpoint: 1 });
  expect(ops().updateEndpoint).toBeUndefined();
  for (const op of [...GRAPHQL_WRITES, "myself"]) expect(ops()[op]).toBeUndefined();
});

test("killed while a create is in flight: `recover --yes` adopts its endpoint from the v2 listing", async () => {
  await declare({ api: API, web: { ...API, workersMax: 1 } });
  emu.resetStats();
  // The create waits at the platform; the run is killed once it is sent, and the create still lands.
  emu.setFaults({ latencyMs: 2000, match: ["createEndpoint"] });
  const killed = await runUntilKilled(stack, ["up", "--yes", "--skip-preview"], () => (ops().createEndpoint ?? 0) >= 1);
  await endProcesses(killed.leftovers);
  emu.setFaults({});
  expect(await stack.endpoint("web")).toBeUndefined();

  emu.resetStats();
  const r = await runpodCli(["recover", "--yes", "--settle", "5"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/recovered: adopted 1, dropped 0, read back 0; pending operations left 0/);
  const web = await stack.endpoint("web");
  expect(emu.endpoints().map((e) => e.id)).toContain(web!.id);
  expect(emu.endpoints()).toHaveLength(2);
  expect(ops().listEndpoints).toBeGreaterThanOrEqual(1);
  expect(ops().myself).toBeUndefined();
  await stack.run(["preview", "--expect-no-changes"]);
});

test("`import` adopts an endpoint made through v2; the next up manages it", async () => {
  const existing = await client.v2.createEndpoint({
    name: "v2-adopted",
    type: "QUEUE",
    templateId: "tpl_vllm",
    gpu: { pools: ["AMPERE_24"] },
    workers: { min: 0, max: 2 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  });
  await declare({ api: API, web: { ...API, workersMax: 1 }, adopted: { name: "v2-adopted", templateId: "tpl_vllm", gpuIds: ["AMPERE_24"], workersMax: 2 } });
  const imported = await runpodCli(["import", "adopted", existing.id]);
  expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: "" });
  expect(imported.stdout).toMatch(new RegExp(`^imported endpoint ${existing.id} as urn:pulumi:v2cmd::\\S+::pulumi-nodejs:dynamic/runpod:Endpoint::adopted;`));
  expect((await stack.endpoint("adopted"))!.id).toBe(existing.id);
  expect((await stack.endpoint("adopted"))!.outputs).toMatchObject({ name: "v2-adopted", workersMax: 2, gpuIds: ["AMPERE_24"] });

  await declare({ api: API, web: { ...API, workersMax: 1 }, adopted: { name: "v2-adopted", templateId: "tpl_vllm", gpuIds: ["AMPERE_24"], workersMax: 4 } });
  emu.resetStats();
  await stack.run(["up", "--yes"]);
  expect(emu.endpoints().find((e) => e.id === existing.id)!.workersMax).toBe(4);
  expect(emu.endpoints()).toHaveLength(3); // updated in place, nothing created
  expect(ops().createEndpoint).toBeUndefined();
  await stack.run(["preview", "--expect-no-changes"]);
});
