/**
 * The listings every kind shares (session.ts), per path: the caller's endpoints, templates and registry
 * credentials as {@link EndpointState} / {@link TemplateState} / {@link RegistryAuthState}.
 */
import type { PlatformClient } from "../../api";
import type { PerPath } from "../apiPath";
import { endpointStateFromV2 } from "../endpoint/paths/v2Records";
import { templateStateFromV2 } from "../template/paths/v2Records";
import type { EndpointState, RegistryAuthState, TemplateState } from "./records";

export interface Listings {
  endpoints(client: PlatformClient): Promise<EndpointState[]>;
  templates(client: PlatformClient): Promise<TemplateState[]>;
  registryAuths(client: PlatformClient): Promise<RegistryAuthState[]>;
}

/** GraphQL `myself { endpoints | podTemplates | containerRegistryCreds }` (spec: GraphQL › List endpoints). */
const graphql: Listings = {
  endpoints: (client) => client.listEndpoints(),
  templates: (client) => client.listTemplates(),
  registryAuths: (client) => client.listRegistryAuths(),
};

/** REST v2 `listEndpoints`, `listTemplates`, `listRegistries`, mapped onto the model's records. */
const v2: Listings = {
  endpoints: async (client) => (await client.v2.listEndpoints()).map(endpointStateFromV2),
  templates: async (client) => (await client.v2.listTemplates()).map(templateStateFromV2),
  registryAuths: async (client) => (await client.v2.listRegistries()).map((r) => ({ id: r.id, name: r.name })),
};

export const LISTINGS: PerPath<Listings> = { graphql, v2 };
