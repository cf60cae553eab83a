/** Where a client error could show an API key, and the check that it shows none (tests/api/redactionEcho.test.ts). */
import { inspect } from "util";
import { PlatformError } from "../../src/api";

/** The key as sent (raw, URL-encoded, form-encoded) and a fragment of it, so a partial leak is caught too. */
export function keyForms(key: string): string[] {
  return [key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2), key.slice(4, 14)];
}

/** Every text a user or log may see of an error: message, stack, JSON, String(err) and util.inspect of all fields. */
export function errorTexts(err: unknown): Record<string, string> {
  const e = err as Error;
  return {
    message: e.message,
    stack: String(e.stack),
    json: JSON.stringify(e),
    string: String(e),
    inspect: inspect(e, { showHidden: true, depth: null }),
  };
}

/** Fails naming the case, the form of the key and where it appeared. */
export function expectNoKey(label: string, err: unknown, key: string): void {
  expect(err).toBeInstanceOf(PlatformError);
  for (const [where, text] of Object.entries(errorTexts(err))) {
    for (const form of keyForms(key)) {
      if (text.includes(form)) throw new Error(`${label}: the key (form ${JSON.stringify(form)}) appears in ${where}: ${text}`);
    }
  }
}
