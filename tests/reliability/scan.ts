/**
 * Finding an API key in text: as written, URL-encoded, JSON-escaped, or inside a base64 token (Pulumi's
 * encrypted automatic logs store property values as base64-encoded protobuf, for instance).
 */
import { inspect } from "util";

/** Lines of `text` that carry `secret` in any of the forms above. */
export function linesWithSecret(text: string, secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
  const hits: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (forms.some((f) => line.includes(f))) {
      hits.push(line);
      continue;
    }
    for (const token of line.match(/[A-Za-z0-9+/_-]{16,}={0,2}/g) ?? []) {
      const decoded = Buffer.from(token.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1");
      if (decoded.includes(secret)) {
        hits.push(line);
        break;
      }
    }
  }
  return hits;
}

/** Every way an error may be shown: message, stack, `String()`, `JSON.stringify`, `util.inspect`. */
export function renderError(err: unknown): string {
  const e = err as Error;
  let json: string;
  try {
    json = JSON.stringify(err);
  } catch {
    json = "";
  }
  return [e?.message, e?.stack, String(err), json, inspect(err, { depth: 10, showHidden: true })].join("\n");
}
