/**
 * The provider's resource kinds: one descriptor per kind (`<kind>/index.ts`, kind.ts), one line each.
 * Everything that serves kinds derives from this list: the session's listings and ports (session.ts),
 * the provider module's `resources.<kind>`, the plugin's tokens and schema, the CLI's stack commands.
 * Adding a resource adds its line. Providers load at their first use, so the provider module stays light.
 */
import { ENDPOINT } from "./endpoint";
import type { AnyKind, ResourceOperations } from "./kind";
import { NETWORK_VOLUME } from "./networkVolume";
import { POD } from "./pod";
import { REGISTRY_AUTH } from "./registryAuth";
import { TEMPLATE } from "./template";

export const KINDS = [ENDPOINT, TEMPLATE, REGISTRY_AUTH, NETWORK_VOLUME, POD] as const satisfies readonly AnyKind[];

/** Each kind's descriptor by its name (`resources.<kind>`). */
export const RESOURCE_KINDS = Object.fromEntries(KINDS.map((k) => [k.kind, k])) as {
  [K in (typeof KINDS)[number]["kind"]]: Extract<(typeof KINDS)[number], { kind: K }>;
};

export type ResourceKindName = keyof typeof RESOURCE_KINDS;
export type { ResourceOperations };

/** Every kind, in registration order. */
export const RESOURCE_KIND_NAMES: ResourceKindName[] = KINDS.map((k) => k.kind);
