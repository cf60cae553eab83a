/**
 * `pulumi-runpod adopt` on a TypeScript project (the dynamic path), through the real Pulumi CLI and the
 * compiled bin against the emulator: an account made through REST v2 alone (registry credentials, a
 * network volume, a serverless template using both, a GPU endpoint from it mounting the volume, a pod
 * mounting the volume) is adopted; `pulumi preview --refresh --expect-no-changes` then passes, no
 * platform object was created, replaced or deleted, and one-value edits of the written program update
 * in place. Needs `npm run setup` (Pulumi CLI) and a build (dist/).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/pulumiCli";
import { runBin, type CliResult } from "../cli/harness";

jest.setTimeout(900_000);

const ENV_SECRET = "hf_adopt-secret-value-1234";
const CPU_SECRET = "cpu-adopt-secret-9876";

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let programDir: string;
let stack: LocalStack;

/** A fresh TypeScript project whose program loads the file adopt writes. */
function freshProject(dir: string): void {
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: adopted-account\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "adopted-account", private: true, main: "index.ts" }));
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true },
    }),
  );
  fs.writeFileSync(path.join(dir, "index.ts"), 'import "./adopted";\n');
  for (const [name, target] of [
    ["pulumi-runpod", repoRoot()],
    ["@pulumi", path.join(repoRoot(), "node_modules", "@pulumi")],
    ["typescript", path.join(repoRoot(), "node_modules", "typescript")],
  ]) {
    fs.symlinkSync(target, path.join(dir, "node_modules", name), "dir");
  }
}

/** Every object of the account, by kind: ids and names. */
async function accountIds(): Promise<Record<string, string[]>> {
  const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort();
  return {
    endpoints: ids(await client.v2.listEndpoints()),
    templates: ids(await client.v2.listTemplates()),
    registries: ids(await client.v2.listRegistries()),
    volumes: ids(await client.v2.listNetworkVolumes()),
    pods: ids(await client.v2.listPods()),
  };
}

