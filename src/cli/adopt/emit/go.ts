/**
 * The adopted resources as a Go file of `package main` on the plugin's SDK
 * (`github.com/pulumi-runpod/pulumi-runpod/sdk/go/runpod`): one function, `adopted(ctx)`, that `main`
 * calls. Each value is wrapped as the SDK's Args take it (the field's rule type, from the model); the
 * text is passed through `gofmt` when the Go toolchain is on PATH.
 */
import { spawnSync } from "node:child_process";
import type { InputField } from "../../../provider/model/fields";
import { MODEL_OF, type AdoptedObject, type ArgValue } from "../plan";
import { HEADER } from "./header";

const pascal = (field: string) => field.charAt(0).toUpperCase() + field.slice(1);

function scalar(type: string, value: unknown): string {
  if (type === "integer") return `pulumi.Int(${String(value)})`;
  if (type === "number") return `pulumi.Float64(${String(value)})`;
  if (type === "boolean") return `pulumi.Bool(${String(value)})`;
  return `pulumi.String(${JSON.stringify(value)})`;
}

function expression(o: AdoptedObject, field: string, value: ArgValue, envVars: Map<string, string>): string {
  const type = (MODEL_OF[o.kind].fields[field] as InputField).rule.type;
  if ("ref" in value) return `${value.ref}.ID()`;
  if ("config" in value) {
    if (value.object) return envVars.get(value.config)!;
    return value.secret ? `cfg.RequireSecret(${JSON.stringify(value.config)})` : `pulumi.String(cfg.Require(${JSON.stringify(value.config)}))`;
  }
  if (type === "string[]") {
    const items = (value.literal as unknown[]).map((v) =>
      typeof v === "object" && v !== null && "ref" in v
        ? `${(v as { ref: string }).ref}.ID()`
        : `pulumi.String(${JSON.stringify((v as { literal?: unknown }).literal ?? v)})`,
    );
    return `pulumi.StringArray{${items.join(", ")}}`;
  }
  return scalar(type, value.literal);
}

export function emitGo(objects: readonly AdoptedObject[]): string {
  const envVars = new Map<string, string>();
  const body: string[] = [];
  const usesConfig = objects.some((o) => o.config.length > 0);
  if (usesConfig) body.push(`cfg := config.New(ctx, "")`);
  for (const o of objects) {
    for (const c of o.config) {
      if (typeof c.value === "string") continue;
      const name = `${c.key}Map`;
      body.push(`var ${name} map[string]string`, `cfg.RequireSecretObject(${JSON.stringify(c.key)}, &${name})`);
      envVars.set(c.key, `pulumi.ToSecret(pulumi.ToStringMap(${name})).(pulumi.StringMapOutput)`);
    }
  }
  for (const o of objects) {
    if (o.note) body.push(`// ${o.note}`);
    const type = MODEL_OF[o.kind].type;
    body.push(`${o.resourceName}, err := runpod.New${type}(ctx, ${JSON.stringify(o.resourceName)}, &runpod.${type}Args{`);
    for (const [field, value] of o.args) body.push(`${pascal(field)}: ${expression(o, field, value, envVars)},`);
    body.push("})", "if err != nil {", "return err", "}");
  }
  const used = objects.map((o) => `_ = ${o.resourceName}`);
  const text = [
    ...HEADER.map((l) => `// ${l}`),
    "package main",
    "",
    "import (",
    '"github.com/pulumi-runpod/pulumi-runpod/sdk/go/runpod"',
    '"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ...(usesConfig ? ['"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
    ")",
    "",
    "// adopted declares the adopted resources; call it from main's pulumi.Run.",
    "func adopted(ctx *pulumi.Context) error {",
    ...body,
    ...used,
    "return nil",
    "}",
    "",
  ].join("\n");
  return gofmt(text);
}

/** `text` formatted by `gofmt`, or as it is when the Go toolchain is not on PATH. */
function gofmt(text: string): string {
  const r = spawnSync("gofmt", [], { input: text, encoding: "utf8" });
  return r.status === 0 && r.stdout ? r.stdout : text;
}
