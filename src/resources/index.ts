/** Public resources and lookups. */
export { Endpoint, type EndpointArgs } from "./endpoint";
export {
  getNetworkVolume,
  getNetworkVolumeOutput,
  getNetworkVolumes,
  getNetworkVolumesOutput,
  type GetNetworkVolumeArgs,
  type NetworkVolume,
} from "./networkVolume";
