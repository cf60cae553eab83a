/**
 * Inputs (and provider settings) the session's API path cannot express (a model field's `paths`): one failure per such field
 * holding anything but its default, at `check`, so `pulumi preview` stops before a path would drop or
 * refuse the value; then the path's own rules (a field's `onPath`: narrower bounds, required pairings).
 */
import { API_PATH_CONFIG_KEY, type ApiPath } from "./apiPath";
import { pathRuleFailures, type InputFailure } from "./model/check";
import type { ResourceModel } from "./model/fields";
import { containsUnknown } from "./unknown";

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** `given`: the inputs as declared; a field only a default or a fold filled in is not named ("unset it" would mean nothing). */
export function pathFailures(model: ResourceModel, inputs: Record<string, unknown>, path: ApiPath, given: Record<string, unknown> = inputs): InputFailure[] {
  const failures: InputFailure[] = [];
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.kind === "output") continue;
    const value = inputs[name];
    const valuePaths = typeof value === "string" && field.kind === "input" ? field.valuePaths?.[value] : undefined;
    if (valuePaths && !valuePaths.includes(path)) {
      failures.push({
        property: name,
        reason: `${model.type}.${name} ${JSON.stringify(value)} cannot be expressed on API path ${path} (${API_PATH_CONFIG_KEY}); only on ${valuePaths.join(", ")}: choose another value, or set ${API_PATH_CONFIG_KEY} to ${valuePaths[0]}`,
      });
      continue;
    }
    if (!field.paths || field.paths.includes(path)) continue;
    if (value === undefined || given[name] === undefined || containsUnknown(value) || same(value, field.default)) continue;
    const why = field.offPath ? ` (${field.offPath})` : "";
    failures.push({
      property: name,
      reason: `${model.type}.${name} cannot be expressed on API path ${path} (${API_PATH_CONFIG_KEY})${why}; only on ${field.paths.join(", ")}: unset it, or set ${API_PATH_CONFIG_KEY} to ${field.paths[0]}`,
    });
  }
  const rejected = new Set(failures.map((f) => f.property));
  failures.push(...pathRuleFailures(model, inputs, path, API_PATH_CONFIG_KEY).filter((f) => !rejected.has(f.property)));
  return failures;
}
