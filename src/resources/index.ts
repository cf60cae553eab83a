/** Public resources and lookups. */
export { Endpoint, type EndpointArgs, type SmokeStatus } from "./endpoint";
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
export {
  getCpuTypes,
  getCpuTypesOutput,
  getDataCenters,
  getDataCentersOutput,
  getGpuTypes,
  getGpuTypesOutput,
  type CpuType,
  type DataCenter,
  type GetCpuTypesArgs,
  type GetDataCentersArgs,
  type GetGpuTypesArgs,
  type GpuType,
} from "./catalog";
