/**
 * The state mapping derived from a resource model: a record in the model's terms to outputs, outputs
 * back to inputs (refresh, adoption, `get`). How a path writes a record is its own (`<kind>/paths/`).
 */
import { compiled } from "./compiled";
import { PROVIDER_PROPERTY, RESERVED_PROPERTIES } from "../reserved";
import type { Fields, InputsOf, OutputsOf, RecordOutputsOf, ResourceModel, SettingsOf } from "./fields";

/** Splits the platform's comma-separated list (`"AMPERE_24,ADA_24"`); null or empty → []. */
export function splitList(value: string | readonly string[] | null | undefined): string[] {
  if (Array.isArray(value)) return [...value];
  if (!value) return [];
  return (value as string)
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Joins a list the way the platform expects it. */
export function joinList(values: readonly string[]): string {
  return values.join(",");
}

/** True for an array of strings (a list as stored in state). */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/**
 * `current` in the order of `previous` when both hold the same elements (as sets), else `current`.
 * For fields compared as sets: the platform may report another order than the one stored, and a
 * refresh taking it would show a false reorder in the next preview.
 */
export function inPreviousOrder(current: readonly string[], previous: unknown): string[] {
  if (!isStringArray(previous)) return [...current];
  const a = new Set(current);
  const b = new Set(previous);
  const same = a.size === b.size && previous.length === current.length && [...a].every((v) => b.has(v));
  return same ? [...previous] : [...current];
}

const inputsOf = (model: ResourceModel) => compiled(model).inputs;

/**
 * The outputs a record in the model's terms gives (paths/records.ts; each path maps its answers onto
 * one): every input the record holds (unset = the default), each alias derived from the field it spells, the provider settings from `settings`
 * (invalid or missing ones take their defaults), and fields compared as sets in the order of `previous`
 * when it holds the same elements. Output-only and unreported fields are the caller's.
 */
export function outputsFromRecord<F extends Fields>(
  model: ResourceModel<F>,
  record: object,
  settings: object | undefined,
  previous?: Partial<OutputsOf<F>>,
): RecordOutputsOf<F> {
  const rec = record as Record<string, unknown>;
  const before: Record<string, unknown> = previous ?? {};
  const outs: Record<string, unknown> = {};
  for (const [name, field] of inputsOf(model)) {
    if (field.alias || field.reported === false) continue;
    outs[name] = rec[name] ?? field.default ?? null;
    // A set the record lacks (a path that reports none) stays null.
    if (field.change?.compare === "set" && Array.isArray(outs[name])) outs[name] = inPreviousOrder(outs[name] as string[], before[name]);
  }
  for (const [name, field] of inputsOf(model)) {
    if (field.alias) outs[name] = outs[field.alias.of] === field.alias.whenTrue;
  }
  Object.assign(outs, settingsFrom(model, settings));
  return outs as RecordOutputsOf<F>;
}

/**
 * The provider settings held by checked inputs or stored outputs; a missing or malformed value (state
 * written before a setting existed, an adopted resource) takes its default.
 */
export function settingsFrom<F extends Fields>(model: ResourceModel<F>, source: object | undefined): SettingsOf<F> {
  const src = (source ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of compiled(model).settings) {
    const value = src[name];
    const fits =
      field.rule.type === "boolean"
        ? typeof value === "boolean"
        : field.rule.type === "integer"
          ? typeof value === "number" && Number.isFinite(value)
          : value !== undefined;
    out[name] = fits ? value : field.default;
  }
  return out as SettingsOf<F>;
}

/**
 * True for a value that says nothing of a field left to the platform (`unset: "platform"`): none, `""`,
 * `0`, an empty list or map. A program written from a record (`adopt`) declares such a field only otherwise.
 */
export function isUnsetValue(v: unknown): boolean {
  if (v === null || v === undefined || v === "" || v === 0) return true;
  return typeof v === "object" && Object.keys(v).length === 0;
}

/**
 * Inputs equivalent to outputs (refresh, adoption, `get`, where the program's inputs may be empty):
 * every input (aliases aside) and setting the outputs hold. A field whose unset means the platform's
 * default is given when the outputs hold a value of it ({@link isUnsetValue}), as `adopt` writes it: a
 * refresh keeps only the keys the checked inputs had (refreshedInputs), so a program that never
 * declared it does not see it added.
 */
export function inputsFromOutputs<F extends Fields>(model: ResourceModel<F>, outs: Partial<OutputsOf<F>>): Partial<InputsOf<F>> {
  const o: Record<string, unknown> = outs;
  const c = compiled(model);
  const inputs: Record<string, unknown> = {};
  const fields: Fields = model.fields;
  for (const [name, field] of Object.entries(fields)) {
    if (field.kind === "output" || (field.kind === "input" && field.alias) || o[name] === undefined) continue;
    if (field.kind === "input" && field.unset === "platform" && isUnsetValue(o[name])) continue;
    // An empty text the model refuses is how the platform reports an unset one (a template's `readme`):
    // as an input it would fail the next check (`pulumi import`'s "failed to validate").
    if (o[name] === "" && !c.schema(name).safeParse("").success) continue;
    inputs[name] = o[name];
  }
  return inputs as Partial<InputsOf<F>>;
}

/** What a refresh needs of checked inputs (reserved.ts `CHECKED_PROPERTY`). */
export interface CheckedInputs {
  /** Every key of the checked inputs, sorted. */
  keys: string[];
  /** Their values that no refreshed output gives back: the model's outputs `check` estimated, the package's reserved flags. */
  kept: Record<string, unknown>;
}

/** {@link CheckedInputs} of `checked` (the serialized provider aside: the host adds it). */
export function checkedInputs(model: ResourceModel, checked: Record<string, unknown>): CheckedInputs {
  const keys = Object.keys(checked)
    .filter((k) => k !== PROVIDER_PROPERTY && checked[k] !== undefined)
    .sort();
  const kept = (k: string) => model.fields[k]?.kind === "output" || (RESERVED_PROPERTIES as readonly string[]).includes(k);
  return { keys, kept: Object.fromEntries(keys.filter(kept).map((k) => [k, checked[k]])) };
}

/** True for a {@link CheckedInputs} as stored in the outputs. */
export function isCheckedInputs(value: unknown): value is CheckedInputs {
  const v = value as Partial<CheckedInputs> | null;
  return typeof v === "object" && v !== null && isStringArray(v.keys) && typeof v.kept === "object" && v.kept !== null;
}

/**
 * The inputs of a refresh that knows the checked inputs ({@link CheckedInputs}): exactly their keys,
 * each with its kept value, else from `rebuilt` ({@link inputsFromOutputs} and the kind's adjustments),
 * else from the refreshed outputs (a declared field whose unset means the platform's default).
 */
export function refreshedInputs(checked: CheckedInputs, rebuilt: Record<string, unknown>, outs: object): Record<string, unknown> {
  const o = outs as Record<string, unknown>;
  const inputs: Record<string, unknown> = {};
  for (const key of checked.keys) {
    const value = key in checked.kept ? checked.kept[key] : key in rebuilt ? rebuilt[key] : o[key];
    if (value !== undefined) inputs[key] = value;
  }
  return inputs;
}
