/**
 * Which pods mount a network volume, in the words of an in-use error ("pods a (x), b (y)"): for the
 * NetworkVolume kind's refused delete, beside the endpoints (pods speak REST v2 on every path; pod/index.ts `usesOf`).
 */
import type { PlatformClient } from "../../api";
import { listPodStates } from "./paths";

export async function podsMounting(client: PlatformClient, volumeId: string): Promise<string> {
  const pods = (await listPodStates(client)).filter((p) => p.networkVolumeId === volumeId);
  return pods.length > 0 ? `pods ${pods.map((p) => `${p.id} (${p.name})`).join(", ")}` : "";
}
