/**
 * The GraphQL schema (spec: Endpoints › POST {graphql_url}, Resources › Serverless endpoint). String-typed
 * fields with closed value sets (`gpuIds`, `locations`, `type`, `scalerType`) are strings as in the spec and
 * are checked by the resolvers; `fastBootType` is a real enum because the spec shows it unquoted.
 */
import { buildSchema, type GraphQLSchema } from "graphql";
import { ENDPOINT_FACTS as F } from "../facts";

export const SDL = /* GraphQL */ `
  "Returns null; used by mutations whose success carries no data."
  scalar Void

  "Faster cold starts."
  enum FastBootType {
    ${F.fastBootType.values.join("\n    ")}
  }

  type Query {
    "The caller (the owner of the API key)."
    myself: Myself!
    "GPU types that endpoints can be allocated on."
    gpuTypes: [GpuType!]!
  }

  type Mutation {
    "Creates an endpoint (no id) or modifies the caller's endpoint with that id."
    saveEndpoint(input: EndpointInput!): Endpoint
    "Deletes the caller's endpoint; requires workersMin = 0 and workersMax = 0."
    deleteEndpoint(id: String!): Void
  }

  type Myself {
    id: String!
    email: String!
    endpoints: [Endpoint!]!
    serverlessDiscount: ServerlessDiscount
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
  }
`;

let cached: GraphQLSchema | undefined;

/** The executable schema (built once; resolvers are supplied as the root value). */
export function schema(): GraphQLSchema {
  cached ??= buildSchema(SDL);
  return cached;
}
