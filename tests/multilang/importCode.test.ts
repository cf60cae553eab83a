/**
 * The plugin's `pulumi import` as a Python or Go user runs it (docs/plugin.md › Adopting what exists),
 * through the real CLI against the emulator: it exits 0 with no "failed to validate" warning (on
 * `runpod:api graphql`: on v2 the platform reports no endpoint's template, docs/plugin.md), and the language host's GenerateProgram (Pulumi's own code generators in the
 * minimal hosts of scripts/build-pulumi-tools.sh) writes the code declaring what was imported. The
 * Python code, taken as the program, previews with no changes; the import protects unless
 * `--protect=false`, as `pulumi import` does. On v2 (issue 39) a CPU endpoint and an endpoint running
 * its own image (no template) import the same way. Env values (secrets) never reach the generated
 * code: it holds a placeholder, the import warns naming the field, and preview refuses the placeholder
 * until the program sets the value.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { pulumiRoot } from "../../scripts/pulumiCli";
import { pythonSdkPath, requirePythonTooling, writeProject } from "./harness";

jest.setTimeout(300_000);

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
const stacks: LocalStack[] = [];

beforeAll(async () => {
  requirePythonTooling();
  const goHost = path.join(pulumiRoot(), "bin", "pulumi-language-go");
  if (!fs.existsSync(goHost)) throw new Error(`${goHost} is missing: run \`npm run tools\` (scripts/build-pulumi-tools.sh, which npm test runs)`);
  emu = await startEmulator({ port: 0, quiet: true, saveSemantics: "replace", workerStartMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-import-");
});

afterAll(async () => {
  for (const s of stacks) await s.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A fresh project of `runtime` (no program yet: `pulumi import` does not run one) on its own stack and the emulator. */
async function project(runtime: "python" | "go", env: Record<string, string> = {}, api: "graphql" | "v2" = "graphql", suffix = ""): Promise<LocalStack> {
  const name = (api === "graphql" ? runtime : `${runtime}-${api}`) + suffix;
  const programDir = path.join(work, name);
  fs.mkdirSync(programDir, { recursive: true });
  writeProject(programDir, `import-${name}`, runtime);
  // `pulumi import` runs its own preview; `destroy` skips its own (the refused destroy of a protected import fails at its step all the same).
  const stack = await LocalStack.create({ programDir, stackName: name, stateDir: path.join(work, `state-${name}`), env, skipPreview: true });
  stacks.push(stack);
  await stack.usePlatform(emu.urls, emu.apiKey);
  await stack.setConfig("runpod:api", api);
  return stack;
}

