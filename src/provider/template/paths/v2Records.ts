/**
 * Templates as REST v2 writes them (docs/spec/rest-v2-openapi.json: Template, CreateTemplateRequest,
 * UpdateTemplateRequest) ↔ the model's {@link TemplateState}: `image`, `args`, `disk`, ports as a list,
 * env as a map, `registry`, the volume as `mounts.persistent { size, path }`. v2 has no `readme`.
 * `startSsh` / `startJupyter` are always sent (the document's default, true, would inject `PUBLIC_KEY` /
 * `JUPYTER_PASSWORD` undeclared); the env they inject is left out of the record, so it shows no drift.
 */
import type { V2 } from "../../../api";
import { changedFields } from "../../model/compare";
import { joinList } from "../../model/state";
import type { TemplateState } from "../../paths/records";
import { INJECTED_ENV, TEMPLATE_INPUT_FIELDS, TEMPLATE_MODEL, type TemplateInputs } from "../model";

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
    ports: joinList(t.ports ?? []),
    // What the start flags inject is the platform's, not declared: left out, it shows no drift.
    env: Object.entries(t.env ?? {})
      .filter(([key]) => !((t.startSsh && key === INJECTED_ENV.startSsh) || (t.startJupyter && key === INJECTED_ENV.startJupyter)))
      .map(([key, value]) => ({ key, value })),
    isServerless: t.serverless,
    containerRegistryAuthId: t.registry ?? null,
    readme: null,
    category: t.category,
    startSsh: t.startSsh,
    startJupyter: t.startJupyter,
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
  };
  const mounts = mountsOf(inputs);
  if (mounts) body.mounts = mounts;
  return body;
}

/** The `updateTemplate` body: only the changed fields; undefined when none changed. */
export function patchTemplateBody(inputs: TemplateInputs, olds: Record<string, unknown>): V2.UpdateTemplateRequest | undefined {
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
  if (changed.has("containerRegistryAuthId")) body.registry = inputs.containerRegistryAuthId;
  if (changed.has("volumeInGb") || changed.has("volumeMountPath")) {
    const mounts = mountsOf(inputs);
    if (mounts) body.mounts = mounts;
  }
  return Object.keys(body).length > 0 ? body : undefined;
}
