/**
 * The shape of a resource model: every field of a resource declared once, with its type and accepted
 * values (a {@link Rule}), unit, default, kind, change policy, comparison and one-line doc. `check`,
 * `diff`, the state mapping and the README tables are derived from it (check.ts, compare.ts, state.ts,
 * tables.ts in this folder); each resource folder holds one model (e.g. endpoint/model.ts).
 */
import type { ApiPath } from "../apiPath";
import { RESERVED_PROPERTIES } from "../reserved";
import type { DisplayType, Rule } from "./rules";

/**
 * `input`: an argument the platform stores (validated, sent, compared); `setting`: an argument of the
 * provider itself, never sent and never compared; `output`: computed, never an argument.
 */
export type FieldKind = "input" | "setting" | "output";
/** What a changed input costs: an in-place update, or a new resource. */
export type ChangePolicy = "update" | "replace";
/** How two values of an input are compared: as values, as lists whose order matters, as sets. */
export type Comparison = "value" | "ordered list" | "set" | "map";

export interface Change {
  policy: ChangePolicy;
  compare: Comparison;
  /** Why, for the README's change-policy table. */
  why: string;
  /** Added to the README's "On change" cell (e.g. "unset detaches"). */
  note?: string;
  /**
   * Besides `policy`: a change that sets or unsets the field (to or from none, `[]` or `0`; a value not
   * known yet counts as set) replaces (the document fixes it at create: a pod's volume, an endpoint's compute family).
   */
  replacesOnSetOrUnset?: boolean;
  /**
   * A preference list that only chooses where the resource starts: while it still allows what the output
   * `satisfiedBy` names (where it got placed), or is empty (anywhere), it shows no change.
   */
  satisfiedBy?: string;
}

interface Documented {
  /** One line: what the field is. */
  doc: string;
}

interface Argument<T> extends Documented {
  rule: Rule<T>;
  /** Unit of the value (e.g. "seconds"), in failures and the README. */
  unit?: string;
  /** The value `check` fills in when the field is unset; `null` means "unset" is a value of its own. */
  default?: Readonly<T> | null;
  /** The README's default cell when the default is no plain value. */
  defaultText?: string;
  /** Added to the README's default cell. */
  defaultNote?: string;
  /** Added to the README's accepted-values cell. */
  note?: string;
}

/** A narrower rule of an input while another input has a given value ({@link InputField.when}). */
export interface WhenRule {
  /** The other input, and the value that narrows this one's rule. */
  field: string;
  is: string;
  rule: Rule<unknown>;
  /** What the narrower rule accepts, for the failure ("`name` must be <expects> with <field> <is>; got …"). */
  expects: string;
}

