/** `Template` and `ContainerRegistryAuth` as the stack commands see them (names unique per account). */
import { REGISTRY_AUTH_MODEL, TEMPLATE_MODEL } from "../../provider";
import { namedKind } from "./namedKind";

export const templateKind = namedKind({
  model: TEMPLATE_MODEL,
  noun: "template",
  list: async (client) => (await client.listTemplates()).map((t) => ({ id: t.id, name: t.name, summary: t.imageName })),
  // Deleted by name (the platform's deleteTemplate); refused while an endpoint uses it.
  delete: (client, object) => client.deleteTemplate(object.name),
});

export const registryAuthKind = namedKind({
  model: REGISTRY_AUTH_MODEL,
  noun: "registry credentials",
  list: async (client) => (await client.listRegistryAuths()).map((r) => ({ id: r.id, name: r.name, summary: "registry credentials" })),
  delete: (client, object) => client.deleteRegistryAuth(object.id),
});
