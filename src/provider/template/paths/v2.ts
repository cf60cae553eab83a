/**
 * Templates on REST v2 (docs/spec/rest-v2-openapi.json, tag Templates), the whole mapping between the
 * model and this path's shapes: Template, CreateTemplateRequest, UpdateTemplateRequest ↔
 * {@link TemplateState} (`image`, `args`, `disk`, `registry`, the volume as `mounts.persistent { size,
 * path }`; no `readme`); `createTemplate` (a serverless template), `updateTemplate` (PATCH) with only
 * the changed fields, `deleteTemplate` by id (400 while an endpoint is bound to it: the in-use refusal
 * the provider retries). `startSsh` / `startJupyter` are always sent (the document's default, true,
 * would inject `PUBLIC_KEY` / `JUPYTER_PASSWORD` undeclared); the env they inject is left out of the
 * record, so it shows no drift.
 */
import type { V2 } from "../../../api";
import { isNotFound } from "../../errorKinds";
import { changedFields } from "../../model/compare";
import type { TemplateState } from "../../paths/records";
import type { Port, PortContext } from "../../port";
import { INJECTED_ENV, TEMPLATE_INPUT_FIELDS, TEMPLATE_MODEL, type TemplateInputs, type TemplateOutputs } from "../model";

export function templateStateFromV2(t: V2.Template): TemplateState {
  const volume = t.mounts?.persistent;
  return {
    id: t.id,
    name: t.name,
    imageName: t.image ?? "",
    dockerArgs: t.args ?? null,
    containerDiskInGb: t.disk ?? null,
    volumeInGb: volume?.size ?? 0,
    volumeMountPath: volume?.path ?? null,
    ports: [...(t.ports ?? [])],
    // What the start flags inject is the platform's, not declared: left out, it shows no drift.
    env: Object.fromEntries(
      Object.entries(t.env ?? {}).filter(([key]) => !((t.startSsh && key === INJECTED_ENV.startSsh) || (t.startJupyter && key === INJECTED_ENV.startJupyter))),
    ),
    isServerless: t.serverless,
    containerRegistryAuthId: t.registry ?? null,
    readme: null,
    category: t.category,
    startSsh: t.startSsh,
    startJupyter: t.startJupyter,
    isPublic: t.public,
  };
}

const mountsOf = (inputs: TemplateInputs): V2.CreateTemplateRequest["mounts"] =>
  inputs.volumeInGb > 0 ? { persistent: { size: inputs.volumeInGb, path: inputs.volumeMountPath } } : undefined;

export function createTemplateBody(inputs: TemplateInputs): V2.CreateTemplateRequest {
  const body: V2.CreateTemplateRequest = {
    name: inputs.name,
    image: inputs.imageName,
    args: inputs.dockerArgs,
    disk: inputs.containerDiskInGb,
    ports: [...inputs.ports],
    env: { ...inputs.env },
    registry: inputs.containerRegistryAuthId,
    serverless: true,
    category: inputs.category,
    startSsh: inputs.startSsh,
    startJupyter: inputs.startJupyter,
    public: inputs.isPublic,
  };
  const mounts = mountsOf(inputs);
  if (mounts) body.mounts = mounts;
  return body;
}

/** The `updateTemplate` body: only the changed fields; undefined when none changed. */
export function patchTemplateBody(inputs: TemplateInputs, olds: Partial<TemplateOutputs>): V2.UpdateTemplateRequest | undefined {
  const changed = new Set(changedFields(TEMPLATE_MODEL, TEMPLATE_INPUT_FIELDS, olds, { ...inputs }));
  const body: V2.UpdateTemplateRequest = {};
  if (changed.has("name")) body.name = inputs.name;
  if (changed.has("imageName")) body.image = inputs.imageName;
  if (changed.has("dockerArgs")) body.args = inputs.dockerArgs;
  if (changed.has("containerDiskInGb")) body.disk = inputs.containerDiskInGb;
  if (changed.has("ports")) body.ports = [...inputs.ports];
  if (changed.has("env")) body.env = { ...inputs.env };
  if (changed.has("category")) body.category = inputs.category;
  if (changed.has("startSsh")) body.startSsh = inputs.startSsh;
  if (changed.has("startJupyter")) body.startJupyter = inputs.startJupyter;
  if (changed.has("isPublic")) body.public = inputs.isPublic;
  if (changed.has("containerRegistryAuthId")) body.registry = inputs.containerRegistryAuthId;
  if (changed.has("volumeInGb") || changed.has("volumeMountPath")) {
    const mounts = mountsOf(inputs);
    if (mounts) body.mounts = mounts;
  }
  return Object.keys(body).length > 0 ? body : undefined;
}

export function v2TemplatePort(context: PortContext): Port<TemplateInputs, TemplateState> {
  const v2 = () => context.client.v2;
  return {
    capabilities: {
      unreported: [],
      replaces: [],
      // Omitting `mounts` (or `{}`) keeps the mount, and the document gives no form that removes it.
      replacesOnUnset: ["volumeInGb"],
      updatesInPlace: ["name"],
      copiesTemplates: false,
    },
    create: async (inputs) => templateStateFromV2(await v2().createTemplate(createTemplateBody(inputs))),
    read: (id) => context.listing<TemplateState>("template").find(id),
    async update(id, inputs, olds) {
      const body = patchTemplateBody(inputs, olds);
      return templateStateFromV2(body ? await v2().updateTemplate(id, body) : await v2().getTemplate(id));
    },
    async delete(id) {
      context.listing<TemplateState>("template").changed(id);
      try {
        await v2().deleteTemplate(id);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    },
    // 400: still bound to an endpoint (document: deleteTemplate).
    refusedInUse: (err) => (err as { status?: unknown } | null)?.status === 400,
  };
}
