/**
 * `Template` and `ContainerRegistryAuth` as the stack commands see them (names unique per account),
 * each listed and deleted through the stack's API path (docs/api-paths.md "What each path sends"):
 * the listing of paths/listings.ts, the delete of the kind's port (refused while something uses it).
 */
import { REGISTRY_AUTH_MODEL, TEMPLATE_MODEL } from "../../provider";
import { LISTINGS } from "../../provider/paths/listings";
import { REGISTRY_AUTH_PORTS, TEMPLATE_PORTS } from "../../provider/paths/ports";
import { namedKind } from "./namedKind";
import { portFor } from "./ports";

export const templateKind = namedKind({
  model: TEMPLATE_MODEL,
  noun: "template",
  list: async (client, api) => (await LISTINGS[api].templates(client)).map((t) => ({ id: t.id, name: t.name, summary: t.imageName })),
  delete: (client, object, api) => portFor(TEMPLATE_PORTS, client, api).delete(object.id, { name: object.name }),
});

export const registryAuthKind = namedKind({
  model: REGISTRY_AUTH_MODEL,
  noun: "registry credentials",
  list: async (client, api) => (await LISTINGS[api].registryAuths(client)).map((r) => ({ id: r.id, name: r.name, summary: "registry credentials" })),
  delete: (client, object, api) => portFor(REGISTRY_AUTH_PORTS, client, api).delete(object.id, { name: object.name }),
});
