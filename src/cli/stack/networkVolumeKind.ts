/**
 * `NetworkVolume` as the stack commands see it: listed and deleted through REST v2 whatever the stack's
 * API path (the kind's ports map both paths to v2; paths/ports.ts). A pending create's volume is the one
 * with the name it recorded, as for the other named kinds.
 */
import { NETWORK_VOLUME_MODEL } from "../../provider";
import { LISTINGS } from "../../provider/paths/listings";
import { NETWORK_VOLUME_PORTS } from "../../provider/paths/ports";
import { namedKind } from "./namedKind";
import { portFor } from "./ports";

export const networkVolumeKind = namedKind({
  model: NETWORK_VOLUME_MODEL,
  noun: "network volume",
  list: async (client, api) =>
    (await LISTINGS[api].networkVolumes(client)).map((v) => ({ id: v.id, name: v.name, summary: `${v.size} GB ${v.type} in ${v.dataCenterId}` })),
  delete: (client, object, api) => portFor(NETWORK_VOLUME_PORTS, client, api).delete(object.id, { name: object.name }),
});
