/**
 * Which platform objects a stack may act on: the one rule of `orphans`, `recover` and `adopt`
 * (docs/operations.md, "Ownership").
 *
 * An object provably belongs to the stack when its id is in one of the stack's pending operations or
 * in a resource one of its checkpoints records (the current one or an earlier one the backend keeps),
 * or when it is what a create the stack started and did not record made (a pending create's name,
 * exactly; for an endpoint with a chosen name, also its template and settings: StackKind.madeBy).
 * The form of a name (an auto-name, `<resource>-<7 hex>`) proves nothing: another project may declare
 * a resource of the same name. An object that any stack of the backend holds (in its resources, its
 * pending operations, or as what one of its pending creates may have made) is that stack's.
 *
 * A `file://` backend's stacks are all read from its files; any other backend's stacks cannot all be
 * seen (other projects, organizations), so `unseen` says why and the commands then act only on
 * objects the user confirms by id.
 */
import {
  parseCheckpoint,
  pendingOf,
  resourceNameOf,
  resourcesOf,
  type Checkpoint,
  type OperationType,
  type PendingOperation,
  type StateResource,
} from "./checkpoint";
import { earlierCheckpointFiles, fileBackendDir, readCheckpointFile, stackFiles } from "./fileBackend";
import type { PulumiRunner } from "./pulumiCommand";
import { kindOf } from "./registry";
import type { StackSession } from "./session";
import type { PlatformObject, StackKind } from "./stackKind";
import { exportCheckpoint } from "./stackState";

/** One stack's current state, named as its backend names it (`<project>/<stack>`). */
export interface StackCheckpoint {
  stack: string;
  checkpoint: Checkpoint;
}

/** What the rule is decided from. */
export interface OwnershipRecords {
  /** This stack, as its backend names it. */
  stack: string;
  /** Its state now. */
  current: Checkpoint;
  /** Its earlier states that the backend keeps (history, backups). */
  earlier: readonly Checkpoint[];
  /** The current states of the backend's other stacks that could be read. */
  others: readonly StackCheckpoint[];
  /** Why some of the backend's stacks could not be read; undefined when every one was. */
  unseen?: string;
}

/** A stack that holds an object. */
export interface Holder {
  /** `<project>/<stack>`, as the backend names it. */
  stack: string;
  /** This stack. */
  self: boolean;
  /** How it holds it, for messages: `resource x`, `pending create of x`. */
  as: string;
}

export interface Ownership {
  /** This stack, as its backend names it. */
  readonly stack: string;
  /**
   * Why some stacks of the backend could not be read (an object none of the read ones holds may then
   * still be another stack's); undefined when every stack was read.
   */
  readonly unseen: string | undefined;
  /** The stack of the backend that holds `object` (this one first), if any of those read does. */
  holderOf(kind: StackKind, object: PlatformObject): Holder | undefined;
  /** Another stack of the backend that holds `object`, if any of those read does. */
  otherHolderOf(kind: StackKind, object: PlatformObject): Holder | undefined;
  /** What proves that `object` belongs to this stack (a few words for tables), or undefined: nothing does. */
  proofOf(kind: StackKind, object: PlatformObject): string | undefined;
}

/** What one or more checkpoints say about objects: ids, and pending creates (whose objects have no id in them). */
interface Claims {
  ids: Map<string, string>;
  creates: { kind: StackKind; inputs: Record<string, unknown>; as: string }[];
}

const OPERATION_NOUN: Record<OperationType, string> = { creating: "create", updating: "update", deleting: "delete", reading: "read", importing: "import" };

const idKey = (kind: StackKind, id: string) => `${kind.type}\u0000${id}`;

/**
 * The claims of `checkpoints`: resources (`resourceWord` + name) and pending operations by id,
 * pending creates by what they recorded.
 */
function claimsOf(checkpoints: readonly Checkpoint[], resourceWord: string): Claims {
  const claims: Claims = { ids: new Map(), creates: [] };
  const claimId = (r: StateResource, as: string) => {
    const kind = kindOf(r.type);
    if (kind && r.id !== undefined && !claims.ids.has(idKey(kind, r.id))) claims.ids.set(idKey(kind, r.id), as);
  };
  const claimOp = (op: PendingOperation) => {
    const kind = kindOf(op.resource.type);
    const as = `pending ${OPERATION_NOUN[op.type]} of ${resourceNameOf(op.resource.urn)}`;
    claimId(op.resource, as);
    if (kind && op.type === "creating") claims.creates.push({ kind, inputs: op.resource.inputs ?? {}, as });
  };
  for (const checkpoint of checkpoints) {
    resourcesOf(checkpoint).forEach((r) => claimId(r, `${resourceWord} ${resourceNameOf(r.urn)}`));
    pendingOf(checkpoint).forEach(claimOp);
  }
  return claims;
}

