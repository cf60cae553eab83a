/**
 * Network volumes on REST v2 (docs/spec/rest-v2-openapi.json, tag Network Volumes), the whole mapping, used
 * whatever `runpod:api` says (the contract has no GraphQL operations for volumes): `createNetworkVolume`
 * (`dataCenter` is the model's `dataCenterId`), `listNetworkVolumes` (the session's shared listing),
 * `updateNetworkVolume` with only what changed (`name`, a larger `size`), `deleteNetworkVolume` (400 while
 * something mounts the volume: the in-use refusal).
 */
import type { V2 } from "../../../api";
import { fieldOf, isNotFound } from "../../errorKinds";
import type { NetworkVolumeState } from "../../paths/records";
import type { Port, PortContext } from "../../port";
import type { NetworkVolumeInputs } from "../model";

export const networkVolumeStateFromV2 = (v: V2.NetworkVolume): NetworkVolumeState => ({
  id: v.id,
  name: v.name,
  size: v.size,
  dataCenterId: v.dataCenter,
  type: v.type,
});

export function v2NetworkVolumePort(context: PortContext): Port<NetworkVolumeInputs, NetworkVolumeState> {
  const v2 = () => context.client.v2;
  return {
    capabilities: { unreported: [], replaces: [], copiesTemplates: false },
    async create(inputs) {
      const body: V2.CreateNetworkVolumeRequest = { name: inputs.name, size: inputs.size, dataCenter: inputs.dataCenterId };
      if (inputs.type) body.type = inputs.type;
      return networkVolumeStateFromV2(await v2().createNetworkVolume(body));
    },
    read: (id) => context.listing<NetworkVolumeState>("networkVolume").find(id),
    async update(id, inputs, olds) {
      const body: V2.UpdateNetworkVolumeRequest = {};
      if (inputs.name !== olds.name) body.name = inputs.name;
      if (inputs.size !== olds.size) body.size = inputs.size;
      context.listing<NetworkVolumeState>("networkVolume").changed(id);
      // The document rejects an empty PATCH; nothing to send is a read.
      return networkVolumeStateFromV2(Object.keys(body).length > 0 ? await v2().updateNetworkVolume(id, body) : await v2().getNetworkVolume(id));
    },
    async delete(id) {
      context.listing<NetworkVolumeState>("networkVolume").changed(id);
      try {
        await v2().deleteNetworkVolume(id);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    },
    // 400: something still mounts the volume (document: deleteNetworkVolume).
    refusedInUse: (err) => fieldOf(err, "status") === 400,
  };
}
