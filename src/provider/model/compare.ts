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

/** The changed inputs whose change policy is replace. */
export function replacing<F extends Fields>(model: ResourceModel<F>, changed: readonly InputName<F>[]): InputName<F>[] {
  return changed.filter((name) => changeOf(model, name).policy === "replace");
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

/** Compares stored outputs with checked inputs over every input of `model`, as its change policies say. */
export function diffModel<F extends Fields>(
  model: ResourceModel<F>,
  names: readonly InputName<F>[],
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): ModelDiff<InputName<F>> {
  const changed = changedFields(model, names, olds, news);
  return { changes: changed.length > 0, changed, replaces: replacing(model, changed) };
}
