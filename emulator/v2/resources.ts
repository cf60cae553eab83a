/**
 * REST v2 templates, registries and the public template catalog over the platform state GraphQL uses
 * (docs/spec/rest-v2-openapi.json: listTemplates … deleteTemplate, listRegistries … deleteRegistry,
 * listPublicTemplates; network volumes are networkVolumes.ts). The rules are the document's (schemas.ts and the
 * checks here), not GraphQL's `saveTemplate`/`saveRegistryAuth` ones: names need not be unique, and disk, volume,
 * ports, env keys and mount paths are bounded only where the document bounds them.
 */
import { randomBytes } from "crypto";
import type { Core } from "../core";
import { TEMPLATE_FACTS } from "../facts";
import { randomId } from "../ids";
import type { TemplateRow } from "../store";
import { checkContainer, containerOf } from "./container";
import { v2Problem } from "./problems";
import { createRegistrySchema, createTemplateSchema, parseBody, updateTemplateSchema, type UpdateTemplateBody } from "./schemas";

/** `listPublicTemplates` `source` (document: "`official` (the default) … `verified` … `community`"). */
const PUBLIC_SOURCES = ["official", "verified", "community"] as const;
/** "At most 100 templates are returned." */
const PUBLIC_LIMIT = 100;

export class ResourcesV2 {
  constructor(private core: Core) {}

  /** The document's `Template`; `registry` "is always null for templates you don't own". */
  template(row: TemplateRow, userId?: string): Record<string, unknown> {
    const container = containerOf(row);
    return {
      id: row.id,
      name: row.name,
      ...container,
      registry: userId === undefined || row.userId === userId ? container.registry : null,
      mounts: row.volumeInGb > 0 ? { persistent: { size: row.volumeInGb, path: row.volumeMountPath } } : {},
      serverless: row.isServerless,
      public: row.isPublic,
      category: row.category ?? "NVIDIA",
      startSsh: row.startSsh,
      startJupyter: row.startJupyter ?? false,
      allowedCudaVersions: row.allowedCudaVersions ?? [],
    };
  }

  /** The caller's templates; bound templates (one endpoint's settings) are not listed. */
  listTemplates(userId: string) {
    return {
      templates: this.core.templates
        .rows(userId)
        .filter((t) => t.boundTo === undefined)
        .map((t) => this.template(t)),
    };
  }

  /**
   * `listPublicTemplates`: "`official` (the default) is Runpod-curated templates [the seed's templates without an
   * owner], `verified` is community templates Runpod has verified [the seed's `verified`], and `community` is
   * everything else other users have shared publicly"; pod and serverless ones alike; "At most 100".
   */
  listPublicTemplates(userId: string, q: URLSearchParams) {
    const source = q.get("source") ?? "official";
    if (!(PUBLIC_SOURCES as readonly string[]).includes(source))
      throw v2Problem(422, "Request validation failed.", [`source: allowed values are ${PUBLIC_SOURCES.join(", ")}; got "${source}"`]);
    const inSlice = (t: TemplateRow): boolean => {
      if (t.boundTo !== undefined || !t.isPublic) return false;
      if (source === "official") return t.userId === null;
      if (source === "verified") return t.userId !== null && t.verified === true;
      return t.userId !== null && t.userId !== userId && t.verified !== true;
    };
    return {
      templates: this.core.templates
        .rows()
        .filter(inSlice)
        .slice(0, PUBLIC_LIMIT)
        .map((t) => this.template(t, userId)),
    };
  }

  /** Own or public templates (document: getTemplate "Serves both templates you own and public catalog templates"). */
  getTemplate(userId: string, id: string) {
    const row = this.core.templates.get(id);
    if (!row || (row.userId !== userId && !row.isPublic && row.userId !== null)) throw v2Problem(404, `Template "${id}" not found.`);
    return this.template(row, userId);
  }

  /** Env the start flags inject unless `env` already sets it (document: CreateTemplateRequest.startSsh / startJupyter). */
  private injected(userId: string, env: Record<string, string>, startSsh: boolean, startJupyter: boolean): Record<string, string> {
    const out = { ...env };
    const key = this.core.platform.pubKey(userId);
    if (startSsh && key !== "" && out.PUBLIC_KEY === undefined) out.PUBLIC_KEY = key;
    if (startJupyter && out.JUPYTER_PASSWORD === undefined) out.JUPYTER_PASSWORD = randomBytes(12).toString("base64url");
    return out;
  }

