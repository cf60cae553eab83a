/**
 * The endpoint as REST v2 defines it (issue 39), through the real Pulumi CLI on the default path: an
 * image-only CPU endpoint with a secret env value (its own container, no template), changed in place,
 * drifted outside Pulumi and put back, moved to GPUs (a replacement: the compute family is immutable),
 * and GPU and CPU declared together (refused at preview). Then a release made outside Pulumi, followed by
 * the next `up`. Then endpoints made outside Pulumi — image based, CPU, load-balancing, template based —
 * adopted with `pulumi-runpod import`, each previewing clean; a different image declared for one, and a
 * template for another, are named by one preview. Each test starts from whatever the one before left:
 * the release test's endpoint is deployed by the first test's first `up`, alongside the CPU endpoint, and
 * both stay declared until the import test's last `up` deletes everything (fewer program runs: issue 41).
 * The program is tests/e2e/templatesFixture; the emulator is the witness. Needs `npm run setup` and a
 * build (dist/).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient, type V2 } from "../../src/api";
import { ENDPOINT_TYPE, LocalStack, copyProgram, tempDir, upPhases, type StateResource } from "../../scripts/exampleStack";
import { runCli } from "../interrupted/harness";

jest.setTimeout(600_000);

const FIXTURE = path.join(__dirname, "templatesFixture");
const SECRET = "sk_cpu-e2e-secret-20261127";
const CPU = {
  name: "e2e-cpu",
  imageName: "me/cpu-worker:1",
  cpuFlavorIds: ["cpu3c", "cpu5c"],
  vcpuCount: 4,
  env: { MODE: "fast" },
  secretEnv: ["API_TOKEN"],
  workersMax: 1,
};
// The CPU endpoint as the first test leaves it deployed: moved to GPUs.
const { cpuFlavorIds: _flavors, vcpuCount: _vcpus, ...GPU_ARGS } = { ...CPU, imageName: "me/cpu-worker:2" };
const GPU = { ...GPU_ARGS, gpuIds: ["ADA_24"] };
/** The release test's endpoint; the first test deploys it with its own, and it stays unchanged there. */
const REL = { name: "e2e-release", imageName: "me/rel:1", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 1, waitForWorkers: true };

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;

