/**
 * Moving a stack between API paths through the real Pulumi CLI: registry credentials → template →
 * endpoint deployed with `runpod:api graphql`, then `pulumi config set runpod:api v2` and `pulumi up`:
 * nothing is created, replaced or deleted (same ids), and a `pulumi preview --refresh
 * --expect-no-changes` on v2 passes (the v2 reads see what GraphQL made). Then the other direction for
 * a stack made on v2 (credentials and template). The emulator serves both paths over one state.
 * Needs `npm run setup` (Pulumi CLI) and a build (dist/).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import type { RunPulumiResult } from "../../scripts/pulumiCli";

jest.setTimeout(600_000);

const FIXTURE = path.join(__dirname, "templatesFixture");
const PASSWORD = "ghp_e2e-migration-password-7";
const ENV_SECRET = "hf_e2e-migration-secret-11";

let emu: RunningEmulator;
let work: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  work = tempDir("pulumi-runpod-e2e-paths-");
});

// No destroy at the end: the emulator, the stacks' only platform, closes with everything on it.
afterAll(async () => {
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

async function stackOn(name: string, api: "graphql" | "v2", declared: Record<string, unknown>): Promise<LocalStack> {
  const programDir = copyProgram(FIXTURE, path.join(work, name));
  // Previews are checked with `pulumi preview`: `up` skips its own where no assertion needs it.
  const stack = await LocalStack.create({ programDir, stackName: name, stateDir: path.join(work, `${name}-state`), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  await stack.setConfig("registryPassword", PASSWORD, { secret: true });
  await stack.setConfig("envSecret", ENV_SECRET, { secret: true });
  await stack.setConfigs({ "runpod:api": api, ...Object.fromEntries(Object.entries(declared).map(([key, value]) => [key, JSON.stringify(value)])) });
  return stack;
}

const ids = async (stack: LocalStack) =>
  (await stack.resources())
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/runpod:"))
    .map((r) => `${r.type}:${r.id}`)
    .sort();

/** The step summary of `pulumi up` must hold no create, replace or delete. */
function expectNothingRecreated(r: RunPulumiResult): void {
  expect(r.stdout).not.toMatch(/\d+ (created|replaced|deleted)/);
  expect(r.stdout).not.toMatch(/\+\+|\+-|-\+/);
}

const TEMPLATE = {
  name: "mig-llm",
  imageName: "ghcr.io/acme/llm-worker:1.0",
  containerDiskInGb: 20,
  ports: ["8000/http"],
  env: { MODEL: "m" },
  secretEnv: ["HF_TOKEN"],
  registry: "ghcr",
};

test("graphql → v2: `pulumi config set runpod:api v2` and `pulumi up` recreate nothing; preview --refresh --expect-no-changes passes", async () => {
  const stack = await stackOn("mig-fwd", "graphql", {
    registries: { ghcr: { name: "mig-ghcr", username: "bot" } },
    templates: { llm: TEMPLATE },
    endpoints: { llm: { name: "mig-llm-ep", template: "llm", gpuIds: ["ADA_24", "AMPERE_24"], workersMax: 2, idleTimeout: 20 } },
  });
  const created = await stack.run(["up", "--yes"]);
  expect(created.stdout).toMatch(/\+ 4 created/);
  const before = await ids(stack);
  expect(before).toHaveLength(3);

  await stack.setConfig("runpod:api", "v2");
  emu.resetStats();
  const up = await stack.run(["up", "--yes"]);
  expectNothingRecreated(up);
  expect(await ids(stack)).toEqual(before);
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
  // The refresh read through v2, not GraphQL.
  const ops = emu.stats().byOperation;
  expect(ops.listEndpoints ?? 0).toBeGreaterThan(0);
  expect(ops.listTemplates ?? 0).toBeGreaterThan(0);
  expect(ops.myself ?? 0).toBe(0);
});

test("v2 → graphql for credentials and a template made on v2: nothing recreated; preview --refresh --expect-no-changes passes", async () => {
  const stack = await stackOn("mig-back", "v2", {
    registries: { ghcr: { name: "mig-back-ghcr", username: "bot" } },
    templates: { llm: { ...TEMPLATE, name: "mig-back-llm" } },
    endpoints: {},
  });
  const created = await stack.run(["up", "--yes"]);
  expect(created.stdout).toMatch(/\+ 3 created/);
  const before = await ids(stack);

  await stack.setConfig("runpod:api", "graphql");
  const up = await stack.run(["up", "--yes"]);
  expectNothingRecreated(up);
  expect(await ids(stack)).toEqual(before);
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
});

test("v2 → graphql with an own-container GPU endpoint and a CPU endpoint: the preview of `pulumi up` fails naming each v2-only input and why, and changes nothing", async () => {
  const declared = {
    own: { name: "mig-own-gpu", imageName: "ghcr.io/acme/own:1", containerDiskInGb: 15, gpuIds: ["ADA_24"], workersMax: 1 },
    cpu: { name: "mig-own-cpu", imageName: "ghcr.io/acme/cpu:1", cpuFlavorIds: ["cpu3c"], vcpuCount: 2, workersMax: 1 },
  };
  const stack = await stackOn("mig-own", "v2", { endpoints: declared });
  await stack.run(["up", "--yes"]);
  const before = await ids(stack);
  expect(before).toHaveLength(2);

  await stack.setConfig("runpod:api", "graphql");
  emu.resetStats();
  // The engine stops at the first endpoint refused, so each is declared alone: the own-container one, then the CPU one.
  const refusals: [string[], Record<string, unknown>][] = [
    [["imageName", "containerDiskInGb"], { own: declared.own }],
    [["imageName", "cpuFlavorIds", "vcpuCount"], { cpu: declared.cpu }],
  ];
  for (const [fields, endpoints] of refusals) {
    await stack.setConfig("endpoints", JSON.stringify(endpoints));
    // One `pulumi up` that keeps its preview: the refusal comes in that preview (what `pulumi preview` runs), and
    // the update never starts, so the state is as it was (refused in its update, after `--skip-preview`, it left
    // the state such that the v2 preview below proposed changes).
    const refused = await stack.run(["up", "--yes"], { expectFailure: true, preview: true });
    const out = refused.stdout + refused.stderr;
    expect(refused.stdout).toMatch(/^Previewing update \(/m);
    expect(refused.stdout).not.toMatch(/^Updating \(/m);
    for (const field of fields) {
      expect(out).toMatch(
        new RegExp(
          `Endpoint\\.${field} cannot be expressed on API path graphql \\(runpod:api\\) \\([^)]*saveEndpoint[^)]*\\); only on v2: unset it, or set runpod:api to v2`,
        ),
      );
    }
    expect(out).toContain(fields.includes("cpuFlavorIds") ? "saveEndpoint has no CPU selection" : "saveEndpoint carries no container");
    // Inputs the program leaves unset are not named, though a default fills them.
    for (const unset of ["dockerArgs", "ports", "env"]) expect(out).not.toContain(`Endpoint.${unset} cannot`);
  }
  await stack.setConfig("endpoints", JSON.stringify(declared));
  // Refused before any write: the endpoints are untouched.
  const ops = emu.stats().byOperation;
  expect((ops.saveEndpoint ?? 0) + (ops.updateEndpoint ?? 0) + (ops.deleteEndpoint ?? 0)).toBe(0);
  expect(await ids(stack)).toEqual(before);

  // Back on v2 the stack is as it was.
  await stack.setConfig("runpod:api", "v2");
  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
});
