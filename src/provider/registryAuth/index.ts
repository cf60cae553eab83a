/** The ContainerRegistryAuth kind: its descriptor (kind.ts), listed in kinds.ts. */
import type { KindDescriptor } from "../kind";
import type { RegistryAuthState } from "../paths/records";
import { REGISTRY_AUTH_MODEL, type RegistryAuthInputs } from "./model";
import { REGISTRY_AUTH_LISTING, REGISTRY_AUTH_PORTS } from "./paths";

export const REGISTRY_AUTH: KindDescriptor<"registryAuth", RegistryAuthInputs, RegistryAuthState> = {
  kind: "registryAuth",
  model: REGISTRY_AUTH_MODEL,
  doc: "Credentials the platform uses to pull a private image. The platform reports only the id and the name: `username` and `password` are kept from the inputs. `name` is generated from the resource name when unset.\n\nImport: `pulumi import runpod:index:ContainerRegistryAuth <name> <id>` (then give `username` and `password` in the program).",
  ports: REGISTRY_AUTH_PORTS,
  listing: REGISTRY_AUTH_LISTING,
  stack: { noun: "registry credentials", summary: () => "registry credentials" },
  provider: async (session) => new (await import("./provider")).RegistryAuthProvider(session),
};
