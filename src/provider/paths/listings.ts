/**
 * The listings every kind shares (session.ts), per path: the caller's endpoints, templates, registry
 * credentials, network volumes and pods as {@link EndpointState} / {@link TemplateState} /
 * {@link RegistryAuthState} / {@link NetworkVolumeState} / {@link PodState}, each mapped by its kind's path file.
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
import { listPodStates } from "../pod/paths/v2";
import type { EndpointState, NetworkVolumeState, PodState, RegistryAuthState, TemplateState } from "./records";

export interface Listings {
  endpoints(client: PlatformClient): Promise<EndpointState[]>;
  templates(client: PlatformClient): Promise<TemplateState[]>;
  registryAuths(client: PlatformClient): Promise<RegistryAuthState[]>;
  networkVolumes(client: PlatformClient): Promise<NetworkVolumeState[]>;
  pods(client: PlatformClient): Promise<PodState[]>;
}

/** REST v2 `listNetworkVolumes` on every path: the contract has no GraphQL operations for volumes. */
const networkVolumes = async (client: PlatformClient) => (await client.v2.listNetworkVolumes()).map(networkVolumeStateFromV2);
/** REST v2 `listPods` on every path (no GraphQL operations for pods): whole Pods, as getPod returns one. */
const pods = listPodStates;

/** GraphQL `myself { endpoints | podTemplates | containerRegistryCreds }` (spec: GraphQL › List endpoints). */
const graphql: Listings = {
  endpoints: async (client) => (await client.listEndpoints()).map(endpointStateFromGraphql),
  templates: async (client) => (await client.listTemplates()).map(templateStateFromGraphql),
  registryAuths: async (client) => (await client.listRegistryAuths()).map(registryAuthStateFromGraphql),
  networkVolumes,
  pods,
};

/** REST v2 `listEndpoints`, `listTemplates`, `listRegistries`. */
const v2: Listings = {
  endpoints: async (client) => (await client.v2.listEndpoints()).map(endpointStateFromV2),
  templates: async (client) => (await client.v2.listTemplates()).map(templateStateFromV2),
  registryAuths: async (client) => (await client.v2.listRegistries()).map(registryAuthStateFromV2),
  networkVolumes,
  pods,
};

export const LISTINGS: PerPath<Listings> = { graphql, v2 };
