/**
 * The `pulumi-runpod` CLI on stacks of the provider plugin (`runpod:index:<Type>`), through the real
 * Pulumi CLI against the emulator: the Python program of tests/multilang/python and the YAML program of
 * tests/multilang/yaml. `cost` and its budget gate (endpoints and pods; the network volume listed); `workers`, `run` and `logs` by resource name in the
 * stack's directory with no RUNPOD_* variable (the stack's configuration, its secret key included, with
 * the environment before it); `orphans`, `import` and `recover`. The CLI runs as the compiled bin (`npm run build`).
 * Tests build on each other, in order.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import type { CostReport } from "../../src/cli/cost/report";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { pulumiRoot } from "../../scripts/pulumiCli";
import { runBin } from "../cli/harness";
import { endProcesses, runUntilKilled } from "../interrupted/harness";
import { linesWithSecrets, pythonSdkPath, requirePythonTooling, resourceName, usePlatform, writeProject } from "./harness";

jest.setTimeout(300_000);

const REGISTRY_PASSWORD = "regpw-cli-Zq81-never-printed";
const HF_TOKEN = "hf_tok-cli-7Yx2-never-printed";
const POD_TOKEN = "pod-tok-cli-K9m3-never-printed";

let emu: RunningEmulator;
let client: PlatformClient;
/** The YAML stack's own platform, so the Python stack's `orphans` cannot take its `api-…` endpoint for one of its own. */
let emuYaml: RunningEmulator;
let clientYaml: PlatformClient;
let work: string;
let python: LocalStack;
let yaml: LocalStack;
/** The endpoint `extra` the Python stack's first `up` created and then forgot: the orphans test's. */
let pyOrphan: { id: string; name: string };
/** Every CLI output, checked for secrets at the end. */
const transcript: string[] = [];

/** The bin in `stack`'s directory with the stack's Pulumi environment and no RUNPOD_* variable (LocalStack removes them). */
async function cli(stack: LocalStack, args: string[], env: Record<string, string> = {}) {
  const r = await runBin(args, { ...stack.env, ...env }, { cwd: stack.programDir });
  transcript.push(r.stdout, r.stderr);
  return r;
}

const usd = (n: number) => Math.round(n * 1e4) / 1e4;

