/**
 * End to end through the real Pulumi CLI: one Pod's life on one stack — create (a GPU pod on the stack's
 * `runpod:api graphql`: pods speak REST v2 whatever it says), `pulumi-runpod cost`, `logs --pod` and `orphans` on it, stop in place through `desiredStatus`, one
 * in-place change, destroy. The program (tests/e2e/podFixture/index.js) declares what the stack config holds;
 * the emulator is the witness. Needs `npm run setup` (Pulumi CLI) and a build (dist/).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import type { CostReport } from "../../src/cli/cost/report";
import { runBin } from "../cli/harness";

jest.setTimeout(600_000);

const FIXTURE = path.join(__dirname, "podFixture");
const POD_TYPE = "pulumi-nodejs:dynamic/runpod:Pod";
const ENV_SECRET = "hf_e2e-pod-secret-1414213562";
const POD = { name: "e2e-dev", imageName: "runpod/pytorch:2.4.0", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], ports: ["8888/http", "22/tcp"], volumeInGb: 20 };

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-pod-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs.
  stack = await LocalStack.create({ programDir, stackName: "e2e-pod", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  await stack.setConfig("runpod:api", "graphql");
  await stack.setConfig("envSecret", ENV_SECRET, { secret: true });
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const declare = (spec: Record<string, unknown>) => stack.setConfig("pod", JSON.stringify(spec));
const podOut = async () => (await stack.outputs()).pod as { id: string; status: string; desiredStatus: string; imageName: string; costPerHour: number };

test("create, cost and logs, stop through desiredStatus, an in-place change, orphans, destroy", async () => {
  // Preview shows the catalog's price before anything exists.
  await declare(POD);
  const preview = await stack.run(["preview", "--diff"]);
  expect(preview.stdout).toMatch(/\+ \S*runpod:Pod: \(create\)/);
  expect(preview.stdout).toMatch(/costPerHour\s*:\s*0\.69/);
  expect(await client.v2.listPods()).toEqual([]);

  // Create: the pod runs on the GPU type, with the env secret set and never in plain state.
  emu.freezeClock(); // billing from the create on is exact (the cost check below)
  const up = await stack.run(["up", "--yes"]);
  expect(up.stdout).toMatch(/\+ 2 created/);
  const created = await podOut();
  const pod = await client.v2.getPod(created.id);
  expect(pod).toMatchObject({ name: "e2e-dev", image: POD.imageName, gpu: { id: POD.gpuTypeIds[0], count: 1 }, env: { HF_TOKEN: ENV_SECRET } });
  expect(pod.mounts).toEqual({ persistent: { size: 20, path: "/workspace" } });
  expect(await stack.exportText()).not.toContain(ENV_SECRET);
  const [state] = await stack.resources(POD_TYPE);
  expect(state.id).toBe(created.id);

  // Two billed hours on the (frozen) billing clock: `cost` shows the pod's rate and exactly what it was billed.
  emu.advanceClock(2 * 3_600_000);
  const cli = (args: string[]) => runBin([...args, "--stack", stack.name], stack.env, { cwd: stack.programDir });
  const cost = await cli(["cost", "--since", "1d", "--bucket", "hour", "--json"]);
  expect(cost.code).toBe(0);
  const report = JSON.parse(cost.stdout) as CostReport;
  expect(report.pods).toEqual([expect.objectContaining({ resource: "dev", podId: created.id, costPerHour: 0.69, desiredStatus: "RUNNING" })]);
  expect(report.pods![0].spend!.totalAmount).toBeCloseTo(2 * 0.69, 4);
  expect(report.totals).toMatchObject({ podHourlyCost: 0.69, maxHourlyCost: 0.69, idleHourlyCost: 0.69 });
  emu.resumeClock();
  const logs = await cli(["logs", "--pod", "dev"]);
  expect(logs.code).toBe(0);
  expect(logs.stdout).toMatch(/system\s+Pulling image runpod\/pytorch:2\.4\.0/);

  // Stop in place: podAction stop, same pod, cost 0.
  await declare({ ...POD, desiredStatus: "EXITED" });
  const stop = await stack.run(["up", "--yes"]);
  expect(stop.stdout).toMatch(/~ 1 updated/);
  expect((await client.v2.getPod(created.id)).status).toBe("EXITED");
  expect(await podOut()).toMatchObject({ id: created.id, status: "EXITED", desiredStatus: "EXITED", costPerHour: 0 });

  // One in-place change (PATCH of the image), still the same pod; refresh finds no drift.
  await declare({ ...POD, desiredStatus: "EXITED", imageName: "runpod/pytorch:2.5.0" });
  const change = await stack.run(["up", "--yes"]);
  expect(change.stdout).toMatch(/~ 1 updated/);
  expect(await client.v2.getPod(created.id)).toMatchObject({ image: "runpod/pytorch:2.5.0", status: "EXITED" });
  const [stored] = await stack.resources(POD_TYPE);
  const refresh = await stack.run(["refresh", "--yes"]);
  expect(refresh.stdout).not.toMatch(/~ 1 updated|- 1 deleted/);
  expect(refresh.stdout).not.toMatch(/\[diff:/);
  // The stored inputs keep every declared field (those the platform defaults when unset, the estimate
  // check writes) and no other; the env stays a secret.
  const [refreshed] = await stack.resources(POD_TYPE);
  expect(Object.keys(refreshed.inputs ?? {}).sort()).toEqual(Object.keys(stored.inputs ?? {}).sort());
  const { env: _env, ...plain } = stored.inputs ?? {};
  expect(refreshed.inputs).toMatchObject({ ...plain, imageName: "runpod/pytorch:2.5.0", ports: POD.ports, volumeInGb: 20 });
  expect(await stack.exportText()).not.toContain(ENV_SECRET);
  const again = await stack.run(["preview"]);
  expect(again.stdout).toMatch(/\b2 unchanged/);
  expect(again.stdout).not.toMatch(/to update|to replace|to create|to delete/);

  // A pod made outside the stack is never its orphan, whatever its name. A pod the stack created and then
  // forgot (`pulumi state delete`) is: its checkpoint history proves it the stack's; --delete terminates it alone.
  const stranger = await client.v2.createPod({ name: "dev-0c0ffee", image: "alpine:3", cpu: { id: "cpu3c", vcpuCount: 2 } });
  const [live] = await stack.resources(POD_TYPE);
  expect((await cli(["orphans"])).stdout).toMatch(/^no orphans/);
  await stack.run(["state", "delete", live.urn, "--yes"]);
  const listed = await cli(["orphans"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout.split("\n").filter((l) => l.startsWith("pod "))).toEqual([
    expect.stringMatching(new RegExp(`^pod +${created.id} +e2e-dev +recorded resource dev`)),
  ]);
  expect(listed.stdout).not.toContain(stranger.id);
  const removed = await cli(["orphans", "--delete", "--yes"]);
  expect({ code: removed.code, stderr: removed.stderr }).toEqual({ code: 0, stderr: "" });
  expect(removed.stdout.match(/^deleted pod .*$/gm)).toEqual([`deleted pod ${created.id} (e2e-dev)`]);
  expect((await client.v2.listPods()).map((p) => p.id)).toEqual([stranger.id]);
  const remade = await stack.run(["up", "--yes"]);
  expect(remade.stdout).toMatch(/\+ 1 created/);
  const remadeId = (await podOut()).id;
  expect((await client.v2.listPods()).map((p) => p.id).sort()).toEqual([remadeId, stranger.id].sort());

  // Destroy: the pod is terminated.
  const destroy = await stack.run(["destroy", "--yes"]);
  expect(destroy.stdout).toMatch(/- 2 deleted/);
  expect((await client.v2.listPods()).map((p) => p.id)).toEqual([stranger.id]);
});