/** One path's rules of an input ({@link InputField.onPath}). */
export interface PathRules {
  rule?: Rule<unknown>;
  requires?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface InputField<T = unknown> extends Argument<T> {
  kind: "input";
  /** Must be given (`check` fails otherwise); with `autoName`, generated from the resource name when unset. */
  required?: boolean;
  autoName?: boolean;
  /** Required, except for an alias, which changes as the field it spells. */
  change?: Change;
  /**
   * A boolean spelling of another input (`of`): true means `whenTrue`, false means unset. `check` folds
   * it into that input; outputs derive it back.
   */
  alias?: { of: string; whenTrue: string };
  /** False when the platform's record lacks the field: outputs carry it from the inputs. Default true. */
  reported?: boolean;
  /**
   * `"platform"`: unset means no opinion (the platform's default). `check` fills nothing in, `diff`
   * compares the field only while it is declared, outputs hold the platform's value, and a path whose
   * modify replaces the settings carries that last-read value, which would be reset otherwise.
   * Such a field has no `default`.
   */
  unset?: "platform";
  /**
   * The API paths (`runpod:api`) that can express the field; unset: every path. On another path a value
   * other than the default fails `check`, naming the field and the path (pathSupport.ts).
   */
  paths?: readonly ApiPath[];
  /** Why the field means nothing on the paths outside `paths`, and what to do there (the failure's text). */
  offPath?: string;
  /** Kept for older programs, with this message as a warning (the Node SDK's log, the schema's `deprecationMessage`). */
  deprecated?: string;
  /**
   * Values only some API paths can express (value → those paths); on another path such a value fails
   * `check` the way a field outside `paths` does, naming the field, the value and the path.
   */
  valuePaths?: Readonly<Record<string, readonly ApiPath[]>>;
  /**
   * What one API path's document adds to `rule` (checked on that path only, pathSupport.ts): a narrower
   * `rule`, and values that require other inputs (value → { field: required value }).
   */
  onPath?: Partial<Record<ApiPath, PathRules>>;
  /** Cross-field rules: a narrower rule while another input has a given value (`check` applies them on every path). */
  when?: readonly WhenRule[];
  /**
   * The value is a secret: the resource registers the output as a Pulumi secret (additionalSecretOutputs)
   * and wraps each given value in `pulumi.secret`, so no value reaches plain state; the provider removes
   * the values from any error message it throws.
   */
  secret?: boolean;
}

export interface SettingField<T = unknown> extends Argument<T> {
  kind: "setting";
  /** The API paths on which the setting means something; unset: every path. Elsewhere a value fails `check`, saying `offPath`. */
  paths?: readonly ApiPath[];
  /** Why the setting means nothing on the other paths, and what to do there (the failure's text). */
  offPath?: string;
  /** `null`: unset is a value of its own (e.g. no limit). */
  default: Readonly<T> | null;
  /** Why it is a setting of the provider, for the README's change-policy table. */
  why: string;
}

export interface OutputField<T = unknown> extends Documented {
  kind: "output";
  type: DisplayType;
  /** The value is a secret: the resource registers the output as a Pulumi secret (additionalSecretOutputs). */
  secret?: boolean;
  /** Carries the value type for the derived TypeScript types; never set. */
  __value?: T;
}

export type Field = InputField<unknown> | SettingField<unknown> | OutputField<unknown>;
export type Fields = Record<string, Field>;

export interface ResourceModel<F extends Fields = Fields> {
  /** Key of the resource in the provider module's resource list (`resources.<kind>`). */
  kind: string;
  /** Pulumi type token `<module>:<type>` (the engine prefixes `pulumi-nodejs:dynamic/`). */
  module: string;
  type: string;
  fields: F;
}

/** Declares an input field (keeps literal types for the derived TypeScript types). */
export function input<const T, const F extends Omit<InputField<T>, "kind">>(field: F & { rule: Rule<T> }): F & { kind: "input" } {
  return { ...field, kind: "input" };
}

/** Declares a provider setting. */
export function setting<const T, const F extends Omit<SettingField<T>, "kind">>(field: F & { rule: Rule<T> }): F & { kind: "setting" } {
  return { ...field, kind: "setting" };
}

/** Declares an output-only field of type `T`. */
export function output<T>(type: DisplayType, doc: string, options: { secret?: boolean } = {}): OutputField<T> {
  return { kind: "output", type, doc, ...options };
}

/**
 * Checks the model's own consistency once, at load: no reserved property names, aliases point at
 * inputs, settings and defaults are accepted by their rules' facts.
 * @throws Error naming the field.
 */
export function defineModel<const M extends ResourceModel>(model: M): M {
  for (const [name, field] of Object.entries(model.fields)) {
    if ((RESERVED_PROPERTIES as readonly string[]).includes(name)) throw new Error(`${model.type}.${name}: the name is reserved`);
    if (field.kind === "input" && field.alias && model.fields[field.alias.of]?.kind !== "input") {
      throw new Error(`${model.type}.${name}: alias of ${field.alias.of}, which is no input`);
    }
    for (const w of field.kind === "input" ? (field.when ?? []) : []) {
      if (model.fields[w.field]?.kind !== "input") throw new Error(`${model.type}.${name}: a rule when ${w.field} is ${w.is}, which is no input`);
    }
    if (field.kind === "input" && !field.alias === !field.change) throw new Error(`${model.type}.${name}: an input has a change policy, an alias none`);
    if (field.kind === "input" && field.unset === "platform" && field.default !== undefined)
      throw new Error(`${model.type}.${name}: unset means the platform's default; it has no default of its own`);
    if (field.kind !== "output" && typeof field.default === "number") {
      const { min = -Infinity, max = Infinity } = field.rule;
      if (field.default < min || field.default > max) throw new Error(`${model.type}.${name}: default ${field.default} outside ${min}..${max}`);
    }
  }
  return model;
}

/** The type token the engine records for a resource of `model` (`pulumi-nodejs:dynamic/runpod:Endpoint`). */
export function typeToken(model: ResourceModel): string {
  return `pulumi-nodejs:dynamic/${model.module}:${model.type}`;
}

/** The change policy of input `name`; an alias's is that of the field it spells. */
export function changeOf(model: ResourceModel, name: string): Change {
  const field = model.fields[name] as InputField<unknown>;
  return field.alias ? changeOf(model, field.alias.of) : field.change!;
}

// ---- Names derived from a model, in declaration order ----

type Keys<F extends Fields, Match> = { [K in keyof F]: F[K] extends Match ? K & string : never }[keyof F];

/** Fields users may write: inputs (aliases included) and settings. */
export type ArgumentName<F extends Fields> = Keys<F, { kind: "input" | "setting" }>;
/** Inputs as `check` returns them and `diff` compares them: no aliases. */
export type InputName<F extends Fields> = Exclude<Keys<F, { kind: "input" }>, Keys<F, { alias: object }>>;
export type SettingName<F extends Fields> = Keys<F, { kind: "setting" }>;
export type OutputName<F extends Fields> = keyof F & string;

const names = <F extends Fields>(model: ResourceModel<F>, keep: (f: Field) => boolean) =>
  Object.entries(model.fields)
    .filter(([, f]) => keep(f))
    .map(([k]) => k);

export function argumentNames<F extends Fields>(model: ResourceModel<F>): ArgumentName<F>[] {
  return names(model, (f) => f.kind !== "output") as ArgumentName<F>[];
}
export function inputNames<F extends Fields>(model: ResourceModel<F>): InputName<F>[] {
  return names(model, (f) => f.kind === "input" && !f.alias) as InputName<F>[];
}
export function settingNames<F extends Fields>(model: ResourceModel<F>): SettingName<F>[] {
  return names(model, (f) => f.kind === "setting") as SettingName<F>[];
}
/** Inputs whose values are secrets (see {@link InputField.secret}). */
export function secretNames<F extends Fields>(model: ResourceModel<F>): InputName<F>[] {
  return names(model, (f) => f.kind === "input" && f.secret === true) as InputName<F>[];
}
/** Outputs registered as Pulumi secrets: the secret inputs and the outputs marked secret. */
export function secretOutputNames<F extends Fields>(model: ResourceModel<F>): OutputName<F>[] {
  return names(model, (f) => (f.kind === "input" && f.secret === true) || (f.kind === "output" && f.secret === true)) as OutputName<F>[];
}
export function outputNames<F extends Fields>(model: ResourceModel<F>): OutputName<F>[] {
  return Object.keys(model.fields) as OutputName<F>[];
}

/** The defaults of the fields of `kind` that have one (aliases excluded; every setting has one); lists are fresh copies. */
export function defaultsOf<F extends Fields>(model: ResourceModel<F>, kind: "input"): Partial<InputsOf<F>>;
export function defaultsOf<F extends Fields>(model: ResourceModel<F>, kind: "setting"): SettingsOf<F>;
export function defaultsOf<F extends Fields>(model: ResourceModel<F>, kind: "input" | "setting"): Partial<InputsOf<F>> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(model.fields)) {
    if (f.kind !== kind || (f.kind === "input" && f.alias) || !("default" in f) || f.default === undefined) continue;
    out[name] = Array.isArray(f.default) ? [...f.default] : f.default;
  }
  return out as Partial<InputsOf<F>>;
}

