/**
 * `recover`: settles the pending operations an interrupted `pulumi up`, `destroy` or replacement left
 * in a stack (docs/operations.md). Pending creates are looked for on the platform by the name and template
 * they recorded: found ones are adopted into the stack, the others dropped; pending updates and
 * deletes are read back. Dry run by default (a table of what it would do); `--yes` acts.
 *
 * Pulumi's own `pulumi refresh --import-pending-creates URN ID` is not used: in CLI 3.259 it turns the
 * pending create into a pending import that the refresh then discards, so the resource is lost from
 * the stack. The adoption is built from `pulumi stack export` / `stack import` and a targeted
 * `pulumi refresh` instead (recoveryPlan.ts).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { DEFAULT_RATE_LIMIT_DEADLINE_MS, DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, MAX_TIMER_MS } from "../../api";
import type { CommandContext } from "../context";
import { UsageError } from "../errors";
import { EXIT, type ExitCode } from "../io";
import { STACK_TYPE, pendingOf, resourceNameOf, resourcesOf, type Checkpoint } from "../stack/checkpoint";
import { readOwnership } from "../stack/ownership";
import { applyRecovery, kindsToList, planRecovery, type PlanOwnership, type RecoveryAction } from "../stack/recoveryPlan";
import { kindOf } from "../stack/registry";
import { stackSession, type StackOptions, type StackSession } from "../stack/session";
import { exportCheckpoint, exportMendingSidecars, importCheckpoint, withStaleLockReleased } from "../stack/stackState";
import { renderTable } from "../table";
import { printable } from "../terminalText";
import type { PlatformObject } from "../stack/stackKind";

export interface RecoverOptions extends StackOptions {
  /** Act; without it, only the table of what would be done is printed. */
  yes?: boolean;
  /**
   * Seconds after the interrupted run's last state write during which requests it started may still
   * be sent and land (default: {@link defaultSettleMs}).
   */
  settle?: number;
  /** Ids confirmed for adoption (repeated `--id`): needed where the backend's other stacks cannot all be read. */
  id?: string[];
}

/**
 * How long after its last state write an interrupted run may still change the platform, in
 * milliseconds, for a stack whose requests time out after `timeoutMs` and may wait out the rate limit
 * for `rateLimitDeadlineMs`. The killed engine's dynamic provider process keeps running: a request
 * refused with 429 is sent again once the limit resets, up to the rate-limit deadline; one that met a
 * 5xx is retried until the client's retry deadline ({@link DEFAULT_RETRY}.deadlineMs, not counting the
 * rate-limit waits); and a create with an unknown outcome is looked for and tried once more (up to
 * three request timeouts).
 */
export function defaultSettleMs(timeoutMs: number = DEFAULT_TIMEOUT_MS, rateLimitDeadlineMs: number = DEFAULT_RATE_LIMIT_DEADLINE_MS): number {
  return Math.max(rateLimitDeadlineMs + DEFAULT_RETRY.deadlineMs + timeoutMs, 3 * timeoutMs);
}

/**
 * Prints the plan for the stack's pending operations and, with `--yes`, carries it out.
 * A pending create's object is adopted only by the ownership rule (stack/ownership.ts): one that another
 * stack of the backend holds is never a candidate; where the backend's stacks cannot all be read, only
 * an object confirmed with `--id` is adopted.
 * @returns 0 when nothing is left pending (or on a dry run); 1 when some pending operation stays
 *   (several candidates for one create, an unconfirmed one, or a create of another provider).
 * @throws UsageError for an `--id` that is no pending create's candidate; PulumiCommandError when a
 *   `pulumi` command fails; the api client's errors (listing).
 */
