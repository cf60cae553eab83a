/**
 * The package as a user gets it. Packs the built package (dist/ from `npm test`'s build), then for a
 * TypeScript and a JavaScript program runs README's "Using it in your own program" (its blocks marked
 * `<!-- user-project: NAME -->`) in a fresh project in the system temp dir — outside the repository, so
 * nothing resolves from its node_modules — installing from the npm registry (npm's cache serves what it
 * has). TypeScript gets the newest @pulumi/pulumi the registry serves; JavaScript the floor of the peer
 * range, the version of the project's own Pulumi CLI. Each project must hold exactly one copy of
 * @pulumi/pulumi and no native module, run both bins, and take a stack through preview → up → refresh →
 * `preview --expect-no-changes` → destroy with the project's Pulumi CLI (scripts/pulumiCli.ts: file
 * backend, passphrase secrets) against the emulator its own `npx pulumi-runpod-emulator` started.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { LocalStack, TRANSPILE_ONLY, tempDir } from "../../scripts/exampleStack";
import { repoRoot } from "../../scripts/pulumiCli";

jest.setTimeout(600_000);

const ROOT = repoRoot();
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
  files: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const TARBALL = `${PKG.name}-${PKG.version}.tgz`;
/** Lowest @pulumi/pulumi the peer range admits (`^3.259.0` -> `3.259.0`). */
const PULUMI_FLOOR = /^\^(\d+\.\d+\.\d+)$/.exec(PKG.peerDependencies?.["@pulumi/pulumi"] ?? "")?.[1];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: without the `npm_*` variables `npm test` sets for its scripts. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== "INIT_CWD") env[k] = v;
  return env;
}

function run(command: string, args: string[], cwd: string, timeoutMs = 300_000): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: userEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function ok(command: string, args: string[], cwd: string): Promise<Result> {
  const r = await run(command, args, cwd);
  if (r.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.code} in ${cwd}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** The code block README marks `<!-- user-project: name -->`. */
function readmeBlock(name: string): string {
  const marker = `<!-- user-project: ${name} -->\n`;
  const at = README.indexOf(marker);
  if (at < 0) throw new Error(`README has no block marked "${marker.trim()}"`);
  const block = /^```\w*\n([\s\S]*?)\n```\n/.exec(README.slice(at + marker.length));
  if (!block) throw new Error(`the README marker "${marker.trim()}" is not followed by a code block`);
  return block[1];
}

/** `text` with `from` replaced by `to`; fails when README no longer holds `from`. */
function replaceOnce(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

/** Every installed copy of `name` below `nodeModules` (nested copies included). */
function installedCopies(nodeModules: string, name: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    if (fs.existsSync(path.join(dir, name, "package.json"))) found.push(path.join(dir, name));
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const pkgs = entry.name.startsWith("@")
        ? fs.readdirSync(path.join(dir, entry.name)).map((n) => path.join(dir, entry.name, n))
        : [path.join(dir, entry.name)];
      for (const pkg of pkgs) if (fs.existsSync(path.join(pkg, "node_modules"))) visit(path.join(pkg, "node_modules"));
    }
  };
  visit(nodeModules);
  return found;
}

/** Files below `dir` whose name matches `pattern`. */
function filesMatching(dir: string, pattern: RegExp): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => pattern.test(path.basename(f)));
}

interface Platform {
  urls: { graphql: string; restV1: string; restV2: string; inference: string };
  apiKey: string;
}

