/**
 * The emulated platform's template rules (`saveTemplate`, `deleteTemplate`, `myself.podTemplates`; operations from
 * docs/spec/platform-clients.md, fields from the spec's "Common GraphQL input fields"): validation naming the field
 * and its allowed values or range, names unique per user (GraphQL only: REST v2 builds its rows by its own rules
 * and stores them through `commit`), ownership, deletion refused while an endpoint uses the
 * template (and for `releaseMs` after the last use), and a version bump that rolls the workers of every endpoint
 * using the template when its image or env changes.
 */
import { isDeepStrictEqual } from "util";
import { DomainError } from "./domainError";
import { TEMPLATE_FACTS as F } from "./facts";
import { randomId } from "./ids";
import type { EnvVar, SaveTemplateInput, TemplateRecord, TemplateState } from "./records";
import type { SeedTemplate } from "./seed";
import type { Store, TemplateRow } from "./store";
import type { SaveSemantics } from "./types";

type Defaulted =
  "dockerArgs" | "containerDiskInGb" | "volumeInGb" | "volumeMountPath" | "ports" | "env" | "containerRegistryAuthId" | "startSsh" | "isPublic" | "readme";

function bad(field: string, message: string, allowed?: readonly string[]): DomainError {
  return new DomainError("BAD_USER_INPUT", message, field, allowed);
}

function requiredString(field: "name" | "imageName", value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw bad(field, `Field "${field}" is required and must be a non-empty string.`);
  const trimmed = value.trim();
  if (field === "name" && trimmed.length > F.name.maxLength) throw bad(field, `Field "name" must be at most ${F.name.maxLength} characters.`);
  if (field === "imageName" && /\s/.test(trimmed))
    throw bad(field, `Invalid imageName "${value}": an image reference (repository[:tag]) contains no whitespace.`);
  return trimmed;
}

function checkGb(field: "containerDiskInGb" | "volumeInGb", value: unknown): number {
  const { min, max } = F[field];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw bad(field, `Invalid ${field} ${JSON.stringify(value)}: must be an integer number of GB from ${min} to ${max}.`);
  }
  return value;
}

function checkPorts(value: string): string {
  if (value.trim() === "") return value;
  const { protocols, minPort, maxPort } = F.ports;
  const items = value.split(",").map((s) => s.trim());
  for (const item of items) {
    const m = /^(\d+)\/(\w+)$/.exec(item);
    const port = m ? Number(m[1]) : NaN;
    if (!m || !protocols.includes(m[2] as never) || port < minPort || port > maxPort) {
      throw bad(
        "ports",
        `Invalid ports "${value}": item "${item}" must be port/protocol with a port from ${minPort} to ${maxPort} and protocol ${protocols.join(" or ")}, items comma separated (e.g. "8888/http,22/tcp").`,
        protocols,
      );
    }
  }
  if (new Set(items).size !== items.length) throw bad("ports", `Invalid ports "${value}": items must not repeat.`);
  return items.join(",");
}

function checkEnv(value: unknown): EnvVar[] {
  if (!Array.isArray(value)) throw bad("env", 'Field "env" must be a list of { key, value } pairs.');
  const seen = new Set<string>();
  return value.map((entry: { key?: unknown; value?: unknown } | null, i) => {
    const key = entry?.key;
    if (typeof key !== "string" || !F.env.keyPattern.test(key)) {
      throw bad(
        "env",
        `Invalid env[${i}].key ${JSON.stringify(key ?? null)}: an environment variable name starts with a letter or "_" and holds only letters, digits and "_".`,
      );
    }
    if (seen.has(key)) throw bad("env", `Invalid env: key "${key}" appears more than once; keys must be unique.`);
    seen.add(key);
    if (typeof entry?.value !== "string") throw bad("env", `Invalid env[${i}].value for key "${key}": must be a string.`);
    return { key, value: entry.value };
  });
}

/** Env keys only: a release diff never carries env values (they are secrets). */
const envKeys = (env: EnvVar[]): string[] => env.map((e) => e.key).sort();

