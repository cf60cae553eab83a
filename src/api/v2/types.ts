/**
 * The REST v2 shapes the client's `v2` methods take and return, named as the platform's OpenAPI
 * document (docs/spec/rest-v2-openapi.json) names them. Nothing is typed here: every type comes from
 * the files generated from that document (src/api/generated, `npm run generate:api`). Public as the
 * `V2` namespace of `pulumi-runpod/api` (e.g. `V2.Endpoint`), so the names do not meet the GraphQL
 * path's records (`EndpointRecord`, `TemplateRecord`, …).
 */
import type { z } from "zod";
import type * as gen from "../generated/types.gen";
import type { zListEndpointReleasesResponse } from "../generated/zod.gen";

// Serverless endpoints (document tag "Serverless").
export type {
  Endpoint,
  CreateEndpointRequest,
  UpdateEndpointRequest,
  ListEndpointsResponse,
  ListEndpointWorkersResponse,
  Worker,
  WorkerStatus,
  WorkerSummary,
  RolloutSummary,
  EndpointGpuConfig,
  CreateEndpointGpuConfig,
  UpdateEndpointGpuConfig,
  CpuConfig,
  CreateCpuConfig,
  EndpointWorkers,
  EndpointScaling,
  EndpointType,
  FlashBoot,
} from "../generated/types.gen";
// Templates, registries, network volumes.
export type {
  Template,
  CreateTemplateRequest,
  UpdateTemplateRequest,
  TemplateCategory,
  Registry,
  CreateRegistryRequest,
  NetworkVolume,
  VolumeType,
  CreateNetworkVolumeRequest,
  UpdateNetworkVolumeRequest,
} from "../generated/types.gen";
// Pods (document tag "Pods").
export type {
  Pod,
  CreatePodRequest,
  UpdatePodRequest,
  PodActionRequest,
  PodAction,
  PodStatus,
  PodSsh,
  PodSshEndpoint,
  Cloud,
  Mounts,
  PodBillingRecord,
  ListPodBillingResponse,
} from "../generated/types.gen";
// Catalog and billing.
export type {
  GpuType,
  CpuType,
  DataCenter,
  AvailabilityLevel,
  ServerlessBillingRecord,
  EndpointBillingRecord,
  ListServerlessBillingResponse,
  ListEndpointBillingResponse,
  NetworkVolumeBillingRecord,
  ListNetworkVolumeBillingResponse,
  BillingBucketSize,
} from "../generated/types.gen";
// Errors (RFC 9457).
export type { ErrorResponse } from "../generated/types.gen";

/**
 * Answer of `v2.listEndpointReleases`, as its zod schema parses it: a release diff entry's `old` and
 * `new` are `unknown` values, which zod 3 cannot require to be present (the document requires both).
 */
export type ListEndpointReleasesResponse = z.output<typeof zListEndpointReleasesResponse>;
/** One release of {@link ListEndpointReleasesResponse}. */
export type Release = ListEndpointReleasesResponse["releases"][number];

/** Query of `v2.listGpuTypes` (e.g. `{ include: ["AVAILABILITY"], product: ["SERVERLESS"] }`). */
export type ListGpuTypesQuery = NonNullable<gen.ListGpuTypesData["query"]>;
/** Query of `v2.getGpuType`. */
export type GetGpuTypeQuery = NonNullable<gen.GetGpuTypeData["query"]>;
/** Query of `v2.listCpuTypes`. */
export type ListCpuTypesQuery = NonNullable<gen.ListCpuTypesData["query"]>;
/** Query of `v2.getCpuType`. */
export type GetCpuTypeQuery = NonNullable<gen.GetCpuTypeData["query"]>;
/** Query of `v2.listDataCenters`. */
export type ListDataCentersQuery = NonNullable<gen.ListDataCentersData["query"]>;
/** Query of `v2.getDataCenter`. */
export type GetDataCenterQuery = NonNullable<gen.GetDataCenterData["query"]>;
/** Query of `v2.listServerlessBilling`: a time range (`startTime`/`endTime` RFC 3339, `bucketSize`) or `lastN` buckets, optional `serverlessId`. */
export type ListServerlessBillingQuery = NonNullable<gen.ListServerlessBillingData["query"]>;
/** Query of `v2.listPodBilling`: a time range or `lastN` buckets, optional `podId`. */
export type ListPodBillingQuery = NonNullable<gen.ListPodBillingData["query"]>;
/** Query of `v2.listEndpointBilling` (public model endpoints, not your serverless endpoints). */
export type ListEndpointBillingQuery = NonNullable<gen.ListEndpointBillingData["query"]>;
/** Query of `v2.listNetworkVolumeBilling`: a time range or `lastN` buckets, optional `networkVolumeId`. */
export type ListNetworkVolumeBillingQuery = NonNullable<gen.ListNetworkVolumeBillingData["query"]>;
