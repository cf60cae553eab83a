#!/usr/bin/env node
/**
 * Adopts an existing endpoint into a stack — the job of `pulumi import`, which the Pulumi engine
 * cannot do for dynamic providers: on import it asks the provider to read the resource without any
 * of its properties, so the dynamic provider host has no serialized provider to run and fails with
 * "code must be a string, not undefined" (pulumi/pulumi#3550, #16175; both `pulumi import` and the
 * `import` resource option).
 *
 * What this does instead, with Pulumi's own commands, writing nothing to the platform:
 *  1. `pulumi preview --json`: the program must already declare the endpoint; the planned create
 *     gives its URN, its parent and the serialized provider exactly as the program registers them.
 *  2. `pulumi stack export` / `pulumi stack import`: the state gains that resource with the endpoint's
 *     id and only the serialized provider as properties (plus the stack and the default
 *     `pulumi-nodejs` provider when the state has none yet).
 *  3. `pulumi refresh --run-program --target <urn>`: the provider reads the endpoint and fills in
 *     the state from the platform. An id the platform does not know drops out again; then the
 *     original state is restored and an error is thrown.
 * Afterwards the endpoint is managed like any other: `pulumi preview` shows where the declared
 * arguments differ from the endpoint (declare it as it is for a no-op).
 *
 * CLI: `node dist/scripts/importEndpoint.js <resourceName> <endpointId> [--stack <name>]`, run in the
 * program's directory with the same environment as your other `pulumi` commands.
 */
import { spawn } from "child_process";
import { randomUUID } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Command } from "commander";
import { ENDPOINT_TYPE } from "./exampleStack";

const STACK_TYPE = "pulumi:pulumi:Stack";
const NODEJS_PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";

/** Runs `pulumi <args>` against the stack; resolves with stdout, rejects when the command fails. */
export type PulumiRunner = (args: string[]) => Promise<string>;

interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  parent?: string;
  provider?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [key: string]: unknown;
}

interface Checkpoint {
  version: number;
  deployment: { resources?: StateResource[]; [key: string]: unknown };
}

interface PreviewStep {
  op: string;
  urn: string;
  newState?: { type?: string; parent?: string; provider?: string; inputs?: Record<string, unknown> };
}

/** `<urn>::<id>` → `<urn>` (provider references carry the provider's id after the last `::`). */
function providerUrnOf(reference: string): string {
  return reference.slice(0, reference.lastIndexOf("::"));
}

/**
 * Adopts endpoint `endpointId` as the `Endpoint` named `resourceName` that the stack's program declares.
 * @param pulumi runs the CLI for the stack (in the program directory, with its backend and passphrase).
 * @returns the resource's URN.
 * @throws Error when the program does not declare that resource, the stack already manages it, its
 *   parent is not deployed yet, or the platform has no such endpoint (the state is then left as it was).
 */
export async function importEndpoint(pulumi: PulumiRunner, resourceName: string, endpointId: string): Promise<{ urn: string }> {
  const preview = JSON.parse(await pulumi(["preview", "--json"])) as { steps?: PreviewStep[] };
  const steps = preview.steps ?? [];
  const step = steps.find((s) => s.newState?.type === ENDPOINT_TYPE && s.urn.endsWith(`::${resourceName}`));
  if (!step) throw new Error(`the program declares no Endpoint named "${resourceName}"; declare it first (with the arguments the endpoint has)`);
  if (step.op !== "create") throw new Error(`the stack already manages ${step.urn}`);
  const serializedProvider = step.newState?.inputs?.__provider;
  if (typeof serializedProvider !== "string") throw new Error(`the planned ${step.urn} carries no serialized provider`);

  const original = await pulumi(["stack", "export"]);
  const checkpoint = JSON.parse(original) as Checkpoint;
  const resources = (checkpoint.deployment.resources ??= []);
  const has = (urn: string) => resources.some((r) => r.urn === urn);

  const stackStep = steps.find((s) => s.urn.includes(`::${STACK_TYPE}::`));
  if (stackStep && !has(stackStep.urn)) resources.unshift({ urn: stackStep.urn, custom: false, type: STACK_TYPE });

  const parent = step.newState?.parent;
  if (parent && !has(parent)) throw new Error(`the parent of ${step.urn} (${parent}) is not deployed yet: run \`pulumi up\` without the endpoint first`);

  const providerUrn = providerUrnOf(step.newState?.provider ?? "");
  let provider = resources.find((r) => r.urn === providerUrn && r.type === NODEJS_PROVIDER_TYPE && !r.delete);
  if (!provider) {
    // `refresh --run-program` re-registers the default provider with the stack's configuration.
    provider = { urn: providerUrn, custom: true, id: randomUUID(), type: NODEJS_PROVIDER_TYPE, inputs: {}, outputs: {} };
    const afterStack = resources.findIndex((r) => r.type === STACK_TYPE) + 1;
    resources.splice(afterStack, 0, provider);
  }

  resources.push({
    urn: step.urn,
    custom: true,
    id: endpointId,
    type: ENDPOINT_TYPE,
    inputs: { __provider: serializedProvider },
    outputs: { __provider: serializedProvider },
    ...(parent ? { parent } : {}),
    provider: `${provider.urn}::${provider.id}`,
  });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-import-"));
  const file = path.join(dir, "state.json");
  const restore = async () => {
    fs.writeFileSync(file, original);
    await pulumi(["stack", "import", "--file", file]);
  };
  try {
    fs.writeFileSync(file, JSON.stringify(checkpoint));
    await pulumi(["stack", "import", "--file", file]);
    try {
      await pulumi(["refresh", "--yes", "--run-program", "--target", step.urn]);
    } catch (e) {
      await restore();
      throw e;
    }
    const after = JSON.parse(await pulumi(["stack", "export"])) as Checkpoint;
    const adopted = (after.deployment.resources ?? []).find((r) => r.urn === step.urn);
    if (!adopted || adopted.outputs?.endpointId !== endpointId) {
      await restore();
      throw new Error(`no endpoint with id "${endpointId}" is visible with this stack's API key; nothing was imported`);
    }
    return { urn: step.urn };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `pulumi` from PATH in the current directory; rejects with its output when it fails. */
function pathPulumi(stack: string | undefined): PulumiRunner {
  return (args) =>
    new Promise((resolve, reject) => {
      const full = [...args, "--non-interactive", ...(stack ? ["--stack", stack] : [])];
      const child = spawn("pulumi", full, { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
      child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`pulumi ${args.join(" ")} failed (exit ${code})\n${out}${err}`))));
    });
}

async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("importEndpoint")
    .description("Adopt an existing endpoint into a stack whose program declares it (what `pulumi import` cannot do for dynamic providers)")
    .argument("<resourceName>", "Pulumi name of the Endpoint in the program, e.g. inference")
    .argument("<endpointId>", "id of the existing endpoint on the platform")
    .option("-s, --stack <name>", "stack (default: the selected stack)")
    .parse(argv);
  const [resourceName, endpointId] = program.args;
  const { urn } = await importEndpoint(pathPulumi(program.opts().stack), resourceName, endpointId);
  console.log(`imported ${endpointId} as ${urn}; run \`pulumi preview\` to see how the declared arguments differ`);
}

if (require.main === module) {
  main(process.argv).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  });
}
