/**
 * `orphans`: platform objects that provably belong to this stack but that no stack holds — what an
 * interrupted run, a cleared pending create or a `pulumi state delete` leaves behind. The proof and
 * the holders are the ownership rule's (stack/ownership.ts): ids in the stack's pending operations and
 * in the resources its checkpoints record, and what a create it started and did not record made. A
 * name's form never counts. Nothing else is ever listed or touched.
 *
 * `--delete --yes` deletes the listed objects (endpoints: scaled to zero, then deleted); `--id`
 * narrows it to those ids, and is needed for each one where the backend's other stacks cannot all be
 * read (they might hold it).
 */
import type { PlatformClient } from "../../api";
import type { ApiPath } from "../../provider/apiPath";
import type { CommandContext } from "../context";
import { UsageError } from "../errors";
import { EXIT, type ExitCode } from "../io";
import { pendingOf } from "../stack/checkpoint";
import { readOwnership } from "../stack/ownership";
import { STACK_KINDS } from "../stack/registry";
import type { PlatformObject, StackKind } from "../stack/stackKind";
import { stackSession, type StackOptions } from "../stack/session";
import { exportCheckpoint } from "../stack/stackState";
import { renderTable } from "../table";
import { printable } from "../terminalText";

export interface OrphansOptions extends StackOptions {
  /** Delete the orphans (needs `yes`). */
  delete?: boolean;
  yes?: boolean;
  /** Delete only these (repeated `--id`); needed where the backend's other stacks cannot all be read. */
  id?: string[];
}

interface Orphan {
  kind: StackKind;
  object: PlatformObject;
  /** What proves it the stack's. */
  proof: string;
}

/**
 * Lists the stack's orphans as a table; with `--delete --yes` deletes them.
 * @returns EXIT.OK.
 * @throws UsageError (exit 2) for `--id` without `--delete` or naming no listed orphan; for `--delete
 *   --yes` while the stack has pending operations (run `recover` first: a pending create's object is
 *   not an orphan) or, where the backend's other stacks cannot all be read, without `--id`;
 *   PulumiCommandError, api errors.
 */
export async function orphansCommand(ctx: CommandContext, opts: OrphansOptions): Promise<ExitCode> {
  const confirmed = opts.id ?? [];
  if (confirmed.length > 0 && !opts.delete) throw new UsageError("--id picks the orphans to delete: use it with --delete");
  const session = stackSession(ctx, opts);
  const current = await exportCheckpoint(session.pulumi);
  const ownership = await readOwnership(session, current);

  const { client } = await session.connect();
  const api = await session.api();
  const orphans: Orphan[] = [];
  for (const kind of STACK_KINDS) {
    for (const object of await kind.list(client, api)) {
      if (ownership.holderOf(kind, object)) continue;
      const proof = ownership.proofOf(kind, object);
      if (proof) orphans.push({ kind, object, proof });
    }
  }

  if (orphans.length === 0) {
    ctx.io.stdout.write("no orphans: every platform object this stack's records prove its own is in a stack's state\n");
  } else {
    ctx.io.stdout.write(orphansTable(orphans, ctx.out.bold));
  }
  if (ownership.unseen) {
    ctx.io.stderr.write(
      `warning: cannot see every stack of this backend (${ownership.unseen}): one of those may hold an object listed; ` +
        "`--delete --yes` deletes only the objects confirmed with `--id <id>`\n",
    );
  }
  if (pendingOf(current).length > 0) {
    ctx.io.stderr.write("the stack has pending operations: run `pulumi-runpod recover` first (the objects of pending creates are not listed)\n");
  }
  const unknown = confirmed.filter((id) => !orphans.some((o) => o.object.id === id));
  if (unknown.length > 0) {
    throw new UsageError(
      `--id ${unknown.map(printable).join(", ")}: not listed as an orphan of this stack (no record of it proves it this stack's, or a stack holds it)`,
    );
  }
  if (!opts.delete || orphans.length === 0) return EXIT.OK;
  const chosen = confirmed.length > 0 ? orphans.filter((o) => confirmed.includes(o.object.id)) : orphans;
  if (!opts.yes) {
    const what = ownership.unseen && confirmed.length === 0 ? "nothing without --id" : String(chosen.length);
    ctx.io.stdout.write(ctx.out.yellow(`dry run: would delete ${what}; run again with --delete --yes`) + "\n");
    return EXIT.OK;
  }
  if (pendingOf(current).length > 0) throw new UsageError("not deleting while the stack has pending operations: run `pulumi-runpod recover --yes` first");
  if (ownership.unseen && confirmed.length === 0) {
    throw new UsageError("not deleting: this backend's other stacks cannot all be read; confirm each object to delete with `--id <id>`");
  }
  await deleteAll(ctx, client, api, chosen);
  return EXIT.OK;
}

async function deleteAll(ctx: CommandContext, client: PlatformClient, api: ApiPath, orphans: readonly Orphan[]): Promise<void> {
  for (const o of orphans) {
    // As a destroy deletes: a refusal while something still uses it (its release window) is retried.
    await o.kind.remove(client, o.object, api, {});
    ctx.io.stdout.write(`deleted ${o.kind.noun} ${printable(o.object.id)} (${printable(o.object.name)})\n`);
  }
}

function orphansTable(orphans: readonly Orphan[], bold: (s: string) => string): string {
  const table = renderTable(
    ["KIND", "ID", "NAME", "PROOF", "DETAIL"],
    orphans.map((o) => [o.kind.noun, o.object.id, o.object.name, o.proof, o.object.summary]),
  );
  const nl = table.indexOf("\n");
  return bold(table.slice(0, nl)) + table.slice(nl);
}
