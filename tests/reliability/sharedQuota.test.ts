/**
 * Issue 41: one account's rate limit shared by many processes. Three stacks of one key run `pulumi up`
 * at the same moment, then `pulumi destroy`, through the real Pulumi CLI on the default API path,
 * against an emulator seeded with a small per-minute quota: each phase needs more requests than the
 * window has left, so the processes must wait for resets (pacing, or 429s waited out with jitter).
 * Every command exits 0, each endpoint exists once, and nothing is left.
 *
 * Needs dist/ (`npm run build`) and the Pulumi CLI in .pulumi/bin (`npm run setup`).
 */
import * as fs from "fs";
import * as path from "path";
import { ENDPOINT_TYPE, LocalStack, copyProgram, randomSuffix, tempDir } from "../../scripts/exampleStack";
import type { RunPulumiResult } from "../../scripts/pulumiCli";
import { relClient, startRelEmulator, tightQuotaSeed, type RelEmulator } from "./harness";

const FIXTURE = path.resolve(__dirname, "fixtures/program");
const STACKS = 3;
const ENDPOINTS_PER_STACK = 4;
/** Requests a minute: fewer than one phase of the three stacks needs, so each phase outlasts a window. */
const QUOTA_PER_MINUTE = 20;

jest.setTimeout(900_000);

let emu: RelEmulator;
let work: string;
let stacks: LocalStack[] = [];

beforeAll(async () => {
  emu = await startRelEmulator({ seed: tightQuotaSeed(QUOTA_PER_MINUTE) });
  work = tempDir("pulumi-runpod-quota-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // The key and the addresses come from the environment, as in a pipeline; the stack config holds only the program's endpoints.
  const env = {
    RUNPOD_API_KEY: emu.apiKey,
    RUNPOD_GRAPHQL_URL: emu.urls.graphql,
    RUNPOD_API_URL: emu.urls.restV1,
    RUNPOD_REST_V2_URL: emu.urls.restV2,
    RUNPOD_INVOKE_URL: emu.urls.inference,
  };
  const endpoints = Object.fromEntries(
    Array.from({ length: ENDPOINTS_PER_STACK }, (_, i) => [`ep${i}`, { templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMax: 1 }]),
  );
  stacks = await Promise.all(
    Array.from({ length: STACKS }, async (_, i) => {
      const stack = await LocalStack.create({
        programDir,
        stackName: `quota${i}-${randomSuffix()}`,
        stateDir: path.join(work, "state"),
        env,
        timeoutMs: 840_000,
      });
      await stack.setConfig("endpoints", JSON.stringify(endpoints));
      return stack;
    }),
  );
});

afterAll(async () => {
  for (const stack of stacks) await stack.run(["destroy", "--yes"], { expectCodes: [0, 1, 255], quiet: true }).catch(() => undefined);
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Runs `args` on every stack at once; returns each stack's result and what the phase cost the account. */
async function allAtOnce(args: string[]): Promise<{ results: RunPulumiResult[]; requests: number; remainingBefore: number }> {
  // What the minute window had left when the phase started, as the platform reports it.
  const probe = relClient(emu);
  await probe.listNetworkVolumes();
  const remainingBefore = probe.rateLimit.minute?.remaining ?? -1;
  const before = emu.stats().requests;
  const results = await Promise.all(stacks.map((s) => s.run(args, { expectCodes: [0, 1, 255] })));
  return { results, requests: emu.stats().requests - before, remainingBefore };
}

const failures = (results: RunPulumiResult[]) =>
  results.map((r, i) => (r.code === 0 ? undefined : `stack ${i} exited ${r.code}:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-2000)}`)).filter(Boolean);

it(`${STACKS} stacks × ${ENDPOINTS_PER_STACK} endpoints, one key, ${QUOTA_PER_MINUTE} requests a minute: every up and every destroy succeeds, nothing duplicated, nothing left`, async () => {
  const up = await allAtOnce(["up", "--yes", "--skip-preview"]);
  expect(failures(up.results)).toEqual([]);
  // The phase needed more than the window had left: the stacks had to share the limit.
  expect(up.requests).toBeGreaterThan(up.remainingBefore);

  const deployed = await Promise.all(stacks.map((s) => s.resources(ENDPOINT_TYPE)));
  const ids = deployed.flat().map((r) => r.id);
  expect(ids).toHaveLength(STACKS * ENDPOINTS_PER_STACK);
  const onPlatform = emu.endpoints(emu.apiKey);
  // Each endpoint once: exactly the stacks' endpoints, no second copy of any create.
  expect(onPlatform.map((e) => e.id).sort()).toEqual([...ids].sort());
  expect(new Set(onPlatform.map((e) => e.name)).size).toBe(STACKS * ENDPOINTS_PER_STACK);

  const destroy = await allAtOnce(["destroy", "--yes", "--skip-preview"]);
  expect(failures(destroy.results)).toEqual([]);
  expect(destroy.requests).toBeGreaterThan(destroy.remainingBefore);
  expect(emu.endpoints(emu.apiKey)).toEqual([]);
  for (const stack of stacks) expect(await stack.resources(ENDPOINT_TYPE)).toEqual([]);
  process.stdout.write(
    `\nshared quota: up ${up.requests} requests (window had ${up.remainingBefore} left), destroy ${destroy.requests} (had ${destroy.remainingBefore}); 429 answers ${emu.stats().rateLimited}\n`,
  );
});