const adopt = (args: string[]): Promise<CliResult> => runBin(["adopt", ...args, "--stack", stack.name], stack.env, { cwd: programDir });

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-adopt-");
  programDir = path.join(work, "program");
  freshProject(programDir);
  // Previews are checked with `pulumi preview`: `up` skips its own.
  stack = await LocalStack.create({ programDir, stackName: "adopt", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);

  // The account, made through REST v2 alone (as the console or runpodctl would).
  const registry = await client.v2.createRegistry({ name: "ghcr-bot", username: "bot", password: "registry-pass-5678" });
  const volume = await client.v2.createNetworkVolume({ name: "model-cache", size: 50, dataCenter: "EU-RO-1" });
  const template = await client.v2.createTemplate({
    name: "llm-worker",
    image: "ghcr.io/acme/llm:1.2",
    serverless: true,
    disk: 20,
    ports: ["8000/http"],
    env: { HF_TOKEN: ENV_SECRET },
    registry: registry.id,
    startSsh: false,
    startJupyter: false,
  } as never);
  await client.v2.createEndpoint({
    name: "llm-api",
    type: "QUEUE",
    templateId: template.id,
    gpu: { pools: ["ADA_24"] },
    workers: { min: 0, max: 2, idleTimeout: 10 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    networkVolumes: [volume.id],
    dataCenterIds: ["EU-RO-1"],
  });
  // A CPU endpoint with its own container (no template), one env value a secret.
  await client.v2.createEndpoint({
    name: "batch-cpu",
    type: "QUEUE",
    image: "ghcr.io/acme/batch:3",
    env: { API_TOKEN: CPU_SECRET, MODE: "batch" },
    cpu: [{ id: "cpu5c", vcpuCount: 4 }],
    workers: { min: 0, max: 1, idleTimeout: 10 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  });
  await client.v2.createPod({
    name: "notebook",
    image: "runpod/pytorch:2.4.0",
    gpu: { id: "NVIDIA GeForce RTX 4090" },
    mounts: { network: [{ volumeId: volume.id, path: "/workspace" }] },
  });
});

afterAll(async () => {
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("--dry-run lists the account as a table and writes nothing", async () => {
  const before = fs.readdirSync(programDir).sort();
  const r = await adopt(["--dry-run"]);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(r.stdout).toMatch(/^KIND\s+NAME\s+ID\s+RESOURCE/m);
  for (const name of ["ghcr-bot", "model-cache", "llm-worker", "llm-api", "batch-cpu", "notebook"]) expect(r.stdout).toContain(name);
  expect(fs.readdirSync(programDir).sort()).toEqual(before);
  expect(await stack.resources()).toEqual([]);
});

test("a bad --kinds names the allowed values", async () => {
  const r = await adopt(["--kinds", "endpoint,gadget", "--dry-run"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('"gadget"');
  expect(r.stderr).toContain("containerregistryauth, networkvolume, template, endpoint, pod");
});

test("adopt writes the program and fills the state; preview --refresh --expect-no-changes passes; nothing on the platform changed", async () => {
  const before = await accountIds();
  const r = await adopt(["--yes"]);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  const program = fs.readFileSync(path.join(programDir, "adopted.ts"), "utf8");
  // References are references; secrets come from the configuration.
  expect(program).toMatch(/templateId: llmWorker\.id/);
  expect(program).toMatch(/networkVolumeId: modelCache\.id/);
  expect(program).toMatch(/containerRegistryAuthId: ghcrBot\.id/);
  expect(program).toContain('config.requireSecretObject<Record<string, string>>("llmWorkerEnv")');
  // The CPU endpoint: its own container and flavors, its env from the configuration.
  expect(program).toContain('imageName: "ghcr.io/acme/batch:3"');
  expect(program).toMatch(/cpuFlavorIds: \["cpu5c"\]/);
  expect(program).toMatch(/vcpuCount: 4/);
  expect(program).toContain('config.requireSecretObject<Record<string, string>>("batchCpuEnv")');
  const state = await stack.exportText();
  const config = fs.readFileSync(stack.configFile, "utf8");
  expect(config).toMatch(/batchCpuEnv:\s*\n\s*API_TOKEN:\s*\n\s*secure:/);
  for (const secret of [ENV_SECRET, CPU_SECRET]) {
    expect(program).not.toContain(secret);
    expect(state).not.toContain(secret);
    expect(config).not.toContain(secret);
  }
  const types = (await stack.resources()).map((res) => res.type.replace(/^pulumi-nodejs:dynamic\/runpod:/, "")).sort();
  expect(types).toEqual(expect.arrayContaining(["ContainerRegistryAuth", "Endpoint", "NetworkVolume", "Pod", "Template"]));

  await stack.run(["preview", "--refresh", "--expect-no-changes"]);
  expect(await accountIds()).toEqual(before);

  // Nothing more to adopt.
  const again = await adopt(["--dry-run"]);
  expect(again.stdout).toMatch(/^nothing to adopt/m);
});

test("one-value edits of the written program (the GPU endpoint's workersMax, the adopted CPU endpoint's vcpuCount) update each in place, in one up", async () => {
  const before = await accountIds();
  const file = path.join(programDir, "adopted.ts");
  const program = fs.readFileSync(file, "utf8");
  expect(program).toMatch(/workersMax: 2,/);
  expect(program).toMatch(/vcpuCount: 4,/);
  fs.writeFileSync(file, program.replace(/workersMax: 2,/, "workersMax: 3,").replace(/vcpuCount: 4,/, "vcpuCount: 8,"));
  const up = await stack.run(["up", "--yes"]);
  expect(up.stdout).toMatch(/2 updated/);
  expect(up.stdout).not.toMatch(/created|replaced|deleted/);
  expect(await accountIds()).toEqual(before);
  const endpoints = await client.v2.listEndpoints();
  expect(endpoints.find((e) => e.name === "llm-api")?.workers.max).toBe(3);
  const cpu = endpoints.find((e) => e.name === "batch-cpu");
  expect(cpu?.cpu).toMatchObject([{ id: "cpu5c", vcpuCount: 8 }]);
  expect(cpu?.env).toEqual({ API_TOKEN: CPU_SECRET, MODE: "batch" });
});

test("the out file exists: refused without --force, nothing changes", async () => {
  await client.v2.createNetworkVolume({ name: "late-volume", size: 10, dataCenter: "EU-RO-1" });
  const stateBefore = await stack.exportText();
  const r = await adopt(["--yes"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/adopted\.ts exists; give --force/);
  expect(await stack.exportText()).toBe(stateBefore);
});

test("a JavaScript project (runtime nodejs, a .js main, no tsconfig): adopt writes CommonJS; preview --refresh --expect-no-changes passes; an edit updates in place", async () => {
  const jsSecret = "js-adopt-secret-2468";
  await client.v2.createNetworkVolume({ name: "js-volume", size: 10, dataCenter: "EU-RO-1" });
  await client.v2.createEndpoint({
    name: "js-cpu",
    type: "QUEUE",
    image: "ghcr.io/acme/js:1",
    env: { TOKEN: jsSecret },
    cpu: [{ id: "cpu5c", vcpuCount: 2 }],
    workers: { min: 0, max: 1, idleTimeout: 10 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  });
  const jsDir = path.join(work, "js");
  fs.mkdirSync(path.join(jsDir, "node_modules"), { recursive: true });
  fs.writeFileSync(path.join(jsDir, "Pulumi.yaml"), "name: adopted-js\nruntime: nodejs\n");
  fs.writeFileSync(path.join(jsDir, "package.json"), JSON.stringify({ name: "adopted-js", private: true, main: "index.js" }));
  fs.writeFileSync(path.join(jsDir, "index.js"), 'require("./adopted");\n');
  fs.symlinkSync(repoRoot(), path.join(jsDir, "node_modules", "pulumi-runpod"), "dir");
  fs.symlinkSync(path.join(repoRoot(), "node_modules", "@pulumi"), path.join(jsDir, "node_modules", "@pulumi"), "dir");
  // The same backend as the TypeScript stack: what it holds is left out.
  const js = await LocalStack.create({ programDir: jsDir, stackName: "adoptjs", stateDir: path.join(work, "state"), skipPreview: true });
  await js.usePlatform(emu.urls, emu.apiKey);
  const before = await accountIds();

  const r = await runBin(["adopt", "--yes", "--name", "^js-", "--stack", js.name], js.env, { cwd: jsDir });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(fs.existsSync(path.join(jsDir, "adopted.ts"))).toBe(false);
  const program = fs.readFileSync(path.join(jsDir, "adopted.js"), "utf8");
  expect(program).toContain('const runpod = require("pulumi-runpod");');
  expect(program).toContain('env: config.requireSecretObject("jsCpuEnv"),');
  expect(program).toContain("module.exports = { jsVolume, jsCpu };");
  expect(program).not.toMatch(/^import |^export |<Record/m);
  expect(program).not.toContain(jsSecret);
  execFileSync(process.execPath, ["--check", path.join(jsDir, "adopted.js")]);
  expect(await js.exportText()).not.toContain(jsSecret);

  await js.run(["preview", "--refresh", "--expect-no-changes"]);
  expect(await accountIds()).toEqual(before);
  const file = path.join(jsDir, "adopted.js");
  fs.writeFileSync(file, program.replace('imageName: "ghcr.io/acme/js:1",', 'imageName: "ghcr.io/acme/js:2",'));
  const up = await js.run(["up", "--yes"]);
  expect(up.stdout).toMatch(/1 updated/);
  expect(up.stdout).not.toMatch(/created|replaced|deleted/);
  expect(await accountIds()).toEqual(before);
  const cpu = (await client.v2.listEndpoints()).find((e) => e.name === "js-cpu");
  expect({ image: cpu?.image, env: cpu?.env }).toEqual({ image: "ghcr.io/acme/js:2", env: { TOKEN: jsSecret } });
});
