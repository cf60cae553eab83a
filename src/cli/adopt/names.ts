/**
 * Resource names from platform names: lower camel case (a valid identifier in every language `adopt`
 * writes, and a Pulumi resource name), unique among themselves and the stack's own names.
 */

/** Words no language of the written program accepts as a variable, or that the program itself uses. */
const RESERVED = new Set(
  (
    "pulumi runpod config ctx err nil self " +
    // TypeScript / JavaScript
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval undefined " +
    // Python
    "and as assert async def del elif except from global is lambda nonlocal not or pass raise None True False " +
    // Go
    "chan fallthrough func go goto map range select struct type string int bool error"
  ).split(" "),
);

/** `my-model_v2` → `myModelV2`; empty when nothing usable is left. */
export function camelName(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const first = (w: string) => (w === w.toUpperCase() ? w.toLowerCase() : w.charAt(0).toLowerCase() + w.slice(1));
  return words.map((w, i) => (i === 0 ? first(w) : w.charAt(0).toUpperCase() + w.slice(1))).join("");
}

/**
 * One name per entry, in order: its base camel-cased, prefixed by `fallback` when it is empty, starts
 * with a digit or is a reserved word, then numbered from 2 while it is taken.
 */
export function uniqueNames(entries: readonly { base: string; fallback: string }[], taken: ReadonlySet<string>): string[] {
  const used = new Set<string>([...taken].map((n) => n.toLowerCase()));
  return entries.map(({ base, fallback }) => {
    let name = camelName(base);
    if (name === "" || /^[0-9]/.test(name) || RESERVED.has(name)) name = camelName(`${fallback} ${name}`);
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${name}${n}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

/** `myModelV2` → `my_model_v2` (Python's spelling of a variable). */
export function snakeName(camel: string): string {
  return camel.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}
