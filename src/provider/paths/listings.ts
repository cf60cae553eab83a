/**
 * The listings every kind shares (session.ts), per path: the caller's endpoints, templates and registry
 * credentials as {@link EndpointState} / {@link TemplateState} / {@link RegistryAuthState}.
 */
import type { PlatformClient } from "../../api";
import type { PerPath } from "../apiPath";
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

export const LISTINGS: PerPath<Listings> = { graphql, v2: graphql };
