/**
 * The resource kinds the stack commands handle; a new kind joins by adding its {@link ResourceKind}
 * here. Orphans are removed in this order: endpoints before the templates they use, templates before
 * the registry credentials they pull with.
 */
import { endpointKind } from "./endpointKind";
import type { ResourceKind } from "./resourceKind";
import { registryAuthKind, templateKind } from "./templateKinds";

export const RESOURCE_KINDS: readonly ResourceKind[] = [endpointKind, templateKind, registryAuthKind];

/** The kind whose type token is `type`, if this package manages it. */
export function kindOf(type: string): ResourceKind | undefined {
  return RESOURCE_KINDS.find((k) => k.type === type);
}
