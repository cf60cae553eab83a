/**
 * The resource kinds the stack commands handle; a new kind joins by adding its {@link StackKind} (named apart from the provider's `RESOURCE_KINDS`, which it takes type tokens from)
 * here. Orphans are removed in this order: endpoints before the templates they use, templates before
 * the registry credentials they pull with; network volumes after the endpoints and pods that mount them.
 */
import { tokenOf } from "../../plugin/tokens";
import { RESOURCE_KINDS as MODELS, typeToken } from "../../provider";
import { endpointKind } from "./endpointKind";
import { networkVolumeKind } from "./networkVolumeKind";
import { podKind } from "./podKind";
import type { StackKind } from "./stackKind";
import { registryAuthKind, templateKind } from "./templateKinds";

export const STACK_KINDS: readonly StackKind[] = [endpointKind, templateKind, registryAuthKind, podKind, networkVolumeKind];

/** Each kind's provider-plugin token (`runpod:index:Endpoint`) → its dynamic-provider token, which keys the kinds. */
const DYNAMIC_OF_PLUGIN = new Map<string, string>(Object.values(MODELS).map((k) => [tokenOf(k.model), typeToken(k.model)]));

/** Whether `type` is a provider-plugin token of this package (a resource of `pulumi-resource-runpod`). */
export function isPluginType(type: string): boolean {
  return DYNAMIC_OF_PLUGIN.has(type);
}

/**
 * The type the stack commands key a resource by: the same for both ways of serving a kind, so a
 * plugin resource (`runpod:index:Endpoint`) counts as the dynamic one (`pulumi-nodejs:dynamic/runpod:Endpoint`).
 */
export function canonicalType(type: string): string {
  return DYNAMIC_OF_PLUGIN.get(type) ?? type;
}

/** The kind whose type token (dynamic provider or plugin) is `type`, if this package manages it. */
export function kindOf(type: string): StackKind | undefined {
  const canonical = canonicalType(type);
  return STACK_KINDS.find((k) => k.type === canonical);
}

/** Whether `type` is an Endpoint's, served either way (`cost`, and the after-deploy commands' resource names). */
export function isEndpointType(type: string | undefined): boolean {
  return type !== undefined && kindOf(type) === endpointKind;
}

/** Whether `type` is a NetworkVolume's, served either way (`cost`). */
/** Whether `type` is a Pod's, served either way (`cost`). */
export function isPodType(type: string | undefined): boolean {
  return type !== undefined && kindOf(type) === podKind;
}

export function isNetworkVolumeType(type: string | undefined): boolean {
  return type !== undefined && kindOf(type) === networkVolumeKind;
}
