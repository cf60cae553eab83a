/**
 * The adopted resources as a TypeScript or JavaScript module of the Node SDK (`pulumi-runpod`), in the
 * layout Prettier gives the repository's own programs (two spaces, double quotes, trailing commas).
 */
import { MODEL_OF, type AdoptedObject, type ArgValue } from "../plan";
import { HEADER } from "./header";

const INDENT = "  ";

/** A literal as TypeScript writes it (JSON is valid TypeScript; object keys unquoted when they are identifiers). */
function literal(value: unknown, depth: number): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => (isArgValue(v) ? expression(v, depth + 1) : literal(v, depth + 1)));
    const flat = `[${items.join(", ")}]`;
    if (flat.length <= 80 && !flat.includes("\n")) return flat;
    const pad = INDENT.repeat(depth + 1);
    return `[\n${items.map((i) => `${pad}${i},`).join("\n")}\n${INDENT.repeat(depth)}]`;
  }
  if (value !== null && typeof value === "object") {
    const pad = INDENT.repeat(depth + 1);
    const entries = Object.entries(value).map(([k, v]) => `${pad}${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, depth + 1)},`);
    return entries.length === 0 ? "{}" : `{\n${entries.join("\n")}\n${INDENT.repeat(depth)}}`;
  }
  return JSON.stringify(value);
}

const isArgValue = (v: unknown): v is ArgValue => typeof v === "object" && v !== null && ("literal" in v || "ref" in v || "config" in v);

function expression(value: ArgValue, depth: number, typescript = true): string {
  if ("ref" in value) return `${value.ref}.id`;
  if ("config" in value) {
    if (value.object) return `config.requireSecretObject${typescript ? "<Record<string, string>>" : ""}(${JSON.stringify(value.config)})`;
    return `config.${value.secret ? "requireSecret" : "require"}(${JSON.stringify(value.config)})`;
  }
  return literal(value.literal, depth);
}

/** The module text; `typescript` false: CommonJS JavaScript. */
export function emitNode(objects: readonly AdoptedObject[], typescript: boolean): string {
  const lines: string[] = [...HEADER.map((l) => `// ${l}`), ""];
  const usesConfig = objects.some((o) => o.config.length > 0);
  if (typescript) {
    if (usesConfig) lines.push('import * as pulumi from "@pulumi/pulumi";');
    lines.push('import * as runpod from "pulumi-runpod";');
  } else {
    if (usesConfig) lines.push('const pulumi = require("@pulumi/pulumi");');
    lines.push('const runpod = require("pulumi-runpod");');
  }
  lines.push("");
  if (usesConfig) lines.push("const config = new pulumi.Config();", "");
  for (const o of objects) {
    if (o.note) lines.push(`// ${o.note}`);
    const args = o.args.map(([field, value]) => `${INDENT}${field}: ${expressionFor(value, typescript)},`);
    const type = MODEL_OF[o.kind].type;
    lines.push(`${typescript ? "export " : ""}const ${o.resourceName} = new runpod.${type}(${JSON.stringify(o.resourceName)}, {`, ...args, "});", "");
  }
  if (!typescript && objects.length > 0) lines.push(`module.exports = { ${objects.map((o) => o.resourceName).join(", ")} };`, "");
  return lines.join("\n");
}

const expressionFor = (value: ArgValue, typescript: boolean) => expression(value, 1, typescript);
