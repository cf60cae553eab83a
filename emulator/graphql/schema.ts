/**
 * The GraphQL schema (spec: Endpoints › POST {graphql_url}, Resources › Serverless endpoint; template, registry
 * and `updateEndpointTemplate` operations and their type names from docs/spec/platform-clients.md and the
 * platform's clients, which declare those arguments nullable — so both `$input: T` and `$input: T!` validate). String-typed
 * fields with closed value sets (`gpuIds`, `locations`, `type`, `scalerType`) are strings as in the spec and
 * are checked by the resolvers; `fastBootType` is a real enum because the spec shows it unquoted.
 */
import { buildSchema, type GraphQLSchema } from "graphql";
import { ENDPOINT_FACTS as F, TEMPLATE_FACTS as T } from "../facts";

export const SDL = /* GraphQL */ `
  "Returns null; used by mutations whose success carries no data."
  scalar Void

  "Faster cold starts."
  enum FastBootType {
    ${F.fastBootType.values.join("\n    ")}
  }

  "The official clients' name for FastBootType (same setting)."
  enum FlashBootType {
    FLASHBOOT
  }

  type Query {
    "The caller (the owner of the API key)."
    myself: Myself!
    "GPU types that endpoints can be allocated on; input.id picks one."
    gpuTypes(input: GpuTypeFilter): [GpuType!]!
  }

  input GpuTypeFilter {
    id: String
  }

  input GpuLowestPriceInput {
    gpuCount: Int
  }

  input UserSettingsInput {
    pubKey: String
  }

  type Mutation {
    "Creates an endpoint (no id) or modifies the caller's endpoint with that id."
    saveEndpoint(input: EndpointInput!): Endpoint
    "Deletes the caller's endpoint; requires workersMin = 0 and workersMax = 0."
    deleteEndpoint(id: String!): Void
    "Creates a template (no id) or modifies the caller's template with that id."
    saveTemplate(input: SaveTemplateInput): PodTemplate
    "Deletes the caller's template with that name; refused while an endpoint uses it."
    deleteTemplate(templateName: String): Void
    "Saves registry credentials; the password is write-only."
    saveRegistryAuth(input: SaveRegistryAuthInput): ContainerRegistryAuth
    "Replaces username and password of the caller's registry credentials."
    updateRegistryAuth(input: UpdateRegistryAuthInput): ContainerRegistryAuth
    "Deletes the caller's registry credentials; refused while a template uses them."
    deleteRegistryAuth(registryAuthId: String): Void
    "Points the caller's endpoint at another serverless template; its workers roll onto it."
    updateEndpointTemplate(input: UpdateEndpointTemplateInput): Endpoint
    "Updates the caller's settings (the SSH public key)."
    updateUserSettings(input: UserSettingsInput): Myself
  }

  type Myself {
    id: String!
    email: String!
    endpoints: [Endpoint!]!
    serverlessDiscount: ServerlessDiscount
    "The caller's own templates."
    podTemplates: [PodTemplate!]!
    "The caller's registry credentials (never the password)."
    containerRegistryCreds: [ContainerRegistryAuth!]!
    "SSH public key(s) set with updateUserSettings; empty until set."
    pubKey: String
    networkVolumes: [NetworkVolume!]!
  }

  type NetworkVolume {
    id: String!
    name: String
    "GB."
    size: Int
    dataCenterId: String
    dataCenter: String
    type: String
  }

  type EnvironmentVariable {
    key: String!
    value: String!
  }

  type PodTemplate {
    id: String!
    name: String!
    imageName: String!
    dockerArgs: String
    "GB, ${T.containerDiskInGb.min} to ${T.containerDiskInGb.max}."
    containerDiskInGb: Int
    "GB, ${T.volumeInGb.min} to ${T.volumeInGb.max}."
    volumeInGb: Int
    volumeMountPath: String
    "port/protocol items (${T.ports.protocols.join(" or ")}), comma separated."
    ports: String
    env: [EnvironmentVariable!]!
    isServerless: Boolean!
    containerRegistryAuthId: String
    startSsh: Boolean
    isPublic: Boolean
    readme: String
  }

  type ContainerRegistryAuth {
    id: String!
    name: String!
  }

  input EnvironmentVariableInput {
    key: String
    value: String
  }

  input SaveTemplateInput {
    id: String
    name: String
    imageName: String
    dockerArgs: String
    containerDiskInGb: Int
    volumeInGb: Int
    volumeMountPath: String
    ports: String
    env: [EnvironmentVariableInput]
    isServerless: Boolean
    containerRegistryAuthId: String
    startSsh: Boolean
    isPublic: Boolean
    readme: String
  }

  input SaveRegistryAuthInput {
    name: String
    username: String
    password: String
  }

  input UpdateRegistryAuthInput {
    id: String
    username: String
    password: String
  }

  input UpdateEndpointTemplateInput {
    endpointId: String
    templateId: String
  }

  type ServerlessDiscount {
    discountFactor: Float!
    type: String!
    expirationDate: String!
  }

  type GpuType {
    id: String!
    displayName: String
    memoryInGb: Int
    manufacturer: String
    cudaCores: Int
    maxGpuCount: Int
    secureCloud: Boolean
    communityCloud: Boolean
    "USD per GPU-hour."
    securePrice: Float
    communityPrice: Float
    oneWeekPrice: Float
    oneMonthPrice: Float
    threeMonthPrice: Float
    secureSpotPrice: Float
    communitySpotPrice: Float
    lowestPrice(input: GpuLowestPriceInput): LowestPrice
  }

  type LowestPrice {
    gpuCount: Int
    "USD per GPU-hour."
    minimumBidPrice: Float
    uninterruptablePrice: Float
  }

  type Pod {
    desiredStatus: String!
  }

  type Endpoint {
    id: String!
    name: String!
    templateId: String!
    "Comma-separated GPU tiers: ${F.gpuIds.values.join(", ")}."
    gpuIds: String!
    "${F.type.values.join(" or ")} (queue-based or load balancing)."
    type: String!
    idleTimeout: Int
    "Comma-separated regions (${F.locations.values.join(", ")}); null or empty = any region."
    locations: String
    fastBootType: FastBootType
    "${F.scalerType.values.join(" or ")}."
    scalerType: String
    scalerValue: Int
    workersMin: Int!
    workersMax: Int!
    networkVolumeId: String
    pods: [Pod!]!
    "The endpoint's template."
    template: PodTemplate
    "Same setting as fastBootType, under the official clients' name."
    flashBootType: FlashBootType
    "GPUs per worker."
    gpuCount: Int
    "Comma-separated CUDA versions (${F.allowedCudaVersions.values.join(", ")}); null or empty = any."
    allowedCudaVersions: String
    minCudaVersion: String
    "Milliseconds a job may run."
    executionTimeoutMs: Int
    workersStandby: Int
    networkVolumeIds: [String!]!
    "Ids of the running workers."
    instanceIds: [String!]!
    "RFC 3339."
    createdAt: String
    userId: String
    version: Int
    aiKey: String
    "The template's environment."
    env: [EnvironmentVariable!]!
    networkVolume: NetworkVolume
  }

  input EndpointInput {
    id: String
    name: String!
    templateId: String!
    gpuIds: String!
    type: String
    idleTimeout: Int
    locations: String
    fastBootType: FastBootType
    scalerType: String
    scalerValue: Int
    workersMin: Int
    workersMax: Int
    networkVolumeId: String
    flashBootType: FlashBootType
    gpuCount: Int
    allowedCudaVersions: String
    minCudaVersion: String
    executionTimeoutMs: Int
    workersStandby: Int
  }
`;

let cached: GraphQLSchema | undefined;

/** The executable schema (built once; resolvers are supplied as the root value). */
export function schema(): GraphQLSchema {
  cached ??= buildSchema(SDL);
  return cached;
}
