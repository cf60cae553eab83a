/**
 * Validation and completion of `Endpoint` inputs — the provider's `check` (issue #4, issue #6 "Bad input").
 *
 * Each field has a zod schema and a sentence saying what it accepts; a bad field yields exactly one
 * failure naming the field, the accepted values or range, and the value received, so `pulumi preview`
 * stops before anything is created. Values the engine does not know yet (the unknown sentinel, during
 * preview) are skipped, never rejected. Defaults (endpointDefaults.ts) are filled in so the stored
 * inputs equal what the platform will report.
 */
import { z } from "zod";
import { ENDPOINT_TYPES, FAST_BOOT_TYPES, GPU_TIERS, LOCATIONS, SCALER_TYPES } from "../api/spec";
import type { EndpointType, FastBootType, GpuTier, Location, ScalerType } from "../api/spec";
import { ENDPOINT_DEFAULTS, defaultWorkersMax } from "./endpointDefaults";
import { ENDPOINT_ARG_FIELDS } from "./endpointFields";
import { AUTONAMED_PROPERTY } from "./endpointState";
import { ENDPOINT_SETTING_DEFAULTS, WORKERS_READY_TIMEOUT_MAX, WORKERS_READY_TIMEOUT_MIN, type EndpointSettings } from "./endpointSettings";
import { UNKNOWN, isUnknown } from "./unknown";

// The spec gives no bounds; these follow the platform's (and the emulator's, emulator/platform.ts LIMITS)
// so a value the platform would refuse is refused at preview instead.
/** Longest endpoint name accepted. */
export const NAME_MAX_LENGTH = 191;
/** Largest worker count accepted in `workersMin` / `workersMax`. */
export const WORKERS_LIMIT = 100;
/** Largest `idleTimeout` accepted, in seconds. */
export const IDLE_TIMEOUT_MAX = 3600;
/** Largest `scalerValue` accepted. */
export const SCALER_VALUE_MAX = 3600;
/** Shape of platform identifiers (templates, network volumes, endpoints): letters, digits, `_`, `-`. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const ID_RULE = "id of 1 to 64 letters, digits, '_' or '-' (starting with a letter or digit)";

/**
 * Endpoint inputs after `check`: every default filled in, exactly one of `gpuIds` / `gpuTypeIds`, plus
 * the provider-only settings (endpointSettings.ts).
 */
export interface EndpointInputs extends EndpointSettings {
  /** Given, kept from the old inputs, or generated from the resource name (then {@link AUTONAMED_PROPERTY} is set). */
  name: string;
  /** True when this `check` generated `name` (endpointName.ts). */
  [AUTONAMED_PROPERTY]?: true;
  templateId: string;
  /** GPU tiers in priority order (sent to the platform comma-separated). */
  gpuIds?: GpuTier[];
  /** GPU type names in priority order (REST v1 create only). */
  gpuTypeIds?: string[];
  type: EndpointType;
  /** Seconds. */
  idleTimeout: number;
  /** Region codes; empty = any region. */
  locations: Location[];
  fastBootType: FastBootType | null;
  scalerType: ScalerType;
  scalerValue: number;
  workersMin: number;
  workersMax: number;
  networkVolumeId: string | null;
}

// Re-exported: callers that validate inputs find the field names beside the rules.
export { ENDPOINT_ARG_FIELDS, ENDPOINT_INPUT_FIELDS, type EndpointInputField } from "./endpointFields";

/** A failure in the shape Pulumi's `CheckFailure` expects. */
export interface InputFailure {
  property: string;
  reason: string;
}

/** Result of {@link checkEndpointInputs}: the completed inputs (unknowns kept in place) and any failures. */
export interface EndpointCheck {
  inputs: Record<string, unknown>;
  failures: InputFailure[];
}

const list = (values: readonly string[]): string => values.join(", ");
/** No known element twice (several not-yet-known elements are fine). */
const unique = (a: readonly unknown[]): boolean => {
  const known = a.filter((v) => !isUnknown(v));
  return new Set(known).size === known.length;
};
/** Elements that are not yet known are accepted wherever a known element would be. */
const orUnknown = <T extends z.ZodTypeAny>(t: T) => z.union([t, z.literal(UNKNOWN)]);
const int = (min: number, max: number) => z.number().int().min(min).max(max);

