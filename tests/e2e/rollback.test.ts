/**
 * Safe rollouts through the real Pulumi CLI on REST v2 (issue 30): one stack, a template shared by two
 * endpoints with a warm worker each. A bad image (the emulator's `failingImages` fault) rolls both
 * endpoints back, with a message naming endpoint, release, failed workers and their last log lines and
 * what to do, while jobs sent during the rollout are all answered; the next preview shows the change
 * again. A smoke job ending otherwise than expected rolls its endpoint back. A good image after the
 * failed ones rolls out. An `up` SIGKILLed during its rollbacks is recovered (`pulumi-runpod recover`), and
 * the next `up` re-applies, fails and rolls back again. On an endpoint of its own image scaled to zero, the
 * smoke job of a release whose workers cannot start stays queued (issue 40): the `up` fails naming it and
 * the failing workers, rolls back, and the job is cancelled. The program is tests/e2e/templatesFixture;
 * the emulator is the witness.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import { endProcesses, runCli, runUntilKilled } from "../interrupted/harness";

jest.setTimeout(900_000);

const FIXTURE = path.join(__dirname, "templatesFixture");
const ENDPOINT_TYPE = "pulumi-nodejs:dynamic/runpod:Endpoint";
const ENV_SECRET = "hf_rollback-e2e-secret-1732050807";
const TEMPLATE = { name: "e2e-rollback", imageName: "me/worker:1", env: { MODEL: "small" }, secretEnv: ["HF_TOKEN"] };
const ENDPOINT = { template: "llm", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 2, waitForWorkers: true, rolloutTimeout: 120 };
/** The template and endpoint a as the first test leaves them, and endpoint c of its own image as it creates it. */
const SETTLED = { ...TEMPLATE, imageName: "me/worker:3" };
const SMOKE_A = { smokeInput: JSON.stringify({ prompt: "ping" }) };
const OWN = {
  name: "e2e-rollback-c",
  imageName: "me/own:1",
  gpuIds: ["ADA_24"],
  workersMin: 0,
  workersMax: 1,
  smokeInput: JSON.stringify({ prompt: "ping" }),
  rolloutTimeout: 120,
};

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;

async function declare(template: Record<string, unknown>, a: Record<string, unknown> = {}, more: Record<string, Record<string, unknown>> = {}): Promise<void> {
  await stack.setConfigs({
    templates: JSON.stringify({ llm: template }),
    endpoints: JSON.stringify({ a: { ...ENDPOINT, name: "e2e-rollback-a", ...a }, b: { ...ENDPOINT, name: "e2e-rollback-b" }, ...more }),
  });
}

/** The stack's endpoint ids by resource name. */
async function endpointIds(): Promise<{ a: string; b: string }> {
  const all = await stack.resources(ENDPOINT_TYPE);
  const id = (name: string) => all.find((r) => r.urn.endsWith(`::${name}`))!.id!;
  return { a: id("a"), b: id("b") };
}

