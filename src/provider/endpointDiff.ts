/**
 * Field-by-field diff of an `Endpoint`: what changed, and whether each change is applied in place
 * (`saveEndpoint` with `id`) or needs a new endpoint (issue #4 "diff").
 *
 * The dynamic provider compares the stored outputs (the platform's answer, refreshed by `read`) with
 * the checked inputs, so drift made outside Pulumi shows up here as a change.
 */
import { ENDPOINT_DEFAULTS } from "./endpointDefaults";
import { ENDPOINT_INPUT_FIELDS, type EndpointInputField } from "./endpointFields";
import { ENDPOINT_SETTING_FIELDS } from "./endpointSettings";
import { splitList } from "./endpointState";
import { containsUnknown } from "./unknown";

/** How a changed field is applied. */
export type ChangeKind = "update" | "replace";
/** How two values of a field are compared. */
export type Comparison = "value" | "ordered list" | "unordered list";

export interface FieldPolicy {
  change: ChangeKind;
  compare: Comparison;
  /** Why, for the README table. */
  why: string;
}

/**
 * Update-vs-replace table of every endpoint input. Exported so the README table is generated from
 * (and checked against) the code: see {@link renderChangePolicyTable}.
 */
export const ENDPOINT_CHANGE_POLICY: Record<EndpointInputField, FieldPolicy> = {
  name: { change: "update", compare: "value", why: "saveEndpoint modify carries name" },
  templateId: { change: "update", compare: "value", why: "saveEndpoint modify carries templateId" },
  gpuIds: {
    change: "update",
    compare: "ordered list",
    why: "tiers are a priority list sent as one comma-separated string; reordering is a change. Switching from gpuTypeIds to gpuIds is also in place",
  },
  gpuTypeIds: {
    change: "replace",
    compare: "ordered list",
    why: "GPU type names are only accepted by the REST v1 create call; saveEndpoint takes tiers only. Switching from gpuIds to gpuTypeIds replaces too",
  },
  type: { change: "replace", compare: "value", why: "queue-based and load-balancing endpoints serve different interfaces at the job URL" },
  idleTimeout: { change: "update", compare: "value", why: "saveEndpoint field" },
  locations: { change: "update", compare: "unordered list", why: "a set of allowed regions; order carries no meaning" },
  fastBootType: { change: "update", compare: "value", why: "saveEndpoint field (fastBoot: true is the same as fastBootType: FASTBOOT)" },
  scalerType: { change: "update", compare: "value", why: "saveEndpoint field" },
  scalerValue: { change: "update", compare: "value", why: "saveEndpoint field" },
  workersMin: { change: "update", compare: "value", why: "saveEndpoint field (may restart active workers)" },
  workersMax: { change: "update", compare: "value", why: "saveEndpoint field (may restart active workers)" },
  networkVolumeId: { change: "update", compare: "value", why: "saveEndpoint field; unset detaches the volume" },
};

/**
 * Markdown table of {@link ENDPOINT_CHANGE_POLICY} for the README, followed by the provider-only
 * settings (endpointSettings.ts), which {@link diffEndpoint} never compares.
 */
export function renderChangePolicyTable(): string {
  const rows = ENDPOINT_INPUT_FIELDS.map((f) => {
    const p = ENDPOINT_CHANGE_POLICY[f];
    return `| \`${f}\` | ${p.change === "update" ? "update in place" : "replace"} | ${p.compare} | ${p.why} |`;
  });
  const settings = ENDPOINT_SETTING_FIELDS.map(
    (f) => `| \`${f}\` | no diff | not compared | provider setting, never sent to the platform; applies from the next create or update |`,
  );
  return ["| Field | On change | Compared as | Why |", "|---|---|---|---|", ...rows, ...settings].join("\n");
}

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

/** Brings a stored or desired value of `field` to a comparable form (unset = default, lists parsed). */
export function normalise(field: EndpointInputField, value: unknown): unknown {
  switch (field) {
    case "locations":
      return [...splitList(value as string | string[] | null)].sort();
    case "gpuIds":
    case "gpuTypeIds":
      return value === undefined || value === null ? null : splitList(value as string | string[]);
    case "fastBootType":
      return value ?? ENDPOINT_DEFAULTS.fastBootType;
    case "networkVolumeId":
      return value === "" || value === undefined ? null : value;
    case "name":
    case "templateId":
      return value ?? null;
    default:
      return value ?? ENDPOINT_DEFAULTS[field];
  }
}

function equal(field: EndpointInputField, olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  return JSON.stringify(normalise(field, olds[field])) === JSON.stringify(normalise(field, news[field]));
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * Compares stored outputs with checked inputs. Only the endpoint's own fields
 * ({@link ENDPOINT_INPUT_FIELDS}) are compared; the provider-only settings never make a change.
 *
 * @param olds the resource's stored outputs (`EndpointOutputs`, possibly refreshed; older states may lack fields).
 * @param news checked inputs (`check` output; may hold the unknown sentinel during preview — an unknown
 *   value counts as changed).
 * @returns the changed fields, the subset that forces replacement ({@link ENDPOINT_CHANGE_POLICY}) and
 *   whether the replacement must delete first. Never throws.
 */
export function diffEndpoint(olds: Record<string, unknown>, news: Record<string, unknown>): EndpointDiff {
  const changed: EndpointInputField[] = [];
  for (const field of ENDPOINT_INPUT_FIELDS) {
    if (field === "gpuIds" || field === "gpuTypeIds") continue;
    if (containsUnknown(news[field]) || !equal(field, olds, news)) changed.push(field);
  }

  // GPU selection: the desired form decides which list is compared.
  if (isSet(news.gpuTypeIds)) {
    // From tiers to type names, or new type names: only REST v1 create takes them.
    if (!isSet(olds.gpuTypeIds) || containsUnknown(news.gpuTypeIds) || !equal("gpuTypeIds", olds, news)) changed.push("gpuTypeIds");
  } else if (isSet(olds.gpuTypeIds) || containsUnknown(news.gpuIds) || !equal("gpuIds", olds, news)) {
    // Tiers changed, or type names given up for tiers (applied in place by saveEndpoint).
    changed.push("gpuIds");
  }

  const replaces = changed.filter((f) => ENDPOINT_CHANGE_POLICY[f].change === "replace");
  return {
    changes: changed.length > 0,
    changed,
    replaces,
    deleteBeforeReplace: false,
  };
}
