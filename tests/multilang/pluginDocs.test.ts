/**
 * docs/plugin.md works as written: every block it marks `<!-- plugin-doc: NAME -->` runs here, through
 * the real Pulumi CLI against the emulator, in fresh projects in the system temp dir. The doc's
 * `/path/to/pulumi-runpod` is a stand-in checkout (this repository's `bin/` and `scripts/`, a copy of
 * `sdk/python`), its placeholders (`<key>`, `<password>`, …) are filled in, and the emulator's addresses
 * are set as README's Install does; nothing else is added to the blocks. Shell blocks run with
 * `bash -euo pipefail` and `PULUMI_SKIP_CONFIRMATIONS` (what a user answers `yes` to).
 *
 * - Python quick start: the virtualenv block (pip from the Python package index), `Pulumi.yaml` (plugin by
 *   option 1), `__main__.py`, the deploy block, the one-field preview, then the CLI block in the project.
 * - YAML quick start: the plugin by option 2 (`pack-plugin.sh`, `pulumi plugin install` into a Pulumi home
 *   of its own), the program and the deploy block.
 * - Option 3 (`npm install -g` of the package tarball, into a prefix of its own) and the import block.
 * - Beside the blocks, on the quick start's stack: a `runpod:maxHourlyCost` refusal as the user reads it.
 */
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/pulumiCli";
import { requirePythonTooling } from "./harness";

jest.setTimeout(900_000);

const ROOT = repoRoot();
const DOC = fs.readFileSync(path.join(ROOT, "docs", "plugin.md"), "utf8");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const REGISTRY_PASSWORD = "regpw-doc-Q9";
const HF_TOKEN = "hf-doc-token-Z3";

/** The code block docs/plugin.md marks `<!-- plugin-doc: name -->` (indentation of a list item removed). */
function docBlock(name: string): string {
  const marker = `<!-- plugin-doc: ${name} -->\n`;
  const at = DOC.indexOf(marker);
  if (at < 0) throw new Error(`docs/plugin.md has no block marked "${marker.trim()}"`);
  const block = /^( *)```[\w.]*\n([\s\S]*?)\n *```\n/.exec(DOC.slice(at + marker.length).replace(/^ *\n/, ""));
  if (!block) throw new Error(`the marker "${marker.trim()}" is not followed by a code block`);
  const indent = block[1].length;
  return block[2]
    .split("\n")
    .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
    .join("\n");
}

let emu: RunningEmulator;
let work: string;
/** The doc's `/path/to/pulumi-runpod`. */
let checkout: string;
let placeholders: Record<string, string>;

/** `text` with the doc's placeholders filled in. */
function fill(text: string, root = checkout): string {
  let out = text.split("/path/to/pulumi-runpod-").join(`${work}/pulumi-runpod-`);
  out = out.split("/path/to/pulumi-runpod").join(root);
  for (const [k, v] of Object.entries(placeholders)) out = out.split(k).join(v);
  return out;
}

interface Shell {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Shell> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], {
      cwd,
      env: { ...env, PULUMI_SKIP_CONFIRMATIONS: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the doc's shell block `name` (filled in) and fails with its output when any line fails. */
async function runBlock(name: string, cwd: string, env: NodeJS.ProcessEnv, root?: string): Promise<Shell> {
  const r = await bash(fill(docBlock(name), root), cwd, env);
  if (r.code !== 0) throw new Error(`docs/plugin.md block "${name}" exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Points a stack at the emulator, as README's Install does for the emulator (the key is the doc's block's). */
async function useEmulator(stack: LocalStack): Promise<void> {
  const urls = {
    "runpod:graphqlUrl": emu.urls.graphql,
    "runpod:restV1Url": emu.urls.restV1,
    "runpod:restV2Url": emu.urls.restV2,
    "runpod:inferenceUrl": emu.urls.inference,
  };
  await stack.run(["config", "set-all", ...Object.entries(urls).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`])], { quiet: true });
}

async function newProject(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), fill(text));
  return dir;
}