const declare = (endpoints: Record<string, Record<string, unknown>>) => stack.setConfig("endpoints", JSON.stringify(endpoints));
const stateId = async (name: string) => (await stack.endpoint(name))!.id!;
const v2 = (id: string): Promise<V2.Endpoint> => client.v2.getEndpoint(id);
/** The `--diff` section of the resource named `name` (from its `(op)` header to the next resource's). */
function diffOf(stdout: string, name: string): string {
  // A section ends at the next resource's header, the stack outputs' diff or an unindented line ("Resources:").
  const sections = stdout.split(/^(?=\s*[-+~=]*\s*\S+: \(\w[\w-]*\)$|\s*--outputs:--$|\S)/m);
  const found = sections.filter((s) => s.includes(`::${name}]`));
  if (found.length !== 1) throw new Error(`${found.length} diff sections for "${name}" in:\n${stdout}`);
  return found[0];
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 5000, jobDurationMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-container-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs.
  stack = await LocalStack.create({ programDir, stackName: "e2e-container", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey); // no runpod:api: the default path (REST v2)
  await stack.setConfig("envSecret", SECRET, { secret: true });
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("an image-only CPU endpoint: deployed with a secret env value, changed in place, drift put back, moved to GPUs, GPU and CPU together refused", async () => {
  // 1. Deploys, with the next test's endpoint alongside (one `up` for both; nothing here changes it).
  await declare({ cpu: CPU, rel: REL });
  await stack.run(["up", "--yes"]);
  const plain = await stack.exportText();
  const deployed = (JSON.parse(plain) as { deployment: { resources: StateResource[] } }).deployment.resources.find(
    (r) => r.type === ENDPOINT_TYPE && r.urn.endsWith("::cpu"),
  )!;
  const id = deployed.id!;

  // 2. The platform's record shows the image and the CPU selection, no GPU.
  const record = await v2(id);
  expect(record).toMatchObject({ image: "me/cpu-worker:1", env: { MODE: "fast", API_TOKEN: SECRET }, gpu: null });
  expect(record.cpu?.map((c) => ({ id: c.id, vcpuCount: c.vcpuCount }))).toEqual([
    { id: "cpu3c", vcpuCount: 4 },
    { id: "cpu5c", vcpuCount: 4 },
  ]);

  // 3. The secret is not in plain state; the env is a Pulumi secret there.
  expect(plain.includes(SECRET)).toBe(false);
  const outs = deployed.outputs!;
  expect(outs.env).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
  expect(outs).toMatchObject({ imageName: "me/cpu-worker:1", cpuFlavorIds: ["cpu3c", "cpu5c"], vcpuCount: 4 });
  expect((await stack.exportText({ showSecrets: true })).includes(SECRET)).toBe(true);

  // 4. Clean.
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);

  // 5. vcpuCount and the image change in place (the image is a release, followed to health).
  await declare({ cpu: { ...CPU, vcpuCount: 8, imageName: "me/cpu-worker:2" }, rel: REL });
  const changed = await stack.run(["up", "--yes"]);
  expect(changed.stdout).toMatch(/~ 1 updated/);
  expect(changed.stdout).not.toMatch(/replaced|created|deleted/);
  expect(await stateId("cpu")).toBe(id);
  const after = await v2(id);
  expect(after.image).toBe("me/cpu-worker:2");
  expect(after.cpu?.map((c) => c.vcpuCount)).toEqual([8, 8]);

  // 6. An image changed outside Pulumi shows in the preview of up --refresh, which puts it back.
  await client.v2.updateEndpoint(id, { image: "someone/else:9" });
  const drift = upPhases((await stack.run(["up", "--refresh", "--diff", "--yes"], { preview: true })).stdout)[0];
  expect(drift).toMatch(/imageName\s*:\s*"someone\/else:9"\s*=>\s*"me\/cpu-worker:2"/);
  expect(drift).toMatch(/~ 1 to update/);
  expect((await v2(id)).image).toBe("me/cpu-worker:2");
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);

  // 7. CPU → GPU replaces the endpoint.
  await declare({ cpu: GPU, rel: REL });
  const replace = upPhases((await stack.run(["up", "--diff", "--yes"], { preview: true })).stdout)[0];
  expect(replace).toMatch(/\+-\s*1 to replace|1 to replace/);
  const gpuId = await stateId("cpu");
  expect(gpuId).not.toBe(id);
  expect(emu.endpoints().some((e) => e.id === id)).toBe(false);
  expect((await v2(gpuId)).gpu).toMatchObject({ pools: ["ADA_24"] });

  // 8. GPU and CPU together fail at preview naming the fields.
  await declare({ cpu: { ...GPU, cpuFlavorIds: ["cpu3c"] }, rel: REL });
  const both = await stack.run(["preview"], { expectFailure: true });
  expect(both.stdout + both.stderr).toMatch(/cpuFlavorIds/);
  expect(both.stdout + both.stderr).toMatch(/gpuIds/);
  expect((await v2(gpuId)).gpu).toMatchObject({ pools: ["ADA_24"] });
  // Both left deployed: the import test's last `up` deletes them.
});

test("a release made outside Pulumi whose container is the one the stack holds: refresh keeps the release followed, preview shows the update, up follows it", async () => {
  // Deployed by the first test's first `up`; the GPU endpoint it left stays declared as it is.
  await declare({ cpu: GPU, rel: REL });
  const deployed = (await stack.endpoint("rel"))!;
  const id = deployed.id!;
  const followed = deployed.outputs!.releaseVersion;
  expect(typeof followed === "number" || followed === null).toBe(true);

  // Outside Pulumi: another image, then back to the declared one; the container matches the state, but the newest release is one nobody followed.
  await client.v2.updateEndpoint(id, { image: "someone/else:3" });
  await client.v2.updateEndpoint(id, { image: "me/rel:1" });
  const newest = (await client.v2.listEndpointReleases(id)).releases[0];
  await stack.run(["refresh", "--yes"]);
  expect((await stack.endpoint("rel"))!.outputs!.releaseVersion).toBe(followed);
  // The next up shows the update at its preview, follows it to health and records it; then nothing is left to change.
  const follow = await stack.run(["up", "--diff", "--yes"], { preview: true });
  expect(upPhases(follow.stdout)[0]).toMatch(/~ 1 to update/);
  expect((await stack.endpoint("rel"))!.outputs!.releaseVersion).toBe(newest.version);
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
  // Left deployed, with the GPU endpoint: the next test's last `up` deletes them.
});