interface FieldRule {
  schema: z.ZodTypeAny;
  /** What the field accepts, completing "`field` must be …". */
  expects: string;
}

/** Per-field rules; the table drives both validation and the failure text. */
export const FIELD_RULES: Record<(typeof ENDPOINT_ARG_FIELDS)[number], FieldRule> = {
  name: {
    // The platform trims names; surrounding spaces would come back removed and show a perpetual diff.
    schema: z.string().refine((s) => s.trim() === s && s.length > 0 && s.length <= NAME_MAX_LENGTH),
    expects: `a non-empty string of at most ${NAME_MAX_LENGTH} characters without leading or trailing spaces`,
  },
  templateId: { schema: z.string().regex(ID_PATTERN), expects: `a template ${ID_RULE}` },
  gpuIds: {
    schema: z.array(orUnknown(z.enum(GPU_TIERS))).min(1).refine(unique),
    expects: `a non-empty list of distinct GPU tiers in priority order, each one of ${list(GPU_TIERS)}`,
  },
  gpuTypeIds: {
    schema: z.array(orUnknown(z.string().refine((s) => s.trim().length > 0 && s.length <= 100))).min(1).refine(unique),
    expects: "a non-empty list of distinct GPU type names in priority order (e.g. \"NVIDIA GeForce RTX 4090\")",
  },
  type: { schema: z.enum(ENDPOINT_TYPES), expects: `one of ${list(ENDPOINT_TYPES)}` },
  idleTimeout: { schema: int(0, IDLE_TIMEOUT_MAX), expects: `an integer number of seconds from 0 to ${IDLE_TIMEOUT_MAX}` },
  locations: {
    schema: z.array(orUnknown(z.enum(LOCATIONS))).refine(unique),
    expects: `a list of distinct regions, each one of ${list(LOCATIONS)} (empty = any region)`,
  },
  fastBoot: { schema: z.boolean(), expects: "true or false" },
  fastBootType: { schema: z.enum(FAST_BOOT_TYPES), expects: `${list(FAST_BOOT_TYPES)} or unset` },
  scalerType: { schema: z.enum(SCALER_TYPES), expects: `one of ${list(SCALER_TYPES)}` },
  scalerValue: { schema: int(1, SCALER_VALUE_MAX), expects: `an integer from 1 to ${SCALER_VALUE_MAX}` },
  workersMin: { schema: int(0, WORKERS_LIMIT), expects: `an integer from 0 to ${WORKERS_LIMIT}` },
  workersMax: { schema: int(0, WORKERS_LIMIT), expects: `an integer from 0 to ${WORKERS_LIMIT}` },
  networkVolumeId: { schema: z.string().regex(ID_PATTERN), expects: `a network volume ${ID_RULE}, or unset` },
  waitForWorkers: { schema: z.boolean(), expects: "true or false" },
  workersReadyTimeout: {
    schema: int(WORKERS_READY_TIMEOUT_MIN, WORKERS_READY_TIMEOUT_MAX),
    expects: `an integer number of seconds from ${WORKERS_READY_TIMEOUT_MIN} to ${WORKERS_READY_TIMEOUT_MAX}`,
  },
};

/** Renders a received value for a failure message (short, JSON-like). */
function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function failure(property: string, reason: string): InputFailure {
  return { property, reason };
}

