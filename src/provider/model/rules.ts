/**
 * Accepted values of a field, stated once: each rule yields the zod schema `check` validates with, the
 * sentence its failures use ("`field` must be …"), the README's "accepted values" cell, and the facts
 * (values, bounds) that conformance tests compare with the spec and the emulator.
 *
 * Schemas are built on first use, from the `z` handed in, so the model loads without zod: a Pulumi
 * program needs the field names, not the validation.
 */
import type { ZodTypeAny } from "zod";
import { UNKNOWN, isUnknown } from "../unknown";

export type Zod = typeof import("zod").z;

/** A field's type as the README shows it. */
export type DisplayType = "string" | "string[]" | "integer" | "number" | "boolean" | "map(string)";

export interface ExpectsContext {
  unit?: string;
  orUnset?: boolean;
}

export interface Rule<T = unknown> {
  readonly type: DisplayType;
  /** The schema of a known value (values the engine does not know yet are never validated). */
  schema(z: Zod): ZodTypeAny;
  /** Completes "`field` must be …"; `unit` is the field's unit (e.g. seconds), `orUnset` that unset is accepted too. */
  expects(context?: ExpectsContext): string;
  /** The README's "Unit / accepted values" cell (markdown). */
  accepts(unit?: string): string;
  /** Allowed values (enumerations, and lists of them). */
  readonly values?: readonly string[];
  /** What some of the values mean, for the README (e.g. a GPU tier's memory). */
  readonly labels?: Readonly<Record<string, string>>;
  /** Bounds of integers (inclusive). */
  readonly min?: number;
  readonly max?: number;
  /** Longest accepted string. */
  readonly maxLength?: number;
  /** Set for lists. */
  readonly list?: { readonly ordered: boolean; readonly nonEmpty: boolean };
  /** Carries the value type for the derived TypeScript types; never set. */
  readonly __value?: T;
}

const code = (v: string) => `\`${v}\``;

/** The values of `rule` in backticks with their labels, for the README. */
function valueList(rule: Pick<Rule, "values" | "labels">, pair: "or" | ","): string {
  const items = (rule.values ?? []).map((v) => (rule.labels?.[v] ? `${code(v)} (${rule.labels[v]})` : code(v)));
  return items.length === 2 && pair === "or" ? items.join(" or ") : items.join(", ");
}

/** An integer of at least `min`, at most `max` (inclusive) when given. */
export function integer(min: number, max?: number): Rule<number> {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  return {
    type: "integer",
    min,
    max,
    schema: (z) => (max === undefined ? z.number().int().min(min) : z.number().int().min(min).max(max)),
    expects: ({ unit, orUnset } = {}) => `${unit ? `an integer number of ${unit}` : "an integer"} ${range}${orUnset ? ", or unset" : ""}`,
    accepts: (unit) => `${unit ? `${unit}, ` : ""}${max === undefined ? `≥ ${min}` : `${min}–${max}`}`,
  };
}

/** A number of at least `min` (fractions allowed), at most `max` when given. */
export function number(min: number, max?: number): Rule<number> {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  return {
    type: "number",
    min,
    max,
    schema: (z) => (max === undefined ? z.number().finite().min(min) : z.number().min(min).max(max)),
    expects: ({ unit, orUnset } = {}) => `${unit ? `a number of ${unit}` : "a number"} ${range}${orUnset ? ", or unset" : ""}`,
    accepts: (unit) => `${unit ? `${unit}, ` : ""}${max === undefined ? `≥ ${min}` : `${min}–${max}`}`,
  };
}

/** `0` (none), or an integer of at least `min`, at most `max` when given. */
export function zeroOr(min: number, max?: number): Rule<number> {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  return {
    type: "integer",
    min: 0,
    max,
    schema: (z) =>
      z
        .number()
        .int()
        .refine((n) => n === 0 || (n >= min && (max === undefined || n <= max))),
    expects: ({ unit } = {}) => `0 (none) or ${unit ? `an integer number of ${unit}` : "an integer"} ${range}`,
    accepts: (unit) => `${unit ? `${unit}, ` : ""}0 or ${max === undefined ? `≥ ${min}` : `${min}–${max}`}`,
  };
}

/** One of `values`; `labels` explain values in the README (e.g. a GPU tier's memory). */
export function oneOf<const V extends readonly string[]>(values: V, labels: Partial<Record<V[number], string>> = {}): Rule<V[number]> {
  const rule: Rule<V[number]> = {
    type: "string",
    values,
    labels: labels as Record<string, string>,
    schema: (z) => z.enum(values as unknown as [string, ...string[]]),
    expects: ({ orUnset } = {}) => `${values.length === 1 ? values[0] : `one of ${values.join(", ")}`}${orUnset ? " or unset" : ""}`,
    accepts: () => valueList(rule, "or"),
  };
  return rule;
}

/** true or false; `whenTrue` says what true means, for the README. */
export function bool(whenTrue?: string): Rule<boolean> {
  return {
    type: "boolean",
    schema: (z) => z.boolean(),
    expects: ({ orUnset } = {}) => `true or false${orUnset ? " or unset" : ""}`,
    accepts: () => (whenTrue ? `\`true\` = ${whenTrue}` : "`true` or `false`"),
  };
}

/**
 * A non-blank string of at most `maxLength` characters; `trimmed`: without leading or trailing spaces
 * (for values the platform trims, which would otherwise come back changed and show a perpetual diff).
 */
