/**
 * `orphans`: platform objects that look like this stack's but that no stack holds — what an
 * interrupted run leaves when nobody recovers it. An object is tied to the stack when its name was
 * recorded in the stack's state (its resources, pending operations and, where the backend keeps
 * them, earlier versions) or has the form of the provider's auto-name for a resource of the stack or
 * its program (`<resource name>-<7 hex digits>`). Objects held by any stack of the project in the
 * backend are not orphans. Nothing else is ever listed or touched.
 *
 * `--delete --yes` deletes the listed objects (endpoints: scaled to zero, then deleted).
 */
import type { PlatformClient } from "../../api";
import type { ApiPath } from "../../provider/apiPath";
import type { CommandContext } from "../context";
import { UsageError } from "../errors";
import { EXIT, type ExitCode } from "../io";
import { parseCheckpoint, pendingOf, resourceNameOf, resourcesOf, type Checkpoint, type StateResource } from "../stack/checkpoint";
import type { PulumiRunner } from "../stack/pulumiCommand";
import { STACK_KINDS, canonicalType } from "../stack/registry";
import type { PlatformObject, StackKind } from "../stack/stackKind";
import { stackSession, type StackOptions } from "../stack/session";
import { exportCheckpoint } from "../stack/stackState";
import { renderTable } from "../table";
import { printable } from "../terminalText";

export interface OrphansOptions extends StackOptions {
  /** Delete the orphans (needs `yes`). */
  delete?: boolean;
  yes?: boolean;
}

interface Orphan {
  kind: StackKind;
  object: PlatformObject;
  /** Why it is tied to the stack. */
  tie: string;
}

/** What ties platform objects of one kind to the stack. */
interface Ties {
  /** Names recorded in the stack's states. */
  names: Set<string>;
  /** Resource names whose auto-names count. */
  resourceNames: Set<string>;
}

/**
 * Lists the stack's orphans as a table; with `--delete --yes` deletes them.
 * @returns EXIT.OK.
 * @throws UsageError (exit 2) for `--delete --yes` while the stack has pending operations (run
 *   `recover` first: a pending create's object is not an orphan); PulumiCommandError, api errors.
 */
export async function orphansCommand(ctx: CommandContext, opts: OrphansOptions): Promise<ExitCode> {
  const session = stackSession(ctx, opts);
  const current = await exportCheckpoint(session.pulumi);
  const states = [current, ...(await earlierStates(session.pulumi))];
  const ties = new Map(STACK_KINDS.map((k) => [k.type, tiesIn(k, states)]));
  for (const urn of await programUrns(ctx, session.pulumi)) ties.get(canonicalType(typeOfUrn(urn)))?.resourceNames.add(resourceNameOf(urn));

  // Held by any stack of the project this backend knows, this one included.
  const held = new Set<string>();
  const pendingNames = new Set<string>();
  for (const checkpoint of [current, ...(await otherStacks(session.pulumiFor, session.pulumi, opts.stack))]) {
    for (const r of resourcesOf(checkpoint)) if (r.id !== undefined) held.add(`${canonicalType(r.type)}\u0000${r.id}`);
    for (const op of pendingOf(checkpoint)) {
      const kind = STACK_KINDS.find((k) => k.type === canonicalType(op.resource.type));
      const name = kind?.nameIn(op.resource.inputs);
      if (kind && name && op.type === "creating") pendingNames.add(`${kind.type}\u0000${name}`);
    }
  }

  const { client } = await session.connect();
  const api = await session.api();
  const orphans: Orphan[] = [];
  for (const kind of STACK_KINDS) {
    const tie = ties.get(kind.type)!;
    for (const object of await kind.list(client, api)) {
      if (held.has(`${kind.type}\u0000${object.id}`) || pendingNames.has(`${kind.type}\u0000${object.name}`)) continue;
      const why = tieOf(kind, object, tie);
      if (why) orphans.push({ kind, object, tie: why });
    }
  }

  if (orphans.length === 0) {
    ctx.io.stdout.write("no orphans: every platform object tied to this stack is in a stack's state\n");
  } else {
    ctx.io.stdout.write(orphansTable(orphans, ctx.out.bold));
  }
  if (pendingOf(current).length > 0) {
    ctx.io.stderr.write("the stack has pending operations: run `pulumi-runpod recover` first (the objects of pending creates are not listed)\n");
  }
  if (!opts.delete || orphans.length === 0) return EXIT.OK;
  if (!opts.yes) {
    ctx.io.stdout.write(ctx.out.yellow(`dry run: would delete ${orphans.length}; run again with --delete --yes`) + "\n");
    return EXIT.OK;
  }
  if (pendingOf(current).length > 0) throw new UsageError("not deleting while the stack has pending operations: run `pulumi-runpod recover --yes` first");
  await deleteAll(ctx, client, api, orphans);
  return EXIT.OK;
}

