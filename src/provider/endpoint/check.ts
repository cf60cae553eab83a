/**
 * The Endpoint provider's `check` (docs/endpoint.md; README › Troubleshooting): the model's validation and
 * defaults (model/check.ts) plus the rules that span fields — exactly one compute selection (GPU tiers,
 * GPU type names or CPU flavors) and nothing of the other family, a container (`imageName`) or a
 * template, `workersMax` defaulting to `workersMin` when that is larger, `workersMin` ≤ `workersMax`.
 */
import { checkFields, isComplete as isCompleteInputs, isSet, show, type InputFailure } from "../model/check";
import type { ApiPath } from "../apiPath";
import type { TemplateChanges } from "../kindSession";
import { UNKNOWN, isUnknown } from "../unknown";
import { ENDPOINT_DEFAULTS, ENDPOINT_MODEL, GPU_ONLY_FIELDS, type EndpointInputs } from "./model";

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
 * @param api the session's path: a load-balancing endpoint's smoke request needs v2's `requestUrls`.
 * @returns `inputs`: canonical inputs ({@link EndpointInputs}, `fastBoot` folded into `fastBootType`,
 *   defaults filled, `waitForWorkers` false and `workersReadyTimeout` 600 s among them, unknown values
 *   left as the sentinel); `failures`: one per bad field, `property` the field name, `reason` a
 *   sentence "`field` must be …; got …". Unknown property names are failures too.
 *   Never throws. Spec: Resources › Serverless endpoint.
 */
export function checkEndpointInputs(news: Record<string, unknown>, api: ApiPath = "graphql"): EndpointCheck {
  const { inputs, failures, given, bad } = checkFields(ENDPOINT_MODEL, news);

  foldCompute(given, inputs, bad, failures);
  foldContainer(given, inputs, failures);

  foldFlashboot(given, inputs, bad, failures);
  foldVolumes(given, inputs, bad, failures);

  const allowed = given.allowedCudaVersions;
  if (isSet(given.minCudaVersion) && Array.isArray(allowed) && allowed.length > 0 && !bad.has("allowedCudaVersions")) {
    failures.push({
      property: "minCudaVersion",
      reason: `set either minCudaVersion (a floor, ${show(given.minCudaVersion)}) or a non-empty allowedCudaVersions (an exact set, ${show(allowed)}), not both`,
    });
  }

  const { workersMin } = inputs;
  if (!isSet(given.workersMax)) {
    inputs.workersMax = isUnknown(workersMin) || bad.has("workersMin") ? UNKNOWN : defaultWorkersMax(workersMin as number);
  }
  const { workersMax } = inputs;
  if (!bad.has("workersMin") && !bad.has("workersMax") && !isUnknown(workersMin) && !isUnknown(workersMax) && (workersMin as number) > (workersMax as number)) {
    failures.push({ property: "workersMin", reason: `workersMin (${show(workersMin)}) must not exceed workersMax (${show(workersMax)})` });
  }
  // A smoke job goes through the job interface's queue, which only a queue-based endpoint has; on v2 a
  // load-balancing endpoint's requestUrls (base, health) take a smoke request instead (rollout.ts).
  if (isSet(inputs.smokeInput) && !bad.has("smokeInput") && inputs.type === "LB" && api !== "v2") {
    failures.push({
      property: "smokeInput",
      reason: `smokeInput on a load-balancing endpoint (type "LB") needs runpod:api v2, where its requestUrls take the smoke request; on ${api} it takes no jobs: unset it`,
    });
  }
  return { inputs, failures };
}

/**
 * The compute selection: exactly one of `gpuIds`, `gpuTypeIds` (GPUs) and `cpuFlavorIds` (CPU flavors,
 * REST v2 `cpu`); a CPU endpoint has `vcpuCount` (default 2, the document's minimum) and none of the
 * GPU-only inputs, which the document cannot represent there.
 */
function foldCompute(given: Record<string, unknown>, inputs: Record<string, unknown>, bad: Set<string>, failures: InputFailure[]): void {
  const hasTiers = isSet(given.gpuIds);
  const hasTypes = isSet(given.gpuTypeIds);
  const hasCpu = isSet(given.cpuFlavorIds);
  if (hasCpu && (hasTiers || hasTypes)) {
    const gpu = hasTiers ? "gpuIds" : "gpuTypeIds";
    failures.push({
      property: "cpuFlavorIds",
      reason: `set either ${gpu} (GPU workers) or cpuFlavorIds (CPU workers), not both: an endpoint runs on one compute family`,
    });
  } else if (hasTiers && hasTypes) {
    failures.push({ property: "gpuTypeIds", reason: "set exactly one of gpuIds (GPU tiers) and gpuTypeIds (GPU type names), not both" });
  } else if (!hasTiers && !hasTypes && !hasCpu) {
    const tiers = ENDPOINT_MODEL.fields.gpuIds.rule.values!.join(", ");
    failures.push({
      property: "gpuIds",
      reason: `one of gpuIds (GPU tiers: ${tiers}), gpuTypeIds (GPU type names) or cpuFlavorIds (CPU flavors, e.g. "cpu5c") is required`,
    });
  }
  if (!hasCpu) {
    if (isSet(given.vcpuCount) && !bad.has("vcpuCount")) {
      failures.push({ property: "vcpuCount", reason: "vcpuCount applies to a CPU endpoint only: set cpuFlavorIds with it, or unset it" });
    }
    return;
  }
  if (!isSet(given.vcpuCount)) inputs.vcpuCount = 2;
  for (const field of GPU_ONLY_FIELDS) {
    const v = given[field];
    if (!isSet(v) || (Array.isArray(v) && v.length === 0) || bad.has(field)) continue;
    failures.push({ property: field, reason: `${field} applies to GPU workers only: a CPU endpoint (cpuFlavorIds) has no place for it; unset it` });
  }
}

