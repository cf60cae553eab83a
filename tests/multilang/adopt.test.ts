/**
 * `pulumi-runpod adopt` on a YAML and a Python project (the provider plugin's path: `pulumi import --file`),
 * through the real Pulumi CLI, the hosts of scripts/build-pulumi-tools.sh and the compiled bin against the
 * emulator: an account made through REST v2 alone is adopted; once the program loads what adopt wrote (YAML:
 * the sections merged into Pulumi.yaml; Python: `import adopted`), `pulumi preview --refresh
 * --expect-no-changes` passes, no platform object was created, replaced or deleted, and one-value edits
 * (two endpoints, one up) update in place.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { pulumiRoot, repoRoot } from "../../scripts/pulumiCli";
import { runBin } from "../cli/harness";
import { EXTENSION } from "../../src/cli/adopt/project";
import { pythonSdkPath, requirePythonTooling, writeProject } from "./harness";

jest.setTimeout(600_000);

const ENV_SECRET = "hf_adopt-yaml-secret-4321";
const GO_MODULE = "github.com/pulumi-runpod/pulumi-runpod/sdk/go/runpod";
const CPU_SECRET = "cpu-adopt-ml-secret-5566";
const NAMES = /^(ghcr-bot|model-cache|llm-worker|llm-api|batch-cpu|notebook)$/;

describe.each(["yaml", "python", "go"] as const)("a %s project", (language) => {
  let emu: RunningEmulator;
  let client: PlatformClient;
  let work: string;
  let programDir: string;
  let stack: LocalStack;

  async function accountIds(): Promise<string[]> {
    const all = [
      ...(await client.v2.listEndpoints()),
      ...(await client.v2.listTemplates()),
      ...(await client.v2.listRegistries()),
      ...(await client.v2.listNetworkVolumes()),
      ...(await client.v2.listPods()),
    ];
    return all.map((x) => x.id).sort();
  }

  beforeAll(async () => {
    if (language === "python") requirePythonTooling();
    const host = path.join(pulumiRoot(), "bin", `pulumi-language-${language}`);
    if (!fs.existsSync(host)) throw new Error(`${host} is missing: run \`npm run tools\` (scripts/build-pulumi-tools.sh, which npm test runs)`);
    emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
    client = createClientFromEnv({ apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2 }, {});
    work = tempDir(`pulumi-runpod-adopt-${language}-`);
    programDir = path.join(work, "program");
    fs.mkdirSync(programDir, { recursive: true });
    writeProject(programDir, `adopted-${language}`, language);
    if (language === "python") fs.writeFileSync(path.join(programDir, "__main__.py"), "import adopted  # noqa: F401\n");
    if (language === "go") {
      for (const f of ["go.mod", "go.sum"]) fs.copyFileSync(path.join(__dirname, "go", f), path.join(programDir, f));
      fs.writeFileSync(
        path.join(programDir, "main.go"),
        'package main\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\nfunc main() { pulumi.Run(adopted) }\n',
      );
      // The copy's replace points at this checkout's SDK by absolute path.
      execFileSync("go", ["mod", "edit", `-replace=${GO_MODULE}=${path.join(repoRoot(), "sdk", "go", "runpod")}`], {
        cwd: programDir,
        env: { ...process.env, GOTOOLCHAIN: "local" },
      });
    }
    // Go: in the Go build cache `npm run tools` compiled the Pulumi Go SDK and sdk/go/runpod into, so a run only links.
    const goCache = () =>
      execFileSync("bash", [path.join(repoRoot(), "scripts", "build-pulumi-tools.sh"), "go-cache"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }).trim();
    const env: Record<string, string> | undefined =
      language === "python"
        ? { PYTHONPATH: pythonSdkPath() }
        : language === "go"
          ? { GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod", GOCACHE: goCache() }
          : undefined;
    // Previews are checked with `pulumi preview`: `up` and `destroy` skip theirs (a program run each; a Go build).
    stack = await LocalStack.create({ programDir, stackName: `adopt${language}`, stateDir: path.join(work, "state"), env, skipPreview: true });
    await stack.usePlatform(emu.urls, emu.apiKey); // the default path (REST v2)

    const registry = await client.v2.createRegistry({ name: "ghcr-bot", username: "bot", password: "registry-pass-9876" });
    const volume = await client.v2.createNetworkVolume({ name: "model-cache", size: 50, dataCenter: "EU-RO-1" });
    const template = await client.v2.createTemplate({
      name: "llm-worker",
      image: "ghcr.io/acme/llm:1.2",
      serverless: true,
      disk: 20,
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
    });
    // A CPU endpoint with its own container (no template), one env value a secret.
    await client.v2.createEndpoint({
      name: "batch-cpu",
      type: "QUEUE",
      image: "ghcr.io/acme/batch:3",
      env: { API_TOKEN: CPU_SECRET },
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

  test("adopt writes the program and imports through the plugin; loaded, preview --refresh --expect-no-changes passes; one-value edits of the GPU endpoint's workers and the CPU endpoint's image update each in place, in one up", async () => {
    const before = await accountIds();
    const r = await runBin(["adopt", "--yes", "--name", NAMES.source, "--stack", stack.name], stack.env, { cwd: programDir });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    const written = fs.readFileSync(path.join(programDir, `adopted.${EXTENSION[language]}`), "utf8");
    if (language === "yaml") {
      expect(written).toContain("templateId: ${llmWorker.id}");
      expect(written).toContain("networkVolumeId: ${modelCache.id}");
    } else if (language === "python") {
      expect(written).toContain("template_id=llm_worker.id,");
      expect(written).toContain("network_volume_id=model_cache.id,");
    } else {
      expect(written).toMatch(/TemplateId: +llmWorker\.ID\(\),/);
      expect(written).toMatch(/NetworkVolumeId: +modelCache\.ID\(\),/);
    }
    // The CPU endpoint: its own image and flavors; its env read from config.
    expect(written).toContain("ghcr.io/acme/batch:3");
    expect(written).toContain("cpu5c");
    // The deployment `pulumi stack export` prints, read from the checkpoint (no CLI run).
    const state = JSON.stringify(await stack.deployment());
    for (const secret of [ENV_SECRET, CPU_SECRET]) {
      expect(written).not.toContain(secret);
      expect(state).not.toContain(secret);
      expect(fs.readFileSync(stack.configFile, "utf8")).not.toContain(secret);
    }

    if (language === "yaml") fs.appendFileSync(path.join(programDir, "Pulumi.yaml"), written);
    await stack.run(["preview", "--refresh", "--expect-no-changes"]);
    expect(await accountIds()).toEqual(before);

    const file = path.join(programDir, language === "yaml" ? "Pulumi.yaml" : `adopted.${EXTENSION[language]}`);
    const edit = {
      yaml: [/workersMax: 2\n/, "workersMax: 3\n"],
      python: [/workers_max=2,/, "workers_max=3,"],
      go: [/WorkersMax:( +)pulumi\.Int\(2\),/, "WorkersMax:$1pulumi.Int(3),"],
    } as const;
    const edited = fs.readFileSync(file, "utf8").replace(edit[language][0], edit[language][1]);
    expect(edited).not.toBe(fs.readFileSync(file, "utf8"));
    // And a one-value edit of the CPU endpoint's container, applied by the same up: each updates in place, its secret env stays.
    const cpuEdited = edited.replace("ghcr.io/acme/batch:3", "ghcr.io/acme/batch:4");
    expect(cpuEdited).not.toBe(edited);
    fs.writeFileSync(file, cpuEdited);
    const up = await stack.run(["up", "--yes"]);
    expect(up.stdout).toMatch(/2 updated/);
    expect(up.stdout).toMatch(/runpod:index:Endpoint +\S+ +updated .*\[diff: ~workersMax\]/);
    expect(up.stdout).toMatch(/runpod:index:Endpoint +\S+ +updated .*\[diff: ~imageName\]/);
    expect(up.stdout).not.toMatch(/created|replaced|deleted/);
    expect(await accountIds()).toEqual(before);
    expect((await client.v2.listEndpoints()).find((e) => e.name === "llm-api")?.workers.max).toBe(3);
    const cpu = (await client.v2.listEndpoints()).find((e) => e.name === "batch-cpu");
    expect({ image: cpu?.image, env: cpu?.env }).toEqual({ image: "ghcr.io/acme/batch:4", env: { API_TOKEN: CPU_SECRET } });
  });
});
