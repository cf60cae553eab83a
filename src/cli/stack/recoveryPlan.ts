/**
 * What `pulumi-runpod recover` does about each pending operation of a stack, decided from the
 * exported state and a listing of the platform (no side effects here), and the state edit that
 * carries the decisions out.
 *
 * - A pending create whose object is on the platform is adopted: the object joins the state as the
 *   engine would have recorded it (inputs as checked, the id found), and a targeted `pulumi refresh`
 *   then reads it. When the URN already has a live resource, the create was a replacement: the old
 *   resource is marked for deletion, as the engine marks it once the replacement exists, so the next
 *   `pulumi up` deletes it.
 * - A pending create with no such object never reached the platform: it is dropped. An object that
 *   another stack of the backend holds is that stack's, never a candidate (ownership.ts).
 * - Where the backend's other stacks cannot all be read, a candidate is adopted only when the user
 *   confirmed its id; otherwise the create stays pending.
 * - Two or more candidates: nothing is decided (the table lists them); the user imports one.
 * - Pending updates and deletes (and reads, imports) are read back with a targeted refresh, which
 *   drops what is gone and records what is there; the next `pulumi up`/`destroy` finishes the work.
 */
import { pendingOf, resourcesOf, type Checkpoint, type PendingOperation, type StateResource } from "./checkpoint";
import type { Holder, Ownership } from "./ownership";
import { canonicalType, kindOf } from "./registry";
import type { PlatformObject, StackKind } from "./stackKind";

export type RecoveryAction =
  | { action: "adopt"; op: PendingOperation; kind: StackKind; object: PlatformObject; replaces: boolean }
  | { action: "drop"; op: PendingOperation; kind: StackKind; heldElsewhere?: { object: PlatformObject; holder: Holder } }
  | { action: "confirm"; op: PendingOperation; kind: StackKind; object: PlatformObject; unseen: string }
  | { action: "ambiguous"; op: PendingOperation; kind: StackKind; objects: PlatformObject[] }
  | { action: "refresh"; op: PendingOperation; kind: StackKind }
  | { action: "foreign"; op: PendingOperation };

/** The platform's objects, by kind type token (only kinds with pending creates need one). */
export type Listings = ReadonlyMap<string, readonly PlatformObject[]>;

/** What the plan asks of the ownership rule (ownership.ts), and the ids the user confirmed (`--id`). */
export interface PlanOwnership {
  ownership: Pick<Ownership, "otherHolderOf" | "unseen">;
  confirmed: readonly string[];
}

/**
 * One action per pending operation of `checkpoint`, in the state's order. Without `owners`, no other
 * stack is known.
 * @throws Error when a pending create's kind has no listing in `listings`.
 */
export function planRecovery(checkpoint: Checkpoint, listings: Listings, owners?: PlanOwnership): RecoveryAction[] {
  const resources = resourcesOf(checkpoint);
  const held = new Set(resources.filter((r) => r.id !== undefined).map((r) => `${canonicalType(r.type)}\u0000${r.id}`));
  const claimed = new Set<string>();
  return pendingOf(checkpoint).map((op): RecoveryAction => {
    const kind = kindOf(op.resource.type);
    if (!kind) return { action: "foreign", op };
    if (op.type !== "creating") return { action: "refresh", op, kind };
    const listing = listings.get(kind.type);
    if (!listing) throw new Error(`no ${kind.noun} listing to look for ${op.resource.urn} in`);
    const key = (o: PlatformObject) => `${kind.type}\u0000${o.id}`;
    const inputs = op.resource.inputs ?? {};
    const made = listing.filter((o) => !held.has(key(o)) && !claimed.has(key(o)) && kind.madeBy(o, inputs));
    const candidates = made.filter((o) => !owners?.ownership.otherHolderOf(kind, o));
    if (candidates.length === 0) {
      const elsewhere = made[0] && { object: made[0], holder: owners!.ownership.otherHolderOf(kind, made[0])! };
      return { action: "drop", op, kind, ...(elsewhere && { heldElsewhere: elsewhere }) };
    }
    if (candidates.length > 1) return { action: "ambiguous", op, kind, objects: candidates };
    claimed.add(key(candidates[0]));
    const unseen = owners?.ownership.unseen;
    if (unseen && !owners.confirmed.includes(candidates[0].id)) return { action: "confirm", op, kind, object: candidates[0], unseen };
    const replaces = resources.some((r) => r.urn === op.resource.urn && !r.delete);
    return { action: "adopt", op, kind, object: candidates[0], replaces };
  });
}

/** Kinds that have at least one pending create in `checkpoint` (their objects must be listed). */
export function kindsToList(checkpoint: Checkpoint): StackKind[] {
  const kinds = new Set<StackKind>();
  for (const op of pendingOf(checkpoint)) {
    const kind = kindOf(op.resource.type);
    if (kind && op.type === "creating") kinds.add(kind);
  }
  return [...kinds];
}

/**
 * A copy of `checkpoint` with the adopt and drop actions applied: those pending creates leave the
 * pending operations; each adopted object joins the resources (after everything it may refer to).
 * Other pending operations stay (the targeted refresh clears them).
 * @throws Error when an adopted resource's provider is not in the state (it cannot be read then).
 */
export function applyRecovery(checkpoint: Checkpoint, actions: readonly RecoveryAction[]): Checkpoint {
  const settled = new Set(actions.filter((a) => a.action === "adopt" || a.action === "drop").map((a) => a.op));
  const resources: StateResource[] = resourcesOf(checkpoint).map((r) => ({ ...r }));
  const providers = new Set(resources.filter((r) => r.id !== undefined).map((r) => `${r.urn}::${r.id}`));
  for (const a of actions) {
    if (a.action !== "adopt") continue;
    const pending = a.op.resource;
    if (pending.provider && !providers.has(pending.provider)) {
      throw new Error(`cannot adopt ${pending.urn}: its provider ${pending.provider} is not in the stack's state`);
    }
    if (a.replaces) for (const r of resources) if (r.urn === pending.urn) r.delete = true;
    const present = new Set(resources.map((r) => r.urn));
    const inputs = pending.inputs ?? {};
    const adopted: StateResource = { ...pending, custom: true, id: a.object.id, inputs, outputs: { ...inputs } };
    // What it depended on may have been a pending create that was dropped; a state must not refer to it.
    if (pending.dependencies) adopted.dependencies = pending.dependencies.filter((u) => present.has(u));
    if (pending.propertyDependencies) {
      adopted.propertyDependencies = Object.fromEntries(Object.entries(pending.propertyDependencies).map(([k, us]) => [k, us.filter((u) => present.has(u))]));
    }
    resources.push(adopted);
  }
  const pendingOperations = pendingOf(checkpoint).filter((op) => !settled.has(op));
  return { ...checkpoint, deployment: { ...checkpoint.deployment, resources, pending_operations: pendingOperations } };
}
