/**
 * What `check` and the state mapping need of a model beyond its declaration — the argument list, the
 * inputs and settings with their fields, each argument's failure text, each rule's zod schema —
 * derived once per model and process, not per resource: a preview checks every resource of a stack
 * in one provider process. Schemas are built at the first validation of their field (zod loads then).
 *
 * The counters let a test assert that this stays once per process (tests/provider/modelCompilation.test.ts).
 */
import type { ZodTypeAny } from "zod";
import type { InputField, ResourceModel, SettingField } from "./fields";
import type { Rule, Zod } from "./rules";

export interface CompiledModel {
  /** Inputs (aliases included) and settings, in declaration order. */
  readonly args: readonly string[];
  readonly isArg: ReadonlySet<string>;
  /** Inputs (aliases included) with their fields, in declaration order. */
  readonly inputs: readonly (readonly [string, InputField<unknown>])[];
  /** Settings with their fields, in declaration order. */
  readonly settings: readonly (readonly [string, SettingField<unknown>])[];
  /** What each argument accepts, completing "`name` must be …". */
  readonly expects: ReadonlyMap<string, string>;
  /** The schema of argument `name`'s rule, built at its first use. */
  schema(name: string): ZodTypeAny;
}

const compiledModels = new WeakMap<ResourceModel, CompiledModel>();
const compilations = new Map<string, number>();
const schemaBuilds = new Map<string, number>();
let zod: Zod | undefined;

const bump = (counts: Map<string, number>, type: string) => counts.set(type, (counts.get(type) ?? 0) + 1);

/** `model` compiled; the first call for a model compiles it, later calls return the same object. */
export function compiled(model: ResourceModel): CompiledModel {
  let c = compiledModels.get(model);
  if (!c) {
    c = compile(model);
    compiledModels.set(model, c);
  }
  return c;
}

function compile(model: ResourceModel): CompiledModel {
  bump(compilations, model.type);
  const entries = Object.entries(model.fields);
  const inputs = entries.filter((e): e is [string, InputField<unknown>] => e[1].kind === "input");
  const settings = entries.filter((e): e is [string, SettingField<unknown>] => e[1].kind === "setting");
  const argFields = entries.filter((e): e is [string, InputField<unknown> | SettingField<unknown>] => e[1].kind !== "output");
  const args = argFields.map(([name]) => name);
  const expects = new Map(argFields.map(([name, field]) => [name, field.rule.expects({ unit: field.unit, orUnset: field.default === null })]));
  const rules = new Map<string, Rule>(argFields.map(([name, field]) => [name, field.rule]));
  const schemas = new Map<string, ZodTypeAny>();
  return {
    args,
    isArg: new Set(args),
    inputs,
    settings,
    expects,
    schema(name) {
      let schema = schemas.get(name);
      if (!schema) {
        const rule = rules.get(name);
        if (!rule) throw new Error(`${model.type} has no argument "${name}"`);
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        zod ??= (require("zod") as typeof import("zod")).z;
        schema = rule.schema(zod);
        bump(schemaBuilds, model.type);
        schemas.set(name, schema);
      }
      return schema;
    },
  };
}

/** zod, loaded at first use. */
export function zodOf(): Zod {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  zod ??= (require("zod") as typeof import("zod")).z;
  return zod;
}

/** Per model type (e.g. `Endpoint`): how often this process compiled it and built one of its schemas. */
export function compilationCounts(): Record<string, { compilations: number; schemas: number }> {
  const out: Record<string, { compilations: number; schemas: number }> = {};
  for (const [type, n] of compilations) out[type] = { compilations: n, schemas: schemaBuilds.get(type) ?? 0 };
  return out;
}