beforeAll(async () => {
  requirePythonTooling();
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  work = tempDir("pulumi-runpod-plugin-docs-");
  checkout = path.join(work, "pulumi-runpod");
  fs.mkdirSync(path.join(checkout, "sdk"), { recursive: true });
  for (const dir of ["bin", "scripts", "dist", "node_modules"]) fs.symlinkSync(path.join(ROOT, dir), path.join(checkout, dir));
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(checkout, "package.json"));
  // A copy: pip writes build/ and *.egg-info next to the SDK's sources.
  fs.cpSync(path.join(ROOT, "sdk", "python"), path.join(checkout, "sdk", "python"), { recursive: true });
  placeholders = { "<key>": emu.apiKey, "<password>": REGISTRY_PASSWORD, "<token>": HF_TOKEN };
});

afterAll(async () => {
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A `pulumi-runpod` on PATH as the doc's CLI block expects it: this checkout's CLI (`node dist/src/cli/main.js`). */
function cliOnPath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const bin = path.join(work, "cli-bin");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "pulumi-runpod"), `#!/bin/sh\nexec node ${path.join(ROOT, "dist", "src", "cli", "main.js")} "$@"\n`, { mode: 0o755 });
  return { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ""}` };
}

describe("the Python quick start", () => {
  let dir: string;
  let stack: LocalStack;

  test("the virtualenv, Pulumi.yaml, __main__.py and deploy blocks deploy the endpoint and export its id", async () => {
    dir = await newProject("python", { "Pulumi.yaml": docBlock("python-Pulumi.yaml"), "__main__.py": docBlock("python-__main__.py") });
    stack = await LocalStack.create({ programDir: dir, stackName: "dev", stateDir: path.join(work, "state-python") });
    await runBlock("python-venv", dir, stack.env);
    expect(fs.existsSync(path.join(dir, "venv", "bin", "python"))).toBe(true);
    await useEmulator(stack);
    await runBlock("python-up", dir, stack.env);

    const out = (await stack.outputs()) as Record<string, string>;
    const endpoint = emu.endpoints(emu.apiKey).find((e) => e.id === out.endpointId);
    expect(endpoint).toMatchObject({ workersMax: 3 });
    expect(out.jobUrl).toContain(out.endpointId);
    const state = JSON.stringify(await stack.run(["stack", "export"], { quiet: true }).then((r) => JSON.parse(r.stdout) as unknown));
    for (const secret of [REGISTRY_PASSWORD, HF_TOKEN, emu.apiKey]) expect(state).not.toContain(secret);
  });

  test("a one-field change previews as the doc shows it", async () => {
    const main = path.join(dir, "__main__.py");
    const program = fs.readFileSync(main, "utf8");
    expect(program).toContain("workers_max=3,");
    fs.writeFileSync(main, program.replace("workers_max=3,", "workers_max=5,"));
    try {
      const shown = docBlock("python-preview-diff").split("\n");
      const r = await bash(shown[0].replace(/^\$ /, ""), dir, stack.env);
      expect(r.code).toBe(0);
      for (const line of shown.slice(1)) expect(r.stdout).toContain(line.replace("urn:pulumi:dev::llm", `urn:pulumi:${stack.name}::llm`));
    } finally {
      fs.writeFileSync(main, program);
    }
  });

  test("the CLI block runs in the project with no RUNPOD_* variable", async () => {
    const env = cliOnPath(stack.env);
    for (const k of Object.keys(env)) if (k.startsWith("RUNPOD_")) delete env[k];
    const r = await runBlock("cli", dir, env);
    const id = ((await stack.outputs()) as Record<string, string>).endpointId;
    expect(r.stdout).toContain(id);
  });

  // Not a doc block: the budget refusal on a Python stack reads as the endpoint's own problem (issue 31).
  test("runpod:maxHourlyCost refuses the Python stack's preview naming the endpoint, with no {<nil>} property", async () => {
    await stack.run(["config", "set", "runpod:maxHourlyCost", "0.01"], { quiet: true });
    try {
      const r = await stack.run(["preview"], { expectFailure: true });
      expect(r.stdout + r.stderr).toMatch(
        /runpod:index:Endpoint resource 'api' has a problem: the stack would cost up to \$\d+\.\d\d\/h \(its endpoints with all workers busy, its pods running\)/,
      );
      expect(r.stdout + r.stderr).not.toContain("{<nil>}");
    } finally {
      await stack.run(["config", "rm", "runpod:maxHourlyCost"], { quiet: true });
    }
  });

  test("the import block adopts the stack's objects into another project", async () => {
    const state = JSON.parse((await stack.run(["stack", "export"], { quiet: true })).stdout) as {
      deployment: { resources: { type: string; id?: string; urn: string }[] };
    };
    const idOf = (type: string) => state.deployment.resources.find((r) => r.type === `runpod:index:${type}`)!.id!;
    placeholders["<endpoint id>"] = idOf("Endpoint");
    placeholders["<template id>"] = idOf("Template");
    placeholders["<id>"] = idOf("ContainerRegistryAuth");
    const other = await newProject("adopt", { "Pulumi.yaml": `name: adopt\nruntime: yaml\n${docBlock("plugins-providers")}\n` });
    const adopt = await LocalStack.create({ programDir: other, stackName: "dev", stateDir: path.join(work, "state-adopt") });
    await useEmulator(adopt);
    await adopt.setConfig("runpod:apiKey", emu.apiKey, { secret: true });
    await runBlock("import", other, adopt.env);
    const adopted = JSON.parse((await adopt.run(["stack", "export"], { quiet: true })).stdout) as {
      deployment: { resources: { type: string; id?: string }[] };
    };
    const ids = Object.fromEntries(adopted.deployment.resources.filter((r) => r.type.startsWith("runpod:index:")).map((r) => [r.type, r.id]));
    expect(ids).toEqual({
      "runpod:index:Endpoint": placeholders["<endpoint id>"],
      "runpod:index:Template": placeholders["<template id>"],
      "runpod:index:ContainerRegistryAuth": placeholders["<id>"],
    });
  });
});

test("the YAML quick start deploys with the plugin installed by option 2 (`pulumi plugin install`), and exports the id", async () => {
  const dir = await newProject("yaml", { "Pulumi.yaml": docBlock("yaml-Pulumi.yaml") });
  expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).not.toContain("plugins:");
  const home = path.join(work, "pulumi-home");
  fs.mkdirSync(home);
  const stack = await LocalStack.create({ programDir: dir, stackName: "dev", stateDir: path.join(work, "state-yaml"), env: { PULUMI_HOME: home } });
  // The real checkout: `npm pack` (in pack-plugin.sh) leaves out the stand-in's symlinked dist/.
  const installed = await runBlock("plugin-install", dir, stack.env, ROOT);
  expect(installed.stdout).toContain(`pulumi-resource-runpod-v${VERSION}.tar.gz`);
  expect(fs.readdirSync(path.join(home, "plugins"))).toContain(`resource-runpod-v${VERSION}`);
  await useEmulator(stack);
  const r = await runBlock("yaml-up", dir, stack.env);
  const id = r.stdout.trim().split("\n").pop()!;
  expect(emu.endpoints(emu.apiKey).map((e) => e.id)).toContain(id);
  expect(((await stack.outputs()) as Record<string, string>).jobUrl).toContain(id);
});

test("option 3 puts the plugin and the CLI on PATH from the package tarball", async () => {
  // The tarball of the current build, as `npm pack` writes it (without `prepack`, which would rebuild dist/ under the other suites).
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work], { cwd: ROOT, encoding: "utf8" }).trim();
  expect(packed).toBe(`pulumi-runpod-${VERSION}.tgz`);
  const prefix = path.join(work, "npm-global");
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_prefix: prefix };
  await runBlock("install-global", work, env);
  for (const bin of ["pulumi-resource-runpod", "pulumi-runpod"]) expect(fs.existsSync(path.join(prefix, "bin", bin))).toBe(true);
  const help = await bash("pulumi-runpod --help", work, { ...env, PATH: `${path.join(prefix, "bin")}${path.delimiter}${env.PATH ?? ""}` });
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/workers/);
});