/** Each endpoint's image and its workers' images (all on the current release). */
async function running(id: string): Promise<{ image: string | undefined; workers: (string | null | undefined)[]; stale: number }> {
  const { workers } = await client.v2.listEndpointWorkers(id);
  return { image: (await client.v2.getEndpoint(id)).image, workers: [...new Set(workers.map((w) => w.image))], stale: workers.filter((w) => w.isStale).length };
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 200, logIntervalMs: 5000, jobDurationMs: 100 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-rollback-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up` and `destroy` skip theirs.
  stack = await LocalStack.create({ programDir, stackName: "e2e-rollback", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  await stack.setConfig("runpod:api", "v2");
  await stack.setConfig("envSecret", ENV_SECRET, { secret: true });
});

// No destroy at the end: the emulator, the stack's only platform, closes with everything on it.
afterAll(async () => {
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("a bad image on a shared template rolls both endpoints back, losing no job; a failing smoke job rolls back; a good image then rolls out", async () => {
  await declare(TEMPLATE);
  await stack.run(["up", "--yes"]);
  const ids = await endpointIds();

  // 1. A bad image: the template (v2: a copy per endpoint) is re-applied by both endpoints, each fails and is rolled back.
  emu.setFaults({ failingImages: ["me/worker:2"] });
  await declare({ ...TEMPLATE, imageName: "me/worker:2" });
  const sent: string[] = [];
  let deploying = true;
  const traffic = (async () => {
    while (deploying) {
      sent.push((await client.run(ids.a, { prompt: `job ${sent.length}` })).id);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const bad = await stack.run(["up", "--yes", "--continue-on-error"], { expectFailure: true }).finally(() => {
    deploying = false;
  });
  await traffic;
  const out = bad.stdout + bad.stderr;
  for (const [name, id] of Object.entries(ids)) {
    expect(out).toContain(`Endpoint e2e-rollback-${name} (${id}): the rollout of release rel_`);
  }
  expect(out).toMatch(/failed: 1 worker failed to start \(UNHEALTHY\)/);
  expect(out).toMatch(/Last log lines of worker \S+:/);
  expect(out).toMatch(/container exited with code 1 during startup/);
  expect(out).toContain("Rolled back: every worker runs the previous container settings again (image me/worker:1)");
  expect(out).toMatch(/What to do: fix the image/);
  expect(out.includes(ENV_SECRET)).toBe(false);
  for (const id of Object.values(ids)) expect(await running(id)).toEqual({ image: "me/worker:1", workers: ["me/worker:1"], stale: 0 });
  // No job lost: every job sent during the rollout is answered.
  expect(sent.length).toBeGreaterThan(0);
  const answered = await Promise.all(sent.map((j) => client.waitForJob(ids.a, j, { timeoutMs: 60_000, pollIntervalMs: 100 })));
  expect(answered.filter((j) => j.status === "COMPLETED").length).toBe(sent.length);
  // The stack keeps the endpoints' previous state: the next preview shows their re-apply again.
  expect((await stack.run(["preview"])).stdout).toMatch(/~ 2 to update/);

  // 2. A good image, but endpoint a's smoke job fails: a rolls back, b rolls out.
  emu.setFaults({});
  await declare({ ...TEMPLATE, imageName: "me/worker:3" }, { smokeInput: JSON.stringify({ fail: true }) });
  const smoke = await stack.run(["up", "--yes", "--continue-on-error"], { expectFailure: true });
  expect(smoke.stdout + smoke.stderr).toMatch(
    new RegExp(`Endpoint e2e-rollback-a \\(${ids.a}\\): the rollout of release \\S+ .*failed: its smoke job \\S+ ended FAILED`),
  );
  expect(await running(ids.a)).toEqual({ image: "me/worker:1", workers: ["me/worker:1"], stale: 0 });
  expect(await running(ids.b)).toEqual({ image: "me/worker:3", workers: ["me/worker:3"], stale: 0 });

  // 3. The smoke job fixed: the good image rolls out on a too, and nothing is left to change. The same up creates
  // the next test's endpoint c (a program run fewer than an up of its own).
  await declare({ ...TEMPLATE, imageName: "me/worker:3" }, { smokeInput: JSON.stringify({ prompt: "ping" }) }, { c: OWN });
  await stack.run(["up", "--yes"]);
  expect(await running(ids.a)).toEqual({ image: "me/worker:3", workers: ["me/worker:3"], stale: 0 });
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
});

test("an up killed during its rollbacks: after recover, the next up re-applies, fails and rolls back again; on c (workersMin 0), a release whose workers cannot start in that up: the smoke job stays queued, the up fails naming it and the workers, rolls back and cancels the job; fixed images bring the stack and the platform together", async () => {
  const ids = await endpointIds();
  // c was created by the previous test's last up, scaled to zero.
  const c = (await stack.resources(ENDPOINT_TYPE)).find((r) => r.urn.endsWith("::c"))!.id!;
  expect((await client.v2.listEndpointWorkers(c)).workers).toEqual([]);
  emu.setFaults({ failingImages: ["me/worker:4", "me/own:2"] });
  await declare({ ...TEMPLATE, imageName: "me/worker:4" }, SMOKE_A, { c: OWN });
  emu.resetStats();
  // Both re-applies (2 PATCHes), then both rollbacks sent (2 more): killed while the rollbacks are followed.
  const killed = await runUntilKilled(
    stack,
    ["up", "--yes", "--skip-preview", "--continue-on-error"],
    () => (emu.stats().byOperation.updateEndpoint ?? 0) >= 4,
  );
  await endProcesses(killed.leftovers);
  const recovered = await runCli(stack, ["recover", "--yes", "--settle", "2"]);
  expect(recovered.code).toBe(0);

  // The next up re-applies a and b, and also takes c to an image whose workers cannot start (one up for both scenarios).
  await declare({ ...TEMPLATE, imageName: "me/worker:4" }, SMOKE_A, { c: { ...OWN, imageName: "me/own:2" } });
  const again = await stack.run(["up", "--yes", "--continue-on-error"], { expectFailure: true });
  const out = again.stdout + again.stderr;
  for (const [name, id] of Object.entries(ids)) expect(out).toContain(`Endpoint e2e-rollback-${name} (${id}): the rollout of release rel_`);
  expect(out).toContain("Rolled back: every worker runs the previous container settings again (image me/worker:3)");
  for (const id of Object.values(ids)) expect(await running(id)).toEqual({ image: "me/worker:3", workers: ["me/worker:3"], stale: 0 });

  const pattern = new RegExp(
    `Endpoint e2e-rollback-c \\(${c}\\): the rollout of release rel_\\S+ \\(version \\d+\\) failed: 1 worker failed to start \\(UNHEALTHY\\); its smoke job (\\S+) was still IN_QUEUE \\(no worker of the release could take it\\); it is cancelled\\.`,
  );
  expect(out).toMatch(pattern);
  const named = pattern.exec(out)!;
  // c's own message under Diagnostics (a's and b's in the same output say the same of their workers; the progress
  // lines show only a message's first line), up to its "What to do".
  const cStart = out.indexOf("pulumi-nodejs:dynamic/runpod:Endpoint (c):");
  const cText = out.slice(cStart, out.indexOf("What to do:", cStart));
  expect(cText).toMatch(pattern);
  expect(cText).toMatch(/container exited with code 1 during startup/);
  expect(cText).toContain("Rolled back: every worker runs the previous container settings again (image me/own:1)");
  // Where jobs ignored workers the smoke job passed with no worker at all, and the up succeeded.
  expect((await client.jobStatus(c, named[1])).status).toBe("CANCELLED");
  expect((await client.v2.getEndpoint(c)).image).toBe("me/own:1");
  expect((await client.v2.listEndpointWorkers(c)).workers.every((w) => w.image === "me/own:1")).toBe(true);
  // The failed up kept the previous state of all three: the next preview shows each change again.
  expect((await stack.run(["preview"])).stdout).toMatch(/~ 3 to update/);

  // The template back on the image the endpoints run, and c's image declared back: the stack agrees with the
  // platform again (c's rollback release, which the failed up could not record, is followed once).
  emu.setFaults({});
  await declare(SETTLED, SMOKE_A, { c: OWN });
  await stack.run(["up", "--yes"]);
  for (const id of Object.values(ids)) expect(await running(id)).toEqual({ image: "me/worker:3", workers: ["me/worker:3"], stale: 0 });
  for (const r of await stack.resources(ENDPOINT_TYPE)) expect(r.outputs).toMatchObject({ templateCurrent: true });
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
});