  /** Create (no `existing`) or PATCH a template: fields absent from the body keep their value (or take the default). */
  private save(userId: string, existing: TemplateRow | undefined, body: UpdateTemplateBody & { name?: string; image?: string }): Record<string, unknown> {
    const pick = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
    const startSsh = pick(body.startSsh, existing?.startSsh ?? true);
    const startJupyter = pick(body.startJupyter, existing ? (existing.startJupyter ?? false) : true);
    const before = existing ? containerOf(existing) : undefined;
    let env = pick(body.env, before?.env ?? {});
    if (!existing || body.startSsh || body.startJupyter)
      env = this.injected(userId, env, startSsh && (!existing || body.startSsh === true), startJupyter && (!existing || body.startJupyter === true));
    const ports = pick(body.ports, before?.ports ?? []);
    const registry = pick(body.registry, before?.registry ?? null);
    checkContainer(this.core, userId, { ports, registry });
    // "omitting `mounts` or sending `{}` leaves the existing mount unchanged".
    const persistent =
      body.mounts?.persistent ?? (existing && existing.volumeInGb > 0 ? { size: existing.volumeInGb, path: existing.volumeMountPath } : undefined);
    const row: TemplateRow = {
      ...(existing ?? {}),
      id: existing?.id ?? randomId(),
      userId,
      createdAt: existing?.createdAt ?? Date.now(),
      version: existing?.version ?? 1,
      name: pick(body.name, existing?.name ?? ""),
      imageName: pick(body.image, existing?.imageName ?? ""),
      dockerArgs: pick(body.args, existing?.dockerArgs ?? ""),
      containerDiskInGb: pick(body.disk, existing?.containerDiskInGb ?? TEMPLATE_FACTS.containerDiskInGb.default),
      volumeInGb: persistent?.size ?? 0,
      volumeMountPath: persistent?.path ?? existing?.volumeMountPath ?? TEMPLATE_FACTS.volumeMountPath.default,
      ports: ports.join(","),
      env: Object.entries(env).map(([key, value]) => ({ key, value })),
      // REST v2 lets `serverless` change (updateTemplate's mutable fields); GraphQL's fixed-at-creation rule is its own.
      isServerless: pick(body.serverless, existing?.isServerless ?? false),
      containerRegistryAuthId: registry,
      startSsh,
      isPublic: pick(body.public, existing?.isPublic ?? false),
      readme: existing?.readme ?? "",
      category: pick(body.category, existing?.category ?? "NVIDIA"),
      startJupyter,
      allowedCudaVersions: pick(body.allowedCudaVersions, existing?.allowedCudaVersions ?? []),
    };
    return this.template(this.core.templates.commit(existing, row));
  }

  createTemplate(userId: string, raw: unknown) {
    return this.save(userId, undefined, parseBody(createTemplateSchema, raw));
  }

  /** PATCH: only the fields present change; public templates are 404 here (document). */
  updateTemplate(userId: string, id: string, raw: unknown) {
    const existing = this.core.templates.get(id);
    if (!existing || existing.userId !== userId) throw v2Problem(404, `Template "${id}" not found.`);
    return this.save(userId, existing, parseBody(updateTemplateSchema, raw));
  }

  /** 400 while an endpoint is bound to it (document: deleteTemplate). */
  deleteTemplate(userId: string, id: string): void {
    this.core.templates.deleteById(userId, id);
  }

  listRegistries(userId: string) {
    return { registries: this.core.registryAuths.list(userId) };
  }

  getRegistry(userId: string, id: string) {
    const found = this.core.registryAuths.list(userId).find((r) => r.id === id);
    if (!found) throw v2Problem(404, `Registry credentials "${id}" not found.`);
    return found;
  }

  /** Names need not be unique (the document states no such rule; GraphQL's `saveRegistryAuth` keeps its own). */
  createRegistry(userId: string, raw: unknown) {
    return this.core.registryAuths.create(userId, parseBody(createRegistrySchema, raw));
  }

  /** Templates that reference the credentials lose the reference (`registry` becomes null) instead of blocking (document). */
  deleteRegistry(userId: string, id: string): void {
    this.getRegistry(userId, id);
    for (const t of this.core.store.listTemplates(userId)) {
      if (t.containerRegistryAuthId === id) this.core.store.putTemplate({ ...t, containerRegistryAuthId: null });
    }
    this.core.registryAuths.delete(userId, id);
  }
}
