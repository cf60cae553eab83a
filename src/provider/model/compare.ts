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
export function changedFields<F extends Fields>(model: ResourceModel<F>, names: readonly InputName<F>[], olds: Record<string, unknown>, news: Record<string, unknown>): InputName<F>[] {
  const noOpinion = (name: string) => (model.fields[name] as InputField<unknown>).unset === "platform" && news[name] === undefined;
  return names.filter((name) => !noOpinion(name) && (containsUnknown(news[name]) || !sameValue(model, name, olds[name], news[name])));
}

/** The changed inputs whose change policy is replace. */
export function replacing<F extends Fields>(model: ResourceModel<F>, changed: readonly InputName<F>[]): InputName<F>[] {
  return changed.filter((name) => changeOf(model, name).policy === "replace");
}
