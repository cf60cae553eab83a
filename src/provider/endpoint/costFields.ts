/**
 * The Endpoint's cost fields (docs/cost.md), spread into its model: the estimate outputs, computed at
 * `check` from the REST v2 catalog's list prices so `pulumi preview` shows them, and the per-endpoint
 * limit, a provider setting (never sent to the platform, never a diff).
 */
import { output, setting } from "../model/fields";
import type { Rule } from "../model/rules";

/** A non-negative amount of US dollars per hour. */
function usdPerHour(): Rule<number> {
  return {
    type: "number",
    min: 0,
    schema: (z) => z.number().finite().min(0),
    expects: ({ orUnset } = {}) => `a non-negative number of US dollars per hour${orUnset ? ", or unset" : ""}`,
    accepts: () => "USD per hour, ≥ 0",
  };
}

/** The estimate outputs, in the order `check` writes them. */
export const COST_OUTPUTS = ["maxHourlyCost", "idleHourlyCost", "workerHourlyCost"] as const;
export type CostOutput = (typeof COST_OUTPUTS)[number];

export const COST_FIELDS = {
  maxHourlyCostLimit: setting({
    doc: "Largest `maxHourlyCost` this endpoint may have: a preview that would exceed it fails.",
    rule: usdPerHour(),
    note: "; checked at preview against `maxHourlyCost`; unset = no limit",
    default: null,
    why: "provider setting, never sent to the platform; checked by every preview",
  }),
  maxHourlyCost: output<number | null>(
    "number",
    "USD per hour with all `workersMax` workers busy, at the highest-priced GPU pool or CPU flavor the endpoint may land on (catalog list prices; docs/cost.md). Known at preview for a new or changed endpoint; null when the catalog could not be read.",
  ),
  idleHourlyCost: output<number | null>(
    "number",
    "USD per hour with no traffic at all: `workersMin` plus standby workers at that price (nonzero means the endpoint costs money while idle).",
  ),
  workerHourlyCost: output<number | null>("number", "USD per hour of one worker at the highest-priced GPU pool or CPU flavor the endpoint may land on."),
};
