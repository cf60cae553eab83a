/**
 * What the multi-language tests share: the provider plugin as the engine starts it (`bin/`, by
 * `plugins.providers` in Pulumi.yaml), the test tooling of scripts/build-pulumi-tools.sh (the minimal
 * Python host, the virtualenv, the code generator), and the generated Python SDK installed once per
 * SDK content into `.pulumi/pysdk-<hash>` (on PYTHONPATH; a pip install from sdk/python, as a user does).
 */
import { execFileSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import type { LocalStack, PlatformAddresses } from "../../scripts/exampleStack";
import { pulumiRoot, repoRoot } from "../../scripts/pulumiCli";

/** Folder holding the `pulumi-resource-runpod` executable. */
export const PLUGIN_DIR = path.join(repoRoot(), "bin");

export const VENV = path.join(pulumiRoot(), "venv");

/** @throws Error naming `npm run tools` when the tooling is missing. */
export function requirePythonTooling(): void {
  for (const f of [
    path.join(pulumiRoot(), "bin", "pulumi-language-python"),
    path.join(pulumiRoot(), "bin", "pulumi-language-python-exec"),
    path.join(VENV, "bin", "python"),
  ]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run \`npm run tools\` (scripts/build-pulumi-tools.sh, which npm test runs)`);
  }
  if (!fs.existsSync(path.join(repoRoot(), "dist", "src", "plugin", "main.js"))) throw new Error("the plugin is not built: run `npm run build`");
}

function treeHash(dir: string): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else h.update(path.relative(dir, p)).update(fs.readFileSync(p));
    }
  };
  walk(dir);
  return h.digest("hex").slice(0, 16);
}

/** The generated SDK, pip-installed (no dependencies: the virtualenv has them) into a folder for PYTHONPATH. */
export function pythonSdkPath(): string {
  const sdk = path.join(repoRoot(), "sdk", "python");
  const target = path.join(pulumiRoot(), `pysdk-${treeHash(sdk)}`);
  if (!fs.existsSync(path.join(target, ".complete"))) {
    fs.rmSync(target, { recursive: true, force: true });
    const work = fs.mkdtempSync(path.join(pulumiRoot(), "pysdk-build-"));
    // Built from a copy: setuptools writes build/ and *.egg-info next to the sources.
    fs.cpSync(sdk, work, { recursive: true });
    execFileSync(
      path.join(VENV, "bin", "python"),
      ["-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "--target", target, work],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    fs.rmSync(work, { recursive: true, force: true });
    fs.writeFileSync(path.join(target, ".complete"), "");
  }
  return target;
}

/**
 * Writes `Pulumi.yaml` for a program of `runtime`, with the plugin from this repository; a Go program given as an
 * already built `binary` runs that instead of being compiled.
 */
export function writeProject(dir: string, name: string, runtime: "python" | "yaml" | "go", options: { binary?: string } = {}): void {
  const runtimeOption = runtime === "python" ? `virtualenv: ${VENV}` : options.binary ? `binary: ${options.binary}` : undefined;
  const runtimeText = runtimeOption ? `runtime:\n  name: ${runtime}\n  options:\n    ${runtimeOption}\n` : `runtime: ${runtime}\n`;
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\n${runtimeText}plugins:\n  providers:\n    - name: runpod\n      path: ${PLUGIN_DIR}\n`);
}

/** Lines of `text` holding any of `secrets`. */
export function linesWithSecrets(text: string, secrets: readonly string[]): string[] {
  return text.split("\n").filter((l) => secrets.some((s) => l.includes(s)));
}

/**
 * The engine's own `-v=9` lines that print property values it marshals for an RPC: at that level the
 * engine (3.259) prints secrets' plaintext itself (tests/reliability/suites/cli.ts documents the same
 * for the dynamic provider). Every other line must be free of secrets.
 */
export function isEngineMarshalLine(line: string): boolean {
  return /"msg":"(Unm|M)arshaling property for RPC\[/.test(line);
}

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  op: string;
  urn: string;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }>;
}

/** The steps of `pulumi preview --json` output that change something. */
export function changingSteps(previewJson: string): PreviewStep[] {
  const parsed = JSON.parse(previewJson) as { steps?: PreviewStep[] };
  return (parsed.steps ?? []).filter((s) => s.op !== "same");
}

export const resourceName = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * Points `stack` at the emulator: the four addresses and `runpod:api` written to the stack's config file
 * (LocalStack.setConfigs), the API key and `secrets` one by one through the CLI's stdin, so no secret is on a command line.
 */
export async function usePlatform(stack: LocalStack, urls: PlatformAddresses, apiKey: string, secrets: Record<string, string> = {}): Promise<void> {
  // The Python and YAML programs declare `locations` (GraphQL-only), so their stacks run on `runpod:api graphql`.
  const plain = {
    "runpod:graphqlUrl": urls.graphql,
    "runpod:restV1Url": urls.restV1,
    "runpod:restV2Url": urls.restV2,
    "runpod:inferenceUrl": urls.inference,
    "runpod:api": "graphql",
  };
  await stack.setConfigs(plain);
  for (const [key, value] of Object.entries({ "runpod:apiKey": apiKey, ...secrets })) await stack.setConfig(key, value, { secret: true });
}
