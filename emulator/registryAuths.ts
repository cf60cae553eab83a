/**
 * The emulated platform's registry credentials (`saveRegistryAuth`, `updateRegistryAuth`, `deleteRegistryAuth`,
 * `myself.containerRegistryCreds`; docs/spec/platform-clients.md): names unique per user (GraphQL's rule: REST v2
 * creates through `create`, without it), deletion refused while a template uses them. The password is write-only: it is kept only as a salted SHA-256 digest, never answered,
 * never listed in `/_emulator/state`, never logged.
 */
import { createHash, randomBytes, timingSafeEqual } from "crypto";
import { DomainError } from "./domainError";
import { REGISTRY_AUTH_FACTS as F } from "./facts";
import { randomId } from "./ids";
import type { RegistryAuthRecord, RegistryAuthState } from "./records";
import type { RegistryAuthRow, Store } from "./store";

function digest(salt: string, password: string): string {
  return createHash("sha256").update(salt).update("\0").update(password).digest("hex");
}

function requiredString(field: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new DomainError("BAD_USER_INPUT", `Field "${field}" is required and must be a non-empty string.`, field);
  }
  return value;
}

const record = (row: RegistryAuthRow): RegistryAuthRecord => ({ id: row.id, name: row.name });

export class RegistryAuths {
  constructor(private store: Store) {}

  list(userId?: string): RegistryAuthRecord[] {
    return this.store.listRegistryAuths(userId).map(record);
  }

  /** What the admin state and the running handle show: id, name and username (never the password or its digest). */
  states(userId?: string): RegistryAuthState[] {
    return this.store.listRegistryAuths(userId).map((r) => ({ id: r.id, name: r.name, userId: r.userId, username: r.username }));
  }

  private owned(userId: string, id: unknown, field: string): RegistryAuthRow {
    const row = typeof id === "string" ? this.store.getRegistryAuth(id) : undefined;
    if (!row || row.userId !== userId) throw new DomainError("NOT_FOUND", `Registry credentials "${String(id)}" not found.`, field);
    return row;
  }

  /** Save new credentials. BAD_USER_INPUT naming the field when one is missing or the name is taken. */
  save(userId: string, input: { name?: unknown; username?: unknown; password?: unknown } | null | undefined): RegistryAuthRecord {
    const name = requiredString("name", input?.name).trim();
    if (name.length > F.name.maxLength) throw new DomainError("BAD_USER_INPUT", `Field "name" must be at most ${F.name.maxLength} characters.`, "name");
    const username = requiredString("username", input?.username);
    const password = requiredString("password", input?.password);
    if (this.store.listRegistryAuths(userId).some((a) => a.name === name)) {
      throw new DomainError("BAD_USER_INPUT", `Registry credentials named "${name}" already exist; names are unique per account.`, "name");
    }
    return this.create(userId, { name, username, password });
  }

  /** Store new credentials as given, checked by the caller's interface (GraphQL above; REST v2 by its schema alone). */
  create(userId: string, input: { name: string; username: string; password: string }): RegistryAuthRecord {
    const salt = randomBytes(16).toString("hex");
    const row: RegistryAuthRow = {
      id: randomId(),
      userId,
      name: input.name,
      username: input.username,
      passwordSalt: salt,
      passwordSha256: digest(salt, input.password),
      createdAt: Date.now(),
    };
    this.store.putRegistryAuth(row);
    return record(row);
  }

  /** Replace username and password of the caller's credentials (the name stays). NOT_FOUND when not the caller's. */
  update(userId: string, input: { id?: unknown; username?: unknown; password?: unknown } | null | undefined): RegistryAuthRecord {
    const row = this.owned(userId, requiredString("id", input?.id), "id");
    row.username = requiredString("username", input?.username);
    row.passwordSalt = randomBytes(16).toString("hex");
    row.passwordSha256 = digest(row.passwordSalt, requiredString("password", input?.password));
    this.store.putRegistryAuth(row);
    return record(row);
  }

  /** Delete the caller's credentials; FAILED_PRECONDITION naming the templates that still use them. */
  delete(userId: string, id: unknown): void {
    const row = this.owned(userId, requiredString("registryAuthId", id), "registryAuthId");
    const users = this.store.listTemplates(userId).filter((t) => t.containerRegistryAuthId === row.id);
    if (users.length > 0) {
      throw new DomainError(
        "FAILED_PRECONDITION",
        `Registry credentials "${row.name}" are used by template${users.length > 1 ? "s" : ""} ${users.map((t) => `"${t.name}" (${t.id})`).join(", ")}; change or delete ${users.length > 1 ? "them" : "it"} first.`,
        "registryAuthId",
      );
    }
    this.store.deleteRegistryAuth(row.id);
  }

  /** Whether `candidate` is the stored password (tests check an update reached the platform without reading it back). */
  passwordMatches(id: string, candidate: string): boolean {
    const row = this.store.getRegistryAuth(id);
    if (!row) return false;
    return timingSafeEqual(Buffer.from(row.passwordSha256, "hex"), Buffer.from(digest(row.passwordSalt, candidate), "hex"));
  }
}
