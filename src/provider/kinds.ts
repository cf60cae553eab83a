/**
 * The provider's resources: one entry per resource kind, keyed by the kind its model and its
 * serialized stub name (`resources.<kind>` of the provider module). Adding a resource adds its entry.
 * Implementations load at their first use, so loading the provider module stays light.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { ENDPOINT_MODEL } from "./endpoint/model";
import type { ResourceModel } from "./model/fields";
import { NETWORK_VOLUME_MODEL } from "./networkVolume/model";
import { POD_MODEL } from "./pod/model";
import { REGISTRY_AUTH_MODEL } from "./registryAuth/model";
import { TEMPLATE_MODEL } from "./template/model";
import type { PlatformSession } from "./session";

/** One resource kind's operations, as the dynamic provider host calls them (its `configure` is the runtime's). */
export type ResourceOperations = Required<Omit<dynamic.ResourceProvider, "configure">>;

export interface ResourceKind {
  model: ResourceModel;
  /** The kind's provider on the process's session (its bookkeeping lives as long as that session). */
  provider(session: PlatformSession): Promise<ResourceOperations>;
}

export const RESOURCE_KINDS = {
  endpoint: {
    model: ENDPOINT_MODEL,
    provider: async (session: PlatformSession) => new (await import("./endpoint/provider")).EndpointProvider(session),
  },
  template: {
    model: TEMPLATE_MODEL,
    provider: async (session: PlatformSession) => new (await import("./template/provider")).TemplateProvider(session),
  },
  registryAuth: {
    model: REGISTRY_AUTH_MODEL,
    provider: async (session: PlatformSession) => new (await import("./registryAuth/provider")).RegistryAuthProvider(session),
  },
  networkVolume: {
    model: NETWORK_VOLUME_MODEL,
    provider: async (session: PlatformSession) => new (await import("./networkVolume/provider")).NetworkVolumeProvider(session),
  },
  pod: {
    model: POD_MODEL,
    provider: async (session: PlatformSession) => new (await import("./pod/provider")).PodProvider(session),
  },
} satisfies Record<string, ResourceKind>;

export type ResourceKindName = keyof typeof RESOURCE_KINDS;

/** Every kind, in registration order. */
export const RESOURCE_KIND_NAMES = Object.keys(RESOURCE_KINDS) as ResourceKindName[];
