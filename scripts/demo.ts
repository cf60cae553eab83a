#!/usr/bin/env node
/**
 * `npm run demo` (dist/scripts/demo.js): the provider under the real Pulumi engine, end to end,
 * against the local emulator. Deploys the repository's root Pulumi project (Pulumi.yaml, whose program
 * is examples/basic) to a throwaway stack (file backend in a temp dir, passphrase secrets, no cloud
 * login, no plugin download), then walks it through its life:
 * preview → up → outputs → a change made behind Pulumi's back → refresh catches it → up converges →
 * rollout → the stack's cost estimate and spend (`pulumi-runpod cost`) → destroy (scale to zero, then delete) → stack removed, emulator stopped.
 *
 * Every step checks its effect on the emulator and the demo exits non-zero on the first failure.
 * The API key is handed to Pulumi only as the secret `runpod:apiKey` (through stdin); any line of
 * output that would contain it is masked and fails the demo.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createClientFromEnv } from "../src/api";
import type { EndpointRecord } from "../src/api";
import { LocalStack, basicExampleDir, linkRepoPackage, randomSuffix, tempDir } from "./exampleStack";
import { repoRoot } from "./pulumiCli";

/** How much the demo raises `workersMax` of the inference endpoint behind Pulumi's back. */
const DRIFT = 3;

class DemoFailure extends Error {}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new DemoFailure(message);
}

/** Writes lines to stdout, masking (and remembering) any that would reveal `secret`. */
class Printer {
  leaked = false;
  private partial = "";

  /** @param secrets the values that must never be printed: the API key, the registry password, the env secret. */
  constructor(private readonly secrets: () => (string | undefined)[]) {}

  line(text = ""): void {
    for (const secret of this.secrets()) {
      if (secret && text.includes(secret)) {
        this.leaked = true;
        text = text.split(secret).join("[SECRET MASKED]");
      }
    }
    process.stdout.write(`${text}\n`);
  }

  /** Streams CLI output indented under the current step, one whole line at a time. */
  cli = (chunk: string): void => {
    const lines = (this.partial + chunk).split("\n");
    this.partial = lines.pop() ?? "";
    for (const l of lines) this.line(`    │ ${l.replace(/\r/g, "")}`);
  };

  flush(): void {
    if (this.partial) this.line(`    │ ${this.partial}`);
    this.partial = "";
  }
}

