/** The Template kind: its descriptor (kind.ts), listed in kinds.ts. */
import { named, type KindDescriptor } from "../kind";
import type { TemplateState } from "../paths/records";
import { changedContainerFields, CONTAINER_FIELDS, runsTemplate } from "./container";
import { TEMPLATE_MODEL, type TemplateInputs } from "./model";
import { TEMPLATE_LISTING, TEMPLATE_PORTS } from "./paths";

export const TEMPLATE: KindDescriptor<"template", TemplateInputs, TemplateState> = {
  kind: "template",
  model: TEMPLATE_MODEL,
  doc: "A serverless template: the image, disk, start command, ports, environment (secret) and registry credentials an endpoint runs. `name` is generated from the resource name when unset.\n\nImport: `pulumi import runpod:index:Template <name> <template id>`.",
  ports: TEMPLATE_PORTS,
  listing: TEMPLATE_LISTING,
  stack: { noun: "template", summary: (t) => t.imageName },
  usesOf: {
    registryAuth: async (session, id) =>
      named(
        "templates",
        (await session.listing<TemplateState>("template").list()).filter((t) => t.containerRegistryAuthId === id),
      ),
  },
  // REST v2 endpoints copy a template's container settings: they compare their copy with these.
  container: {
    fields: CONTAINER_FIELDS,
    runs: runsTemplate,
    changed: (source: object, container: object) => changedContainerFields({ ...container }, { ...source }),
  },
  provider: async (session) => new (await import("./provider")).TemplateProvider(session),
};