/** Starts `npx pulumi-runpod-emulator --port 0 --json` in `cwd`, in a process group of its own (npx runs the bin as a grandchild). */
function startInstalledEmulator(cwd: string): Promise<{ child: ChildProcess; platform: Platform }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["pulumi-runpod-emulator", "--port", "0", "--json"], { cwd, env: userEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`the emulator did not start within 60 s\n${out}\n${err}`)), 60_000);
    child.stderr!.on("data", (b: Buffer) => (err += b.toString("utf8")));
    child.stdout!.on("data", (b: Buffer) => {
      out += b.toString("utf8");
      const line = out.split("\n").find((l) => l.startsWith("{") && l.endsWith("}"));
      if (line) {
        clearTimeout(timer);
        resolve({ child, platform: JSON.parse(line) as Platform });
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}) before it was ready\n${out}\n${err}`));
    });
  });
}

/** Ends the process group started by {@link startInstalledEmulator}, by its leader's pid. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  process.kill(-child.pid, "SIGTERM");
  const killer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), 5000);
  await closed;
  clearTimeout(killer);
}

interface PlatformEndpoint {
  id: string;
  gpuPools: string[];
  dataCenterIds: string[];
  networkVolumes: string[];
  workersMax: number;
}

/** The caller's endpoints, as the platform lists them (REST v2 `GET /v2/serverless`, the default path's listing). */
async function endpointsOn(p: Platform): Promise<PlatformEndpoint[]> {
  const res = await fetch(`${p.urls.restV2}/v2/serverless`, { headers: { authorization: `Bearer ${p.apiKey}` } });
  type Listed = { id: string; gpu: { pools: string[] } | null; dataCenterIds: string[]; networkVolumes: string[]; workers: { max: number } };
  const body = (await res.json()) as { endpoints: Listed[] };
  return body.endpoints.map((e) => ({
    id: e.id,
    gpuPools: e.gpu?.pools ?? [],
    dataCenterIds: e.dataCenterIds,
    networkVolumes: e.networkVolumes,
    workersMax: e.workers.max,
  }));
}

/** The caller's network volumes (REST v2 `GET /v2/network-volumes`). */
async function volumesOn(p: Platform): Promise<{ id: string; name: string }[]> {
  const res = await fetch(`${p.urls.restV2}/v2/network-volumes`, { headers: { authorization: `Bearer ${p.apiKey}` } });
  return ((await res.json()) as { networkVolumes: { id: string; name: string }[] }).networkVolumes;
}

let work: string;
let tarball: string;
let packed: { filename: string; files: { path: string }[] };

beforeAll(async () => {
  work = tempDir("pulumi-runpod-tarball-");
  for (const target of [PKG.bin["pulumi-runpod"], PKG.bin["pulumi-runpod-emulator"]]) {
    if (!fs.existsSync(path.join(ROOT, target))) throw new Error(`${target} is missing: build first (\`npm run build\`; \`npm test\` does)`);
  }
  // --ignore-scripts: `prepack` would rebuild dist/ under the feet of the other suites; `npm test` built it.
  const r = await ok("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT);
  const [info] = JSON.parse(r.stdout) as { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] }[];
  tarball = path.join(work, info.filename);
  packed = info;
  console.log(`${info.filename}: ${info.size} bytes packed, ${info.unpackedSize} unpacked, ${info.entryCount} files`);
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("the tarball", () => {
  test("ships the provider, resources, api client, CLI and emulator (code and types), and nothing else", () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(packed.filename).toBe(TARBALL);
    const allowed = [/^package\.json$/, /^LICENSE$/, /^README\.md$/, /^CHANGELOG\.md$/, /^emulator\/README\.md$/, /^dist\/(src|emulator)\/.+\.(js|d\.ts)$/];
    expect(files.filter((f) => !allowed.some((re) => re.test(f)))).toEqual([]);
    for (const dir of ["dist/src/provider/", "dist/src/resources/", "dist/src/api/", "dist/src/cli/", "dist/emulator/"]) {
      expect({ dir, files: files.filter((f) => f.startsWith(dir)).length > 0 }).toEqual({ dir, files: true });
    }
    const targets = Object.entries(PKG.exports).flatMap(([sub, t]) =>
      typeof t === "string"
        ? [[sub, t]]
        : [
            [sub, t.default],
            [sub, t.types],
          ],
    );
    for (const [sub, target] of targets) expect({ sub, target, shipped: files.includes(target.replace(/^\.\//, "")) }).toEqual({ sub, target, shipped: true });
    for (const [bin, target] of Object.entries(PKG.bin)) {
      expect({ bin, shipped: files.includes(target) }).toEqual({ bin, shipped: true });
      expect(fs.readFileSync(path.join(ROOT, target), "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
    }
  });

  test("package.json: @pulumi/pulumi a peer from the CLI's version on, better-sqlite3 an optional peer", () => {
    expect(PKG.dependencies["@pulumi/pulumi"]).toBeUndefined();
    expect(PKG.dependencies["better-sqlite3"]).toBeUndefined();
    expect(PULUMI_FLOOR).toBe(PKG.devDependencies["@pulumi/pulumi"]);
    const cli = fs.readFileSync(path.join(ROOT, ".pulumi", "bin", ".install-stamp"), "utf8");
    expect(cli).toContain(`cli=${PULUMI_FLOOR}\n`);
    expect(PKG.peerDependencies?.["better-sqlite3"]).toBe(PKG.devDependencies["better-sqlite3"]);
    expect(PKG.peerDependenciesMeta?.["better-sqlite3"]).toEqual({ optional: true });
    expect(README).toContain(`/path/to/${TARBALL}`);
  });
});

const FLAVORS = [
  { language: "TypeScript", program: ["tsconfig.json", "index.ts"], pulumi: "newest" },
  { language: "JavaScript", program: ["index.js"], pulumi: "floor" },
] as const;

describe.each(FLAVORS)("a $language project installed as README says", ({ language, program, pulumi }) => {
  let project: string;
  let emulator: ChildProcess | undefined;
  let platform: Platform;
  let stack: LocalStack;

  afterAll(async () => {
    if (stack) await stack.destroyLeftovers();
    if (emulator) await stopGroup(emulator);
  });

  test(`installs from the registry with one copy of @pulumi/pulumi (${pulumi === "newest" ? "the newest" : PULUMI_FLOOR}) and nothing native`, async () => {
    let script = replaceOnce(readmeBlock("setup"), `/path/to/${TARBALL}`, tarball);
    if (language === "JavaScript") {
      // The README's own notes: "index.js" for JavaScript; drop the "TypeScript only" line.
      expect(script).toContain(`# "index.js" for JavaScript`);
      script = replaceOnce(script, `"main": "index.ts"`, `"main": "index.js"`);
      expect(script).toMatch(/# TypeScript only$/m);
      script = script
        .split("\n")
        .filter((l) => !/# TypeScript only$/.test(l))
        .join("\n");
      script = replaceOnce(script, "npm install @pulumi/pulumi ", `npm install @pulumi/pulumi@${PULUMI_FLOOR} `);
    }
    const flavorDir = path.join(work, language);
    fs.mkdirSync(flavorDir);
    const started = Date.now();
    await ok("bash", ["-e", "-o", "pipefail", "-c", script], flavorDir);
    console.log(`${language} project: README's set-up block (npm installs included) took ${((Date.now() - started) / 1000).toFixed(1)} s`);

    project = path.join(flavorDir, "my-gpu-stack");
    for (const file of program) fs.writeFileSync(path.join(project, file), `${readmeBlock(file)}\n`);
    expect(path.relative(ROOT, fs.realpathSync(project)).startsWith("..")).toBe(true);

    const modules = path.join(project, "node_modules");
    expect(installedCopies(modules, "@pulumi/pulumi")).toEqual([path.join(modules, "@pulumi", "pulumi")]);
    const version = (JSON.parse(fs.readFileSync(path.join(modules, "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
    const expected = pulumi === "newest" ? (await ok("npm", ["view", "@pulumi/pulumi", "version"], project)).stdout.trim() : PULUMI_FLOOR;
    expect(version).toBe(expected);

    const installed = path.join(modules, PKG.name);
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
    expect((JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")) as { version: string }).version).toBe(PKG.version);
    expect(installedCopies(modules, "better-sqlite3")).toEqual([]);
    expect(filesMatching(modules, /\.node$/)).toEqual([]);
  });

  test("the bins: `pulumi-runpod --version`, and the emulator's --data names the missing optional package", async () => {
    const version = await ok("npx", ["pulumi-runpod", "--version"], project);
    expect(version.stdout.trim()).toBe(PKG.version);
    const data = await run("npx", ["pulumi-runpod-emulator", "--port", "0", "--data", path.join(project, "state.sqlite")], project);
    expect(data.code).toBe(1);
    expect(data.stderr).toMatch(/needs the optional package better-sqlite3, which is not installed: run `npm install better-sqlite3`/);
    expect(fs.existsSync(path.join(project, "state.sqlite"))).toBe(false);
  });

  if (language === "TypeScript") {
    test("every export's types resolve, with the classic and the node16 module resolution", async () => {
      fs.writeFileSync(
        path.join(project, "exports-check.ts"),
        [
          `import { Endpoint } from "pulumi-runpod";`,
          `import type { ResourceProvider } from "@pulumi/pulumi/dynamic";`,
          `import * as provider from "pulumi-runpod/provider";`,
          `import { createClient } from "pulumi-runpod/api";`,
          `import { startEmulator } from "pulumi-runpod/emulator";`,
          `export const checks: [typeof Endpoint, ResourceProvider["create"], typeof provider, typeof createClient, typeof startEmulator] | undefined = undefined;`,
          "",
        ].join("\n"),
      );
      const tsc = path.join(project, "node_modules", ".bin", "tsc");
      const base = ["--noEmit", "--strict", "--target", "es2020", "exports-check.ts"];
      await ok(tsc, [...base, "--module", "commonjs", "--moduleResolution", "node"], project);
      await ok(tsc, [...base, "--module", "node16", "--moduleResolution", "node16"], project);
      fs.rmSync(path.join(project, "exports-check.ts"));
    });
  }

  test("`npx pulumi-runpod-emulator` starts the emulator; preview plans the endpoint and creates nothing", async () => {
    ({ child: emulator, platform } = await startInstalledEmulator(project));
    // The preview is checked here: `up`, `refresh` and `destroy` skip theirs. A TypeScript program is type-checked at this
    // first run; its later runs of the same program only transpile.
    stack = await LocalStack.create({ programDir: project, stackName: "dev", stateDir: path.join(work, `${language}-state`), skipPreview: true });
    await stack.usePlatform(platform.urls, platform.apiKey);
    const r = await stack.run(["preview"]);
    expect(r.stdout).toMatch(/\+ 2 to create/);
    expect(await endpointsOn(platform)).toEqual([]);
  });

  test("up creates the endpoint as declared", async () => {
    const r = await stack.run(["up", "--yes"], TRANSPILE_ONLY);
    expect(r.stdout).toMatch(/\+ 2 created/);
    const out = (await stack.outputs()) as { endpointId: string; jobUrl: string };
    const models = (await volumesOn(platform)).find((v) => v.name === "models");
    expect(await endpointsOn(platform)).toEqual([
      { id: out.endpointId, gpuPools: ["ADA_24", "AMPERE_24"], dataCenterIds: ["EU-RO-1", "EU-CZ-1"], networkVolumes: [models?.id], workersMax: 3 },
    ]);
    expect(out.jobUrl).toBe(`${platform.urls.inference}/v2/${out.endpointId}/`);
  });

  test("refresh finds nothing changed and a preview after it expects no changes", async () => {
    const r = await stack.run(["refresh", "--yes"]);
    expect(r.stdout).toMatch(/2 unchanged/);
    await stack.run(["preview", "--expect-no-changes"], TRANSPILE_ONLY);
  });

  test("destroy deletes the endpoint", async () => {
    await stack.run(["destroy", "--yes"]);
    expect(await endpointsOn(platform)).toEqual([]);
    await stack.remove();
  });
});