/**
 * A container or a template: `imageName`, `templateId` or both (the endpoint's own values winning). Without
 * a template, the container inputs left unset mean none (so drift in them shows), the disk the platform's.
 */
function foldContainer(given: Record<string, unknown>, inputs: Record<string, unknown>, failures: InputFailure[]): void {
  if (!isSet(given.templateId) && !isSet(given.imageName)) {
    failures.push({
      property: "imageName",
      reason:
        "set imageName (the image the endpoint runs; `runpod:api v2`), templateId (a serverless template), or both (the endpoint's values override the template's)",
    });
    return;
  }
  if (isSet(given.templateId)) return;
  const none: Record<string, unknown> = { dockerArgs: "", ports: [], env: {}, containerRegistryAuthId: null };
  for (const [field, value] of Object.entries(none)) if (!isSet(given[field])) inputs[field] = value;
}

/**
 * `flashboot` and its deprecated spellings `fastBoot` / `fastBootType` (GraphQL's, already folded
 * together): whichever is given sets the other; both given must agree (FASTBOOT = FLASHBOOT or
 * PRIORITY_FLASHBOOT).
 */
function foldFlashboot(given: Record<string, unknown>, inputs: Record<string, unknown>, bad: Set<string>, failures: InputFailure[]): void {
  if (["flashboot", "fastBoot", "fastBootType"].some((f) => bad.has(f))) return;
  const legacyGiven = isSet(given.fastBoot) || isSet(given.fastBootType);
  const legacy = inputs.fastBootType;
  if (isSet(given.flashboot)) {
    const mode = given.flashboot;
    const spelled = isUnknown(mode) ? UNKNOWN : mode === "OFF" ? null : "FASTBOOT";
    if (!legacyGiven) inputs.fastBootType = spelled;
    else if (!isUnknown(legacy) && spelled !== UNKNOWN && spelled !== legacy) {
      failures.push({
        property: "flashboot",
        reason: `flashboot (${show(mode)}) contradicts the deprecated fastBoot / fastBootType (${show(legacy)}); set only flashboot`,
      });
    }
  } else if (legacyGiven) {
    inputs.flashboot = isUnknown(legacy) ? UNKNOWN : legacy ? "FLASHBOOT" : "OFF";
  }
}

/**
 * One volume is `networkVolumeId` whichever field spells it, so a single-volume endpoint reads back the
 * same on both paths and `networkVolumeIds` holds only lists of two or more (REST v2 only).
 */
function foldVolumes(given: Record<string, unknown>, inputs: Record<string, unknown>, bad: Set<string>, failures: InputFailure[]): void {
  const ids = given.networkVolumeIds;
  if (!Array.isArray(ids) || bad.has("networkVolumeIds")) return;
  if (isSet(given.networkVolumeId) && ids.length > 0) {
    failures.push({ property: "networkVolumeIds", reason: "set either networkVolumeId (one volume) or networkVolumeIds (several), not both" });
    return;
  }
  if (ids.length === 1 && !isUnknown(ids[0])) {
    inputs.networkVolumeId = ids[0];
    inputs.networkVolumeIds = [];
  }
}

/** True when no field of the checked inputs is still unknown (they can be sent to the platform). */
export function isComplete(inputs: Record<string, unknown>): inputs is EndpointInputs {
  return isCompleteInputs(inputs);
}

/**
 * The checked input naming a template re-apply (docs/endpoint.md › Template changes reach the endpoint):
 * not the user's and never compared by the diff. It exists for the engine's display of a dynamic resource,
 * which names only checked inputs that differ from the stored ones.
 */
export const TEMPLATE_CHANGES = "templateChanges";

/**
 * Where endpoints copy their template (REST v2), the container fields the same deployment is changing in
 * the endpoint's unchanged template (`changesOf`: its Template diff ran first, the endpoint taking its id)
 * that reach this endpoint, sorted: those it does not declare itself, and `env` unless it declares every
 * changed key. Empty on a new or switched `templateId`, which shows by itself.
 */
export function templateChangesOf(
  olds: Record<string, unknown> | undefined,
  inputs: Record<string, unknown>,
  changesOf: (templateId: string) => TemplateChanges | undefined,
): string[] {
  const template = inputs.templateId;
  if (typeof template !== "string" || isUnknown(template) || olds?.templateId !== template) return [];
  const changes = changesOf(template);
  if (!changes) return [];
  const env = inputs.env;
  const reaches = (field: string): boolean => {
    if (field !== "env") return inputs[field] === undefined;
    if (env === undefined) return true;
    // An endpoint env still unknown is a change of its own: its diff names `env`.
    if (isUnknown(env) || typeof env !== "object" || env === null) return false;
    return changes.envKeys === undefined || changes.envKeys.some((k) => !(k in env));
  };
  return changes.fields.filter(reaches).sort();
}