/** null and undefined both mean "not set". */
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

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
  const failures: InputFailure[] = [];
  const bad = new Set<string>();
  const raw: Record<string, unknown> = {};

  for (const [key, value] of Object.entries(news)) {
    if (key === "__provider") continue;
    if (!(ENDPOINT_ARG_FIELDS as readonly string[]).includes(key)) {
      if (isSet(value)) failures.push(failure(key, `unknown property "${key}"; Endpoint accepts ${list(ENDPOINT_ARG_FIELDS)}`));
      continue;
    }
    raw[key] = value;
  }

  for (const field of ENDPOINT_ARG_FIELDS) {
    const value = raw[field];
    if (!isSet(value) || isUnknown(value)) continue;
    if (!FIELD_RULES[field].schema.safeParse(value).success) {
      failures.push(failure(field, `${field} must be ${FIELD_RULES[field].expects}; got ${show(value)}`));
      bad.add(field);
    }
  }

  for (const field of ["name", "templateId"] as const) {
    if (!isSet(raw[field])) failures.push(failure(field, `${field} is required: ${FIELD_RULES[field].expects}`));
  }

  const hasTiers = isSet(raw.gpuIds);
  const hasTypes = isSet(raw.gpuTypeIds);
  if (hasTiers && hasTypes) {
    failures.push(failure("gpuTypeIds", "set exactly one of gpuIds (GPU tiers) and gpuTypeIds (GPU type names), not both"));
  } else if (!hasTiers && !hasTypes) {
    failures.push(failure("gpuIds", `one of gpuIds (GPU tiers: ${list(GPU_TIERS)}) or gpuTypeIds (GPU type names) is required`));
  }

  // fastBoot is the boolean spelling of fastBootType; both may be given only if they agree.
  let fastBootType: unknown = raw.fastBootType ?? null;
  if (isSet(raw.fastBoot) && !bad.has("fastBoot") && !bad.has("fastBootType")) {
    const fromBool = isUnknown(raw.fastBoot) ? UNKNOWN : raw.fastBoot ? "FASTBOOT" : null;
    if (isSet(raw.fastBootType) && !isUnknown(raw.fastBootType) && fromBool !== UNKNOWN && fromBool !== raw.fastBootType) {
      failures.push(failure("fastBoot", `fastBoot (${show(raw.fastBoot)}) contradicts fastBootType (${show(raw.fastBootType)}); set only one`));
    } else if (!isSet(raw.fastBootType)) {
      fastBootType = fromBool;
    }
  }

  const workersMin = isSet(raw.workersMin) ? raw.workersMin : ENDPOINT_DEFAULTS.workersMin;
  const workersMax = isSet(raw.workersMax)
    ? raw.workersMax
    : isUnknown(workersMin) || bad.has("workersMin")
      ? UNKNOWN
      : defaultWorkersMax(workersMin as number);
  if (
    !bad.has("workersMin") &&
    !bad.has("workersMax") &&
    !isUnknown(workersMin) &&
    !isUnknown(workersMax) &&
    (workersMin as number) > (workersMax as number)
  ) {
    failures.push(failure("workersMin", `workersMin (${show(workersMin)}) must not exceed workersMax (${show(workersMax)})`));
  }

  const inputs: Record<string, unknown> = {
    name: raw.name,
    templateId: raw.templateId,
    type: raw.type ?? ENDPOINT_DEFAULTS.type,
    idleTimeout: raw.idleTimeout ?? ENDPOINT_DEFAULTS.idleTimeout,
    locations: raw.locations ?? [...ENDPOINT_DEFAULTS.locations],
    fastBootType,
    scalerType: raw.scalerType ?? ENDPOINT_DEFAULTS.scalerType,
    scalerValue: raw.scalerValue ?? ENDPOINT_DEFAULTS.scalerValue,
    workersMin,
    workersMax,
    networkVolumeId: raw.networkVolumeId ?? ENDPOINT_DEFAULTS.networkVolumeId,
    waitForWorkers: raw.waitForWorkers ?? ENDPOINT_SETTING_DEFAULTS.waitForWorkers,
    workersReadyTimeout: raw.workersReadyTimeout ?? ENDPOINT_SETTING_DEFAULTS.workersReadyTimeout,
  };
  if (hasTiers) inputs.gpuIds = raw.gpuIds;
  if (hasTypes) inputs.gpuTypeIds = raw.gpuTypeIds;
  for (const key of Object.keys(inputs)) if (inputs[key] === undefined) delete inputs[key];
  return { inputs, failures };
}

/** True when no field of the checked inputs is still unknown (they can be sent to the platform). */
export function isComplete(inputs: Record<string, unknown>): inputs is Record<string, unknown> & EndpointInputs {
  return Object.values(inputs).every((v) => !isUnknown(v) && !(Array.isArray(v) && v.some(isUnknown)));
}
