/**
 * The resource kinds the stack commands handle. A new kind (templates, registry credentials) joins
 * by adding its {@link ResourceKind} here.
 */
import { endpointKind } from "./endpointKind";
import type { ResourceKind } from "./resourceKind";

export const RESOURCE_KINDS: readonly ResourceKind[] = [endpointKind];

/** The kind whose type token is `type`, if this package manages it. */
export function kindOf(type: string): ResourceKind | undefined {
  return RESOURCE_KINDS.find((k) => k.type === type);
}
