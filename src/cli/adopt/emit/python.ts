/**
 * The adopted resources as a Python module of the plugin's SDK (`pulumi_runpod`), in Black's layout:
 * arguments in snake case, one per line with a trailing comma, double quotes.
 */
import { MODEL_OF, type AdoptedObject, type ArgValue } from "../plan";
import { snakeName } from "../names";
import { HEADER } from "./header";

const INDENT = "    ";

function literal(value: unknown, depth: number): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (Array.isArray(value)) {
    const items = value.map((v) => (isArgValue(v) ? expression(v, depth + 1) : literal(v, depth + 1)));
    return `[${items.join(", ")}]`;
  }
  if (typeof value === "object") {
    const pad = INDENT.repeat(depth + 1);
    const entries = Object.entries(value).map(([k, v]) => `${pad}${JSON.stringify(k)}: ${literal(v, depth + 1)},`);
    return entries.length === 0 ? "{}" : `{\n${entries.join("\n")}\n${INDENT.repeat(depth)}}`;
  }
  return JSON.stringify(value);
}

const isArgValue = (v: unknown): v is ArgValue => typeof v === "object" && v !== null && ("literal" in v || "ref" in v || "config" in v);

function expression(value: ArgValue, depth: number): string {
  if ("ref" in value) return `${snakeName(value.ref)}.id`;
  if ("config" in value) {
    if (value.object) return `config.require_secret_object(${JSON.stringify(value.config)})`;
    return `config.${value.secret ? "require_secret" : "require"}(${JSON.stringify(value.config)})`;
  }
  return literal(value.literal, depth);
}

export function emitPython(objects: readonly AdoptedObject[]): string {
  const lines: string[] = [`"""${HEADER.join("\n")}\n"""`, "", "import pulumi", "import pulumi_runpod as runpod", ""];
  if (objects.some((o) => o.config.length > 0)) lines.push("config = pulumi.Config()", "");
  for (const o of objects) {
    if (o.note) lines.push(`# ${o.note}`);
    lines.push(`${snakeName(o.resourceName)} = runpod.${MODEL_OF[o.kind].type}(`, `${INDENT}${JSON.stringify(o.resourceName)},`);
    for (const [field, value] of o.args) lines.push(`${INDENT}${snakeName(field)}=${expression(value, 1)},`);
    lines.push(")", "");
  }
  return lines.join("\n");
}
