/**
 * Secret redaction for every string the client may surface (error messages, debug lines, URLs).
 * The GraphQL address carries the key as `?api_key=`, and servers may echo a rejected key back,
 * so redaction is applied to our own text and to anything the server sends us.
 */

/** Replacement text for a removed secret. */
export const REDACTED = "REDACTED";

/** A function that returns its input with the secret removed. */
export type Redactor = (text: string) => string;

const API_KEY_PARAM = /([?&;]api_key=)[^&#\s"'<>]*/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Builds a redactor for one API key.
 *
 * The result replaces `api_key=<anything>` query parameters with `api_key=REDACTED` and every
 * literal occurrence of the key (raw, URL-encoded and form-encoded) with `REDACTED`.
 * Spec: Authentication (the key travels as a bearer token and as the GraphQL `api_key` parameter).
 *
 * @param apiKey the secret; an empty key only redacts `api_key=` parameters.
 * @returns a pure function string → string; never throws.
 */
export function createRedactor(apiKey: string | undefined): Redactor {
  const forms = new Set<string>();
  if (apiKey) {
    forms.add(apiKey);
    forms.add(encodeURIComponent(apiKey));
    forms.add(new URLSearchParams({ k: apiKey }).toString().slice(2));
    forms.add(JSON.stringify(apiKey).slice(1, -1));
  }
  // Longest first, so a form that contains another is removed whole.
  const literal = forms.size
    ? new RegExp(
        [...forms]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join("|"),
        "g",
      )
    : undefined;
  return (text: string): string => {
    if (typeof text !== "string" || text.length === 0) return text;
    let out = text.replace(API_KEY_PARAM, `$1${REDACTED}`);
    if (literal) out = out.replace(literal, REDACTED);
    return out;
  };
}

/**
 * Deep-copies a JSON-like value with every string redacted (server-supplied error bodies).
 * Non-plain objects are copied as their enumerable fields; depth is bounded to avoid cycles.
 */
export function redactValue<T>(value: T, redact: Redactor, depth = 0): T {
  if (typeof value === "string") return redact(value) as unknown as T;
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact, depth + 1)) as unknown as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[redact(k)] = redactValue(v, redact, depth + 1);
  return out as T;
}
