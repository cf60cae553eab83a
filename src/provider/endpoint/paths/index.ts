/** Endpoint's ports and listings per API path: the only place a path is chosen for this kind. */
import type { PlatformClient } from "../../../api";
import type { PerPath } from "../../apiPath";
import type { EndpointState } from "../../paths/records";
import type { PortFactory } from "../../port";
import type { EndpointInputs } from "../model";
import { endpointStateFromGraphql, graphqlEndpointPort, restCreateInputFrom } from "./graphql";
import { endpointStateFromV2, v2EndpointPort } from "./v2";

export const ENDPOINT_PORTS: PerPath<PortFactory<EndpointInputs, EndpointState>> = { graphql: graphqlEndpointPort, v2: v2EndpointPort };

/** GraphQL `myself { endpoints }` (spec: GraphQL › List endpoints); REST v2 `listEndpoints`. */
/**
 * The inputs an interrupted create surely carried, whichever path made it (a stack's `runpod:api` may
 * have changed since): with GPU type names, GraphQL's REST v1 create sends only its body's fields and
 * the rest follows in a second request; undefined: every input.
 */
export function createSurelyCarried(inputs: EndpointInputs): readonly string[] | undefined {
  return inputs.gpuTypeIds ? Object.keys(restCreateInputFrom(inputs)) : undefined;
}

export const ENDPOINT_LISTING: PerPath<(client: PlatformClient) => Promise<EndpointState[]>> = {
  graphql: async (client) => (await client.listEndpoints()).map(endpointStateFromGraphql),
  v2: async (client) => (await client.v2.listEndpoints()).map(endpointStateFromV2),
};
