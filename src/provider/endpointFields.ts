/**
 * Names of the `Endpoint`'s fields — its inputs, the arguments users may write, its outputs — the one
 * list each, shared by validation (endpointInputs.ts), diff (endpointDiff.ts) and the public class
 * (src/resources/endpoint.ts). Kept apart from the validation rules so the Pulumi program, which needs
 * only the names, does not load zod at start-up.
 */
import type { EndpointInputs } from "./endpointInputs";
import { ENDPOINT_SETTING_FIELDS } from "./endpointSettings";
import type { EndpointOutputs } from "./endpointState";

/** Names of the canonical input fields (the endpoint's own, compared by `diff`), in display order. */
export const ENDPOINT_INPUT_FIELDS = [
  "name",
  "templateId",
  "gpuIds",
  "gpuTypeIds",
  "type",
  "idleTimeout",
  "locations",
  "fastBootType",
  "scalerType",
  "scalerValue",
  "workersMin",
  "workersMax",
  "networkVolumeId",
] as const satisfies readonly (keyof EndpointInputs)[];
export type EndpointInputField = (typeof ENDPOINT_INPUT_FIELDS)[number];

/**
 * Fields users may write: the canonical ones, `fastBoot` (a boolean spelling of `fastBootType`) and the
 * provider-only settings.
 */
export const ENDPOINT_ARG_FIELDS = [...ENDPOINT_INPUT_FIELDS, "fastBoot", ...ENDPOINT_SETTING_FIELDS] as const;

/** Properties of {@link EndpointOutputs}: the endpoint's id, what users may write, and its job URL. */
export const ENDPOINT_OUTPUT_FIELDS = [
  "endpointId",
  ...ENDPOINT_ARG_FIELDS,
  "jobUrl",
] as const satisfies readonly (keyof EndpointOutputs)[];
