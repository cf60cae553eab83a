/**
 * `import <resourceName> <id>`: adopts an existing platform object into the stack as the resource of
 * that name the program declares — the job of `pulumi import`, which the Pulumi engine cannot do for
 * dynamic providers (it asks the provider to read the resource without any of its properties, so the
 * dynamic provider host has no provider to run: "code must be a string, not undefined";
 * pulumi/pulumi#3550, #16175).
 *
 * With Pulumi's own commands, writing nothing to the platform:
 *  0. `pulumi stack export`: a resource of that name the stack already manages stops the import (the
 *     state, not the preview, knows it: `preview --json` leaves unchanged resources out).
 *  1. `pulumi preview --json`: the planned create of the resource gives its URN, parent, provider and
 *     serialized provider exactly as the program registers them.
 *  2. `pulumi stack export` / `stack import`: the state gains the resource with the id and only the
 *     serialized provider as properties (plus the stack and default provider when the state has none).
 *  3. `pulumi refresh --run-program --target <urn>`: the provider reads the object and fills the state
 *     in. An id the platform does not know drops out again; the original state is then restored.
 *
 * A resource of the provider plugin (`runpod:index:<Type>`, from Python, YAML or any SDK of the plugin)
 * takes steps 0 and 1, then `pulumi import` itself, which works for a real provider.
 */
import { randomUUID } from "node:crypto";
import type { CommandContext } from "../context";
import { UsageError } from "../errors";
import { EXIT, type ExitCode } from "../io";
import { NODEJS_PROVIDER_TYPE, STACK_TYPE, providerUrnOf, resourceNameOf, resourcesOf, type StateResource } from "../stack/checkpoint";
import { PulumiCommandError, type PulumiRunner } from "../stack/pulumiCommand";
import { isPluginType, kindOf } from "../stack/registry";
import { stackSession, type StackOptions } from "../stack/session";
import type { StackKind } from "../stack/stackKind";
import { exportCheckpoint, importCheckpoint, withStaleLockReleased } from "../stack/stackState";

export type ImportOptions = StackOptions;

interface PreviewStep {
  op: string;
  urn: string;
  newState?: { type?: string; parent?: string; provider?: string; inputs?: Record<string, unknown> };
}

/**
 * Adopts platform object `id` as the resource named `resourceName` of the stack's program.
 * @returns EXIT.OK; prints the URN.
 * @throws UsageError (exit 2) when the program declares no such resource of a kind this package
 *   manages, the stack already manages it or the id, its parent is not deployed yet, or the platform
 *   has no object with that id (the state is then as it was); PulumiCommandError when `pulumi` fails.
 */
