/**
 * Secrets kept out of the code `pulumi import` generates. The engine writes that code from the inputs
 * `Read` returns, as the state stores them (a secret as `secret(<plaintext>)`: docs/plugin.md), so an
 * import's inputs carry a placeholder for each secret value (env values, a registry password); the
 * state's outputs keep the real values, sealed. `check` refuses a placeholder left in a program, naming
 * the field, so a deployment never sends one to the platform.
 */
import type { ResourceModel } from "../provider";

/** Starts every placeholder; `check` recognises a value left unchanged by it. */
const MARK = "<secret not copied by pulumi import: ";

const placeholder = (field: string) => `${MARK}set ${field} from a config secret>`;

const isPlaceholder = (v: unknown): boolean => typeof v === "string" && v.startsWith(MARK);

/**
 * `inputs` with each secret value replaced by a placeholder, and the fields replaced (`env.TOKEN`).
 * @param secrets the model's secret input names (a map's values, or the string itself).
 */
export function withoutSecretValues(inputs: Record<string, unknown>, secrets: readonly string[]): { inputs: Record<string, unknown>; replaced: string[] } {
  const out = { ...inputs };
  const replaced: string[] = [];
  for (const name of secrets) {
    const v = out[name];
    if (typeof v === "string" && v !== "") {
      out[name] = placeholder(name);
      replaced.push(name);
    } else if (v && typeof v === "object" && !Array.isArray(v)) {
      const map: Record<string, unknown> = {};
      for (const [k, value] of Object.entries(v)) {
        map[k] = typeof value === "string" && value !== "" ? placeholder(`${name}.${k}`) : value;
        if (map[k] !== value) replaced.push(`${name}.${k}`);
      }
      out[name] = map;
    }
  }
  return { inputs: out, replaced: replaced.sort() };
}

/**
 * `news` with each placeholder in its secret fields replaced by `olds`' value of the field. Only the
 * engine's refresh diff passes stored inputs as `news` (check refuses a placeholder in a program), and
 * there a placeholder stands for the deployed value the import did not copy: no drift, and no
 * template change for the endpoints diffed after it (template/provider.ts `templateChanging`).
 */
export function withPlaceholdersResolved(news: Record<string, unknown>, olds: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  const out = { ...news };
  for (const name of secrets) {
    const v = out[name];
    const old = olds[name];
    if (isPlaceholder(v) && old !== undefined) out[name] = old;
    else if (v && typeof v === "object" && !Array.isArray(v)) {
      const deployed = old && typeof old === "object" && !Array.isArray(old) ? (old as Record<string, unknown>) : {};
      out[name] = Object.fromEntries(Object.entries(v).map(([k, value]) => [k, isPlaceholder(value) && k in deployed ? deployed[k] : value]));
    }
  }
  return out;
}

/** A failure for each placeholder still in `news`' secret fields. */
export function placeholderFailures(model: ResourceModel, news: Record<string, unknown>, secrets: readonly string[]): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  // No property named: the engine would print the field's value beside it, the other secrets of the map included.
  const refuse = (field: string) =>
    failures.push({
      property: "",
      reason: `${field} holds the placeholder \`pulumi import\` wrote for a secret value it does not copy into code; set ${field} in the program (e.g. from \`pulumi config set --secret\`) before deploying this ${model.type}`,
    });
  for (const name of secrets) {
    const v = news[name];
    if (isPlaceholder(v)) refuse(name);
    else if (v && typeof v === "object" && !Array.isArray(v)) for (const [k, value] of Object.entries(v)) if (isPlaceholder(value)) refuse(`${name}.${k}`);
  }
  return failures;
}
