/**
 * The Endpoint provider's `check` (docs/endpoint.md; README › Troubleshooting): the model's validation and
 * defaults (model/check.ts) plus the rules that span fields — exactly one GPU selection, `workersMax`
 * defaulting to `workersMin` when that is larger, `workersMin` ≤ `workersMax`.
 */
import { checkFields, isComplete as isCompleteInputs, isSet, show, type InputFailure } from "../model/check";
import { UNKNOWN, isUnknown } from "../unknown";
import { ENDPOINT_DEFAULTS, ENDPOINT_MODEL, type EndpointInputs } from "./model";

export type { InputFailure } from "../model/check";

/** Result of {@link checkEndpointInputs}: the completed inputs (unknowns kept in place) and any failures. */
export interface EndpointCheck {
  inputs: Record<string, unknown>;
  failures: InputFailure[];
}

/** Default `workersMax` for a given `workersMin`: the platform default, or `workersMin` when larger. */
export function defaultWorkersMax(workersMin: number): number {
  return Math.max(ENDPOINT_DEFAULTS.workersMax!, workersMin);
}

/**
 * Validates raw `Endpoint` inputs and completes them with defaults.
 *
 * @param news the inputs as the engine passes them to `check` (may hold `__provider` and unknowns).
 * @returns `inputs`: canonical inputs ({@link EndpointInputs}, `fastBoot` folded into `fastBootType`,
 *   defaults filled, `waitForWorkers` false and `workersReadyTimeout` 600 s among them, unknown values
 *   left as the sentinel); `failures`: one per bad field, `property` the field name, `reason` a
 *   sentence "`field` must be …; got …". Unknown property names are failures too.
 *   Never throws. Spec: Resources › Serverless endpoint.
 */
export function checkEndpointInputs(news: Record<string, unknown>): EndpointCheck {
  const { inputs, failures, given, bad } = checkFields(ENDPOINT_MODEL, news);

  const hasTiers = isSet(given.gpuIds);
  const hasTypes = isSet(given.gpuTypeIds);
  if (hasTiers && hasTypes) {
    failures.push({ property: "gpuTypeIds", reason: "set exactly one of gpuIds (GPU tiers) and gpuTypeIds (GPU type names), not both" });
  } else if (!hasTiers && !hasTypes) {
    const tiers = ENDPOINT_MODEL.fields.gpuIds.rule.values!.join(", ");
    failures.push({ property: "gpuIds", reason: `one of gpuIds (GPU tiers: ${tiers}) or gpuTypeIds (GPU type names) is required` });
  }

  const { workersMin } = inputs;
  if (!isSet(given.workersMax)) {
    inputs.workersMax = isUnknown(workersMin) || bad.has("workersMin") ? UNKNOWN : defaultWorkersMax(workersMin as number);
  }
  const { workersMax } = inputs;
  if (!bad.has("workersMin") && !bad.has("workersMax") && !isUnknown(workersMin) && !isUnknown(workersMax) && (workersMin as number) > (workersMax as number)) {
    failures.push({ property: "workersMin", reason: `workersMin (${show(workersMin)}) must not exceed workersMax (${show(workersMax)})` });
  }
  return { inputs, failures };
}

/** True when no field of the checked inputs is still unknown (they can be sent to the platform). */
export function isComplete(inputs: Record<string, unknown>): inputs is Record<string, unknown> & EndpointInputs {
  return isCompleteInputs(inputs);
}
