/** NetworkVolume's ports and listings: REST v2 on both paths (the contract has no GraphQL operations for volumes). */
import type { PlatformClient } from "../../../api";
import type { PerPath } from "../../apiPath";
import type { NetworkVolumeState } from "../../paths/records";
import type { PortFactory } from "../../port";
import type { NetworkVolumeInputs } from "../model";
import { networkVolumeStateFromV2, v2NetworkVolumePort } from "./v2";

export const NETWORK_VOLUME_PORTS: PerPath<PortFactory<NetworkVolumeInputs, NetworkVolumeState>> = { graphql: v2NetworkVolumePort, v2: v2NetworkVolumePort };

/** REST v2 `listNetworkVolumes`. */
const list = async (client: PlatformClient): Promise<NetworkVolumeState[]> => (await client.v2.listNetworkVolumes()).map(networkVolumeStateFromV2);
export const NETWORK_VOLUME_LISTING: PerPath<typeof list> = { graphql: list, v2: list };
