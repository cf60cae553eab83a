/**
 * Keeping secret input values (template env values, registry passwords) out of the errors the provider
 * throws: a server may echo its input in an error message, and the engine prints and logs every error.
 */
import { fieldOf, isOutcomeUnknown } from "./errorKinds";
import { isUnknown } from "./unknown";

export const SECRET_REDACTED = "[secret]";

/** The secret strings held by `inputs[name]` for each of `names` (map values included), longest first. */
export function secretValues(inputs: Record<string, unknown> | undefined, names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const name of names) {
    const v = inputs?.[name];
    const values: unknown[] = typeof v === "string" ? [v] : v && typeof v === "object" ? Object.values(v) : [];
    for (const s of values) if (typeof s === "string" && s.length > 0 && !isUnknown(s)) out.add(s);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of each of `secrets` (also JSON-escaped) replaced by {@link SECRET_REDACTED}. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    for (const form of new Set([s, JSON.stringify(s).slice(1, -1)])) out = out.split(form).join(SECRET_REDACTED);
  }
  return out;
}

/**
 * Runs `task`; an error it throws is rethrown with its message (and stack) free of `secrets`. Other
 * fields of the error are dropped: they may carry the server's answer.
 */
export async function withoutSecrets<T>(secrets: readonly string[], task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (err) {
    if (secrets.length === 0) throw err;
    const message = redactSecrets(err instanceof Error ? err.message : String(err), secrets);
    const clean = new Error(message);
    clean.name = err instanceof Error ? err.name : "Error";
    const [codes, status] = [fieldOf(err, "codes"), fieldOf(err, "status")];
    if (Array.isArray(codes)) Object.assign(clean, { codes });
    if (isOutcomeUnknown(err)) Object.assign(clean, { outcomeUnknown: true });
    if (status !== undefined) Object.assign(clean, { status });
    throw clean;
  }
}