function sameEnv(a: EnvVar[], b: EnvVar[]): boolean {
  const norm = (e: EnvVar[]) => JSON.stringify([...e].sort((x, y) => x.key.localeCompare(y.key)));
  return norm(a) === norm(b);
}

/** The platform record of a stored template. */
export function templateRecord(row: TemplateRow): TemplateRecord {
  const {
    userId: _u,
    createdAt: _c,
    version: _v,
    releasedAt: _r,
    category: _k,
    startJupyter: _j,
    allowedCudaVersions: _a,
    boundTo: _b,
    verified: _f,
    ...record
  } = row;
  return record;
}

/** A change a release records (REST v2 `ReleaseDiffEntry`). */
export interface DiffEntry {
  field: string;
  old: unknown;
  new: unknown;
}

export class Templates {
  constructor(
    private store: Store,
    private saveSemantics: SaveSemantics,
    /** Milliseconds after an endpoint last stopped using a template during which deleting it is still refused. */
    private releaseMs: number,
    /** Called after a template's image or env changed: roll the workers of the endpoints that use it. */
    private onRollout: (templateId: string, diff: DiffEntry[]) => void,
    /** Called once per modify whose outcome depends on the save semantics (see {@link RunningEmulator.saveSemantics}). */
    private onDependentSave: () => void = () => {},
  ) {}

  /** Copy seeded templates into the store once; from then on they are ordinary state (deleting one is final). */
  applySeed(seeded: SeedTemplate[]): void {
    for (const t of seeded) {
      const key = `template:${t.id}`;
      if (this.store.isSeeded(key)) continue;
      if (!this.store.getTemplate(t.id)) {
        this.store.putTemplate({
          ...this.defaults(),
          id: t.id,
          userId: t.userId,
          name: t.name,
          imageName: t.imageName,
          isServerless: t.isServerless,
          // A template usable by every user is public (Runpod's official catalog), as is a verified one.
          isPublic: t.userId === null || t.verified,
          ...(t.verified ? { verified: true } : {}),
          createdAt: Date.now(),
          version: 1,
        });
      }
      this.store.markSeeded(key);
    }
  }

  private defaults(): Pick<TemplateRecord, Defaulted> {
    return {
      dockerArgs: F.dockerArgs.default,
      containerDiskInGb: F.containerDiskInGb.default,
      volumeInGb: F.volumeInGb.default,
      volumeMountPath: F.volumeMountPath.default,
      ports: F.ports.default,
      env: [...F.env.default],
      containerRegistryAuthId: F.containerRegistryAuthId.default,
      startSsh: F.startSsh.default,
      isPublic: F.isPublic.default,
      readme: F.readme.default,
    };
  }

  /** Stored templates of one user (owned only), or of everyone including public seeded ones. */
  rows(userId?: string): TemplateRow[] {
    return this.store.listTemplates(userId);
  }

  get(id: string): TemplateRow | undefined {
    return this.store.getTemplate(id);
  }

  /** The user's templates as GraphQL lists them: bound templates (one endpoint's settings) are not listed. */
  list(userId?: string): TemplateRecord[] {
    return this.rows(userId)
      .filter((r) => r.boundTo === undefined)
      .map(templateRecord);
  }

  /** What the admin state and the running handle show: the record plus owner and version. */
  states(userId?: string): TemplateState[] {
    return this.rows(userId).map((r) => ({
      ...templateRecord(r),
      userId: r.userId,
      templateVersion: r.version,
      ...(r.boundTo === undefined ? {} : { boundToEndpoint: r.boundTo }),
    }));
  }

  /** The caller's own template by id, or NOT_FOUND (another user's template is indistinguishable from a missing one). */
  owned(userId: string, id: string, field = "id"): TemplateRow {
    const row = this.store.getTemplate(id);
    if (!row || row.userId !== userId) throw new DomainError("NOT_FOUND", `Template "${id}" not found.`, field);
    return row;
  }

