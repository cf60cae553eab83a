/** Public resources, their outputs and lookups: what the package root exports of each kind (src/index.ts). */
export { Endpoint, type EndpointArgs, type SmokeStatus } from "./endpoint";
export type { EndpointOutputs } from "../provider";
export { Template, type TemplateArgs } from "./template";
export type { TemplateOutputs } from "../provider";
export { ContainerRegistryAuth, type ContainerRegistryAuthArgs } from "./containerRegistryAuth";
export type { RegistryAuthOutputs as ContainerRegistryAuthOutputs } from "../provider";
export { Pod, type PodArgs } from "./pod";
export type { PodOutputs } from "../provider";
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
export type { NetworkVolumeOutputs } from "../provider";
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