test("endpoints made outside Pulumi (image based, CPU, load-balancing, template based) are imported and preview clean; a different image and a template instead are named", async () => {
  // What the tests before left deployed stays declared as it is until the last `up`.
  const left = { cpu: GPU, rel: REL };
  const base = { workers: { min: 0, max: 1 }, scaling: { type: "QUEUE_DELAY" as const, queueDelay: 4 } };
  const image = await client.v2.createEndpoint({ ...base, name: "made-image", type: "QUEUE", image: "ghcr.io/acme/old:1", gpu: { pools: ["AMPERE_24"] } });
  const madeCpu = await client.v2.createEndpoint({
    ...base,
    name: "made-cpu",
    type: "QUEUE",
    image: "ghcr.io/acme/cpu:1",
    env: { MODE: "batch" },
    cpu: [{ id: "cpu5c", vcpuCount: 2 }],
  });
  const lb = await client.v2.createEndpoint({
    name: "made-lb",
    type: "LOAD_BALANCER",
    image: "ghcr.io/acme/lb:1",
    ports: ["8000/http"],
    gpu: { pools: ["ADA_24"] },
    workers: { min: 0, max: 1 },
    scaling: { type: "REQUEST_COUNT", requestCount: 10 },
  });
  const fromTemplate = await client.v2.createEndpoint({ ...base, name: "made-template", type: "QUEUE", templateId: "tpl_vllm", gpu: { pools: ["ADA_24"] } });

  // Declared as they are: the v2 create's own defaults included (idleTimeout 10).
  const declared: Record<string, Record<string, unknown>> = {
    image: { name: "made-image", imageName: "ghcr.io/acme/old:1", gpuIds: ["AMPERE_24"], workersMax: 1, idleTimeout: 10 },
    madeCpu: {
      name: "made-cpu",
      imageName: "ghcr.io/acme/cpu:1",
      env: { MODE: "batch" },
      cpuFlavorIds: ["cpu5c"],
      vcpuCount: 2,
      workersMax: 1,
      idleTimeout: 10,
    },
    lb: {
      name: "made-lb",
      type: "LB",
      imageName: "ghcr.io/acme/lb:1",
      ports: ["8000/http"],
      gpuIds: ["ADA_24"],
      scalerType: "REQUEST_COUNT",
      scalerValue: 10,
      workersMax: 1,
      idleTimeout: 10,
    },
    template: { name: "made-template", templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMax: 1, idleTimeout: 10 },
  };
  await declare({ ...left, ...declared });
  const made = { image, madeCpu, lb, template: fromTemplate };
  for (const [name, { id }] of Object.entries(made)) {
    const r = await runCli(stack, ["import", name, id]);
    expect({ name, code: r.code, stderr: r.stderr }).toEqual({ name, code: 0, stderr: "" });
  }
  // One state read for all four: each import adds its own and leaves the others.
  const held = Object.fromEntries((await stack.resources(ENDPOINT_TYPE)).map((r) => [r.urn.split("::").pop()!, r]));
  for (const [name, { id }] of Object.entries(made)) expect({ name, id: held[name]?.id }).toEqual({ name, id });
  expect(held.lb.outputs).toMatchObject({ requestUrls: { base: expect.any(String), health: expect.any(String) } });
  expect(held.madeCpu.outputs).toMatchObject({ cpuFlavorIds: ["cpu5c"], vcpuCount: 2, imageName: "ghcr.io/acme/cpu:1" });
  await stack.run(["preview", "--expect-no-changes"]);
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);

  // One preview of two changes: a different image declared for the CPU one, and the GPU image-based one
  // declared with a template instead; preview names what each would change; nothing changes on the platform.
  await declare({
    ...left,
    ...declared,
    madeCpu: { ...declared.madeCpu, imageName: "ghcr.io/acme/cpu:2" },
    image: { name: "made-image", templateId: "tpl_vllm", gpuIds: ["AMPERE_24"], workersMax: 1, idleTimeout: 10 },
  });
  const named = await stack.run(["preview", "--diff"]);
  const newImage = diffOf(named.stdout, "madeCpu");
  expect(newImage).toMatch(/^\s*~ \S+: \(update\)$/m);
  expect(newImage).toMatch(/imageName\s*:\s*"ghcr.io\/acme\/cpu:1"\s*=>\s*"ghcr.io\/acme\/cpu:2"/);
  const viaTemplate = diffOf(named.stdout, "image");
  expect(viaTemplate).toMatch(/^\s*~ \S+: \(update\)$/m);
  expect(viaTemplate).toMatch(/^\s*[-~]\s*imageName\s*:/m);
  expect(named.stdout).toMatch(/~ 2 to update/);
  expect((await v2(madeCpu.id)).image).toBe("ghcr.io/acme/cpu:1");
  expect((await v2(image.id)).image).toBe("ghcr.io/acme/old:1");

  await declare({});
  await stack.run(["up", "--yes"]);
  expect(await stack.resources(ENDPOINT_TYPE)).toEqual([]);
  for (const made of [image, madeCpu, lb, fromTemplate]) expect(emu.endpoints().some((e) => e.id === made.id)).toBe(false);
});
