/** ContainerRegistryAuth's ports and listings per API path: the only place a path is chosen for this kind. */
import type { PlatformClient } from "../../../api";
import type { PerPath } from "../../apiPath";
import type { RegistryAuthState } from "../../paths/records";
import type { PortFactory } from "../../port";
import type { RegistryAuthInputs } from "../model";
import { graphqlRegistryAuthPort, registryAuthStateFromGraphql } from "./graphql";
import { registryAuthStateFromV2, v2RegistryAuthPort } from "./v2";

export const REGISTRY_AUTH_PORTS: PerPath<PortFactory<RegistryAuthInputs, RegistryAuthState>> = {
  graphql: graphqlRegistryAuthPort,
  v2: v2RegistryAuthPort,
};

/** GraphQL `myself { containerRegistryCreds }`; REST v2 `listRegistries`. */
export const REGISTRY_AUTH_LISTING: PerPath<(client: PlatformClient) => Promise<RegistryAuthState[]>> = {
  graphql: async (client) => (await client.listRegistryAuths()).map(registryAuthStateFromGraphql),
  v2: async (client) => (await client.v2.listRegistries()).map(registryAuthStateFromV2),
};
