/**
 * API-key authentication (spec: Authentication). REST and the job interface take `Authorization: Bearer <key>`;
 * GraphQL takes `?api_key=<key>`. Keys carry scopes: `read` for queries and GETs, `write` for mutations and POSTs.
 */
import type { IncomingMessage } from "http";
import type { Seed, SeedUser } from "./seed";

export type Scope = "read" | "write";

export interface Principal {
  user: SeedUser;
  scopes: Scope[];
}

/** On 403 the key is valid: `userId` names its user (answers still carry that user's rate-limit state). */
export type AuthResult = { ok: true; principal: Principal } | { ok: false; status: 401 | 403; detail: string; userId?: string };

/** The bearer token of a request: undefined when absent, null when the header is malformed. */
export function bearerToken(req: IncomingMessage): string | null | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * Check a key and the scope an operation needs.
 * 401: missing, malformed, unknown or expired key. 403: valid key without the needed scope.
 * Details never echo the key.
 */
export function authenticate(seed: Seed, key: string | null | undefined, needed: Scope, now = Date.now()): AuthResult {
  if (key === undefined || key === "") return { ok: false, status: 401, detail: "An API key is required." };
  if (key === null) return { ok: false, status: 401, detail: "The Authorization header is malformed; expected 'Bearer <API_KEY>'." };
  const entry = seed.apiKeys.find((k) => k.key === key);
  if (!entry) return { ok: false, status: 401, detail: "The API key is invalid." };
  if (entry.expiresAt !== undefined && Date.parse(entry.expiresAt) <= now) return { ok: false, status: 401, detail: "The API key has expired." };
  const user = seed.users.find((u) => u.id === entry.userId)!;
  if (!entry.scopes.includes(needed)) {
    return { ok: false, status: 403, detail: `The API key lacks the '${needed}' permission required by this operation.`, userId: user.id };
  }
  return { ok: true, principal: { user, scopes: entry.scopes } };
}

/** The user an API key or user id names, if any (admin state peek). */
export function resolveUserId(seed: Seed, keyOrId: string): string | undefined {
  return seed.apiKeys.find((k) => k.key === keyOrId)?.userId ?? seed.users.find((u) => u.id === keyOrId)?.id;
}
