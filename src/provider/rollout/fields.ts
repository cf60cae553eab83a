/**
 * The rollout settings (docs/endpoint.md › Rollouts and rollback), spread into the Endpoint's model and
 * the Template's: how the provider follows a container rollout to health, when it counts as failed, and
 * whether a failed one is rolled back. Provider settings: never sent to the platform, never a diff.
 */
import { setting } from "../model/fields";
import { bool, integer, oneOf, type Rule } from "../model/rules";

const WHY = "provider setting, never sent to the platform; applies from the next rollout";

/** Job statuses a smoke job may be expected to end in (the terminal ones of the job interface). */
export const SMOKE_STATUSES = ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"] as const;

/** Longest accepted smoke job input, in characters of JSON. */
const SMOKE_INPUT_MAX = 10_000;

/** JSON text of an object (a job's `input`, as `pulumi-runpod run --input` takes it). */
function jsonObject(maxLength: number): Rule<string> {
  const isObject = (s: string) => {
    try {
      const v: unknown = JSON.parse(s);
      return v !== null && typeof v === "object" && !Array.isArray(v);
    } catch {
      return false;
    }
  };
  return {
    type: "string",
    maxLength,
    schema: (z) => z.string().max(maxLength).refine(isObject),
    expects: ({ orUnset } = {}) =>
      `the JSON text of an object of at most ${maxLength} characters (e.g. "{\\"prompt\\":\\"ping\\"}")${orUnset ? ", or unset" : ""}`,
    accepts: () => `JSON object text, e.g. \`{"prompt":"ping"}\`; ≤ ${maxLength} characters`,
  };
}

/** The settings that say when a rollout is healthy or failed, and what a failure does (Endpoint and Template). */
export const ROLLOUT_FIELDS = {
  rolloutTimeout: setting({
    doc: "Longest a container rollout (a new image, env, … or a re-applied template) may take until every worker runs it, smoke job included; past it, the rollout fails.",
    rule: integer(1, 7200),
    unit: "seconds",
    note: ": a rollout not done by then fails (and is rolled back unless `rollback` is false)",
    default: 600,
    why: WHY,
  }),
  rolloutFailedStarts: setting({
    doc: "Failed worker starts of the new release (workers seen UNHEALTHY: a crash on boot, an image that cannot be pulled) that fail a rollout at once.",
    rule: integer(1, 100),
    unit: "failed starts",
    note: ": this many failed starts of new workers fail the rollout without waiting for `rolloutTimeout`",
    default: 1,
    why: WHY,
  }),
  rollback: setting({
    doc: "Put the previous container settings back when a rollout fails, and wait until the workers run them again, before failing the update; false leaves the failed release in place (for debugging).",
    rule: bool("a failed rollout is rolled back before the update fails"),
    default: true,
    why: WHY,
  }),
};

/** The smoke gate: a job sent to the new release before the rollout counts as healthy (Endpoint; Template on graphql, where endpoints follow it). */
export const SMOKE_FIELDS = {
  smokeInput: setting({
    doc: 'A smoke job\'s `input` (JSON object text, as `pulumi-runpod run --input` takes it): sent to the endpoint once every worker runs the new release; the rollout is healthy only when the job ends in `smokeStatus`. A load-balancing endpoint (`type: "LB"`, REST v2 only) has no queue: the input is POSTed as the body to its `requestUrls.base` once `health` answers 200, and a 2xx answer counts as `COMPLETED` (otherwise `FAILED`).',
    rule: jsonObject(SMOKE_INPUT_MAX),
    note: "; unset = no smoke job",
    default: null,
    why: WHY,
  }),
  smokeStatus: setting({
    doc: "The status the smoke job must end in for the rollout to count as healthy.",
    rule: oneOf(SMOKE_STATUSES),
    default: "COMPLETED",
    why: WHY,
  }),
};
