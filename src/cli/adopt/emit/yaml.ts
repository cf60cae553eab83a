/**
 * The adopted resources as Pulumi YAML: the `config` and `resources` sections to merge into the
 * project's `Pulumi.yaml` (the header says how), resources of the provider plugin (`runpod:index:<Type>`).
 * YAML reads no map-valued secret: an env map is written entry by entry, each from its own config secret.
 */
import { stringify } from "yaml";
import { tokenOf } from "../../../plugin/tokens";
import { MODEL_OF, type AdoptedObject, type ArgValue } from "../plan";
import { HEADER } from "./header";

/** The config key of one env entry of map config `key` (plan.ts gives map-valued secrets). */
export const entryKey = (key: string, entry: string) => `${key}${entry.replace(/[^A-Za-z0-9]+/g, "_")}`;

function value(v: ArgValue, o: AdoptedObject): unknown {
  if ("ref" in v) return `\${${v.ref}.id}`;
  if ("config" in v && v.object) {
    const map = o.config.find((c) => c.key === v.config)!.value as Record<string, string>;
    return Object.fromEntries(Object.keys(map).map((k) => [k, `\${${entryKey(v.config, k)}}`]));
  }
  if ("config" in v) return `\${${v.config}}`;
  if (Array.isArray(v.literal))
    return v.literal.map((x) => (typeof x === "object" && x !== null && ("ref" in x || "literal" in x) ? value(x as ArgValue, o) : x));
  return v.literal;
}

export function emitYaml(objects: readonly AdoptedObject[]): string {
  const config: Record<string, unknown> = {};
  for (const o of objects) {
    for (const c of o.config) {
      const keys = typeof c.value === "string" ? [c.key] : Object.keys(c.value).map((k) => entryKey(c.key, k));
      for (const key of keys) config[key] = { type: "string", ...(c.secret ? { secret: true } : {}) };
    }
  }
  const resources: Record<string, unknown> = {};
  for (const o of objects) {
    resources[o.resourceName] = { type: tokenOf(MODEL_OF[o.kind]), properties: Object.fromEntries(o.args.map(([k, v]) => [k, value(v, o)])) };
  }
  const header = [...HEADER, "Merge into Pulumi.yaml: each key of `config` and `resources` below joins that section there."];
  const doc = stringify({ ...(Object.keys(config).length > 0 ? { config } : {}), resources }, { lineWidth: 0 });
  return `${header.map((l) => `# ${l}`).join("\n")}\n${doc}`;
}