/** The emulator's highest serverless price per worker hour among `pools`, from its own catalog answer. */
async function workerPrice(pools: string[]): Promise<number> {
  const res = await fetch(`${emu.urls.restV2}/v2/catalog/gpus`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  const gpus = ((await res.json()) as { gpus: { pool: string | null; price: { serverless?: number } }[] }).gpus;
  return Math.max(...gpus.filter((g) => g.pool && pools.includes(g.pool) && g.price.serverless !== undefined).map((g) => g.price.serverless!));
}

async function outputs(stack: LocalStack): Promise<Record<string, string>> {
  return (await stack.outputs()) as Record<string, string>;
}

beforeAll(async () => {
  requirePythonTooling();
  const yamlHost = path.join(pulumiRoot(), "bin", "pulumi-language-yaml");
  if (!fs.existsSync(yamlHost)) throw new Error(`${yamlHost} is missing: run \`npm run setup\` (scripts/build-pulumi-tools.sh)`);
  const platform = async () => {
    const e = await startEmulator({ port: 0, quiet: true, saveSemantics: "replace", workerStartMs: 50, logIntervalMs: 20, jobDurationMs: 50 });
    const c = createClientFromEnv(
      { apiKey: e.apiKey, graphqlUrl: e.urls.graphql, restV1Url: e.urls.restV1, restV2Url: e.urls.restV2, inferenceUrl: e.urls.inference },
      {},
    );
    return [e, c] as const;
  };
  [emu, client] = await platform();
  [emuYaml, clientYaml] = await platform();
  work = tempDir("pulumi-runpod-multilang-cli-");

  const pyDir = path.join(work, "python");
  fs.mkdirSync(pyDir, { recursive: true });
  fs.copyFileSync(path.join(__dirname, "python", "__main__.py"), path.join(pyDir, "__main__.py"));
  writeProject(pyDir, "runpod-python-cli", "python");
  python = await LocalStack.create({ programDir: pyDir, stackName: "py", stateDir: path.join(work, "state"), env: { PYTHONPATH: pythonSdkPath() } });
  await usePlatform(python, emu.urls, emu.apiKey, { registryPassword: REGISTRY_PASSWORD, hfToken: HF_TOKEN, podToken: POD_TOKEN });

  const yamlDir = path.join(work, "yaml");
  fs.mkdirSync(yamlDir, { recursive: true });
  writeProject(yamlDir, "runpod-yaml-cli", "yaml");
  fs.appendFileSync(path.join(yamlDir, "Pulumi.yaml"), fs.readFileSync(path.join(__dirname, "yaml", "program.yaml"), "utf8"));
  yaml = await LocalStack.create({ programDir: yamlDir, stackName: "yml", stateDir: path.join(work, "state") });
  await usePlatform(yaml, emuYaml.urls, emuYaml.apiKey);

  // The same up makes the orphans test's endpoint `extra`, forgotten before any test reads the stack.
  await python.setConfig("extra", "true");
  await python.run(["up", "--yes", "--skip-preview"], { quiet: true });
  pyOrphan = await forget(python, "extra");
  await python.removeConfig("extra");
  await yaml.run(["up", "--yes", "--skip-preview"], { quiet: true });
});

// No destroy at the end: the emulators, the stacks' only platforms, close with everything on them.
afterAll(async () => {
  await emu?.close();
  await emuYaml?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("cost", () => {
  test("a Python stack over budget fails the gate: the plugin's endpoints and pod are counted, its volume listed", async () => {
    const out = (await python.outputs()) as Record<string, any>;
    const id = out.endpointId;
    // The program's endpoints: `api` on ADA_24, AMPERE_24 with workersMax 3, `batch` on ADA_24 with workersMax 1;
    // its pod `dev` at the platform's hourly rate, busy or idle.
    const max = usd(3 * (await workerPrice(["ADA_24", "AMPERE_24"])));
    const batchMax = usd(await workerPrice(["ADA_24"]));
    const podRate = (await client.v2.getPod(out.pod.id)).cost;
    expect(podRate).toBeGreaterThan(0);
    const total = usd(max + batchMax + podRate);
    expect(max).toBeGreaterThan(1);

    const gate = await cli(python, ["cost", "--max-hourly", "1"]);
    expect(gate.code).toBe(1);
    expect(gate.stdout).toMatch(new RegExp(`^api +${id} +\\$${max.toFixed(2)} `, "m"));
    expect(gate.stdout).toMatch(new RegExp(`^batch +${out.batchId} +\\$${batchMax.toFixed(2)} `, "m"));
    expect(gate.stdout).toMatch(new RegExp(`^scratch +${out.scratch.id} +20 GB HIGH_PERFORMANCE +\\$2\\.80$`, "m"));
    expect(gate.stdout).toMatch(new RegExp(`^dev +${out.pod.id} +RUNNING +\\$${podRate.toFixed(2)}$`, "m"));
    expect(gate.stdout).toContain(`over budget: $${total.toFixed(2)}/h with all workers busy exceeds --max-hourly $1.00/h`);

    const within = await cli(python, ["cost", "--no-preview", "--max-hourly", String(total)]);
    expect(within.code).toBe(0);
    expect(within.stdout).toContain("estimates from the stack's state (as deployed)");
  });

  test("the JSON report counts a change the Python program would make before the deploy: its endpoints, pod, volume and totals, the gate on stderr", async () => {
    const out = (await python.outputs()) as Record<string, any>;
    const id = out.endpointId;
    // Deployed with workersMax 3; the preview counts `api` at 5.
    await python.setConfig("workersMax", "5");
    const max = usd(5 * (await workerPrice(["ADA_24", "AMPERE_24"])));
    const batchMax = usd(await workerPrice(["ADA_24"]));
    const podRate = (await client.v2.getPod(out.pod.id)).cost;
    const total = usd(max + batchMax + podRate);

    const json = await cli(python, ["cost", "--json", "--max-hourly", "1"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as CostReport;
    expect(report.source).toBe("preview");
    expect(report.endpoints).toMatchObject([
      { resource: "api", endpointId: id, maxHourlyCost: max, idleHourlyCost: 0, idleBilled: false },
      { resource: "batch", endpointId: out.batchId, maxHourlyCost: batchMax, idleHourlyCost: 0, idleBilled: false },
    ]);
    expect(report.volumes).toMatchObject([{ resource: "scratch", networkVolumeId: out.scratch.id, size: 20, type: "HIGH_PERFORMANCE" }]);
    expect(report.volumes![0].monthlyCost).toBeCloseTo(20 * 0.14, 6);
    expect(report.pods).toMatchObject([{ resource: "dev", podId: out.pod.id, desiredStatus: "RUNNING", costPerHour: podRate }]);
    expect(report.totals).toMatchObject({ maxHourlyCost: total, idleHourlyCost: podRate, podHourlyCost: podRate });
    expect(json.stderr).toContain(`over budget: $${total.toFixed(2)}/h exceeds --max-hourly $1.00/h`);

    expect(report.endpoints.map((e) => [e.resource, e.maxHourlyCost])).toEqual([
      ["api", usd(5 * (await workerPrice(["ADA_24", "AMPERE_24"])))],
      ["batch", usd(await workerPrice(["ADA_24"]))],
    ]);
    await python.removeConfig("workersMax");
  });

  test("a YAML stack's endpoint is counted too", async () => {
    const id = (await outputs(yaml)).endpointId;
    const max = usd(3 * (await workerPrice(["ADA_24", "AMPERE_24"])));
    const r = await cli(yaml, ["cost", "--json", "--max-hourly", "1"]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as CostReport;
    expect(report.endpoints).toMatchObject([{ resource: "api", endpointId: id, maxHourlyCost: max }]);
    expect((await cli(yaml, ["cost", "--max-hourly", "100"])).code).toBe(0);
  });
});

describe("workers, run and logs in the stack's directory, by resource name, with no RUNPOD_* variable", () => {
  test("run sends a job to the Python stack's endpoint `api`; workers and logs find it by that name", async () => {
    const id = (await outputs(python)).endpointId;
    const job = await cli(python, ["run", "api", "--sync", "--input", '{"prompt":"from the stack"}']);
    expect(job.stderr).toBe("");
    expect(job.code).toBe(0);
    expect(JSON.parse(job.stdout)).toBeDefined();
    expect(emu.endpoints().find((e) => e.id === id)).toBeDefined();

    const listed = await cli(python, ["workers", "api", "--json"]);
    expect(listed.code).toBe(0);
    const workers = JSON.parse(listed.stdout) as { id: string }[];
    expect(workers.map((w) => w.id).sort()).toEqual((await client.listWorkers(id)).map((w) => w.id).sort());

    const logs = await cli(python, ["logs", "api", "--tail", "5", "--json"]);
    expect(logs.code).toBe(0);
  });

  test("an endpoint id still works, and a name the stack does not hold is taken as an id", async () => {
    const id = (await outputs(python)).endpointId;
    expect((await cli(python, ["workers", id, "--json"])).code).toBe(0);
    const unknown = await cli(python, ["workers", "not-in-the-stack"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("not-in-the-stack");
  });

  test("the YAML stack's endpoint by name: workers from another directory with --cwd and --stack, run and logs in its own", async () => {
    const id = (await outputs(yaml)).endpointId;
    const r = await runBin(["workers", "api", "--json", "--cwd", yaml.programDir, "--stack", yaml.name], yaml.env, { cwd: work });
    transcript.push(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    const workers = JSON.parse(r.stdout) as { id: string }[];
    expect(workers.map((w) => w.id).sort()).toEqual((await clientYaml.listWorkers(id)).map((w) => w.id).sort());
    const job = await cli(yaml, ["run", "api", "--sync", "--input", '{"prompt":"from yaml"}']);
    expect({ code: job.code, stderr: job.stderr }).toEqual({ code: 0, stderr: "" });
    expect((await cli(yaml, ["logs", "api", "--tail", "5"])).code).toBe(0);
  });

  test("the environment comes before the stack's configuration; no key reaches the output", async () => {
    const rejected = await cli(python, ["workers", "api"], { RUNPOD_API_KEY: "rpa_from-the-environment-not-the-stack" });
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toMatch(/401|rejected|invalid/i);
    expect(linesWithSecrets(rejected.stderr, ["rpa_from-the-environment-not-the-stack"])).toEqual([]);
    // A stack that cannot be read (a wrong passphrase) leaves the environment alone, and the error says why.
    const unreadable = await cli(python, ["workers", "api"], { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(
      /^pulumi-runpod: No API key configured: set the environment variable RUNPOD_API_KEY, or make the stack readable \(`pulumi config --json --show-secrets`: .*passphrase/,
    );
    // Outside a project, and with no stack named, only the environment counts.
    const outside = await runBin(["workers", "api"], python.env, { cwd: work });
    expect(outside).toMatchObject({ code: 2, stderr: "pulumi-runpod: No API key configured: set the environment variable RUNPOD_API_KEY\n" });
  });
});

/** The endpoint of `stack`'s `name`, which `pulumi state delete` then makes the stack forget: its orphan, proved by its checkpoint history. */
async function forget(stack: LocalStack, name: string): Promise<{ id: string; name: string }> {
  const held = (await stack.resources()).find((r) => r.type === "runpod:index:Endpoint" && resourceName(r.urn) === name)!;
  await stack.run(["state", "delete", held.urn, "--yes"], { quiet: true });
  return { id: held.id!, name: String(held.outputs?.name) };
}

describe("stack commands", () => {
  test("orphans lists the endpoint the Python stack created and then forgot, and deletes it", async () => {
    const orphan = pyOrphan;
    const listed = await cli(python, ["orphans"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n").filter((l) => l.startsWith("endpoint"))).toEqual([
      expect.stringMatching(new RegExp(`^endpoint +${orphan.id} +${orphan.name} +recorded resource extra`)),
    ]);
    const deleted = await cli(python, ["orphans", "--delete", "--yes"]);
    expect(deleted.stdout).toContain(`deleted endpoint ${orphan.id} (${orphan.name})`);
    expect(emu.endpoints().some((e) => e.id === orphan.id)).toBe(false);
    expect((await cli(python, ["orphans"])).stdout).toContain("no orphans");
  });

  test("orphans of the YAML stack: its `api` endpoint after `pulumi state delete` and a new `api`", async () => {
    const orphan = await forget(yaml, "api");
    await yaml.run(["up", "--yes", "--skip-preview"], { quiet: true });
    const live = (await outputs(yaml)).endpointId;
    expect(live).not.toBe(orphan.id);
    const listed = await cli(yaml, ["orphans"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n").filter((l) => l.startsWith("endpoint"))).toEqual([
      expect.stringMatching(new RegExp(`^endpoint +${orphan.id} +${orphan.name} +recorded resource api`)),
    ]);
    await cli(yaml, ["orphans", "--delete", "--yes"]);
    const left = emuYaml.endpoints().map((e) => e.id);
    expect(left).toContain(live);
    expect(left).not.toContain(orphan.id);
  });

  test("import adopts an endpoint made outside Pulumi as the Python program's `adopted`", async () => {
    const outside = await client.saveEndpoint({ name: "made-outside-cli", templateId: "tpl_vllm", gpuIds: "AMPERE_80", workersMax: 2 });
    await python.setConfig("adopted", JSON.stringify({ name: "made-outside-cli", templateId: "tpl_vllm", gpuIds: ["AMPERE_80"], workersMax: 2 }));
    const r = await cli(python, ["import", "adopted", outside.id]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`imported endpoint ${outside.id} as urn:pulumi:py::runpod-python-cli::runpod:index:Endpoint::adopted`);
    const adopted = (await python.resources("runpod:index:Endpoint")).find((s) => resourceName(s.urn) === "adopted");
    expect(adopted?.id).toBe(outside.id);
    await python.run(["preview", "--expect-no-changes"], { quiet: true });
    const again = await cli(python, ["import", "adopted", outside.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("the stack already manages");
  });

  test("recover settles the Python stack's interrupted create of a plugin endpoint: the endpoint that landed is adopted", async () => {
    // The program still declares the import test's `adopted` as imported (its preview showed no change), so the
    // only write of the interrupted run is the create below.
    await python.setConfig("extra", "true");
    emu.resetStats();
    // The create waits at the platform; the run is killed once it is sent, and the create still lands.
    emu.setFaults({ latencyMs: 2000, match: ["saveEndpoint"] });
    const killed = await runUntilKilled(python, ["up", "--yes", "--skip-preview"], () => (emu.stats().byOperation.saveEndpoint ?? 0) >= 1);
    await endProcesses(killed.leftovers);
    emu.setFaults({});
    expect((await python.resources("runpod:index:Endpoint")).some((r) => resourceName(r.urn) === "extra")).toBe(false);

    const done = await cli(python, ["recover", "--yes", "--settle", "5"]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/creating +extra +extra-[0-9a-f]{7} +adopt /);
    expect(done.stdout).toContain("recovered: adopted 1, dropped 0, read back 0; pending operations left 0");
    const landed = emu.endpoints().filter((e) => /^extra-[0-9a-f]{7}$/.test(e.name));
    expect(landed).toHaveLength(1);
    const adopted = (await python.resources("runpod:index:Endpoint")).find((r) => resourceName(r.urn) === "extra");
    expect(adopted).toMatchObject({ id: landed[0].id, outputs: { name: landed[0].name, workersMax: 1 } });
    await python.run(["preview", "--expect-no-changes"], { quiet: true });
  });

  test("import adopts an endpoint made outside Pulumi as the YAML program's `adopted`", async () => {
    const outside = await clientYaml.saveEndpoint({ name: "made-outside-yaml", templateId: "tpl_vllm", gpuIds: "AMPERE_80", workersMax: 2 });
    const project = path.join(yaml.programDir, "Pulumi.yaml");
    const declared =
      "  adopted:\n    type: runpod:index:Endpoint\n    properties:\n      name: made-outside-yaml\n      templateId: tpl_vllm\n      gpuIds: [AMPERE_80]\n      workersMax: 2\n";
    fs.writeFileSync(project, fs.readFileSync(project, "utf8").replace(/^resources:\n/m, `resources:\n${declared}`));
    const r = await cli(yaml, ["import", "adopted", outside.id]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`imported endpoint ${outside.id} as urn:pulumi:yml::runpod-yaml-cli::runpod:index:Endpoint::adopted`);
    const adopted = (await yaml.resources("runpod:index:Endpoint")).find((s) => resourceName(s.urn) === "adopted");
    expect(adopted?.id).toBe(outside.id);
    await yaml.run(["preview", "--expect-no-changes"], { quiet: true });
    const again = await cli(yaml, ["import", "adopted", outside.id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("the stack already manages");
  });

  test("recover settles the YAML stack's interrupted create of a plugin endpoint: the endpoint that landed is adopted", async () => {
    const project = path.join(yaml.programDir, "Pulumi.yaml");
    const extra = "  extra:\n    type: runpod:index:Endpoint\n    properties:\n      templateId: tpl_vllm\n      gpuIds: [AMPERE_16]\n      workersMax: 1\n";
    fs.writeFileSync(project, fs.readFileSync(project, "utf8").replace(/^resources:\n/m, `resources:\n${extra}`));
    emuYaml.resetStats();
    // The create waits at the platform; the run is killed once it is sent, and the create still lands.
    emuYaml.setFaults({ latencyMs: 2000, match: ["saveEndpoint"] });
    const killed = await runUntilKilled(yaml, ["up", "--yes", "--skip-preview"], () => (emuYaml.stats().byOperation.saveEndpoint ?? 0) >= 1);
    await endProcesses(killed.leftovers);
    emuYaml.setFaults({});
    expect((await yaml.resources("runpod:index:Endpoint")).some((r) => resourceName(r.urn) === "extra")).toBe(false);

    const done = await cli(yaml, ["recover", "--yes", "--settle", "5"]);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/creating +extra +extra-[0-9a-f]{7} +adopt /);
    expect(done.stdout).toContain("recovered: adopted 1, dropped 0, read back 0; pending operations left 0");
    const landed = emuYaml.endpoints().filter((e) => /^extra-[0-9a-f]{7}$/.test(e.name));
    expect(landed).toHaveLength(1);
    const adopted = (await yaml.resources("runpod:index:Endpoint")).find((r) => resourceName(r.urn) === "extra");
    // Read back through the plugin: the outputs are the platform's.
    expect(adopted).toMatchObject({ id: landed[0].id, outputs: { name: landed[0].name, workersMax: 1 } });
    await yaml.run(["preview", "--expect-no-changes"], { quiet: true });
  });
});

test("no secret of the stacks reached the CLI's output", () => {
  expect(linesWithSecrets(transcript.join("\n"), [emu.apiKey, REGISTRY_PASSWORD, HF_TOKEN, POD_TOKEN])).toEqual([]);
});
