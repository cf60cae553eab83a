/**
 * `check` derived from a resource model: each argument is validated by its rule, a bad field yields
 * exactly one failure naming the field, what it accepts and the value received, so `pulumi preview`
 * stops before anything is created. Values the engine does not know yet (during preview) are skipped,
 * never rejected. Defaults are filled in so the stored inputs equal what the platform will report.
 */
import { PROVIDER_PROPERTY } from "../reserved";
import { UNKNOWN, isUnknown } from "../unknown";
import { compiled, zodOf } from "./compiled";
import type { Field, Fields, InputField, ResourceModel, WhenRule } from "./fields";

/** A failure in the shape Pulumi's `CheckFailure` expects. */
export interface InputFailure {
  property: string;
  reason: string;
}

/** What a model's `check` found: the completed inputs (unknowns kept in place) and the failures. */
export interface CheckedFields {
  inputs: Record<string, unknown>;
  failures: InputFailure[];
  /** The arguments as given (known names only; null counts as unset). */
  given: Record<string, unknown>;
  /** Fields that failed their rule (cross-field rules skip them). */
  bad: Set<string>;
}

/** null and undefined both mean "not set". */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** Renders a received value for a failure message (short, JSON-like). */
export function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Validates `news` against `model` and completes it with the model's defaults; never throws.
 * Unknown property names are failures; aliases are folded into the field they spell (a contradiction
 * between the two is a failure); the model's cross-field rules (`when`) apply to the result. Other
 * cross-field rules are the resource's own, applied on the result.
 * @param news the inputs as the engine passes them to `check` (may hold `__provider` and unknowns).
 */
export function checkFields<F extends Fields>(model: ResourceModel<F>, news: Record<string, unknown>): CheckedFields {
  const fields: Fields = model.fields;
  const c = compiled(model);
  const args = c.args;
  const failures: InputFailure[] = [];
  const bad = new Set<string>();
  const given: Record<string, unknown> = {};

  for (const [key, value] of Object.entries(news)) {
    if (key === PROVIDER_PROPERTY) continue;
    if (!c.isArg.has(key)) {
      if (isSet(value)) failures.push({ property: key, reason: `unknown property "${key}"; ${model.type} accepts ${args.join(", ")}` });
      continue;
    }
    if (isSet(value)) given[key] = value;
  }

  for (const name of args) {
    const field = fields[name] as Exclude<Field, { kind: "output" }>;
    const value = given[name];
    if (value === undefined) {
      if (field.kind === "input" && field.required) failures.push({ property: name, reason: `${name} is required: ${c.expects.get(name)}` });
      continue;
    }
    // The default spelled out is the field unset (a template's "" readme), so checked inputs check again.
    if (isUnknown(value) || value === field.default) continue;
    if (!c.schema(name).safeParse(value).success) {
      failures.push({ property: name, reason: `${name} must be ${c.expects.get(name)}; got ${show(value)}` });
      bad.add(name);
    }
  }

  const inputs: Record<string, unknown> = {};
  for (const name of args) {
    const field = fields[name] as Exclude<Field, { kind: "output" }>;
    if (field.kind === "input" && field.alias) continue;
    const value = given[name] ?? field.default;
    if (value !== undefined) inputs[name] = Array.isArray(value) && value === field.default ? [...value] : value;
  }

  for (const name of args) {
    const field = fields[name];
    if (field.kind === "input" && field.alias) foldAlias(name, field, given, inputs, bad, failures);
  }
  for (const name of args) {
    const field = fields[name];
    if (field.kind === "input" && field.when) failures.push(...whenFailures(name, field.when, inputs, bad));
  }
  return { inputs, failures, given, bad };
}

/** The failures of input `name`'s cross-field rules ({@link InputField.when}) on the completed `inputs`; unknown and already failing values are skipped. */
function whenFailures(name: string, rules: readonly WhenRule[], inputs: Record<string, unknown>, bad: Set<string>): InputFailure[] {
  const value = inputs[name];
  if (!isSet(value) || isUnknown(value) || bad.has(name)) return [];
  return rules
    .filter((w) => inputs[w.field] === w.is && !w.rule.schema(zodOf()).safeParse(value).success)
    .map((w) => ({ property: name, reason: `${name} must be ${w.expects} with ${w.field} ${w.is}; got ${show(value)}` }));
}

/** Folds a given alias into the field it spells, unless that field is given too and disagrees. */
function foldAlias(
  name: string,
  field: InputField<unknown>,
  given: Record<string, unknown>,
  inputs: Record<string, unknown>,
  bad: Set<string>,
  failures: InputFailure[],
): void {
  const target = field.alias!.of;
  const value = given[name];
  if (value === undefined || bad.has(name) || bad.has(target)) return;
  const spelled = isUnknown(value) ? UNKNOWN : value ? field.alias!.whenTrue : null;
  const other = given[target];
  if (other === undefined) {
    inputs[target] = spelled;
  } else if (!isUnknown(other) && spelled !== UNKNOWN && spelled !== other) {
    failures.push({ property: name, reason: `${name} (${show(value)}) contradicts ${target} (${show(other)}); set only one` });
  }
}

/**
 * The rules API path `path` adds to the model's (each input's `onPath`): a value its narrower rule
 * rejects, or one that needs another input set to a given value, fails naming the field, the path and
 * what it accepts. Unknown values are skipped.
 */
export function pathRuleFailures(model: ResourceModel, inputs: Record<string, unknown>, path: string, pathKey: string): InputFailure[] {
  const failures: InputFailure[] = [];
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.kind !== "input") continue;
    const rules = field.onPath?.[path as keyof typeof field.onPath];
    const value = inputs[name];
    if (!rules || !isSet(value) || isUnknown(value) || (Array.isArray(value) && value.some(isUnknown))) continue;
    // A value the model's own rule rejects already has its failure.
    if (!compiled(model).schema(name).safeParse(value).success) continue;
    if (rules.rule && !rules.rule.schema(zodOf()).safeParse(value).success) {
      const expects = rules.rule.expects({ unit: field.unit });
      failures.push({ property: name, reason: `${name} must be ${expects} on API path ${path} (${pathKey}); got ${show(value)}` });
      continue;
    }
    const needs = typeof value === "string" ? rules.requires?.[value] : undefined;
    for (const [other, wanted] of Object.entries(needs ?? {})) {
      const got = inputs[other];
      if (isUnknown(got) || got === wanted) continue;
      failures.push({
        property: name,
        reason: `${name} ${show(value)} needs ${other} ${show(wanted)} on API path ${path} (${pathKey}); got ${other} ${show(got ?? null)}: set ${other} to ${show(wanted)}`,
      });
    }
  }
  return failures;
}

/** True when no value of the checked inputs is still unknown (they can be sent to the platform). */
export function isComplete(inputs: Record<string, unknown>): boolean {
  return Object.values(inputs).every((v) => !isUnknown(v) && !(Array.isArray(v) && v.some(isUnknown)));
}
