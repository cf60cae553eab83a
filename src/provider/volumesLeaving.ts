/**
 * A mount of a network volume the deployment deletes, refused at preview. The program side
 * (src/resources/volumesLeaving.ts) hands each endpoint and pod that mounts a volume the stack's
 * volumes the program no longer declares ({@link VOLUMES_LEAVING_PROPERTY}); `check` fails naming
 * every resource of the stack still mounting one, instead of the delete failing at `up` after its
 * retries (the platform refuses to delete a mounted volume).
 */
import type { InputFailure } from "./model/check";

/** Registered by Endpoint and Pod when they mount a volume: `{ <volume id>: LeavingVolume }`. `check` removes it. */
export const VOLUMES_LEAVING_PROPERTY = "__volumesLeaving";

export interface LeavingVolume {
  /** The volume's Pulumi resource name. */
  resource: string;
  /** The stack's endpoints and pods the program still declares that mount it, as `<kind> <resource name>`. */
  users: string[];
}

const MOUNT_FIELDS = ["networkVolumeId", "networkVolumeIds"] as const;

/** Removes the property from `news`; a failure per mounted volume it names. */
export function takeLeavingFailures(news: Record<string, unknown>, inputs: Record<string, unknown>, self: string): InputFailure[] {
  const leaving = news[VOLUMES_LEAVING_PROPERTY];
  delete news[VOLUMES_LEAVING_PROPERTY];
  delete inputs[VOLUMES_LEAVING_PROPERTY];
  if (typeof leaving !== "object" || leaving === null || Array.isArray(leaving)) return [];
  const byId = leaving as Record<string, LeavingVolume | undefined>;
  const failures: InputFailure[] = [];
  for (const field of MOUNT_FIELDS) {
    const value = inputs[field];
    const ids = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
    for (const id of ids) {
      const volume = typeof id === "string" ? byId[id] : undefined;
      if (!volume || typeof volume.resource !== "string") continue;
      const users = [...new Set([self, ...(Array.isArray(volume.users) ? volume.users : [])])].sort();
      failures.push({
        property: field,
        reason:
          `network volume ${id} (NetworkVolume ${volume.resource}) would be deleted: the program no longer declares it, ` +
          `but ${users.join(", ")} of this stack still mount${users.length === 1 ? "s" : ""} it, and the platform refuses to delete a mounted volume. ` +
          `Keep the NetworkVolume declared, or remove the mount (${field}) from ${users.length === 1 ? "it" : "them"} first and delete the volume in a later deployment`,
      });
    }
  }
  return failures;
}
