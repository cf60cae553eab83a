/**
 * REST v2 templates, registries and network volumes over the platform state GraphQL uses
 * (docs/spec/rest-v2-openapi.json: listTemplates … deleteTemplate, listRegistries … deleteRegistry,
 * listNetworkVolumes, getNetworkVolume). Templates are validated by the same rules as `saveTemplate`
 * (templates.ts); REST v2 adds `category`, `startJupyter`, `allowedCudaVersions` and `mounts`.
 */
import { randomBytes } from "crypto";
import type { Core } from "../core";
import { DomainError } from "../domainError";
import { ProblemError } from "../problem";
import type { SaveTemplateInput } from "../records";
import type { TemplateRow } from "../store";
import { containerOf } from "./container";
import { createRegistrySchema, createTemplateSchema, parseBody, updateTemplateSchema, type UpdateTemplateBody } from "./schemas";

const problem = (status: number, detail: string, errors?: string[]) => new ProblemError(status, detail, errors);

/** A domain error as the v2 document answers it: a missing resource is 404; everything else a 400. */
export function v2Problem(e: unknown): unknown {
  if (!(e instanceof DomainError)) return e;
  return problem(e.code === "NOT_FOUND" ? 404 : 400, e.message, [e.field ? `${e.field}: ${e.message}` : e.message]);
}

export class ResourcesV2 {
  constructor(private core: Core) {}

  /** The document's `Template`. */
  template(row: TemplateRow): Record<string, unknown> {
    return {
      id: row.id,
      name: row.name,
      ...containerOf(row),
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

  /** Own or public templates (document: getTemplate serves both). */
  getTemplate(userId: string, id: string) {
    const row = this.core.templates.get(id);
    if (!row || (row.userId !== null && row.userId !== userId)) throw problem(404, `Template "${id}" not found.`);
    return this.template(row);
  }

  /** Env the start flags inject unless `env` already sets it (document: CreateTemplateRequest.startSsh / startJupyter). */
  private injected(userId: string, env: Record<string, string>, startSsh: boolean, startJupyter: boolean): Record<string, string> {
    const out = { ...env };
    const key = this.core.platform.pubKey(userId);
    if (startSsh && key !== "" && out.PUBLIC_KEY === undefined) out.PUBLIC_KEY = key;
    if (startJupyter && out.JUPYTER_PASSWORD === undefined) out.JUPYTER_PASSWORD = randomBytes(12).toString("base64url");
    return out;
  }

  private save(userId: string, existing: TemplateRow | undefined, body: UpdateTemplateBody & { name?: string; image?: string }): Record<string, unknown> {
    const base = existing ? this.template(existing) : undefined;
    const pick = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
    const startSsh = pick(body.startSsh, (base?.startSsh as boolean | undefined) ?? true);
    const startJupyter = pick(body.startJupyter, (base?.startJupyter as boolean | undefined) ?? true);
    let env = pick(body.env, (base?.env as Record<string, string> | undefined) ?? {});
    if (!existing || body.startSsh || body.startJupyter)
      env = this.injected(userId, env, startSsh && (!existing || body.startSsh === true), startJupyter && (!existing || body.startJupyter === true));
    const persistent =
      body.mounts?.persistent ?? (existing && existing.volumeInGb > 0 ? { size: existing.volumeInGb, path: existing.volumeMountPath } : undefined);
    const input: SaveTemplateInput = {
      id: existing?.id,
      name: pick(body.name, existing?.name),
      imageName: pick(body.image, existing?.imageName),
      dockerArgs: pick(body.args, existing?.dockerArgs ?? ""),
      containerDiskInGb: pick(body.disk, existing?.containerDiskInGb),
      volumeInGb: persistent?.size ?? 0,
      volumeMountPath: persistent?.path ?? existing?.volumeMountPath,
      ports: pick(body.ports?.join(","), existing?.ports),
      env: Object.entries(env).map(([key, value]) => ({ key, value })),
      isServerless: pick(body.serverless, existing?.isServerless ?? false),
      containerRegistryAuthId: pick(body.registry, existing?.containerRegistryAuthId ?? null),
      startSsh,
      isPublic: pick(body.public, existing?.isPublic ?? false),
      readme: existing?.readme ?? "",
    };
    if (existing && input.isServerless !== existing.isServerless) {
      // REST v2 lets `serverless` change (document: updateTemplate's mutable fields); the GraphQL rule does not apply here.
      this.core.store.putTemplate({ ...existing, isServerless: input.isServerless! });
    }
    let saved;
    try {
      saved = this.core.templates.save(userId, input);
    } catch (e) {
      if (existing && input.isServerless !== existing.isServerless) this.core.store.putTemplate(existing);
      throw v2Problem(e);
    }
    const row = this.core.templates.get(saved.id)!;
    row.category = pick(body.category, existing?.category ?? "NVIDIA");
    row.startJupyter = startJupyter;
    row.allowedCudaVersions = pick(body.allowedCudaVersions, existing?.allowedCudaVersions ?? []);
    this.core.store.putTemplate(row);
    return this.template(row);
  }

  createTemplate(userId: string, raw: unknown) {
    return this.save(userId, undefined, parseBody(createTemplateSchema, raw, problem));
  }

  /** PATCH: only the fields present change; public templates are 404 here (document). */
  updateTemplate(userId: string, id: string, raw: unknown) {
    const existing = this.core.templates.get(id);
    if (!existing || existing.userId !== userId) throw problem(404, `Template "${id}" not found.`);
    return this.save(userId, existing, parseBody(updateTemplateSchema, raw, problem));
  }

  /** 400 while an endpoint is bound to it (document: deleteTemplate). */
  deleteTemplate(userId: string, id: string): void {
    try {
      this.core.templates.deleteById(userId, id);
    } catch (e) {
      throw v2Problem(e);
    }
  }

  listRegistries(userId: string) {
    return { registries: this.core.registryAuths.list(userId) };
  }

  getRegistry(userId: string, id: string) {
    const found = this.core.registryAuths.list(userId).find((r) => r.id === id);
    if (!found) throw problem(404, `Registry credentials "${id}" not found.`);
    return found;
  }

  createRegistry(userId: string, raw: unknown) {
    const body = parseBody(createRegistrySchema, raw, problem);
    try {
      return this.core.registryAuths.save(userId, body);
    } catch (e) {
      throw v2Problem(e);
    }
  }

  /** Templates that reference the credentials lose the reference (`registry` becomes null) instead of blocking (document). */
  deleteRegistry(userId: string, id: string): void {
    this.getRegistry(userId, id);
    for (const t of this.core.store.listTemplates(userId)) {
      if (t.containerRegistryAuthId === id) this.core.store.putTemplate({ ...t, containerRegistryAuthId: null });
    }
    try {
      this.core.registryAuths.delete(userId, id);
    } catch (e) {
      throw v2Problem(e);
    }
  }

  listNetworkVolumes(userId: string) {
    return { networkVolumes: this.core.platform.networkVolumes(userId) };
  }

  getNetworkVolume(userId: string, id: string) {
    const v = this.core.platform.networkVolumes(userId).find((x) => x.id === id);
    if (!v) throw problem(404, `Network volume "${id}" not found.`);
    return v;
  }
}
