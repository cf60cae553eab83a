/**
 * Field-by-field diff of an `Endpoint` (docs/endpoint.md › Update, replace, delete, refresh): the model's
 * comparison and change policies (model/compare.ts; GPU ↔ CPU replaces: `cpuFlavorIds` replaces when set
 * or unset), plus the compute selection: among GPUs the desired form (`gpuIds` or `gpuTypeIds`) decides
 * which list is compared. The provider's diff (recordProvider.ts) takes `changed` from here.
 *
 * The dynamic provider compares the stored outputs (the platform's answer, refreshed by `read`) with
 * the checked inputs, so drift made outside Pulumi shows up here as a change.
 */
import { isSet } from "../model/check";
import { changedFields, replacing, sameValue } from "../model/compare";
import { containsUnknown } from "../unknown";
import { ENDPOINT_INPUT_FIELDS, ENDPOINT_MODEL, type EndpointInputField } from "./model";

/** Result of {@link diffEndpoint}; `changed` lists every changed field, `replaces` those forcing a new endpoint. */
export interface EndpointDiff {
  changes: boolean;
  changed: EndpointInputField[];
  replaces: EndpointInputField[];
  /**
   * Always false: a replacement is created before the old endpoint is deleted, so the service never
   * goes without an endpoint. The spec's "unique within the account" rule on `name` is stated for pods
   * and templates (Common GraphQL input fields), not endpoints, and the platform accepts two endpoints
   * with one name; the create's duplicate check compares against the endpoints that existed before it,
   * so the old endpoint is never mistaken for the new one. A user whose account does enforce unique
   * endpoint names sets the `deleteBeforeReplace` resource option.
   */
  deleteBeforeReplace: boolean;
}

const GPU_SELECTION: readonly EndpointInputField[] = ["gpuIds", "gpuTypeIds", "cpuFlavorIds"];
const COMPARED = ENDPOINT_INPUT_FIELDS.filter((f) => !GPU_SELECTION.includes(f));

/**
 * Compares stored outputs with checked inputs. Only the endpoint's own fields (the model's inputs)
 * are compared; the provider settings never make a change.
 *
 * @param olds the resource's stored outputs (`EndpointOutputs`, possibly refreshed; older states may lack fields).
 * @param news checked inputs (`check` output; may hold the unknown sentinel during preview — an unknown
 *   value counts as changed).
 * @returns the changed fields, the subset that forces replacement (the model's change policies) and
 *   whether the replacement must delete first. Never throws.
 */
export function diffEndpoint(olds: Record<string, unknown>, news: Record<string, unknown>): EndpointDiff {
  const changed = changedFields(ENDPOINT_MODEL, COMPARED, olds, news);
  const differs = (f: EndpointInputField) => containsUnknown(news[f]) || !sameValue(ENDPOINT_MODEL, f, olds[f], news[f]);
  const cpu = isSet(news.cpuFlavorIds);
  const wasCpu = Array.isArray(olds.cpuFlavorIds) && olds.cpuFlavorIds.length > 0;
  if (cpu !== wasCpu) {
    // GPU ↔ CPU: a new endpoint (the model's cpuFlavorIds replaces when set or unset).
    changed.push("cpuFlavorIds");
  } else if (cpu) {
    if (differs("cpuFlavorIds")) changed.push("cpuFlavorIds");
  } else if (isSet(news.gpuTypeIds)) {
    // From tiers to type names, or new type names: only REST v1 create takes them.
    if (!isSet(olds.gpuTypeIds) || differs("gpuTypeIds")) changed.push("gpuTypeIds");
  } else if (isSet(olds.gpuTypeIds) || differs("gpuIds")) {
    // Tiers changed, or type names given up for tiers (applied in place by saveEndpoint).
    changed.push("gpuIds");
  }
  const replaces = replacing(ENDPOINT_MODEL, changed, olds, news);
  return { changes: changed.length > 0, changed, replaces, deleteBeforeReplace: false };
}
