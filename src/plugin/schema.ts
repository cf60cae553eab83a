/**
 * The Pulumi package schema of `pulumi-resource-runpod` (https://www.pulumi.com/docs/iac/extending-pulumi/schema/),
 * derived from the resource models, the provider configuration keys and the lookups: what the engine
 * asks with `GetSchema` and what the SDK generators read (schema.json at the repository root is this
 * function's output, kept current by a test).
 *
 * Deliberately absent: `replaceOnChanges` (the engine would replace what the model's diff applies in
 * place, e.g. `gpuTypeIds` → `gpuIds`) and `default`s (`check` fills them in, and "unset" means the
 * platform's value for some fields): change policy and defaults stay in the provider's check and diff.
 */
import { PROVIDER_SETTING_KEYS, PULUMI_CONFIG_KEYS } from "../provider/providerConfig";
import { KINDS, type ResourceModel } from "../provider";
import { CONFIG_DOCS, FUNCTIONS, TYPES, type FunctionSpec } from "./functions";
import { PACKAGE, tokenOf } from "./tokens";

type JsonSchemaType = Record<string, unknown>;

interface PropertySpec extends JsonSchemaType {
  description: string;
}

type Field = ResourceModel["fields"][string];

/** The schema type of a model field's display type. */
function typeOf(display: string): JsonSchemaType {
  switch (display) {
    case "string[]":
      return { type: "array", items: { type: "string" } };
    case "map(string)":
      return { type: "object", additionalProperties: { type: "string" } };
    default:
      return { type: display };
  }
}

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/** Doc of a field: its line, accepted values with unit and bounds, and its default as `check` fills it in. */
function describe(field: Field): string {
  if (field.kind === "output") return field.doc;
  const parts = [sentence(field.doc), sentence(`Accepted: ${field.rule.accepts(field.unit)}${field.note ?? ""}`)];
  if (field.defaultText) parts.push(sentence(`Default: ${field.defaultText.replace(/^unset = /, "unset means ")}${field.defaultNote ?? ""}`));
  else if (field.default === null) parts.push("Default: unset.");
  else if (field.default !== undefined) parts.push(sentence(`Default: \`${JSON.stringify(field.default)}\`${field.defaultNote ?? ""}`));
  if (field.kind === "input" && field.change) {
    parts.push(field.change.policy === "replace" ? "Changing it replaces the resource." : "Changed in place.");
  }
  if (field.kind === "setting") parts.push("A setting of the provider: never sent to the platform.");
  return parts.join(" ");
}

function propertyOf(field: Field, asInput = false): PropertySpec {
  const display = field.kind === "output" ? field.type : field.rule.type;
  const spec: PropertySpec = { ...typeOf(display), description: describe(field) };
  if (field.kind !== "setting" && field.secret) spec.secret = true;
  if (asInput && field.kind === "input" && field.deprecated) spec.deprecationMessage = field.deprecated;
  return spec;
}

function resourceSpec(model: ResourceModel, doc: string): JsonSchemaType {
  const properties: Record<string, PropertySpec> = {};
  const inputProperties: Record<string, PropertySpec> = {};
  const requiredInputs: string[] = [];
  for (const [name, field] of Object.entries(model.fields)) {
    properties[name] = propertyOf(field);
    if (field.kind === "output") continue;
    inputProperties[name] = propertyOf(field, true);
    if (field.kind === "input" && field.required && !field.autoName) requiredInputs.push(name);
  }
  return { description: doc, properties, inputProperties, requiredInputs };
}

function configSpec(): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const key of [...Object.values(PULUMI_CONFIG_KEYS), ...PROVIDER_SETTING_KEYS]) {
    const name = key.slice(key.indexOf(":") + 1);
    const doc = CONFIG_DOCS[name] ?? { type: "string", description: `\`${key}\`.` };
    out[name] = { type: doc.type, description: doc.description, ...(doc.secret ? { secret: true } : {}) };
  }
  return out;
}

function functionSpec(fn: FunctionSpec): JsonSchemaType {
  return {
    description: fn.description,
    inputs: { properties: fn.inputs, ...(fn.requiredInputs.length ? { required: fn.requiredInputs } : {}), type: "object" },
    outputs: { properties: fn.outputs, required: fn.requiredOutputs, type: "object" },
  };
}

/** The package schema for plugin version `version`. */
export function packageSchema(version: string): Record<string, unknown> {
  const config = configSpec();
  return {
    name: PACKAGE,
    displayName: "RunPod",
    version,
    description: "Serverless GPU endpoints, templates and registry credentials of a RunPod-like platform.",
    keywords: ["pulumi", "runpod", "serverless", "gpu", "category/cloud"],
    license: "Apache-2.0",
    repository: "https://github.com/pulumi-runpod/pulumi-runpod",
    publisher: "pulumi-runpod",
    meta: { moduleFormat: "(.*)" },
    config: { variables: config },
    provider: {
      description: "The runpod provider: the API key and the platform's addresses (stack config `runpod:*`, else the RUNPOD_* environment variables).",
      inputProperties: config,
    },
    types: TYPES,
    resources: Object.fromEntries(KINDS.map((k) => [tokenOf(k.model), resourceSpec(k.model, k.doc)])),
    functions: Object.fromEntries(FUNCTIONS.map((fn) => [fn.token, functionSpec(fn)])),
    language: {
      python: { packageName: "pulumi_runpod", requires: { pulumi: ">=3.0.0,<4.0.0" }, pyproject: { enabled: true }, respectSchemaVersion: true },
      nodejs: { packageName: "@pulumi-runpod/runpod", respectSchemaVersion: true },
      // The Go SDK is a module of its own in sdk/go/runpod (scripts/pluginSdk.ts GO_MODULE).
      go: { importBasePath: "github.com/pulumi-runpod/pulumi-runpod/sdk/go/runpod", respectSchemaVersion: true },
    },
  };
}
