/** Identifier generation. Endpoint and worker ids look like the platform's: 14 random lowercase alphanumerics. */
import { randomBytes, randomUUID } from "crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A random id of `length` lowercase alphanumerics (rejection sampling keeps the distribution uniform). */
export function randomId(length = 14): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 252 && out.length < length) out += ALPHABET[byte % 36];
    }
  }
  return out;
}

/** Job ids as the platform's SDKs see them: a UUID with a region suffix; sync jobs carry a `sync-` prefix. */
export function jobId(sync: boolean): string {
  return `${sync ? "sync-" : ""}${randomUUID()}-u1`;
}
