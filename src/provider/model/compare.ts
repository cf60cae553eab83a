/**
 * `diff` derived from a resource model: stored outputs against checked inputs, field by field, each
 * compared as its model says (value, ordered list, set), unset equal to the default; a changed field
 * is applied as its change policy says (update in place or replace). Provider settings are never
 * compared, so a change to them alone is no diff.
 */
import { containsUnknown } from "../unknown";
import { changeOf, type Fields, type InputField, type InputName, type ResourceModel } from "./fields";
import { splitList } from "./state";

/** Brings a stored or desired value of an input to a comparable form (unset = default, lists parsed, sets sorted). */
export function normalise(field: InputField<unknown>, value: unknown): unknown {
  switch (field.change?.compare) {
    case "set":
      return [...splitList(value as string | string[] | null)].sort();
    case "map":
      // Key order carries no meaning.
      return Object.fromEntries(Object.entries((value ?? field.default ?? {}) as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    case "ordered list":
      return value === undefined || value === null ? null : splitList(value as string | string[]);
    default:
      // A field whose default is "unset" takes "" as unset too (the platform's clients send "" for none).
      if (value === "" && field.default === null) return null;
      return value ?? field.default ?? null;
  }
}

/** True when the two values of `name` are equal once normalised. */
export function sameValue<F extends Fields>(model: ResourceModel<F>, name: InputName<F>, a: unknown, b: unknown): boolean {
  const field = model.fields[name] as InputField<unknown>;
  return JSON.stringify(normalise(field, a)) === JSON.stringify(normalise(field, b));
}

/**
 * The inputs among `names` that differ between `olds` and `news`, in the order given; a value not known
 * yet (preview) counts as changed, and a field whose unset means the platform's default is not compared
 * while `news` leaves it unset.
 */
export function changedFields<F extends Fields>(
  model: ResourceModel<F>,
  names: readonly InputName<F>[],
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): InputName<F>[] {
  const noOpinion = (name: string) => (model.fields[name] as InputField<unknown>).unset === "platform" && news[name] === undefined;
  return names.filter((name) => !noOpinion(name) && (containsUnknown(news[name]) || !sameValue(model, name, olds[name], news[name])));
}

/** The keys of a map-valued input whose values differ (added, removed or changed), sorted; values never leave this function. */
export function changedKeys(a: unknown, b: unknown): string[] {
  const x = (a ?? {}) as Record<string, unknown>;
  const y = (b ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => containsUnknown(y[k]) || x[k] !== y[k]).sort();
}

/** Set, for {@link Change.replacesOnSetOrUnset}: neither none, `[]`, `0` nor `""`; a value not known yet counts as set. */
const isPresent = (v: unknown): boolean =>
  containsUnknown(v) || !(v === undefined || v === null || v === 0 || v === "" || (Array.isArray(v) && v.length === 0));

/**
 * The changed inputs that replace: their change policy is replace, or (`replacesOnSetOrUnset`) the
 * change sets or unsets them between the stored outputs `olds` and the checked inputs `news`.
 */
export function replacing<F extends Fields>(
  model: ResourceModel<F>,
  changed: readonly InputName<F>[],
  olds: Record<string, unknown> = {},
  news: Record<string, unknown> = {},
): InputName<F>[] {
  return changed.filter((name) => {
    const change = changeOf(model, name);
    return change.policy === "replace" || (change.replacesOnSetOrUnset === true && isPresent(olds[name]) !== isPresent(news[name]));
  });
}

/** Whether the preference list `wanted` (known; empty: anywhere) still allows `placed` ({@link Change.satisfiedBy}). */
function stillAllows(wanted: unknown, placed: unknown): boolean {
  if (typeof placed !== "string" || !Array.isArray(wanted) || containsUnknown(wanted)) return false;
  return wanted.length === 0 || wanted.includes(placed);
}

/**
 * A model-derived diff: the changed inputs and those replacing. Whether a replacement deletes first is
 * the path's (its port's `uniqueNames`; recordProvider.ts).
 */
export interface ModelDiff<N extends string = string> {
  changes: boolean;
  changed: N[];
  replaces: N[];
}

/**
 * Compares stored outputs with checked inputs over every input of `model`, as its change policies say;
 * a preference list still satisfied by where the resource got placed is no change.
 */
export function diffModel<F extends Fields>(
  model: ResourceModel<F>,
  names: readonly InputName<F>[],
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): ModelDiff<InputName<F>> {
  const satisfied = (name: string) => {
    const by = changeOf(model, name).satisfiedBy;
    return by !== undefined && stillAllows(news[name], olds[by]);
  };
  const changed = changedFields(model, names, olds, news).filter((name) => !satisfied(name));
  return { changes: changed.length > 0, changed, replaces: replacing(model, changed, olds, news) };
}
