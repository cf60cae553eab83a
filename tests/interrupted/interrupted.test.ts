/**
 * Issue #16 through the real Pulumi CLI: a `pulumi up`, `destroy` or replacement SIGKILLed (by pid) at
 * several points (between a create and its state write, creates in flight, a create-before-delete
 * replacement, before any operation, a destroy), then the documented recovery (`pulumi-runpod recover
 * --yes`), then `pulumi up` and `pulumi destroy`. The replacement goes on from the stack the in-flight
 * scenario's recovery and `up` left, the destroy from the lock-only one's, so their `pulumi destroy` is
 * the next scenario's (an `up` and a `destroy` fewer each). After each step the platform (the emulator)
 * and the stack must agree — the stack's endpoints are exactly the platform's, no pending operation
 * is left — and nothing is left at the end. A last scenario does what a user without `recover` does (`pulumi cancel`, `pulumi up`,
 * clear the pending creates) and shows the orphans that leaves, which `orphans --delete --yes` then
 * finds (by the pending creates the stack's history records) and deletes without touching anything
 * that no record proves the stack's.
 *
 * The emulator's injected latency holds requests at the platform, so they are in flight when the
 * engine is killed; they still take effect afterwards, as a real platform's would. The processes the
 * killed engine had started (language host, program, dynamic provider host) are ended by pid: at once
 * where the machine is "lost", after the recovery where the provider is left to finish its requests.
 *
 * Prints `interrupted: N kill points, orphans after recovery X, left after destroy Y`.
 * Needs dist/ (`npx tsc -p tsconfig.json`) and the Pulumi CLI in .pulumi/bin (`npm run setup`).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import type { CliResult } from "../cli/harness";
import { endProcesses, platformIds, runCli, runUntilKilled, stackView } from "./harness";
import type { TrackedProcess } from "./processTree";

jest.setTimeout(300_000);

const FIXTURE = path.join(__dirname, "..", "e2e", "fixture");
/** The provider's request timeout in these stacks. */
const TIMEOUT_MS = 8000;
/**
 * `recover --settle`: seconds after the killed run's last state write before the platform is read. The
 * default covers the retries a surviving provider process may still send (2 min and more); here no
 * request is left to retry (refused ones belong to processes already ended), so the longest request
 * latency injected (4 s) and a margin suffice.
 */
const SETTLE = "8";

type Spec = Record<string, unknown>;
const AUTO: Spec = { templateId: "tpl_vllm", gpuIds: ["AMPERE_16"], workersMax: 1 };

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;
const started: TrackedProcess[] = [];
const transcript: string[] = [];
const figures = { killPoints: 0, orphansAfterRecovery: 0, leftAfterDestroy: 0 };

beforeAll(async () => {
  // The platform's own save semantics; the merge pass (tests/tiers.js) covers merge with faster scenarios.
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 5000, jobDurationMs: 50, saveSemantics: "replace" });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-interrupted-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  stack = await newStack("int");
  expect(stack.programDir).toBe(programDir);
});

afterAll(async () => {
  await endProcesses(started);
  // Only a lock a failed test left needs a cancel (a CLI run each).
  if (stack && locked()) await stack.run(["cancel", "--yes"], { quiet: true, expectCodes: [0, 1, 255] }).catch(() => undefined);
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  process.stdout.write(
    `\ninterrupted: ${figures.killPoints} kill points, orphans after recovery ${figures.orphansAfterRecovery}, left after destroy ${figures.leftAfterDestroy}\n`,
  );
});

async function newStack(name: string): Promise<LocalStack> {
  // No assertion here reads the preview an `up` or `destroy` runs first: they skip it (half the engine and program start-ups).
  const s = await LocalStack.create({
    programDir: path.join(work, "program"),
    stackName: name,
    stateDir: path.join(work, "state"),
    timeoutMs: 180_000,
    skipPreview: true,
  });
  await s.usePlatform(emu.urls, emu.apiKey);
  // The kill points count the GraphQL path's operations (saveEndpoint, REST v1 create); v2's stack commands: tests/e2e/stackCommandsV2.test.ts.
  await s.setConfigs({ "runpod:timeoutMs": String(TIMEOUT_MS), "runpod:api": "graphql" });
  return s;
}

