/**
 * Each kind's ports, keyed by API path: the only place a path is chosen for a kind's operations (the
 * providers and the stack commands take theirs from here with the session's `runpod:api`).
 */
import type { PerPath } from "../apiPath";
import type { EndpointInputs } from "../endpoint/model";
import { graphqlEndpointPort } from "../endpoint/paths/graphql";
import { v2EndpointPort } from "../endpoint/paths/v2";
import type { NetworkVolumeInputs } from "../networkVolume/model";
import { v2NetworkVolumePort } from "../networkVolume/paths/v2";
import type { PortFactory } from "../port";
import type { PodInputs } from "../pod/model";
import { v2PodPort } from "../pod/paths/v2";
import type { RegistryAuthInputs } from "../registryAuth/model";
import { graphqlRegistryAuthPort } from "../registryAuth/paths/graphql";
import { v2RegistryAuthPort } from "../registryAuth/paths/v2";
import type { TemplateInputs } from "../template/model";
import { graphqlTemplatePort } from "../template/paths/graphql";
import { v2TemplatePort } from "../template/paths/v2";
import type { EndpointState, NetworkVolumeState, PodState, RegistryAuthState, TemplateState } from "./records";

export const ENDPOINT_PORTS: PerPath<PortFactory<EndpointInputs, EndpointState>> = { graphql: graphqlEndpointPort, v2: v2EndpointPort };
export const TEMPLATE_PORTS: PerPath<PortFactory<TemplateInputs, TemplateState>> = { graphql: graphqlTemplatePort, v2: v2TemplatePort };
export const REGISTRY_AUTH_PORTS: PerPath<PortFactory<RegistryAuthInputs, RegistryAuthState>> = {
  graphql: graphqlRegistryAuthPort,
  v2: v2RegistryAuthPort,
};
/** REST v2 on both paths: the contract has no GraphQL operations for network volumes. */
export const NETWORK_VOLUME_PORTS: PerPath<PortFactory<NetworkVolumeInputs, NetworkVolumeState>> = { graphql: v2NetworkVolumePort, v2: v2NetworkVolumePort };
/** Pods speak REST v2 whatever `runpod:api` says: the document has no GraphQL operations for them. */
export const POD_PORTS: PerPath<PortFactory<PodInputs, PodState>> = { graphql: v2PodPort, v2: v2PodPort };
