/**
 * A killed rollout (issue 39) through the real Pulumi CLI on the default path (REST v2): an `up` ships an
 * image whose workers fail to start (the emulator's `failingImages`), once through a Template and once
 * through the endpoint's own `imageName`, and is SIGKILLed after the platform took the change, while the
 * release is followed. Then what a user does: `pulumi cancel`, `pulumi-runpod recover --yes`, `pulumi up`.
 * That `up` must fail naming the release, put the workers back on the previous image, and leave the
 * change in preview: the stack holds the release last followed to health, never the killed one.
 * The program is tests/e2e/templatesFixture; the emulator is the witness.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import { endProcesses, runCli, runUntilKilled } from "./harness";

jest.setTimeout(600_000);

const FIXTURE = path.join(__dirname, "..", "e2e", "templatesFixture");
const TEMPLATE = { name: "killed-rollout", imageName: "me/tpl:1" };
/** A warm worker each, so a release has workers to start; slow starts leave time to kill while one is followed. */
const COMMON = { gpuIds: ["ADA_24"], workersMin: 1, workersMax: 1, waitForWorkers: true, rolloutTimeout: 120 };

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 1500, logIntervalMs: 5000, jobDurationMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-killed-rollout-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // The previews are checked with `pulumi preview`: `up` and `destroy` skip theirs.
  stack = await LocalStack.create({ programDir, stackName: "killed-rollout", stateDir: path.join(work, "state"), timeoutMs: 300_000, skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey); // the default path
});

afterAll(async () => {
  emu?.setFaults({});
  // Only a lock a failed test left needs a cancel (a CLI run each).
  if (stack && locked()) await stack.run(["cancel", "--yes"], { quiet: true, expectCodes: [0, 1, 255] }).catch(() => undefined);
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** The backend holds a stack lock (a run in progress, or one killed before releasing it). */
const locked = () => {
  const locks = path.join(work, "state", ".pulumi", "locks");
  return fs.existsSync(locks) && fs.readdirSync(locks, { recursive: true }).some((f) => String(f).endsWith(".json"));
};

async function declare(templateImage: string, ownImage: string): Promise<void> {
  await stack.setConfigs({
    templates: JSON.stringify({ tpl: { ...TEMPLATE, imageName: templateImage } }),
    endpoints: JSON.stringify({
      viaTemplate: { ...COMMON, name: "killed-via-template", template: "tpl" },
      own: { ...COMMON, name: "killed-own", imageName: ownImage },
    }),
  });
}

/** The endpoint's image and its workers' images. */
async function running(id: string): Promise<{ image: string | undefined; workers: (string | null | undefined)[] }> {
  const { workers } = await client.v2.listEndpointWorkers(id);
  return { image: (await client.v2.getEndpoint(id)).image, workers: [...new Set(workers.map((w) => w.image))] };
}

const stateId = async (name: string) => (await stack.endpoint(name))!.id!;

/**
 * Ships `bad` to one endpoint (the template's image or the endpoint's own), kills the `up` once the
 * endpoint's PATCH was taken and before its release fails, then cancel, recover and up, as a user would.
 */
async function killedRollout(which: "viaTemplate" | "own", previous: string, bad: string): Promise<void> {
  const id = await stateId(which);
  emu.setFaults({ failingImages: [bad] });
  if (which === "viaTemplate") await declare(bad, "me/own:1");
  else await declare("me/tpl:1", bad);
  emu.resetStats();
  // The platform took the change (the endpoint's PATCH); its new worker takes 1.5 s to fail.
  const killed = await runUntilKilled(stack, ["up", "--yes", "--skip-preview"], () => (emu.stats().byOperation.updateEndpoint ?? 0) >= 1);
  // The machine is lost: nothing rolls back.
  await endProcesses(killed.leftovers);
  for (let i = 0; i < 50 && (await client.v2.getEndpoint(id)).image !== bad; i++) await new Promise((r) => setTimeout(r, 100));
  expect((await client.v2.getEndpoint(id)).image).toBe(bad);

  await stack.run(["cancel", "--yes"], { expectCodes: [0, 255] });
  const recovered = await runCli(stack, ["recover", "--yes", "--settle", "2"]);
  expect({ code: recovered.code, stderr: recovered.stderr }).toEqual({ code: 0, stderr: expect.any(String) });

  const listing = await client.v2.listEndpointReleases(id);
  const unfollowed = listing.releases[0];
  const up = await stack.run(["up", "--yes", "--continue-on-error"], { expectFailure: true });
  const out = up.stdout + up.stderr;
  // It fails naming the release …
  expect(out).toContain(`(${id}): the rollout of release ${unfollowed.id}`);
  expect(out).toMatch(/1 worker failed to start \(UNHEALTHY\)/);
  // … the workers are back on the previous image …
  expect(await running(id)).toEqual({ image: previous, workers: [previous] });
  // … and preview still shows the change.
  const preview = await stack.run(["preview"]);
  expect(preview.stdout).toMatch(new RegExp(`~\\s+\\S+\\s+${which}\\s+update`));
}

test("a killed template rollout: after cancel and recover, the next up fails naming the release and rolls back; preview still shows the change", async () => {
  await declare("me/tpl:1", "me/own:1");
  await stack.run(["up", "--yes"]);
  await killedRollout("viaTemplate", "me/tpl:1", "me/tpl:bad");
  // Fixed in the program: the stack and the platform agree again.
  emu.setFaults({});
  await declare("me/tpl:1", "me/own:1");
  await stack.run(["up", "--yes"]);
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
});

test("a killed rollout of the endpoint's own image: after cancel and recover, the next up fails naming the release and rolls back; preview still shows the change", async () => {
  await killedRollout("own", "me/own:1", "me/own:bad");
  emu.setFaults({});
  await declare("me/tpl:1", "me/own:2");
  await stack.run(["up", "--yes"]);
  expect(await running(await stateId("own"))).toEqual({ image: "me/own:2", workers: ["me/own:2"] });
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
});