/** The backend holds a stack lock (a run in progress, or one killed before releasing it). */
const locked = () => {
  const locks = path.join(work, "state", ".pulumi", "locks");
  return fs.existsSync(locks) && fs.readdirSync(locks, { recursive: true }).some((f) => String(f).endsWith(".json"));
};
const declare = (endpoints: Record<string, Spec>, on: LocalStack = stack) => on.setConfig("endpoints", JSON.stringify(endpoints));
const received = (op: string) => emu.stats().byOperation[op] ?? 0;

async function pulumi(args: string[], on: LocalStack = stack): Promise<void> {
  const r = await on.run(args);
  transcript.push(r.stdout, r.stderr);
}

async function cli(args: string[], expectCode = 0): Promise<CliResult> {
  const r = await runCli(stack, args);
  transcript.push(r.stdout, r.stderr);
  expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: expectCode, stderr: expect.any(String) });
  return r;
}

/** The stack's endpoints are exactly the platform's and nothing is pending. */
async function expectAgreement(step: string): Promise<void> {
  const view = await stackView(stack);
  expect({ step, endpoints: view.endpointIds, pending: view.pending }).toEqual({ step, endpoints: platformIds(emu), pending: [] });
}

/** Recovery as the README documents it, then the figures: orphans by `pulumi-runpod orphans` and by the platform itself. */
async function recover(): Promise<CliResult> {
  const r = await cli(["recover", "--yes", "--settle", SETTLE]);
  await expectAgreement("after recover");
  const orphans = await cli(["orphans"]);
  expect(orphans.stdout).toMatch(/^no orphans/);
  const held = new Set((await stackView(stack)).endpointIds);
  figures.orphansAfterRecovery += platformIds(emu).filter((id) => !held.has(id)).length;
  figures.killPoints++;
  return r;
}

/** `pulumi up` and `pulumi destroy`, agreeing after each; `expected` endpoints after the up. */
async function upAndDestroy(expected: number): Promise<void> {
  await pulumi(["up", "--yes"]);
  await expectAgreement("after up");
  expect(emu.endpoints()).toHaveLength(expected);
  await destroy();
}

/** `pulumi destroy`: the stack and the platform agree after it, with nothing left. */
async function destroy(): Promise<void> {
  await pulumi(["destroy", "--yes"]);
  await expectAgreement("after destroy");
  figures.leftAfterDestroy += emu.endpoints().length;
  expect(emu.endpoints()).toEqual([]);
}

/** The in-flight scenario's endpoints; the replacement scenario goes on from the stack its recovery left. */
const IN_FLIGHT: Record<string, Spec> = { a: AUTO, b: AUTO, c: AUTO, d: AUTO, chosen: { ...AUTO, name: "int-chosen", workersMax: 2 } };
/** Made by the up after the lock-only kill point; the destroy scenario goes on from them. */
const TO_DESTROY: Record<string, Spec> = { a: AUTO, b: { ...AUTO, workersMin: 1 }, c: AUTO, d: AUTO };

test("killed between a create and the state write: the endpoint is adopted with the settings it ended up with", async () => {
  // GPU type names: a REST v1 create, then a saveEndpoint for what its body lacks (scalerValue, locations).
  const IMAGES: Spec = { templateId: "tpl_comfy", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], scalerValue: 8, locations: ["RO"], workersMax: 2 };
  await declare({ images: IMAGES, named: { ...IMAGES, name: "int-images" } });
  emu.resetStats();
  emu.setFaults({ latencyMs: 4000, match: ["saveEndpoint"] });
  // Both endpoints exist, the follow-ups are at the platform, and the engine has recorded nothing.
  const killed = await runUntilKilled(stack, ["up", "--yes", "--skip-preview"], () => emu.endpoints().length >= 2 && received("saveEndpoint") >= 2);
  started.push(...killed.leftovers);
  emu.setFaults({});
  expect((await stackView(stack)).pending.map((p) => p.type)).toEqual(["creating", "creating"]);

  // The dynamic provider outlives the engine and finishes the follow-ups while recover waits.
  const r = await recover();
  expect(r.stdout).toMatch(/recovered: adopted 2, dropped 0/);
  await endProcesses(killed.leftovers);
  for (const e of emu.endpoints()) expect(e).toMatchObject({ scalerValue: 8, locations: "RO", workersMax: 2 });
  // The scenario's up fails on any change: adopted exactly as declared, GPU type names included.
  await pulumi(["up", "--yes", "--expect-no-changes"]);
  await expectAgreement("after up");
  expect(emu.endpoints()).toHaveLength(2);
  await destroy();
});