export async function recoverCommand(ctx: CommandContext, opts: RecoverOptions): Promise<ExitCode> {
  const session = stackSession(ctx, opts);
  const notice = (line: string) => ctx.io.stderr.write(`${line}\n`);
  const checkpoint = await exportMendingSidecars(session.pulumi, opts.yes === true, notice);
  if (pendingOf(checkpoint).length === 0) {
    ctx.io.stdout.write("no pending operations: nothing to recover\n");
    if (opts.yes) await releaseStaleLock(ctx, session, checkpoint);
    return EXIT.OK;
  }

  // Whatever the interrupted run started on the platform (creates, updates, deletes) must have landed before anything is read.
  if (pendingOf(checkpoint).some((op) => kindOf(op.resource.type)) && !(await settle(ctx, session, checkpoint, opts))) return EXIT.INTERRUPTED;
  const kinds = kindsToList(checkpoint);
  const listings = new Map<string, PlatformObject[]>();
  let owners: PlanOwnership | undefined;
  if (kinds.length > 0) {
    const { client } = await session.connect();
    const api = await session.api();
    for (const kind of kinds) listings.set(kind.type, await kind.list(client, api));
    owners = { ownership: await readOwnership(session, checkpoint), confirmed: opts.id ?? [] };
  }
  const actions = planRecovery(checkpoint, listings, owners);
  const offered = new Set(actions.flatMap((a) => (a.action === "adopt" || a.action === "confirm" ? [a.object.id] : [])));
  const unknown = (opts.id ?? []).filter((id) => !offered.has(id));
  if (unknown.length > 0)
    throw new UsageError(`--id ${unknown.map(printable).join(", ")}: no pending create of this stack made it (see \`pulumi-runpod recover\`)`);
  ctx.io.stdout.write(planTable(actions, ctx.out.bold));
  if (owners?.ownership.unseen) ctx.io.stderr.write(`warning: cannot see every stack of this backend (${owners.ownership.unseen})\n`);

  if (!opts.yes) {
    ctx.io.stdout.write(ctx.out.yellow("dry run: nothing changed; run again with --yes to do the above") + "\n");
    return EXIT.OK;
  }

  const edits = actions.filter((a) => a.action === "adopt" || a.action === "drop");
  if (edits.length > 0) {
    const edited = applyRecovery(checkpoint, actions);
    await withStaleLockReleased(session.pulumi, notice, () => importCheckpoint(session.pulumi, edited));
  }
  const targets = [...new Set(actions.filter((a) => a.action === "adopt" || a.action === "refresh").map((a) => a.op.resource.urn))];
  if (targets.length > 0) {
    const args = ["refresh", "--yes", "--skip-pending-creates", ...targets.flatMap((urn) => ["--target", urn])];
    await withStaleLockReleased(session.pulumi, notice, () => session.pulumi(args));
  }

  const after = await exportCheckpoint(session.pulumi);
  const lost = actions.filter((a) => a.action === "adopt" && !resourcesOf(after).some((r) => r.urn === a.op.resource.urn && r.id === a.object.id));
  for (const a of lost) {
    if (a.action === "adopt") notice(`${a.kind.noun} ${a.object.id} was gone when it was read back; ${resourceNameOf(a.op.resource.urn)} is not in the stack`);
  }
  const count = (action: RecoveryAction["action"]) => actions.filter((a) => a.action === action).length;
  ctx.io.stdout.write(
    `recovered: adopted ${count("adopt") - lost.length}, dropped ${count("drop")}, read back ${count("refresh")}; ` +
      `pending operations left ${pendingOf(after).length}\n`,
  );
  const left = pendingOf(after).length;
  if (left > 0) {
    notice(
      `${left} pending operation${left === 1 ? "" : "s"} could not be settled (see the table); resolve ${left === 1 ? "it" : "them"}, then run \`pulumi-runpod recover\` again`,
    );
    return EXIT.FAILED;
  }
  return EXIT.OK;
}

/**
 * Waits until the interrupted run's requests can no longer land: its last state write plus the
 * settle time. A killed `pulumi` leaves its dynamic provider process running, which finishes the
 * requests it had started, retries included (README: "When a deployment is interrupted").
 * @returns false when the user interrupted the wait.
 */