  /** A template an endpoint of `userId` may use: the caller's own or a public one, and serverless. */
  usableForEndpoint(userId: string, id: string): TemplateRow {
    const row = this.store.getTemplate(id);
    if (!row || (row.userId !== null && row.userId !== userId)) throw bad("templateId", `Template "${id}" not found.`);
    if (!row.isServerless) throw bad("templateId", `Template "${id}" is not a serverless template.`);
    return row;
  }

  /**
   * Create (no `id`) or modify (`id`) a template of `userId`. On modify, null resets a field to its default; an absent
   * field is reset under `replace` save semantics and kept under `merge` (`name` and `imageName` have no default, so
   * under `replace` they must be given). Throws BAD_USER_INPUT naming the field, or NOT_FOUND.
   */
  save(userId: string, input: SaveTemplateInput): TemplateRecord {
    const existing = input.id != null && input.id !== "" ? this.owned(userId, input.id) : undefined;
    const keep = existing !== undefined && this.saveSemantics === "merge";
    const defaults = this.defaults();
    let dependent = false;
    const depends = (differs: boolean) => {
      if (existing === undefined || dependent || !differs) return;
      dependent = true;
      this.onDependentSave();
    };
    depends(input.name === undefined || input.imageName === undefined);
    const pick = <K extends Defaulted>(key: K): Pick<TemplateRecord, Defaulted>[K] => {
      const v = input[key];
      if (v === null) return defaults[key];
      if (v === undefined) depends(!isDeepStrictEqual(existing?.[key], defaults[key]));
      if (v === undefined) return keep ? existing![key] : defaults[key];
      return v as Pick<TemplateRecord, Defaulted>[K];
    };
    const name = requiredString("name", input.name === undefined && keep ? existing!.name : input.name);
    const imageName = requiredString("imageName", input.imageName === undefined && keep ? existing!.imageName : input.imageName);
    if (this.store.listTemplates(userId).some((t) => t.name === name && t.id !== existing?.id)) {
      throw bad("name", `A template named "${name}" already exists; template names are unique per account.`);
    }
    let isServerless = input.isServerless ?? existing?.isServerless ?? F.isServerless.default;
    if (existing && isServerless !== existing.isServerless) {
      throw bad(
        "isServerless",
        `isServerless cannot change after creation (template "${existing.name}" has isServerless ${existing.isServerless}); create a new template instead.`,
      );
    }
    isServerless = Boolean(isServerless);
    const volumeMountPath = pick("volumeMountPath");
    if (typeof volumeMountPath !== "string" || (volumeMountPath !== "" && !volumeMountPath.startsWith("/"))) {
      throw bad("volumeMountPath", `Invalid volumeMountPath ${JSON.stringify(volumeMountPath)}: must be an absolute path (starting with "/") or "".`);
    }
    const registry = pick("containerRegistryAuthId");
    if (registry !== null && registry !== "") {
      const auth = this.store.getRegistryAuth(registry);
      if (!auth || auth.userId !== userId) {
        throw bad(
          "containerRegistryAuthId",
          `Registry credentials "${registry}" not found; give the id of one of your saved registry credentials, or "" / null for none.`,
        );
      }
    }
    const env = checkEnv(pick("env"));
    const row: TemplateRow = {
      id: existing?.id ?? randomId(),
      userId,
      createdAt: existing?.createdAt ?? Date.now(),
      version: existing?.version ?? 1,
      name,
      imageName,
      dockerArgs: String(pick("dockerArgs")),
      containerDiskInGb: checkGb("containerDiskInGb", pick("containerDiskInGb")),
      volumeInGb: checkGb("volumeInGb", pick("volumeInGb")),
      volumeMountPath,
      ports: checkPorts(String(pick("ports"))),
      env,
      isServerless,
      containerRegistryAuthId: registry,
      startSsh: Boolean(pick("startSsh")),
      isPublic: Boolean(pick("isPublic")),
      readme: String(pick("readme")),
    };
    // Fields only REST v2 shows survive a GraphQL save.
    for (const key of ["category", "startJupyter", "allowedCudaVersions", "boundTo", "verified"] as const) {
      if (existing?.[key] !== undefined) (row as unknown as Record<string, unknown>)[key] = existing[key];
    }
    return templateRecord(this.commit(existing, row));
  }