test("killed while creates are in flight: the ones that landed are adopted, the ones refused are dropped", async () => {
  await declare(IN_FLIGHT);
  emu.resetStats();
  // All five creates wait at the platform; the first two to be handled are refused (429, retry in 60 s).
  emu.setFaults({ latencyMs: 2500, force429: 2, retryAfterSeconds: 60, match: ["saveEndpoint"] });
  const killed = await runUntilKilled(stack, ["up", "--yes", "--skip-preview"], () => received("saveEndpoint") >= 5);
  // The machine is lost: nothing will retry the refused creates. The accepted ones still land.
  await endProcesses(killed.leftovers);
  expect((await stackView(stack)).pending.map((p) => p.type)).toEqual(Array(5).fill("creating"));

  const dry = await cli(["recover", "--settle", SETTLE]);
  expect(emu.endpoints()).toHaveLength(3); // recover waited for the requests in flight to settle
  emu.setFaults({}); // (only now: the 429s are decided when the held requests are handled)
  expect(dry.stdout.match(/ adopt \S+/g)).toHaveLength(3);
  expect(dry.stdout.match(/ drop /g)).toHaveLength(2);
  expect(dry.stdout).toMatch(/dry run: nothing changed/);
  expect((await stackView(stack)).pending).toHaveLength(5);

  const r = await recover();
  expect(r.stdout).toMatch(/recovered: adopted 3, dropped 2, read back 0; pending operations left 0/);
  expect(r.stderr).toMatch(/released the stack lock left by pid \d+/);
  await pulumi(["up", "--yes"]);
  await expectAgreement("after up");
  expect(emu.endpoints()).toHaveLength(5);
  // Destroyed at the end of the next scenario, which replaces two of them.
});

test("killed during a create-before-delete replacement: the new endpoints are adopted, the old ones deleted by the next up", async () => {
  // The stack the in-flight scenario's recovery and up left: five endpoints, two of them now replaced.
  const before = platformIds(emu);
  expect(before).toHaveLength(5);
  await declare({ ...IN_FLIGHT, a: { ...AUTO, type: "LB" }, b: { ...AUTO, type: "LB" } });
  emu.resetStats();
  emu.setFaults({ latencyMs: 3000, match: ["saveEndpoint"] });
  const killed = await runUntilKilled(stack, ["up", "--yes", "--skip-preview"], () => received("saveEndpoint") >= 2);
  started.push(...killed.leftovers);
  emu.setFaults({});

  const r = await recover();
  await endProcesses(killed.leftovers);
  expect(r.stdout).toMatch(/recovered: adopted 2, dropped 0/);
  const view = await stackView(stack);
  expect(view.replacedIds).toHaveLength(2);
  expect(before).toEqual(expect.arrayContaining(view.replacedIds));
  expect(emu.endpoints()).toHaveLength(7);

  await pulumi(["up", "--yes"]);
  await expectAgreement("after up");
  expect(
    emu
      .endpoints()
      .map((e) => e.type)
      .sort(),
  ).toEqual(["LB", "LB", "QB", "QB", "QB"]);
  // That up was the scenario's `pulumi up` (another would change nothing).
  await destroy();
});

test("killed before any operation: only the lock is left; recover --yes releases it and up goes on", async () => {
  await declare(TO_DESTROY);
  const killed = await runUntilKilled(stack, ["up", "--yes", "--skip-preview"], locked);
  await endProcesses(killed.leftovers);
  expect((await stackView(stack)).pending).toEqual([]);
  const blocked = await stack.run(["up", "--yes"], { expectFailure: true, quiet: true });
  expect(blocked.stdout + blocked.stderr).toMatch(/the stack is currently locked/);

  const r = await recover();
  expect(r.stdout).toMatch(/^no pending operations: nothing to recover/);
  expect(r.stderr).toMatch(/released the stack lock left by pid \d+/);
  await pulumi(["up", "--yes"]);
  await expectAgreement("after up");
  expect(emu.endpoints()).toHaveLength(4);
  // Destroyed by the next scenario, whose destroy is killed and recovered.
});