async function deleteAll(ctx: CommandContext, client: PlatformClient, api: ApiPath, orphans: readonly Orphan[]): Promise<void> {
  for (const o of orphans) {
    await o.kind.remove(client, o.object, api);
    ctx.io.stdout.write(`deleted ${o.kind.noun} ${printable(o.object.id)} (${printable(o.object.name)})\n`);
  }
}

/** Names and resource names of `kind` in `states`. */
function tiesIn(kind: StackKind, states: readonly Checkpoint[]): Ties {
  const ties: Ties = { names: new Set(), resourceNames: new Set() };
  const add = (r: StateResource) => {
    if (canonicalType(r.type) !== kind.type) return;
    ties.resourceNames.add(resourceNameOf(r.urn));
    for (const props of [r.inputs, r.outputs]) {
      const name = kind.nameIn(props);
      if (name) ties.names.add(name);
    }
  };
  for (const state of states) {
    resourcesOf(state).forEach(add);
    pendingOf(state).forEach((op) => add(op.resource));
  }
  return ties;
}

function tieOf(kind: StackKind, object: PlatformObject, ties: Ties): string | undefined {
  if (ties.names.has(object.name)) return "name recorded in the stack";
  for (const resourceName of ties.resourceNames) if (kind.isAutoNameOf(object.name, resourceName)) return `auto-name of ${resourceName}`;
  return undefined;
}

/** `urn:pulumi:stack::project::type::name` → `type` (the last component of a parent chain). */
function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts[parts.length - 2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** URNs the program declares (`pulumi preview --json`); none, with a warning, when the preview fails. */
async function programUrns(ctx: CommandContext, pulumi: PulumiRunner): Promise<string[]> {
  try {
    const preview = JSON.parse(await pulumi(["preview", "--json"])) as { steps?: { urn: string }[] };
    return (preview.steps ?? []).map((s) => s.urn);
  } catch {
    ctx.io.stderr.write("warning: `pulumi preview` failed; only names from the stack's state are used\n");
    return [];
  }
}

/** Earlier versions of the stack's state, where the backend keeps them (`pulumi stack export --version`). */
async function earlierStates(pulumi: PulumiRunner): Promise<Checkpoint[]> {
  let versions: number[];
  try {
    versions = (JSON.parse(await pulumi(["stack", "history", "--json"])) as { version: number }[]).map((u) => u.version);
  } catch {
    return [];
  }
  const states: Checkpoint[] = [];
  for (const version of versions) {
    try {
      states.push(parseCheckpoint(await pulumi(["stack", "export", "--version", String(version)])));
    } catch {
      return states; // the backend keeps no earlier versions (a file backend), or not this one
    }
  }
  return states;
}

/** The states of the project's other stacks in this backend (`pulumi stack ls --json`). */
async function otherStacks(runnerFor: (stack: string) => PulumiRunner, pulumi: PulumiRunner, own: string | undefined): Promise<Checkpoint[]> {
  const stacks = JSON.parse(await pulumi(["stack", "ls", "--json"], { anyStack: true })) as { name: string; current?: boolean }[];
  const others = stacks.filter((s) => (own ? s.name !== own && !s.name.endsWith(`/${own}`) : !s.current));
  const out: Checkpoint[] = [];
  for (const s of others) out.push(await exportCheckpoint(runnerFor(s.name)));
  return out;
}

function orphansTable(orphans: readonly Orphan[], bold: (s: string) => string): string {
  const table = renderTable(
    ["KIND", "ID", "NAME", "TIED BY", "DETAIL"],
    orphans.map((o) => [o.kind.noun, o.object.id, o.object.name, o.tie, o.object.summary]),
  );
  const nl = table.indexOf("\n");
  return bold(table.slice(0, nl)) + table.slice(nl);
}