async function main(): Promise<void> {
  let emu: RunningEmulator | undefined;
  let stack: LocalStack | undefined;
  let stateDir: string | undefined;
  // The program's own secrets: drawn per run, so a leak cannot hide behind a value seen before.
  const registryPassword = `registry-${randomSuffix()}${randomSuffix()}`;
  const hfToken = `hf-${randomSuffix()}${randomSuffix()}`;
  const out = new Printer(() => [emu?.apiKey, registryPassword, hfToken]);
  const started = Date.now();
  let stepNo = 0;
  const TOTAL = 12;
  const step = (title: string) => {
    out.flush();
    out.line();
    out.line(`==> [${++stepNo}/${TOTAL}] ${title}   (+${((Date.now() - started) / 1000).toFixed(1)}s)`);
  };
  const note = (text: string) => {
    out.flush();
    out.line(`    ✓ ${text}`);
  };

  process.once("SIGINT", () => {
    out.line("\ninterrupted: stopping the emulator; the throwaway stack's state stays in " + (stateDir ?? "(not created yet)"));
    if (stack && fs.existsSync(stack.configFile)) fs.rmSync(stack.configFile);
    void emu?.close().finally(() => process.exit(130));
  });

  try {
    step("Start the platform emulator (in this process, random port)");
    emu = await startEmulator({ port: 0, quiet: true });
    out.line(`    GraphQL ${emu.urls.graphql}   REST v1 ${emu.urls.restV1}   REST v2 ${emu.urls.restV2}`);
    out.line(`    Jobs    ${emu.urls.inference}`);
    const client = createClientFromEnv(
      { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
      {},
    );
    const onPlatform = (id: string): EndpointRecord | undefined => emu!.endpoints().find((e) => e.id === id);

    step("Create a throwaway stack of the root project, program examples/basic (local file backend, passphrase secrets)");
    linkRepoPackage(basicExampleDir());
    const programDir = repoRoot();
    stateDir = tempDir("pulumi-runpod-demo-");
    const stackName = `demo-${randomSuffix()}`;
    stack = await LocalStack.create({ programDir, stackName, stateDir, onOutput: out.cli });
    await stack.usePlatform(emu.urls, emu.apiKey);
    await stack.setConfig("registryPassword", registryPassword, { secret: true });
    await stack.setConfig("hfToken", hfToken, { secret: true });
    out.line(`    stack ${stackName}, state in ${stateDir}`);
    out.line("    runpod:apiKey, registryPassword and hfToken are set with --secret (through stdin); the runpod:* addresses point at the emulator:");
    await stack.run(["config"]);

    step("pulumi preview — plan only: nothing may be created");
    await stack.run(["preview"]);
    check(
      emu.endpoints().length === 0,
      `preview created endpoints: ${emu
        .endpoints()
        .map((e) => e.id)
        .join(", ")}`,
    );
    note("the emulator still has no endpoints");

    step("pulumi up --yes --skip-preview — registry credentials, the worker template, both endpoints (the plan is the one above)");
    await stack.run(["up", "--yes", "--skip-preview"]);
    const outputs = await stack.outputs();
    const inferenceId = String(outputs.inferenceId);
    const imagesId = String(outputs.imagesId);
    const inference = onPlatform(inferenceId);
    const images = onPlatform(imagesId);
    check(inference !== undefined && images !== undefined, `the stack's endpoints ${inferenceId}, ${imagesId} are not on the emulator`);
    check(emu.endpoints().length === 2, `expected 2 endpoints on the emulator, found ${emu.endpoints().length}`);
    check(inference.networkVolumeId === outputs.modelsVolumeId, "the inference endpoint does not mount the looked-up volume");
    note(
      `created ${inferenceId} (${inference.gpuIds}, data centers ${String(outputs.inferenceDataCenterIds)}, volume ${inference.networkVolumeId}) and ${imagesId} (${images.gpuIds})`,
    );

    step("pulumi stack output — the stack's outputs");
    await stack.run(["stack", "output"]);
    check(outputs.inferenceJobUrl === `${emu.urls.inference}/v2/${inferenceId}/`, `unexpected job URL ${String(outputs.inferenceJobUrl)}`);

    step(`Change the inference endpoint behind Pulumi's back (API call: workersMax +${DRIFT})`);
    const declaredMax = inference.workersMax;
    const driftedMax = declaredMax + DRIFT;
    // REST v2 PATCH (the default path's interface) changes only the fields it carries.
    await client.v2.updateEndpoint(inferenceId, { workers: { max: driftedMax } });
    check(onPlatform(inferenceId)?.workersMax === driftedMax, "the out-of-band change did not take effect");
    note(`workersMax on the platform: ${declaredMax} -> ${driftedMax}; the program still says ${declaredMax}`);

    step("pulumi refresh --yes — read the platform: the drift must show up");
    await stack.run(["refresh", "--yes"]);
    const refreshed = await stack.endpoint("inference");
    check(refreshed?.outputs?.workersMax === driftedMax, `refresh did not record the drift (state says workersMax ${String(refreshed?.outputs?.workersMax)})`);
    note(`the state now records workersMax ${driftedMax}; what the next up will change:`);
    const plan = await stack.run(["preview", "--diff"]);
    check(
      /workersMax\s*:\s*\d+ => \d+/.test(plan.stdout) && /~ 1 to update/.test(plan.stdout),
      "the preview after refresh does not plan to restore workersMax",
    );

    step("pulumi up --yes --skip-preview — converge back to the program (the plan is the one above)");
    await stack.run(["up", "--yes", "--skip-preview"]);
    check(onPlatform(inferenceId)?.workersMax === declaredMax, `up did not restore workersMax (platform says ${onPlatform(inferenceId)?.workersMax})`);
    await stack.run(["preview", "--expect-no-changes"], { quiet: true });
    note(`workersMax is ${declaredMax} again and a new preview has nothing to change`);

    step("Roll out image 1.4.4: pulumi config set workerImageTag 1.4.4, pulumi up --yes");
    const templateId = String(outputs.templateId);
    await stack.setConfig("workerImageTag", "1.4.4");
    await stack.run(["up", "--yes"]);
    const rolled = await stack.outputs();
    const newImage = "ghcr.io/acme/llm-worker:1.4.4";
    check(rolled.templateId === templateId, `the template was replaced (${templateId} -> ${String(rolled.templateId)}); it must be modified in place`);
    check(rolled.inferenceId === inferenceId, `the endpoint was replaced (${inferenceId} -> ${String(rolled.inferenceId)})`);
    check(emu.templates().find((t) => t.id === templateId)?.imageName === newImage, "the template on the platform does not have the new image");
    // The platform rolls the endpoint's workers: new ones start on the new image, old ones drain.
    let workerImages: string[] = [];
    for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
      // REST v2 `Worker.image` (docs/spec/rest-v2-openapi.json).
      workerImages = (await client.listWorkers(inferenceId)).map((w) => String((w as { image?: unknown }).image));
      if (workerImages.length > 0 && workerImages.every((i) => i === newImage)) break;
    }
    check(
      workerImages.length > 0 && workerImages.every((i) => i === newImage),
      `the endpoint's workers are not all on ${newImage}: ${workerImages.join(", ") || "no workers"}`,
    );
    note(`template ${templateId} modified in place, endpoint ${inferenceId} kept; its ${workerImages.length} worker(s) run ${newImage}`);

    step("pulumi-runpod cost --since 1d — the stack's cost estimate (USD/hour at catalog prices) and what the emulator billed so far");
    const costCli = (args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [path.join(__dirname, "..", "src", "cli", "main.js"), "cost", ...args, "--stack", stackName],
          { cwd: programDir, env: stack!.env },
          (err, stdout, stderr) => (err ? reject(new DemoFailure(`pulumi-runpod cost failed: ${stderr || err.message}`)) : resolve(stdout)),
        ),
      );
    out.cli(await costCli(["--since", "1d", "--bucket", "hour"]));
    const report = JSON.parse(await costCli(["--since", "1d", "--bucket", "hour", "--json"])) as {
      endpoints: { resource: string; maxHourlyCost: number | null; idleBilled: boolean; spend?: { totalAmount: number } }[];
      totals: { maxHourlyCost: number; idleHourlyCost: number; spend?: number };
    };
    const estimated = report.endpoints
      .filter((e) => typeof e.maxHourlyCost === "number" && e.maxHourlyCost > 0)
      .map((e) => e.resource)
      .sort();
    check(estimated.join(",") === "images,inference", `expected estimates for images and inference, got ${estimated.join(", ") || "none"}`);
    check(
      report.endpoints.find((e) => e.resource === "inference")?.idleBilled === true,
      "the inference endpoint (workersMin 1) is not flagged as billed while idle",
    );
    check((report.totals.spend ?? 0) > 0, "the emulator billed nothing for the stack's running workers");
    note(
      `up to $${report.totals.maxHourlyCost.toFixed(2)}/h with every worker busy, $${report.totals.idleHourlyCost.toFixed(2)}/h idle; billed so far $${(report.totals.spend ?? 0).toFixed(4)}`,
    );

    step(
      "pulumi destroy --yes — look at each endpoint's workers and delete it (no job running: no scale-down first), then the template and the registry credentials",
    );
    emu.resetStats();
    await stack.run(["destroy", "--yes"]);
    const left = emu.endpoints();
    check(left.length === 0, `endpoints left on the emulator: ${left.map((e) => e.id).join(", ")}`);
    check(!emu.templates().some((t) => t.id === templateId), `template ${templateId} left on the emulator`);
    check(!emu.registryAuths().some((r) => r.id === String(outputs.registryAuthId)), "registry credentials left on the emulator");
    const ops = emu.stats().byOperation;
    // REST v2 (the default path): each delete looks at the endpoint's workers, and with no job running deletes
    // at once — v2's DELETE stops the workers itself, so a scale-down would be a request the rate limit pays for.
    check(
      (ops.listWorkers ?? 0) >= 2 && ops.deleteEndpoint === 2 && (ops.updateEndpoint ?? 0) === 0,
      `expected 2 worker looks, 2 deletes and no scale-down, saw ${ops.listWorkers ?? 0}, ${ops.deleteEndpoint ?? 0} and ${ops.updateEndpoint ?? 0}`,
    );
    note(`${ops.updateEndpoint} scale-to-zero calls and ${ops.deleteEndpoint} deletes in ${emu.stats().requests} requests: the emulator has no endpoints left`);

    step("Remove the throwaway stack and stop the emulator");
    await stack.remove();
    stack = undefined;
    fs.rmSync(stateDir, { recursive: true, force: true });
    await emu.close();
    check(!out.leaked, "a secret (API key, registry password or env value) appeared in the output above (masked)");
    out.line();
    out.line(`Demo finished: every step checked against the emulator (${((Date.now() - started) / 1000).toFixed(1)}s).`);
  } catch (e) {
    out.flush();
    out.line();
    out.line(`DEMO FAILED at step ${stepNo}: ${e instanceof Error ? e.message : String(e)}`);
    if (stack) {
      out.line(`    the stack's state stays in ${stateDir} for inspection`);
      if (fs.existsSync(stack.configFile)) fs.rmSync(stack.configFile);
    }
    await emu?.close();
    process.exitCode = 1;
  }
}

if (require.main === module) void main();