async function settle(ctx: CommandContext, session: StackSession, checkpoint: Checkpoint, opts: RecoverOptions): Promise<boolean> {
  const written = parseTime(checkpoint.deployment.manifest?.time);
  if (written === undefined) return true;
  const config = await session.config();
  const setting = (value: unknown, min: number) => {
    const n = Number(value);
    return value !== undefined && value !== "" && Number.isInteger(n) && n >= min ? n : undefined;
  };
  const settleMs = opts.settle !== undefined ? opts.settle * 1000 : defaultSettleMs(setting(config.timeoutMs, 1), setting(config.rateLimitDeadlineMs, 0));
  const remaining = written + settleMs - Date.now();
  if (remaining <= 0) return true;
  ctx.io.stderr.write(
    `the interrupted run last wrote the state ${Math.round((Date.now() - written) / 1000)} s ago; waiting ${Math.ceil(remaining / 1000)} s ` +
      "for requests it started to settle (--settle 0 if its processes are known to be gone)\n",
  );
  try {
    // A timer holds at most MAX_TIMER_MS (a longer one fires at once); ~24.8 days is wait enough.
    await sleep(Math.min(remaining, MAX_TIMER_MS), undefined, { signal: ctx.signal });
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds since the epoch of an RFC 3339 time with any number of fraction digits. */
function parseTime(time: string | undefined): number | undefined {
  if (!time) return undefined;
  const t = Date.parse(time.replace(/(\.\d{3})\d+/, "$1"));
  return Number.isNaN(t) ? undefined : t;
}

/**
 * With nothing pending, a killed `pulumi` may still have left its lock: a refresh of the stack
 * resource alone (it reads nothing; of nothing at all for an empty stack) takes the lock, releasing
 * a stale one on the way.
 */
async function releaseStaleLock(ctx: CommandContext, session: StackSession, checkpoint: Checkpoint): Promise<void> {
  const stack = resourcesOf(checkpoint).find((r) => r.type === STACK_TYPE);
  const args = ["refresh", "--yes", ...(stack ? ["--target", stack.urn] : [])];
  await withStaleLockReleased(
    session.pulumi,
    (line) => ctx.io.stderr.write(`${line}\n`),
    () => session.pulumi(args),
  );
}

function planTable(actions: readonly RecoveryAction[], bold: (s: string) => string): string {
  const rows = actions.map((a) => {
    const r = a.op.resource;
    const name = (a.action === "foreign" ? undefined : a.kind.nameIn(r.outputs ?? r.inputs)) ?? "-";
    return [a.op.type, resourceNameOf(r.urn), r.id ?? name, ...describe(a)];
  });
  const table = renderTable(["PENDING", "RESOURCE", "NAME/ID", "ACTION", "WHY"], rows);
  const nl = table.indexOf("\n");
  return bold(table.slice(0, nl)) + table.slice(nl);
}

function describe(a: RecoveryAction): [string, string] {
  switch (a.action) {
    case "adopt":
      return [
        `adopt ${a.object.id}`,
        `the ${a.kind.noun} is on the platform${a.replaces ? "; the replaced one is marked for deletion (next `pulumi up`)" : ""}`,
      ];
    case "drop":
      return [
        "drop",
        a.heldElsewhere
          ? `the ${a.kind.noun} named so (${a.heldElsewhere.object.id}) is stack ${a.heldElsewhere.holder.stack}'s (${a.heldElsewhere.holder.as}); none other on the platform`
          : `no such ${a.kind.noun} on the platform: the create never reached it`,
      ];
    case "confirm":
      return ["leave pending", `${a.kind.noun} ${a.object.id} may be it, but other stacks cannot be seen: run again with --id ${a.object.id} to adopt it`];
    case "ambiguous":
      return [
        "leave pending",
        `${a.objects.length} ${a.kind.noun}s could be it (${a.objects.map((o) => o.id).join(", ")}); delete the extra ones, then recover again`,
      ];
    case "refresh":
      return [
        "read back",
        `the ${a.op.type === "deleting" ? "delete" : a.op.type === "updating" ? "update" : a.op.type} may have happened; the next \`pulumi up\`/\`destroy\` finishes it`,
      ];
    case "foreign":
      return ["leave as is", "not a pulumi-runpod resource: settle it with `pulumi refresh`"];
  }
}
