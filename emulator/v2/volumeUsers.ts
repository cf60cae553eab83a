/**
 * Who mounts a network volume: the one answer to "who uses volume X", for the refusal of its delete
 * (v2/networkVolumes.ts). Endpoints mount volumes through `networkVolumes` (REST v2) or `networkVolumeId`
 * (GraphQL), pods through `mounts.network` (REST v2); other kinds that mount volumes add their query here.
 */
import type { Core } from "../core";

/** The caller's records that mount volume `volumeId`, each as "<kind> <id> (<name>)". */
export function volumeUsers(core: Core, userId: string, volumeId: string): string[] {
  const endpoints = core.store
    .listEndpoints(userId)
    .filter((e) => e.networkVolumeId === volumeId || (e.v2?.networkVolumeIds ?? []).includes(volumeId))
    .map((e) => `endpoint ${e.id} (${e.name})`);
  const pods = core.store
    .listPods(userId)
    .filter((p) => p.mounts.network?.some((m) => m.volumeId === volumeId))
    .map((p) => `pod ${p.id} (${p.name})`);
  return [...endpoints, ...pods];
}
