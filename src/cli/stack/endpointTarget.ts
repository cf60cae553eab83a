/**
 * What the after-deploy commands (`workers`, `logs`, `run`) take from the Pulumi project they run in:
 * the stack's `runpod:*` settings, behind the flags and the environment, and the stack's endpoints by
 * resource name (`workers inference`). Outside a project, and without `--stack` or `--cwd`, nothing
 * is read. In a project whose stack cannot be read (no stack selected, a wrong passphrase) the
 * environment alone configures the command, and the reason is named only when it is not enough.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigurationError, ENV_VARS, type ClientConfigInput } from "../../api";
import type { CliClient } from "../client";
import type { CommandContext } from "../context";
import { UsageError } from "../errors";
import { resourceNameOf, resourcesOf, type Checkpoint } from "./checkpoint";
import { PulumiCommandError } from "./pulumiCommand";
import { isEndpointType, kindOf } from "./registry";
import { stackSession, type StackOptions } from "./session";
import { exportCheckpoint } from "./stackState";

const PROJECT_FILES = ["Pulumi.yaml", "Pulumi.yml", "Pulumi.json"];

/** Whether `dir` or a folder above it holds a Pulumi project file, where `pulumi` itself looks. */
export function inPulumiProject(dir: string): boolean {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (PROJECT_FILES.some((f) => existsSync(join(d, f)))) return true;
    if (dirname(d) === d) return false;
  }
}

/**
 * The stack's settings with those the environment sets left out, so the environment comes before the
 * stack (flags, environment, stack configuration) when the client resolves them.
 */
export function behindEnvironment(stack: ClientConfigInput, env: Record<string, string | undefined>): ClientConfigInput {
  const out: Record<string, unknown> = { ...stack };
  for (const [field, variable] of Object.entries(ENV_VARS)) if (env[variable]?.trim()) delete out[field];
  return out as ClientConfigInput;
}

/** The endpoint id `ref` stands for in `checkpoint`: a resource name of one of its endpoints, else `ref` itself. */
export function endpointIdIn(checkpoint: Checkpoint, ref: string): string {
  const named = resourcesOf(checkpoint).filter((r) => isEndpointType(r.type) && !r.delete && r.id !== undefined && resourceNameOf(r.urn) === ref);
  if (named.length > 1)
    throw new UsageError(`several endpoints of the stack are named "${ref}": ${named.map((r) => `${r.urn} (${r.id})`).join(", ")}; pass the id`);
  return named[0]?.id ?? ref;
}

/** The `requestUrls` output the stack records for endpoint `id` (REST v2), if it records any. */
export function requestUrlsIn(checkpoint: Checkpoint, id: string): Record<string, string> | undefined {
  const r = resourcesOf(checkpoint).find((x) => isEndpointType(x.type) && !x.delete && x.id === id);
  const urls = r?.outputs?.requestUrls;
  if (!urls || typeof urls !== "object" || Array.isArray(urls)) return undefined;
  const entries = Object.entries(urls).filter(([, v]) => typeof v === "string");
  return entries.length > 0 ? (Object.fromEntries(entries) as Record<string, string>) : undefined;
}

/** The pod id `ref` stands for in `checkpoint`: a resource name of one of its pods, else `ref` itself. */
export function podIdIn(checkpoint: Checkpoint, ref: string): string {
  const named = resourcesOf(checkpoint).filter((r) => kindOf(r.type)?.noun === "pod" && !r.delete && r.id !== undefined && resourceNameOf(r.urn) === ref);
  if (named.length > 1) throw new UsageError(`several pods of the stack are named "${ref}": ${named.map((r) => `${r.urn} (${r.id})`).join(", ")}; pass the id`);
  return named[0]?.id ?? ref;
}

export interface EndpointTarget {
  /** The endpoint's id (or a public model endpoint's, passed through). */
  endpointId: string;
  /** Where to send its requests, as the stack's state records them (REST v2 `requestUrls`). */
  requestUrls?: Record<string, string>;
  /** Builds the client (flags, environment, then the stack's configuration). */
  connect(): CliClient;
}

/**
 * Resolves `ref` (an endpoint id, or a resource name of the stack's; with `resolve` = {@link podIdIn}, a pod's)
 * and the client settings.
 * @throws PulumiCommandError when the stack named by `--stack`/`--cwd` cannot be read; ConfigurationError
 *   for a `runpod:*` key the provider does not read, or (at `connect`) when no key is configured;
 *   UsageError when several endpoints carry the name.
 */
export async function endpointTarget(
  ctx: CommandContext,
  ref: string,
  opts: StackOptions,
  resolve: (checkpoint: Checkpoint, ref: string) => string = endpointIdIn,
): Promise<EndpointTarget> {
  const explicit = opts.stack !== undefined || opts.cwd !== undefined;
  if (!explicit && !inPulumiProject(process.cwd())) return { endpointId: ref, connect: () => ctx.connect() };
  const session = stackSession(ctx, opts);
  let read: [ClientConfigInput, Checkpoint];
  try {
    read = await Promise.all([session.config(), exportCheckpoint(session.pulumi)]);
  } catch (err) {
    if (explicit || err instanceof ConfigurationError) throw err;
    // Without `pulumi` on PATH there is no stack to read: the environment alone, as outside a project.
    if (!(err instanceof PulumiCommandError)) return { endpointId: ref, connect: () => ctx.connect() };
    const why = err.output.trim().split("\n").pop() ?? "";
    return {
      endpointId: ref,
      connect: () => {
        if (ctx.io.env[ENV_VARS.apiKey]?.trim()) return ctx.connect();
        throw new ConfigurationError(
          `No API key configured: set the environment variable ${ENV_VARS.apiKey}, or make the stack readable (\`pulumi ${err.args.join(" ")}\`: ${why})`,
          "apiKey",
        );
      },
    };
  }
  const [config, checkpoint] = read;
  const endpointId = resolve(checkpoint, ref);
  const requestUrls = requestUrlsIn(checkpoint, endpointId);
  return { endpointId, ...(requestUrls ? { requestUrls } : {}), connect: () => ctx.connect(behindEnvironment(config, ctx.io.env)) };
}
