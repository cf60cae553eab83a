/**
 * `Template` and `ContainerRegistryAuth` as the stack commands see them (names unique per account),
 * each listed and deleted through the stack's API path (docs/api-paths.md "What each path sends").
 */
import type { PlatformClient } from "../../api";
import { REGISTRY_AUTH_MODEL, TEMPLATE_MODEL } from "../../provider";
import type { PerPath } from "../../provider/apiPath";
import { LISTINGS } from "../../provider/paths/listings";
import { namedKind } from "./namedKind";
import type { PlatformObject } from "./stackKind";

type Delete = (client: PlatformClient, object: PlatformObject) => Promise<void>;

// GraphQL deletes a template by name (deleteTemplate), v2 by id; both refuse while an endpoint uses it.
const DELETE_TEMPLATE: PerPath<Delete> = {
  graphql: (client, object) => client.deleteTemplate(object.name),
  v2: (client, object) => client.v2.deleteTemplate(object.id),
};

const DELETE_REGISTRY_AUTH: PerPath<Delete> = {
  graphql: (client, object) => client.deleteRegistryAuth(object.id),
  v2: (client, object) => client.v2.deleteRegistry(object.id),
};

export const templateKind = namedKind({
  model: TEMPLATE_MODEL,
  noun: "template",
  list: async (client, api) => (await LISTINGS[api].templates(client)).map((t) => ({ id: t.id, name: t.name, summary: t.imageName })),
  delete: (client, object, api) => DELETE_TEMPLATE[api](client, object),
});

export const registryAuthKind = namedKind({
  model: REGISTRY_AUTH_MODEL,
  noun: "registry credentials",
  list: async (client, api) => (await LISTINGS[api].registryAuths(client)).map((r) => ({ id: r.id, name: r.name, summary: "registry credentials" })),
  delete: (client, object, api) => DELETE_REGISTRY_AUTH[api](client, object),
});
