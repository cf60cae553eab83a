/**
 * The listings every kind shares (session.ts), per path: the caller's endpoints, templates and registry
 * credentials as {@link EndpointState} / {@link TemplateState} / {@link RegistryAuthState}, each mapped
 * by its kind's path file.
 */
import type { PlatformClient } from "../../api";
import type { PerPath } from "../apiPath";
import { endpointStateFromGraphql } from "../endpoint/paths/graphql";
import { endpointStateFromV2 } from "../endpoint/paths/v2";
import { registryAuthStateFromGraphql } from "../registryAuth/paths/graphql";
import { registryAuthStateFromV2 } from "../registryAuth/paths/v2";
import { templateStateFromGraphql } from "../template/paths/graphql";
import { templateStateFromV2 } from "../template/paths/v2";
import { networkVolumeStateFromV2 } from "../networkVolume/paths/v2";
import type { EndpointState, NetworkVolumeState, RegistryAuthState, TemplateState } from "./records";

export interface Listings {
  endpoints(client: PlatformClient): Promise<EndpointState[]>;
  templates(client: PlatformClient): Promise<TemplateState[]>;
  registryAuths(client: PlatformClient): Promise<RegistryAuthState[]>;
  networkVolumes(client: PlatformClient): Promise<NetworkVolumeState[]>;
}

/** REST v2 `listNetworkVolumes` on every path: the contract has no GraphQL operations for volumes. */
const networkVolumes = async (client: PlatformClient) => (await client.v2.listNetworkVolumes()).map(networkVolumeStateFromV2);

/** GraphQL `myself { endpoints | podTemplates | containerRegistryCreds }` (spec: GraphQL › List endpoints). */
const graphql: Listings = {
  endpoints: async (client) => (await client.listEndpoints()).map(endpointStateFromGraphql),
  templates: async (client) => (await client.listTemplates()).map(templateStateFromGraphql),
  registryAuths: async (client) => (await client.listRegistryAuths()).map(registryAuthStateFromGraphql),
  networkVolumes,
};

/** REST v2 `listEndpoints`, `listTemplates`, `listRegistries`. */
const v2: Listings = {
  endpoints: async (client) => (await client.v2.listEndpoints()).map(endpointStateFromV2),
  templates: async (client) => (await client.v2.listTemplates()).map(templateStateFromV2),
  registryAuths: async (client) => (await client.v2.listRegistries()).map(registryAuthStateFromV2),
  networkVolumes,
};

export const LISTINGS: PerPath<Listings> = { graphql, v2 };