// ---- Value types derived from a model ----

type ValueOf<F> = F extends { rule: Rule<infer T> } ? T : F extends OutputField<infer T> ? T : never;
type Nullable<F> = F extends { default: null } ? ValueOf<F> | null : ValueOf<F>;
type Optional<F extends Fields> = { [K in InputName<F> | SettingName<F>]: F[K] extends { default: unknown } | { required: true } ? never : K }[
  InputName<F> | SettingName<F>];

/** Checked inputs: every default filled in; an input with neither default nor `required` may be absent. */
export type InputsOf<F extends Fields> = { [K in Exclude<InputName<F> | SettingName<F>, Optional<F>>]: Nullable<F[K]> } & {
  [K in Optional<F>]?: ValueOf<F[K]>;
};

/** Arguments as users write them (inputs, aliases, settings), each typed by its rule: the resource's Args are checked against it. */
export type ArgsOf<F extends Fields> = { [K in ArgumentName<F>]?: ValueOf<F[K]> };

/**
 * A record as a path hands it up (paths/records.ts): each input of the model typed by its rule, absent
 * when the path does not report it, null when unset. A kind's record narrows or adds what differs.
 */
export type RecordOf<F extends Fields> = { [K in InputName<F>]?: ValueOf<F[K]> | null };

/** The provider settings of checked inputs, each typed by its rule. */
export type SettingsOf<F extends Fields> = { [K in keyof InputsOf<F> as K extends SettingName<F> ? K : never]: InputsOf<F>[K] };

type Carried<F extends Fields> = Keys<F, { reported: false }>;
/** Outputs: every field; one the platform does not report is carried from the inputs (absent, or null once cleared). */
export type OutputsOf<F extends Fields> = { [K in Exclude<OutputName<F>, Carried<F>>]: Nullable<F[K]> } & { [K in Carried<F>]?: ValueOf<F[K]> | null };
/** The outputs a record gives (model/state.ts `outputsFromRecord`): arguments and aliases; output-only fields and carried ones are the caller's. */
export type RecordOutputsOf<F extends Fields> = Pick<OutputsOf<F>, Exclude<ArgumentName<F>, Carried<F>>>;