/** How `claims` claim `object`, if they do. */
function claimOn(claims: Claims, kind: StackKind, object: PlatformObject): string | undefined {
  return (
    claims.ids.get(idKey(kind, object.id)) ?? claims.creates.find((c) => c.kind === kind && c.inputs.name === object.name && kind.madeBy(object, c.inputs))?.as
  );
}

/** The rule, decided from `records` (no I/O). */
export function ownershipFrom(records: OwnershipRecords): Ownership {
  const own = claimsOf([records.current], "resource");
  const history = claimsOf([records.current, ...records.earlier], "recorded resource");
  const others = records.others.map((s) => ({ stack: s.stack, claims: claimsOf([s.checkpoint], "resource") }));
  const otherHolderOf = (kind: StackKind, object: PlatformObject): Holder | undefined => {
    for (const other of others) {
      const as = claimOn(other.claims, kind, object);
      if (as) return { stack: other.stack, self: false, as };
    }
    return undefined;
  };
  return {
    stack: records.stack,
    unseen: records.unseen,
    holderOf(kind, object) {
      const as = claimOn(own, kind, object);
      return as ? { stack: records.stack, self: true, as } : otherHolderOf(kind, object);
    },
    otherHolderOf,
    proofOf: (kind, object) => claimOn(history, kind, object),
  };
}

/**
 * The rule for the stack of `session`, whose state now is `current`: the backend's files for a
 * `file://` backend, Pulumi's commands otherwise.
 * @throws PulumiCommandError when `pulumi whoami` or the stack's name cannot be had.
 */
export async function readOwnership(session: StackSession, current: Checkpoint): Promise<Ownership> {
  const stack = (await session.pulumi(["stack", "--show-name", "--fully-qualify-stack-names"])).trim();
  const dir = await fileBackendDir(session.pulumi);
  return ownershipFrom(dir ? fromFiles(dir, stack, current) : await fromPulumi(session, stack, current));
}

/** A file backend: every stack's file, and this stack's earlier checkpoints. */
function fromFiles(dir: string, stack: string, current: Checkpoint): OwnershipRecords {
  // `organization/<project>/<stack>` names the file `stacks/<project>/<stack>.json`; a legacy stack is `<stack>`.
  const ref = stack.replace(/^organization\//, "");
  const others: StackCheckpoint[] = [];
  const unread: string[] = [];
  for (const f of stackFiles(dir)) {
    if (f.ref === ref) continue;
    try {
      others.push({ stack: f.ref, checkpoint: readCheckpointFile(f.file) });
    } catch (err) {
      unread.push(`${f.ref} (${(err as Error).message})`);
    }
  }
  const earlier: Checkpoint[] = [];
  for (const file of earlierCheckpointFiles(dir, ref)) {
    try {
      earlier.push(readCheckpointFile(file));
    } catch {
      // An unreadable earlier checkpoint proves nothing; the rule only loses what it would have proved.
    }
  }
  return { stack: ref, current, earlier, others, unseen: unread.length > 0 ? `cannot read the state of ${unread.join(", ")}` : undefined };
}

/** Any other backend: the project's stacks `pulumi stack ls` lists, and earlier versions `pulumi stack export --version` gives. */
async function fromPulumi(session: StackSession, stack: string, current: Checkpoint): Promise<OwnershipRecords> {
  const others: StackCheckpoint[] = [];
  try {
    const listed = JSON.parse(await session.pulumi(["stack", "ls", "--json"], { anyStack: true })) as { name: string }[];
    const short = stack.slice(stack.lastIndexOf("/") + 1);
    for (const s of listed) {
      if (s.name === stack || s.name === short || s.name.endsWith(`/${short}`)) continue;
      others.push({ stack: s.name, checkpoint: await exportCheckpoint(session.pulumiFor(s.name)) });
    }
  } catch {
    // Whatever could not be read is unseen, as the other projects' stacks are anyway.
  }
  return {
    stack,
    current,
    earlier: await earlierStates(session.pulumi),
    others,
    unseen: "the backend is not a file:// one, so the stacks of other projects, organizations and backends cannot all be read",
  };
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
      return states;
    }
  }
  return states;
}
