/**
 * Every program under examples/ (but `basic`, which the demo deploys) is deployed through the real
 * Pulumi CLI against the emulator: preview creates nothing, up creates what the program declares,
 * destroy removes it. The template rollout also rolls the image. Needs `npm run setup` (Pulumi CLI)
 * and a build (dist/). Kept to preview + up + destroy so it stays fast.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { LocalStack, TRANSPILE_ONLY, copyProgram, tempDir } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/pulumiCli";

jest.setTimeout(300_000);

const EXAMPLES = path.join(repoRoot(), "examples");
let emu: RunningEmulator;
let work: string;

beforeAll(async () => {
  // Not a save-semantics scenario: pinned to the platform's own (replace), so it runs once.
  emu = await startEmulator({ port: 0, quiet: true, saveSemantics: "replace", workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  work = tempDir("pulumi-runpod-examples-");
});
afterAll(async () => {
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A stack of `examples/<name>` in a copy outside the repository (TypeScript resolves from the repository). */
async function stackOf(name: string): Promise<LocalStack> {
  const programDir = copyProgram(path.join(EXAMPLES, name), path.join(work, name));
  fs.symlinkSync(path.join(repoRoot(), "node_modules", "typescript"), path.join(programDir, "node_modules", "typescript"), "dir");
  // Later `up`s and `destroy` skip their preview; an example whose tests run no passing `pulumi preview` of their own
  // keep the preview of its first `up`, so every program is previewed.
  const stack = await LocalStack.create({ programDir, stackName: `ex-${name}`, stateDir: path.join(work, `${name}-state`), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  return stack;
}

const endpointsNow = () => emu.endpoints().map((e) => e.id);

test("every example directory is a Pulumi program with a test here", () => {
  const names = fs.readdirSync(EXAMPLES, { withFileTypes: true }).filter((d) => d.isDirectory() && fs.existsSync(path.join(EXAMPLES, d.name, "Pulumi.yaml")));
  expect(names.map((d) => d.name).sort()).toEqual(["cpu-endpoint", "javascript", "minimal-endpoint", "template-rollout"]);
});

test("examples/minimal-endpoint: preview, up (one endpoint), destroy", async () => {
  const stack = await stackOf("minimal-endpoint");
  const before = endpointsNow();
  const preview = await stack.run(["preview"]);
  expect(preview.stdout).toMatch(/\+ 2 to create/); // the stack and the endpoint
  expect(endpointsNow()).toEqual(before);
  await stack.run(["up", "--yes"], TRANSPILE_ONLY);
  const out = (await stack.outputs()) as { endpointId: string; jobUrl: string };
  // REST v2 (the default path) copies the template's settings into the endpoint (a snapshot, no link kept).
  const v2 = async (path: string) =>
    (await (await fetch(`${emu.urls.restV2}/v2${path}`, { headers: { authorization: `Bearer ${emu.apiKey}` } })).json()) as Record<string, unknown>;
  const template = await v2("/templates/tpl_vllm");
  expect(await v2(`/serverless/${out.endpointId}`)).toMatchObject({ image: template.image, workers: { max: 1 } });
  expect(out.jobUrl).toContain(out.endpointId);
  await stack.run(["destroy", "--yes"]);
  expect(endpointsNow()).toEqual(before);
  await stack.remove();
});

test("examples/cpu-endpoint: an image-only CPU endpoint with a secret env value; a new image tag rolls out in place; destroy", async () => {
  const stack = await stackOf("cpu-endpoint");
  await stack.setConfig("apiToken", "sk_example-cpu-token-7071", { secret: true });
  // Previewed by its `pulumi preview --refresh` below.
  await stack.run(["up", "--yes"]);
  const first = (await stack.outputs()) as { endpointId: string; imageName: string; runUrl: string; maxHourlyCost: number };
  const v2 = async (path: string) =>
    (await (await fetch(`${emu.urls.restV2}/v2${path}`, { headers: { authorization: `Bearer ${emu.apiKey}` } })).json()) as Record<string, unknown>;
  const record = await v2(`/serverless/${first.endpointId}`);
  expect(record).toMatchObject({ image: "ghcr.io/acme/cpu-worker:1.0.0", gpu: null, env: { LOG_LEVEL: "info", API_TOKEN: "sk_example-cpu-token-7071" } });
  expect((record.cpu as { id: string; vcpuCount: number }[]).map((c) => [c.id, c.vcpuCount])).toEqual([
    ["cpu3c", 4],
    ["cpu5c", 4],
  ]);
  expect(first.runUrl).toBe((record.requestUrls as { run: string }).run);
  // 2 workers × 4 vCPUs × the dearer flavor's serverless price per vCPU (emulator catalog: cpu5c, $0.04).
  expect(first.maxHourlyCost).toBeCloseTo(0.32, 5);
  expect((await stack.exportText()).includes("sk_example-cpu-token-7071")).toBe(false);
  await stack.setConfig("imageTag", "1.1.0");
  const up = await stack.run(["up", "--yes"], TRANSPILE_ONLY);
  expect(up.stdout).toMatch(/~ 1 updated/);
  expect(((await stack.outputs()) as typeof first).endpointId).toBe(first.endpointId);
  expect((await v2(`/serverless/${first.endpointId}`)).image).toBe("ghcr.io/acme/cpu-worker:1.1.0");
  await stack.run(["preview", "--refresh", "--expect-no-changes"], TRANSPILE_ONLY);
  await stack.run(["destroy", "--yes"]);
  expect(emu.endpoints().some((e) => e.id === first.endpointId)).toBe(false);
  await stack.remove();
});

test("examples/template-rollout: up, a new image tag updates the template in place and rolls the workers, destroy", async () => {
  const stack = await stackOf("template-rollout");
  await stack.run(["up", "--yes"], { preview: true });
  const first = (await stack.outputs()) as { templateId: string; imageName: string; endpointId: string };
  expect(first.imageName).toBe("ghcr.io/acme/worker:1.0.0");
  await stack.setConfig("imageTag", "1.1.0");
  const up = await stack.run(["up", "--yes"], TRANSPILE_ONLY);
  // The template is updated in place; on REST v2 its endpoint also re-applies it (PATCH templateId), in place.
  expect(up.stdout).toMatch(/~ [12] updated/);
  expect(up.stdout).not.toMatch(/replaced|created|deleted/);
  const second = (await stack.outputs()) as typeof first;
  expect(second).toEqual({ ...first, imageName: "ghcr.io/acme/worker:1.1.0" });
  const end = Date.now() + 20_000;
  for (;;) {
    const workers = await fetch(`${emu.urls.restV2}/v2/serverless/${first.endpointId}/workers`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    const items = ((await workers.json()) as { workers: { status: string; image: string }[] }).workers;
    // REST v2 Worker: ready is IDLE or RUNNING, the image is `image`.
    if (items.some((w) => (w.status === "IDLE" || w.status === "RUNNING") && w.image === "ghcr.io/acme/worker:1.1.0")) break;
    if (Date.now() > end) throw new Error(`no worker on the new image: ${JSON.stringify(items)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await stack.run(["destroy", "--yes"]);
  expect(emu.endpoints().some((e) => e.id === first.endpointId)).toBe(false);
  expect(emu.templates("user_1").some((t) => t.id === first.templateId)).toBe(false);
  await stack.remove();
});

/** examples/javascript's stack: its up and destroy, then its errors (the next test, which removes it). */
let javascript: LocalStack;

test("examples/javascript: the volume lookup feeds the endpoint; up, destroy", async () => {
  const stack = (javascript = await stackOf("javascript"));
  await stack.run(["up", "--yes"], { preview: true });
  const out = (await stack.outputs()) as { endpointId: string; volume: string; dataCenter: string };
  expect(out.volume).toBe("models");
  const endpoint = emu.endpoints().find((e) => e.id === out.endpointId)!;
  expect(endpoint.networkVolumeId).toBe("nv_models01");
  await stack.run(["destroy", "--yes"]);
  expect(emu.endpoints().some((e) => e.id === out.endpointId)).toBe(false);
});

test("through `pulumi preview`: a misspelled runpod:* key and a failed lookup each stop the program with one clean line; nothing is sent", async () => {
  // The stack the test above destroyed: empty again, still pointed at the emulator.
  const stack = javascript;
  await stack.setConfig("volume", "no-such-volume");
  emu.resetStats();
  const lookup = await stack.run(["preview"], { expectFailure: true });
  const lookupText = lookup.stdout + lookup.stderr;
  expect(lookupText).toMatch(/No network volume with name "no-such-volume"; yours: nv_models01 \("models"/);
  expect(lookupText).not.toMatch(/PromiseRejectionHandledWarning|Promise \{|\n\s+at [\w.<]+ \(/);

  await stack.setConfig("volume", "models");
  await stack.setConfig("runpod:graphQLUrl", "https://api.runpod.io/graphql");
  emu.resetStats();
  const typo = await stack.run(["preview"], { expectFailure: true });
  const typoText = typo.stdout + typo.stderr;
  expect(typoText).toContain("Unknown configuration key runpod:graphQLUrl (did you mean runpod:graphqlUrl?)");
  // Once as it happens and once under Diagnostics, though the lookup and each resource stop on it.
  expect(typoText.split("Unknown configuration key").length - 1).toBe(2);
  expect(typoText).not.toMatch(/\n\s+at [\w.<]+ \(/);
  expect(emu.stats().requests).toBe(0);
  await stack.remove();
});