export function text(maxLength: number, options: { trimmed?: boolean } = {}): Rule<string> {
  const trimmed = options.trimmed === true;
  return {
    type: "string",
    maxLength,
    schema: (z) => z.string().refine((s) => (trimmed ? s.trim() === s && s.length > 0 : s.trim().length > 0) && s.length <= maxLength),
    expects: ({ orUnset } = {}) =>
      `a non-empty string of at most ${maxLength} characters${trimmed ? " without leading or trailing spaces" : ""}${orUnset ? ", or unset" : ""}`,
    accepts: () => `1–${maxLength} characters${trimmed ? ", no leading/trailing spaces" : ""}`,
  };
}

/** A string matching `pattern` (at most `maxLength` characters); `shape` says what it looks like, e.g. "an absolute path". */
export function matching(pattern: RegExp, maxLength: number, shape: string, example?: string): Rule<string> {
  return {
    type: "string",
    maxLength,
    schema: (z) => z.string().max(maxLength).regex(pattern),
    expects: ({ orUnset } = {}) =>
      `${shape} of at most ${maxLength} characters${example ? ` (e.g. ${JSON.stringify(example)})` : ""}${orUnset ? ", or unset" : ""}`,
    accepts: () => `${shape}${example ? `, e.g. \`${example}\`` : ""}; ≤ ${maxLength} characters`,
  };
}

/** A port of a template: `port/protocol` with a port from 1 to 65535 and protocol `http` or `tcp`. */
export function portSpec(): Rule<string> {
  const protocols = ["http", "tcp"] as const;
  return {
    type: "string",
    min: 1,
    max: 65535,
    schema: (z) =>
      z.string().refine((s) => {
        const m = /^(\d{1,5})\/(http|tcp)$/.exec(s);
        return m !== null && Number(m[1]) >= 1 && Number(m[1]) <= 65535;
      }),
    expects: () => `\`port/protocol\` with a port from 1 to 65535 and protocol ${protocols.join(" or ")}`,
    accepts: () => `\`port/protocol\` (port 1–65535, ${protocols.map((p) => `\`${p}\``).join(" or ")})`,
  };
}

/** Names of environment variables: a letter or `_`, then letters, digits or `_`. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A map of environment variables, name → value: names as {@link ENV_NAME_PATTERN}, values strings of at
 * most `maxValueLength` characters. Values not known yet (preview) are accepted.
 */
export function envMap(maxValueLength: number): Rule<Record<string, string>> {
  return {
    type: "map(string)",
    maxLength: maxValueLength,
    schema: (z) => z.record(z.string().regex(ENV_NAME_PATTERN), z.string().max(maxValueLength)),
    expects: ({ orUnset } = {}) =>
      `a map of environment variable names (a letter or '_', then letters, digits or '_') to string values of at most ${maxValueLength} characters${orUnset ? ", or unset" : ""}`,
    accepts: () => `name → value; names \`[A-Za-z_][A-Za-z0-9_]*\`, values ≤ ${maxValueLength} characters`,
  };
}

/** Shape of platform identifiers (templates, network volumes, endpoints): letters, digits, `_`, `-`. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const ID_MAX_LENGTH = 64;

/** The id of a platform object (`what`: "template", "network volume", …). */
export function platformId(what: string): Rule<string> {
  return {
    type: "string",
    maxLength: ID_MAX_LENGTH,
    schema: (z) => z.string().regex(ID_PATTERN),
    expects: ({ orUnset } = {}) =>
      `a ${what} id of 1 to ${ID_MAX_LENGTH} letters, digits, '_' or '-' (starting with a letter or digit)${orUnset ? ", or unset" : ""}`,
    accepts: () => `${what} id (letters, digits, \`_\`, \`-\`; ≤ ${ID_MAX_LENGTH})`,
  };
}

/** No known element twice (several not-yet-known elements are fine). */
const distinct = (a: readonly unknown[]): boolean => {
  const known = a.filter((v) => !isUnknown(v));
  return new Set(known).size === known.length;
};

export interface ListOptions {
  /** What the elements are, plural (e.g. "GPU tiers"). */
  what: string;
  /** Order carries meaning (a priority list). */
  ordered?: boolean;
  nonEmpty?: boolean;
  /** An example element, for the failure text and the README. */
  example?: string;
  /** What an empty list means (e.g. "any region"). */
  empty?: string;
}

/**
 * A list of distinct elements, each accepted by `item`. Elements not known yet (during preview) are
 * accepted wherever a known element would be.
 */
export function listOf<T>(item: Rule<T>, options: ListOptions): Rule<T[]> {
  const { what, ordered = false, nonEmpty = false, example, empty } = options;
  const order = ordered ? " in priority order" : "";
  return {
    type: "string[]",
    values: item.values,
    labels: item.labels,
    maxLength: item.maxLength,
    list: { ordered, nonEmpty },
    schema: (z) =>
      z
        .array(z.union([item.schema(z), z.literal(UNKNOWN)]))
        .min(nonEmpty ? 1 : 0)
        .refine(distinct),
    expects: ({ orUnset } = {}) =>
      `a ${nonEmpty ? "non-empty " : ""}list of distinct ${what}${order}` +
      (item.values ? `, each one of ${item.values.join(", ")}` : "") +
      (example ? ` (e.g. ${JSON.stringify(example)})` : "") +
      (empty ? ` (empty = ${empty})` : "") +
      (orUnset ? ", or unset" : ""),
    accepts: () =>
      `${what}${order}` +
      (item.values ? `: ${valueList(item, ",")}` : "") +
      (example ? `, e.g. \`${JSON.stringify(example)}\`` : "") +
      "; no repeats" +
      (empty ? `; empty = ${empty}` : ""),
  };
}
