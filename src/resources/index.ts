/** Public resources and lookups. */
export { Endpoint, type EndpointArgs } from "./endpoint";
export { Template, type TemplateArgs } from "./template";
export { ContainerRegistryAuth, type ContainerRegistryAuthArgs } from "./containerRegistryAuth";
export { Pod, type PodArgs } from "./pod";
export {
  getNetworkVolume,
  getNetworkVolumeOutput,
  getNetworkVolumes,
  getNetworkVolumesOutput,
  type GetNetworkVolumeArgs,
  type NetworkVolume,
} from "./networkVolume";
