/**
 * The README's reference tables of a resource, rendered from its model: the arguments (type, unit and
 * accepted values, default, what a change costs) and the change policy (how each input is compared
 * and why a change updates in place or replaces). tests/e2e/readme.test.ts keeps the README's copies equal.
 */
import { AUTONAME_FORM } from "../naming";
import { argumentNames, changeOf, inputNames, settingNames, type Field, type Fields, type ResourceModel } from "./fields";

type ArgumentField = Exclude<Field, { kind: "output" }>;

const code = (v: unknown) => `\`${Array.isArray(v) ? JSON.stringify(v) : String(v)}\``;

function defaultCell(field: ArgumentField): string {
  if (field.defaultText) return field.defaultText;
  if (field.kind === "input" && field.autoName) return `\`${AUTONAME_FORM}\` (auto-naming)`;
  if (field.kind === "input" && field.required) return "required";
  if (field.default === null || field.default === undefined) return "unset";
  const list = Array.isArray(field.default) && field.default.length === 0;
  const empty = list && field.kind === "input" && field.change?.compare === "set" ? " (any)" : "";
  return `${code(field.default)}${empty}${field.defaultNote ?? ""}`;
}

function onChangeCell(model: ResourceModel, name: string, field: ArgumentField): string {
  if (field.kind === "setting") return "no diff (provider setting)";
  const change = changeOf(model, name);
  const compared = { "ordered list": "order matters", set: "order ignored", map: "per key", value: "" }[change.compare];
  const notes = [compared, field.secret ? "secret" : "", change.note ?? ""].filter(Boolean);
  return `${change.policy === "replace" ? "**replace**" : "update in place"}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
}

/** The "arguments" table: one row per argument, in declaration order. */
export function renderArgumentTable<F extends Fields>(model: ResourceModel<F>): string {
  const fields: Fields = model.fields;
  const rows = argumentNames(model).map((name) => {
    const f = fields[name] as ArgumentField;
    const accepts = f.rule.accepts(f.unit) + (f.note ?? (f.default === null ? " or unset" : ""));
    return `| \`${name}\` | ${f.rule.type} | ${accepts} | ${defaultCell(f)} | ${onChangeCell(model, name, f)} |`;
  });
  return ["| Argument | Type | Unit / accepted values | Default | On change |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** The change-policy table: every compared input, then the provider settings (never compared). */
export function renderChangePolicyTable<F extends Fields>(model: ResourceModel<F>): string {
  const fields: Fields = model.fields;
  const rows = inputNames(model).map((name) => {
    const change = changeOf(model, name);
    return `| \`${name}\` | ${change.policy === "update" ? "update in place" : "replace"} | ${change.compare} | ${change.why} |`;
  });
  const settings = settingNames(model).map((name) => {
    const f = fields[name];
    return `| \`${name}\` | no diff | not compared | ${f.kind === "setting" ? f.why : ""} |`;
  });
  return ["| Field | On change | Compared as | Why |", "|---|---|---|---|", ...rows, ...settings].join("\n");
}
