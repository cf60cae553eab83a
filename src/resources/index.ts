/** Public resources and lookups. */
export { Endpoint, type EndpointArgs } from "./endpoint";
export { Template, type TemplateArgs } from "./template";
export { ContainerRegistryAuth, type ContainerRegistryAuthArgs } from "./containerRegistryAuth";
export { Pod, type PodArgs } from "./pod";
export {
  NetworkVolume,
  type NetworkVolumeArgs,
  type NetworkVolumeRecord,
  getNetworkVolume,
  getNetworkVolumeOutput,
  getNetworkVolumes,
  getNetworkVolumesOutput,
  type GetNetworkVolumeArgs,
} from "./networkVolume";