/** A template, an endpoint running it, a network volume and a pod, made outside Pulumi, in one import file. */
async function madeOutside(prefix: string): Promise<string> {
  const template = await client.saveTemplate({ name: `${prefix}-tpl`, imageName: "nginx:1", isServerless: true, containerDiskInGb: 10 });
  const endpoint = await client.saveEndpoint({ name: `${prefix}-api`, templateId: template.id, gpuIds: "AMPERE_80", workersMax: 2 });
  const volume = await client.v2.createNetworkVolume({ name: `${prefix}-vol`, size: 15, dataCenter: "EU-RO-1", type: "STANDARD" });
  const pod = await client.v2.createPod({ name: `${prefix}-pod`, image: "alpine:3", cpu: { id: "cpu3c", vcpuCount: 2 } });
  const file = path.join(work, `${prefix}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      resources: [
        { type: "runpod:index:Template", name: "tpl", id: template.id },
        { type: "runpod:index:Endpoint", name: "api", id: endpoint.id },
        { type: "runpod:index:NetworkVolume", name: "vol", id: volume.id },
        { type: "runpod:index:Pod", name: "box", id: pod.id },
      ],
    }),
  );
  return file;
}

const noValidationWarning = (out: string) => expect(out).not.toMatch(/failed to validate|has a problem/);

test("Python: `pulumi import` exits 0 and prints the program; protected by default; the program previews with no changes", async () => {
  const stack = await project("python", { PYTHONPATH: pythonSdkPath() });
  const file = await madeOutside("py");
  const r = await stack.run(["import", "--file", file, "--yes"]);
  noValidationWarning(r.stdout + r.stderr);
  expect(r.stdout).toContain("import pulumi_runpod as runpod");
  expect(r.stdout).toMatch(/tpl = runpod\.Template\("tpl",/);
  expect(r.stdout).toMatch(/api = runpod\.Endpoint\("api",/);
  expect(r.stdout).toMatch(/vol = runpod\.NetworkVolume\("vol",/);
  expect(r.stdout).toMatch(/box = runpod\.Pod\("box",[^]*image_name="alpine:3"/);
  // Imported together, the endpoint's template is the imported one.
  expect(r.stdout).toContain("template_id=tpl.id");
  expect(r.stdout).toContain("protect=True");
  expect(r.stdout).toContain("the imported resources are marked as protected");
  const state = await stack.resources();
  const imported = state.filter((s) => s.type.startsWith("runpod:index:")).map((s) => `${s.type} protect=${String(s.protect)}`);
  expect(imported.sort()).toEqual([
    "runpod:index:Endpoint protect=true",
    "runpod:index:NetworkVolume protect=true",
    "runpod:index:Pod protect=true",
    "runpod:index:Template protect=true",
  ]);

  // The generated code is a working program: declared as printed, nothing changes.
  const code = r.stdout.slice(r.stdout.indexOf("import pulumi"));
  fs.writeFileSync(path.join(stack.programDir, "__main__.py"), code);
  await stack.run(["preview", "--expect-no-changes"]);

  // Protected, as `pulumi import` says: destroy refuses until unprotected.
  const refused = await stack.run(["destroy", "--yes"], { expectFailure: true });
  expect(refused.stdout + refused.stderr).toMatch(/protected/);
  await stack.run(["state", "unprotect", "--all", "--yes"]);
  await stack.run(["destroy", "--yes"]);
  expect((await client.listTemplates()).map((t) => t.name)).not.toContain("py-tpl");
});

test("Go: `pulumi import --protect=false` exits 0, writes the Go program with --out, and leaves the resources unprotected", async () => {
  const stack = await project("go", { GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" });
  const file = await madeOutside("go");
  const out = path.join(work, "imported.go");
  const r = await stack.run(["import", "--file", file, "--yes", "--protect=false", "--out", out]);
  noValidationWarning(r.stdout + r.stderr);
  const code = fs.readFileSync(out, "utf8");
  expect(code).toContain('"github.com/pulumi-runpod/pulumi-runpod/sdk/go/runpod"');
  expect(code).toMatch(/runpod\.NewTemplate\(ctx, "tpl", &runpod\.TemplateArgs\{/);
  expect(code).toMatch(/runpod\.NewEndpoint\(ctx, "api", &runpod\.EndpointArgs\{/);
  expect(code).toMatch(/runpod\.NewPod\(ctx, "box", &runpod\.PodArgs\{/);
  expect(code).not.toContain("pulumi.Protect(true)");
  const state = await stack.resources();
  expect(state.filter((s) => s.type.startsWith("runpod:index:")).every((s) => !s.protect)).toBe(true);
  await stack.run(["destroy", "--yes"]);
});

test("v2: one `pulumi import` of a CPU endpoint, an own-container endpoint (image, no template), an endpoint with env values and one made from a template: the env values stay out of the generated code (a placeholder and a warning), preview refuses the placeholder until the program sets the value, the template-made endpoint imports its container with no warning, and the inputs then preview with no changes", async () => {
  const SECRET = "s3cret-token-9876";
  const stack = await project("python", { PYTHONPATH: pythonSdkPath() }, "v2");
  await stack.setConfig("token", SECRET, { secret: true });
  const base = { type: "QUEUE" as const, workers: { min: 0, max: 1 }, scaling: { type: "QUEUE_DELAY" as const, queueDelay: 4 } };
  const cpu = await client.v2.createEndpoint({ ...base, name: "imp-cpu", image: "ghcr.io/acme/cpu:1", cpu: [{ id: "cpu5c", vcpuCount: 4 }] });
  const own = await client.v2.createEndpoint({
    ...base,
    name: "imp-own",
    image: "ghcr.io/acme/own:2",
    args: "python handler.py",
    disk: 30,
    ports: ["8000/http"],
    gpu: { pools: ["ADA_24"] },
  });
  const ep = await client.v2.createEndpoint({
    name: "imp-env",
    type: "QUEUE",
    image: "ghcr.io/acme/env:1",
    env: { TOKEN: SECRET, MODE: "fast" },
    cpu: [{ id: "cpu5c", vcpuCount: 4 }],
    workers: { min: 0, max: 1 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  });
  // Made from a template: v2 reports no template, the endpoint's copy of its container is imported (docs/plugin.md).
  const tpl = await client.v2.createTemplate({ name: "imp-tpl", image: "ghcr.io/acme/tpl:1", serverless: true });
  const fromTemplate = await client.v2.createEndpoint({
    name: "imp-fromtpl",
    type: "QUEUE",
    templateId: tpl.id,
    gpu: { pools: ["ADA_24"] },
    workers: { min: 0, max: 1 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  });
  const file = path.join(work, "v2-endpoints.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      resources: [
        { type: "runpod:index:Endpoint", name: "cpu", id: cpu.id },
        { type: "runpod:index:Endpoint", name: "own", id: own.id },
        { type: "runpod:index:Endpoint", name: "withenv", id: ep.id },
        { type: "runpod:index:Endpoint", name: "fromtpl", id: fromTemplate.id },
      ],
    }),
  );
  const r = await stack.run(["import", "--file", file, "--yes", "--protect=false"]);
  const out = r.stdout + r.stderr;
  noValidationWarning(out);
  expect(r.stdout).toMatch(/cpu = runpod\.Endpoint\("cpu",[^]*cpu_flavor_ids=\["cpu5c"\][^]*vcpu_count=4/);
  expect(r.stdout).toMatch(/own = runpod\.Endpoint\("own",[^]*image_name="ghcr\.io\/acme\/own:2"/);
  expect(r.stdout).not.toMatch(/template_id/);
  expect(out).not.toContain(SECRET);
  expect(out).toMatch(/the generated code holds a placeholder for env\.MODE, env\.TOKEN \(secret values are not copied into code\)/);
  expect(r.stdout).toContain('"TOKEN": "<secret not copied by pulumi import: set env.TOKEN from a config secret>"');
  expect(r.stdout).toMatch(/fromtpl = runpod\.Endpoint\("fromtpl",[^]*image_name="ghcr\.io\/acme\/tpl:1"/);
  const exported = (await stack.run(["stack", "export"], { quiet: true })).stdout;
  expect(exported).not.toContain(SECRET);

  // Taken as the program unchanged, preview refuses the placeholder, naming the field.
  const code = r.stdout.slice(r.stdout.indexOf("import pulumi"));
  fs.writeFileSync(path.join(stack.programDir, "__main__.py"), code);
  const refused = await stack.run(["preview"], { expectFailure: true });
  expect(refused.stdout + refused.stderr).toMatch(/env\.\w+ holds the placeholder `pulumi import` wrote for a secret value it does not copy into code/);
  expect(refused.stdout + refused.stderr).not.toContain(SECRET);
  // No property named: the engine prints a named property's value (a map's other secrets with it).
  expect(refused.stdout + refused.stderr).not.toMatch(/property env value/);
  // With the values set in the program (the secret from config), nothing changes: the other endpoints' code is as generated.
  // (The template's env, copied into the endpoint, is a secret too: its value from the platform.)
  const platformEnv = { ...(await client.v2.getEndpoint(fromTemplate.id)).env, ...(await client.v2.getEndpoint(ep.id)).env } as Record<string, string>;
  const fixed = code.replace(/"<secret not copied by pulumi import: set env\.(\w+) from a config secret>"/g, (_, key: string) =>
    key === "TOKEN" ? 'pulumi.Config().require_secret("token")' : JSON.stringify(platformEnv[key]),
  );
  fs.writeFileSync(path.join(stack.programDir, "__main__.py"), fixed);
  await stack.run(["preview", "--expect-no-changes"]);
  // The stored inputs still hold the placeholders (the engine writes the code from them): a refresh's diff takes each for the deployed value.
  const refreshed = await stack.run(["preview", "--refresh", "--expect-no-changes"]);
  expect(refreshed.stdout).toMatch(/runpod:index:Endpoint +withenv +refresh/);
  expect(refreshed.stdout).not.toMatch(/\[diff: [^\]]*env/);
  expect((await stack.run(["stack", "export"], { quiet: true })).stdout).not.toContain(SECRET);
  await stack.run(["destroy", "--yes"]);
  expect((await client.v2.listEndpoints()).map((e) => e.id)).not.toEqual(expect.arrayContaining([cpu.id]));
});
