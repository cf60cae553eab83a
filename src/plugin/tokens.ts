/**
 * Type tokens of the provider plugin: `runpod:index:<Type>` for each resource model (the dynamic
 * provider's resources are `pulumi-nodejs:dynamic/runpod:<Type>` instead, model/fields.ts `typeToken`).
 */
import { KINDS, type ResourceKindName, type ResourceModel } from "../provider";

/** The package name: the plugin is `pulumi-resource-runpod`, its tokens `runpod:…`. */
export const PACKAGE = "runpod";

/** The plugin's token for a resource of `model`, e.g. `runpod:index:Endpoint`. */
export function tokenOf(model: ResourceModel): string {
  return `${PACKAGE}:index:${model.type}`;
}

const BY_TOKEN = new Map<string, ResourceKindName>(KINDS.map((k) => [tokenOf(k.model), k.kind]));

/** The resource kind of a URN or a type token; undefined for a type this plugin does not serve. */
export function kindOf(urnOrToken: string): ResourceKindName | undefined {
  // urn:pulumi:<stack>::<project>::<qualified type>::<name>; the qualified type ends with the token.
  const parts = urnOrToken.split("::");
  const qualified = parts.length >= 4 ? parts[2] : urnOrToken;
  const token = qualified.slice(qualified.lastIndexOf("$") + 1);
  return BY_TOKEN.get(token);
}

/** The resource name of a URN (its last segment). */
export function nameOf(urn: string): string {
  const parts = urn.split("::");
  return parts[parts.length - 1];
}
