/**
 * What the first preview after an adoption shows, through the real Pulumi CLI against the emulator: the
 * shared read (recordProvider.ts) gives the inputs as `check` makes them, so a program declaring what was
 * adopted shows no row of input differences (`[diff: …]`), neither after `pulumi-runpod adopt` nor after
 * `pulumi-runpod import` (one stack: the adoption, a refresh, then an import into it). Needs `npm run setup`
 * (Pulumi CLI) and a build (dist/).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/pulumiCli";
import { runBin } from "../cli/harness";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;

/** A fresh TypeScript project whose program is `index.ts`. */
function freshProject(dir: string, name: string, program: string): void {
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "index.ts" }));
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true },
    }),
  );
  fs.writeFileSync(path.join(dir, "index.ts"), program);
  for (const [link, target] of [
    ["pulumi-runpod", repoRoot()],
    ["@pulumi", path.join(repoRoot(), "node_modules", "@pulumi")],
    ["typescript", path.join(repoRoot(), "node_modules", "typescript")],
  ]) {
    fs.symlinkSync(target, path.join(dir, "node_modules", link), "dir");
  }
}

async function stackOf(name: string, program: string): Promise<LocalStack> {
  const programDir = path.join(work, name);
  freshProject(programDir, name, program);
  // The preview is checked with `pulumi preview`: `refresh` skips its own.
  const stack = await LocalStack.create({ programDir, stackName: name, stateDir: path.join(work, `state-${name}`), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  return stack;
}

interface Step {
  op: string;
  urn: string;
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}

/**
 * What the next preview would show as input differences (its `[diff: …]` rows): per resource of the
 * package, the inputs the state holds and the program's checked inputs do not agree on (the serialized
 * provider aside), from `pulumi preview --json --show-sames --show-secrets`.
 */
async function inputDifferences(stack: LocalStack): Promise<Record<string, string[]>> {
  const r = await stack.run(["preview", "--expect-no-changes", "--json", "--show-sames", "--show-secrets"], { quiet: true });
  const steps = (JSON.parse(r.stdout) as { steps: Step[] }).steps.filter((s) => s.urn.includes("runpod:"));
  expect(steps.length).toBeGreaterThan(0);
  const out: Record<string, string[]> = {};
  for (const s of steps) {
    const [olds, news] = [s.oldState?.inputs ?? {}, s.newState?.inputs ?? {}];
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => k !== "__provider");
    const differ = keys.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k])).sort();
    if (differ.length > 0) out[s.urn.split("::").pop()!] = differ;
  }
  return out;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-adopted-preview-");
});

afterAll(async () => {
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

// One stack for both commands: the import comes after the adoption and its refresh, so the last preview checks the
// imported endpoint and the refreshed adopted objects at once.
test("after `pulumi-runpod adopt`, the first preview shows no input differences; after a refresh and a `pulumi-runpod import` into the same stack, a program declaring the endpoint as it is previews with none either", async () => {
  const template = await client.v2.createTemplate({ name: "adopt-tpl", image: "ghcr.io/acme/llm:1", serverless: true, disk: 20 } as never);
  await client.v2.createEndpoint({
    name: "adopt-api",
    type: "QUEUE",
    templateId: template.id,
    gpu: { pools: ["ADA_24"], count: 2 },
    workers: { min: 0, max: 2, idleTimeout: 10 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    timeout: 120_000,
  });
  const stack = await stackOf("adopted", 'import "./adopted";\n');
  const r = await runBin(["adopt", "--yes", "--stack", stack.name], stack.env, { cwd: stack.programDir });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });

  expect(await inputDifferences(stack)).toEqual({});
  // A refresh reads them the same way: checked by the preview after the import below.
  await stack.run(["refresh", "--yes"], { quiet: true });

  const made = await client.v2.createEndpoint({
    name: "import-api",
    type: "QUEUE",
    image: "ghcr.io/acme/own:2",
    args: "python handler.py",
    disk: 30,
    gpu: { pools: ["AMPERE_24"], count: 2 },
    workers: { min: 0, max: 3, idleTimeout: 20 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    timeout: 120_000,
  });
  const program = [
    'import "./adopted";',
    'import * as runpod from "pulumi-runpod";',
    'new runpod.Endpoint("api", { name: "import-api", imageName: "ghcr.io/acme/own:2", dockerArgs: "python handler.py",',
    '  containerDiskInGb: 30, gpuIds: ["AMPERE_24"], gpuCount: 2,',
    "  executionTimeoutMs: 120000, workersMax: 3, idleTimeout: 20 });",
    "",
  ].join("\n");
  fs.writeFileSync(path.join(stack.programDir, "index.ts"), program);
  const imported = await runBin(["import", "api", made.id, "--stack", stack.name], stack.env, { cwd: stack.programDir });
  expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: "" });

  const differences = await inputDifferences(stack);
  // That preview covered the adopted objects and the imported endpoint.
  const urns = (await stack.resources()).map((res) => res.urn);
  for (const name of ["Template::adoptTpl", "Endpoint::adoptApi", "Endpoint::api"]) expect(urns).toContainEqual(expect.stringMatching(`runpod:${name}$`));
  expect(differences).toEqual({});
});
