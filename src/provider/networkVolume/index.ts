/** The NetworkVolume kind: its descriptor (kind.ts), listed in kinds.ts. */
import type { KindDescriptor } from "../kind";
import type { NetworkVolumeState } from "../paths/records";
import { NETWORK_VOLUME_MODEL, type NetworkVolumeInputs } from "./model";
import { NETWORK_VOLUME_LISTING, NETWORK_VOLUME_PORTS } from "./paths";

export const NETWORK_VOLUME: KindDescriptor<"networkVolume", NetworkVolumeInputs, NetworkVolumeState> = {
  kind: "networkVolume",
  model: NETWORK_VOLUME_MODEL,
  doc: "Persistent network storage that endpoints mount (`networkVolumeId`), managed through REST v2 whatever `runpod:api` says. `name` renames and a larger `size` (GB) grows in place; a smaller `size` fails at preview; `dataCenterId` and `type` replace the volume (a new, empty one). Deleting it deletes its data: use the `protect` or `retainOnDelete` resource option for data worth keeping. `monthlyCost` is known at preview. `name` is generated from the resource name when unset.\n\nImport: `pulumi import runpod:index:NetworkVolume <name> <volume id>`.",
  ports: NETWORK_VOLUME_PORTS,
  listing: NETWORK_VOLUME_LISTING,
  stack: { noun: "network volume", summary: (v) => `${v.size} GB ${v.type} in ${v.dataCenterId}` },
  provider: async (session) => new (await import("./provider")).NetworkVolumeProvider(session),
};
