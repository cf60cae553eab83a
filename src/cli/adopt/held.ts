/**
 * What a stack of the backend already holds, which `adopt` leaves out: this stack's resources and those
 * of the backend's other stacks (`pulumi stack ls --all --json`, each exported), by kind and id.
 * One small function, so the backend-wide ownership rule (the issue "A team's first week") can take its place.
 */
import { resourcesOf, type Checkpoint } from "../stack/checkpoint";
import type { PulumiRunner } from "../stack/pulumiCommand";
import { kindOf } from "../stack/registry";
import { exportCheckpoint } from "../stack/stackState";
import type { StackKind } from "../stack/stackKind";

/** `<stack kind type>:<id>` of every live resource of this package in `checkpoint`. */
export function heldIn(checkpoint: Checkpoint): { kind: StackKind; id: string }[] {
  return resourcesOf(checkpoint).flatMap((r) => {
    const kind = kindOf(r.type);
    return kind && r.id && !r.delete ? [{ kind, id: r.id }] : [];
  });
}

/**
 * The resources of this package held by any stack of the backend, every project's (this one's included:
 * `pulumi stack ls --all --json`, each exported).
 */
export async function heldByBackend(pulumi: PulumiRunner, runnerFor: (stack: string) => PulumiRunner): Promise<{ kind: StackKind; id: string }[]> {
  const stacks = JSON.parse(await pulumi(["stack", "ls", "--all", "--json"], { anyStack: true })) as { name: string }[];
  const held: { kind: StackKind; id: string }[] = [];
  for (const s of stacks) held.push(...heldIn(await exportCheckpoint(runnerFor(s.name))));
  return held;
}
