/**
 * What a stack of the backend already holds, which `adopt` leaves out: the ownership rule the stack
 * commands share (src/cli/stack/ownership.ts: this stack's resources and pending operations, and those
 * of the backend's other stacks), asked of each object as the kind's stack listing shows it.
 */
import { typeToken } from "../../provider";
import type { PlatformClient } from "../../api";
import type { Checkpoint } from "../stack/checkpoint";
import { readOwnership } from "../stack/ownership";
import { kindOf } from "../stack/registry";
import type { StackSession } from "../stack/session";
import { ADOPT_KINDS, MODEL_OF, heldKey } from "./plan";

export interface Held {
  /** `kind:id` (plan.ts `heldKey`) of every object a stack of the backend holds. */
  keys: Set<string>;
  /** Why some stacks of the backend could not be read (ownership.ts), if so. */
  unseen?: string;
}

export async function heldObjects(session: StackSession, current: Checkpoint, client: PlatformClient): Promise<Held> {
  const ownership = await readOwnership(session, current);
  const keys = new Set<string>();
  for (const kind of ADOPT_KINDS) {
    const stackKind = kindOf(typeToken(MODEL_OF[kind]))!;
    // The stack listing's objects (REST v2): what the rule compares pending creates with.
    for (const object of await stackKind.list(client, "v2")) if (ownership.holderOf(stackKind, object)) keys.add(heldKey(kind, object.id));
  }
  return { keys, unseen: ownership.unseen };
}