test("killed during a destroy: what was deleted leaves the stack, the rest stays; up and destroy finish", async () => {
  // The four endpoints the lock-only scenario's up made.
  await expectAgreement("before the destroy");
  expect(emu.endpoints()).toHaveLength(4);
  emu.resetStats();
  emu.setFaults({ latencyMs: 3000, match: ["deleteEndpoint"] });
  const killed = await runUntilKilled(stack, ["destroy", "--yes", "--skip-preview", "--parallel", "2"], () => received("deleteEndpoint") >= 2);
  await endProcesses(killed.leftovers);
  emu.setFaults({});
  expect((await stackView(stack)).pending.map((p) => p.type)).toEqual(["deleting", "deleting"]);

  const r = await recover();
  expect(r.stdout).toMatch(/adopted 0, dropped 0, read back 2; pending operations left 0/);
  expect(emu.endpoints()).toHaveLength(2);
  await upAndDestroy(4);
});

test("without recover (`pulumi cancel`, `pulumi up`, clear pending creates) orphans are left; `orphans --delete --yes` removes exactly those", async () => {
  // Another stack of the program holds an endpoint with the same auto-name prefix; one more is made by hand.
  const other = await newStack("int-other");
  await declare({ a: AUTO }, other);
  await pulumi(["up", "--yes"], other);
  const othersId = (await stackView(other)).endpointIds[0];
  const byHand = await client.saveEndpoint({ name: "a-by-hand", templateId: "tpl_vllm", gpuIds: "AMPERE_16", workersMax: 1 });

  await declare({ a: AUTO, b: AUTO, c: AUTO });
  emu.resetStats();
  emu.setFaults({ latencyMs: 2500, match: ["saveEndpoint"] });
  const killed = await runUntilKilled(stack, ["up", "--yes", "--skip-preview"], () => received("saveEndpoint") >= 3);
  await endProcesses(killed.leftovers);
  emu.setFaults({});
  while (emu.endpoints().length < 5) await new Promise((r) => setTimeout(r, 50));
  await pulumi(["cancel", "--yes"]);
  // `up` warns about the pending creates, keeps them (its checkpoint in the stack's history records them) and creates anew.
  await pulumi(["up", "--yes"]);
  await pulumi(["refresh", "--yes", "--clear-pending-creates"]);

  const held = new Set((await stackView(stack)).endpointIds);
  const orphanIds = platformIds(emu).filter((id) => !held.has(id) && id !== othersId && id !== byHand.id);
  expect(orphanIds).toHaveLength(3); // the issue, reproduced: three endpoints nothing will delete

  const listed = await cli(["orphans"]);
  const rows = listed.stdout.split("\n").filter((l) => / pending create of [abc] /.test(l));
  expect(rows.map((l) => l.split(/\s+/)[1]).sort()).toEqual(orphanIds.sort());
  expect(listed.stdout).not.toContain(othersId);
  expect(listed.stdout).not.toContain(byHand.id);

  const dry = await cli(["orphans", "--delete"]);
  expect(dry.stdout).toMatch(/dry run: would delete 3/);
  expect(emu.endpoints()).toHaveLength(8);
  const deleted = await cli(["orphans", "--delete", "--yes"]);
  expect(deleted.stdout.match(/^deleted endpoint /gm)).toHaveLength(3);
  expect(platformIds(emu)).toEqual([...held, othersId, byHand.id].sort());
  expect((await cli(["orphans"])).stdout).toMatch(/^no orphans/);

  await pulumi(["destroy", "--yes"], other);
  await client.scaleDownAndDeleteEndpoint(byHand);
  await expectAgreement("after orphans --delete");
  await pulumi(["destroy", "--yes"]);
  expect(emu.endpoints()).toEqual([]);
});

test("no output of the CLI or of `pulumi` contains the API key", () => {
  expect(transcript.length).toBeGreaterThan(20);
  expect(transcript.filter((t) => t.includes(emu.apiKey))).toEqual([]);
});