export async function importCommand(ctx: CommandContext, resourceName: string, id: string, opts: ImportOptions): Promise<ExitCode> {
  const { pulumi } = stackSession(ctx, opts);
  const notice = (line: string) => ctx.io.stderr.write(`${line}\n`);
  // "Already managed" comes from the state: `preview --json` leaves unchanged resources out.
  const original = await exportCheckpoint(pulumi);
  const managed = resourcesOf(original).filter((r) => !r.delete && kindOf(r.type) && r.urn.endsWith(`::${resourceName}`));
  if (managed.length > 0) {
    const r = managed[0];
    throw new UsageError(
      `the stack already manages ${r.urn} (id ${r.id ?? "unknown"}); to adopt another object under this name, ` +
        "first remove it from the stack (`pulumi state delete <urn>`, which leaves the object on the platform)",
    );
  }
  const preview = JSON.parse(await pulumi(["preview", "--json"])) as { steps?: PreviewStep[] };
  const steps = preview.steps ?? [];
  const matching = steps.filter((s) => kindOf(s.newState?.type ?? "") && s.urn.endsWith(`::${resourceName}`));
  if (matching.length === 0) {
    throw new UsageError(`the program declares no pulumi-runpod resource named "${resourceName}"; declare it first (with the arguments the object has)`);
  }
  if (matching.length > 1) throw new UsageError(`several resources are named "${resourceName}": ${matching.map((s) => s.urn).join(", ")}`);
  const step = matching[0];
  const type = step.newState!.type!;
  const kind = kindOf(type)!;
  if (step.op !== "create") throw new UsageError(`the stack already manages ${step.urn}`);
  const holder = resourcesOf(original).find((r) => !r.delete && kindOf(r.type) === kind && r.id === id);
  if (holder) throw new UsageError(`${kind.noun} ${id} is already in the stack, as ${holder.urn}`);
  const parent = step.newState?.parent;
  // The stack resource itself is added below when the state has none yet.
  if (parent && !parent.includes(`::${STACK_TYPE}::`) && !resourcesOf(original).some((r) => r.urn === parent))
    throw new UsageError(`the parent of ${step.urn} (${parent}) is not deployed yet: run \`pulumi up\` without the ${kind.noun} first`);
  if (isPluginType(type)) return importThroughEngine(ctx, pulumi, step, kind, id);
  const serializedProvider = step.newState?.inputs?.__provider;
  if (typeof serializedProvider !== "string") throw new Error(`the planned ${step.urn} carries no serialized provider`);

  const checkpoint = structuredClone(original);
  const resources = (checkpoint.deployment.resources ??= []);
  const has = (urn: string) => resources.some((r) => r.urn === urn);

  const stackStep = steps.find((s) => s.urn.includes(`::${STACK_TYPE}::`));
  if (stackStep && !has(stackStep.urn)) resources.unshift({ urn: stackStep.urn, custom: false, type: STACK_TYPE });

  const providerUrn = providerUrnOf(step.newState?.provider ?? "");
  let provider = resources.find((r) => r.urn === providerUrn && r.type === NODEJS_PROVIDER_TYPE && !r.delete);
  if (!provider) {
    // `refresh --run-program` registers the default provider again with the stack's configuration.
    provider = { urn: providerUrn, custom: true, id: randomUUID(), type: NODEJS_PROVIDER_TYPE, inputs: {}, outputs: {} };
    resources.splice(resources.findIndex((r) => r.type === STACK_TYPE) + 1, 0, provider);
  }
  const adopted: StateResource = {
    urn: step.urn,
    custom: true,
    id,
    type: kind.type,
    inputs: { __provider: serializedProvider },
    outputs: { __provider: serializedProvider },
    ...(parent ? { parent } : {}),
    provider: `${provider.urn}::${provider.id}`,
  };
  resources.push(adopted);

  const restore = () => withStaleLockReleased(pulumi, notice, () => importCheckpoint(pulumi, original));
  await withStaleLockReleased(pulumi, notice, () => importCheckpoint(pulumi, checkpoint));
  try {
    await pulumi(["refresh", "--yes", "--run-program", "--target", step.urn]);
  } catch (err) {
    await restore();
    throw err;
  }
  const after = await exportCheckpoint(pulumi);
  if (!resourcesOf(after).some((r) => r.urn === step.urn && r.id === id)) {
    await restore();
    throw new UsageError(`no ${kind.noun} with id "${id}" is visible with this stack's API key; nothing was imported`);
  }
  return imported(ctx, kind, id, step.urn);
}

function imported(ctx: CommandContext, kind: StackKind, id: string, urn: string): ExitCode {
  ctx.io.stdout.write(`imported ${kind.noun} ${id} as ${urn}; run \`pulumi preview\` to see how the declared arguments differ\n`);
  return EXIT.OK;
}

/**
 * A resource of the provider plugin: the engine imports it itself (`pulumi import`, the plugin reads the
 * object), under the parent and provider the program gives it, unprotected as the other path leaves it.
 */
async function importThroughEngine(ctx: CommandContext, pulumi: PulumiRunner, step: PreviewStep, kind: StackKind, id: string): Promise<ExitCode> {
  const args = ["import", step.newState!.type!, resourceNameOf(step.urn), id, "--yes", "--protect=false", "--generate-code=false"];
  const parent = step.newState?.parent;
  if (parent && !parent.includes(`::${STACK_TYPE}::`)) args.push("--parent", `parent=${parent}`);
  const provider = providerUrnOf(step.newState?.provider ?? "");
  // The default provider is the engine's own choice; an explicit one must be named.
  if (provider && !resourceNameOf(provider).startsWith("default")) args.push("--provider", `provider=${provider}`);
  try {
    await withStaleLockReleased(
      pulumi,
      (line) => ctx.io.stderr.write(`${line}\n`),
      () => pulumi(args),
    );
  } catch (err) {
    if (err instanceof PulumiCommandError && /does not exist/.test(err.output)) {
      throw new UsageError(`no ${kind.noun} with id "${id}" is visible with this stack's API key; nothing was imported`);
    }
    throw err;
  }
  return imported(ctx, kind, id, step.urn);
}
