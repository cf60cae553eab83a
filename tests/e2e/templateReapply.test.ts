/**
 * Template → endpoint on REST v2 (the default path) through the real Pulumi CLI: an endpoint holds a
 * copy of its template's container settings, and re-applies its template whenever the two differ.
 * One stack, one scenario: `pulumi preview` shows the endpoint's re-apply for a template image change,
 * naming the field (`[diff: +templateChanges]`), and the `up` leaves no change behind;
 * a template changed outside Pulumi (what an `up` interrupted after the template's update leaves
 * behind, or another stack) is marked by `pulumi refresh` (`templateCurrent` false) and re-applied by
 * the next `up`. The program is tests/e2e/templatesFixture; the emulator is the witness.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, copyProgram, tempDir, upPhases, type StateResource } from "../../scripts/exampleStack";

jest.setTimeout(600_000);

const FIXTURE = path.join(__dirname, "templatesFixture");
const ENDPOINT_TYPE = "pulumi-nodejs:dynamic/runpod:Endpoint";
const ENV_SECRET = "hf_reapply-e2e-secret-2718281828";
const TEMPLATE = { name: "e2e-reapply", imageName: "me/worker:1", env: { MODEL: "small" }, secretEnv: ["HF_TOKEN"] };
const ENDPOINT = { name: "e2e-reapply-ep", template: "llm", gpuIds: ["ADA_24"], workersMin: 0, workersMax: 2 };

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;

async function declare(template: Record<string, unknown>): Promise<void> {
  await stack.setConfigs({ templates: JSON.stringify({ llm: template }), endpoints: JSON.stringify({ llm: ENDPOINT }) });
}

const endpointId = async () => (await stack.resources(ENDPOINT_TYPE))[0].id!;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-reapply-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs.
  stack = await LocalStack.create({ programDir, stackName: "e2e-reapply", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  await stack.setConfig("runpod:api", "v2");
  await stack.setConfig("envSecret", ENV_SECRET, { secret: true });
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("preview shows the endpoint's re-apply; a template changed outside Pulumi is marked by refresh and re-applied by the next up", async () => {
  await declare(TEMPLATE);
  await stack.run(["up", "--yes"]);
  const id = await endpointId();
  expect((await client.v2.getEndpoint(id)).image).toBe("me/worker:1");

  // 1. A template image change: the preview shows both updates, before anything changed.
  await declare({ ...TEMPLATE, imageName: "me/worker:2" });
  // Plain preview: the template's row names its changed input; the endpoint's names the template fields its
  // re-apply brings (the checked input `templateChanges`: the engine names only inputs that differ for a
  // dynamic resource, docs/endpoint.md), field names only.
  const plain = await stack.run(["preview"]);
  expect(plain.stdout).toMatch(/~\s+pulumi-nodejs:dynamic\/runpod:Template\s+llm\s+update\s+\[diff: ~imageName\]/);
  expect(plain.stdout).toMatch(/~\s+pulumi-nodejs:dynamic\/runpod:Endpoint\s+llm\s+update\s+\[diff: \+templateChanges\]\s*$/m);
  expect((await client.v2.getEndpoint(id)).image).toBe("me/worker:1");
  // The detailed preview, as `up --diff` prints it before its update.
  const up = await stack.run(["up", "--diff", "--yes"], { preview: true });
  const preview = upPhases(up.stdout)[0];
  expect(preview).toMatch(/~ 2 to update/);
  expect(preview).toMatch(/~ pulumi-nodejs:dynamic\/runpod:Endpoint: \(update\)/);
  expect(preview).toMatch(/\+ templateChanges\s*: \[\s*\+\s*\[0\]: "imageName"\s*\]/);
  expect(up.stdout).toMatch(/~ 2 updated/);
  expect((await client.v2.getEndpoint(id)).image).toBe("me/worker:2");
  // The key the up stored is no change: the next check leaves it out, the endpoint's diff never compares it.
  await stack.run(["preview", "--expect-no-changes"]);
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);

  // 2. The template is changed outside Pulumi (as an `up` interrupted after the template's update leaves it).
  const [template] = (await client.v2.listTemplates()).filter((t) => t.name === TEMPLATE.name);
  await client.v2.updateTemplate(template.id, { image: "me/worker:3" });
  const refresh = await stack.run(["refresh", "--yes"]);
  expect(refresh.stdout).toMatch(/~ 2 updated/);
  const [endpoint] = await stack.resources(ENDPOINT_TYPE);
  expect(endpoint.outputs).toMatchObject({ templateCurrent: false });

  // 3. The program catches up with the template: only the endpoint's re-apply is left, and the next up does it.
  await declare({ ...TEMPLATE, imageName: "me/worker:3" });
  const next = await stack.run(["up", "--diff", "--yes"], { preview: true });
  const nextPreview = upPhases(next.stdout)[0];
  expect(nextPreview).toMatch(/~ 1 to update/);
  expect(nextPreview).toMatch(/~ pulumi-nodejs:dynamic\/runpod:Endpoint: \(update\)/);
  // Drift, found by listing: the update names no field (no Template diff of this deployment changed it).
  expect(nextPreview).not.toMatch(/templateChanges/);
  expect((await client.v2.getEndpoint(id)).image).toBe("me/worker:3");
  const state = await stack.exportText();
  const after = (JSON.parse(state) as { deployment: { resources: StateResource[] } }).deployment.resources.find((r) => r.type === ENDPOINT_TYPE)!;
  expect(after.outputs).toMatchObject({ templateCurrent: true });
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);

  // The env's secret value is nowhere in the stack's state, outputs or the CLI's output.
  expect(state.includes(ENV_SECRET)).toBe(false);
  expect([plain, up, refresh, next].some((r) => (r.stdout + r.stderr).includes(ENV_SECRET))).toBe(false);
});