  /**
   * Store a template built and checked by one interface's rules (`saveTemplate` above, REST v2 in v2/resources.ts):
   * keeps the release window's start, and when the image or env changed bumps the version and rolls the workers of
   * the endpoints that use the template.
   */
  commit(existing: TemplateRow | undefined, row: TemplateRow): TemplateRow {
    if (existing?.releasedAt !== undefined) row.releasedAt = existing.releasedAt;
    row.version = existing?.version ?? 1;
    const diff: DiffEntry[] = [];
    if (existing && existing.imageName !== row.imageName) diff.push({ field: "template.imageName", old: existing.imageName, new: row.imageName });
    if (existing && !sameEnv(existing.env, row.env)) diff.push({ field: "template.env", old: envKeys(existing.env), new: envKeys(row.env) });
    if (diff.length > 0) row.version++;
    this.store.putTemplate(row);
    if (diff.length > 0) this.onRollout(row.id, diff);
    return row;
  }

  /**
   * Delete the caller's template named `templateName` (the platform deletes by name). FAILED_PRECONDITION while an
   * endpoint of the user uses it (naming the endpoints), and for `releaseMs` after the last endpoint stopped using it.
   */
  delete(userId: string, templateName: unknown): void {
    if (typeof templateName !== "string" || templateName === "") throw bad("templateName", `Field "templateName" is required and must be a non-empty string.`);
    const row = this.store.listTemplates(userId).find((t) => t.name === templateName);
    if (!row) throw new DomainError("NOT_FOUND", `Template named "${templateName}" not found.`, "templateName");
    this.deleteRow(userId, row, "templateName");
  }

  /**
   * Delete the caller's template by id (REST v2). NOT_FOUND unless the caller owns it; FAILED_PRECONDITION while an
   * endpoint uses it ("Rejected if the template is currently referenced by a pod … or bound to a serverless
   * endpoint"). The release window after the last use is GraphQL's rule and does not apply.
   */
  deleteById(userId: string, id: string): void {
    this.deleteRow(userId, this.owned(userId, id), "id", false);
  }

  private deleteRow(userId: string, row: TemplateRow, field: string, releaseWindow = true): void {
    const users = this.store.listEndpoints(userId).filter((e) => e.templateId === row.id);
    if (users.length > 0) {
      throw new DomainError(
        "FAILED_PRECONDITION",
        `Template "${row.name}" is in use by endpoint${users.length > 1 ? "s" : ""} ${users.map((e) => e.id).join(", ")}; point ${users.length > 1 ? "them" : "it"} at another template or delete ${users.length > 1 ? "them" : "it"} first.`,
        field,
      );
    }
    const since = row.releasedAt === undefined || !releaseWindow ? Infinity : Date.now() - row.releasedAt;
    if (since < this.releaseMs) {
      throw new DomainError(
        "FAILED_PRECONDITION",
        `Template "${row.name}" is still in use: an endpoint stopped using it ${since} ms ago, and a template can be deleted ${this.releaseMs} ms after its last use; retry in ${this.releaseMs - since} ms.`,
        field,
      );
    }
    this.store.deleteTemplate(row.id);
  }

  /** An endpoint stopped using the template (switched away or deleted): start its release window. */
  release(templateId: string): void {
    const row = this.store.getTemplate(templateId);
    if (!row) return;
    // A bound template held one endpoint's settings; nothing else may use it (REST v2 deleteEndpoint deletes it).
    if (row.boundTo !== undefined) return this.store.deleteTemplate(row.id);
    row.releasedAt = Date.now();
    this.store.putTemplate(row);
  }
}
