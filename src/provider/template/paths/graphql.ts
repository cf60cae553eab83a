/**
 * Templates on the design's path (docs/spec/platform-clients.md, Templates), the whole mapping between
 * the model and this path's shapes: the GraphQL record (ports as one comma-separated string, env as
 * `[{ key, value }]`) ↔ {@link TemplateState}; `saveTemplate` creates (without `id`, `isServerless:
 * true`) and modifies (with `id`, carrying every managed field, so the template ends up exactly as
 * declared whether the platform merges a modify or replaces the settings); `deleteTemplate` takes the
 * template's current name, looked up by id (the stored one may be stale).
 */
import type { SaveTemplateInput, TemplateRecord } from "../../../api";
import { isFailedPrecondition, isGoneOnGraphql } from "../../paths/graphqlErrors";
import { joinList, splitList } from "../../model/state";
import type { TemplateState } from "../../paths/records";
import type { Port, PortContext } from "../../port";
import type { TemplateInputs } from "../model";

/** A template as GraphQL reports it → the model's record. */
export function templateStateFromGraphql(t: TemplateRecord): TemplateState {
  return {
    id: t.id,
    name: t.name,
    imageName: t.imageName,
    dockerArgs: t.dockerArgs,
    containerDiskInGb: t.containerDiskInGb,
    volumeInGb: t.volumeInGb,
    volumeMountPath: t.volumeMountPath,
    ports: splitList(t.ports),
    env: Object.fromEntries((t.env ?? []).map((e) => [e.key, e.value])),
    isServerless: t.isServerless,
    containerRegistryAuthId: t.containerRegistryAuthId,
    readme: t.readme,
  };
}

/** The full `saveTemplate` input: every managed field; always a serverless template. */
export function saveTemplateInput(inputs: TemplateInputs, id?: string): SaveTemplateInput {
  const save: SaveTemplateInput = {
    name: inputs.name,
    imageName: inputs.imageName,
    dockerArgs: inputs.dockerArgs,
    containerDiskInGb: inputs.containerDiskInGb,
    volumeInGb: inputs.volumeInGb,
    volumeMountPath: inputs.volumeMountPath,
    ports: inputs.ports === undefined ? undefined : joinList(inputs.ports),
    env: inputs.env === undefined ? undefined : Object.entries(inputs.env).map(([key, value]) => ({ key, value })),
    containerRegistryAuthId: inputs.containerRegistryAuthId,
    // Sent on both paths: left out, the platform's default (true) would inject the key, and a stack
    // moved between paths would read that back as drift.
    startSsh: inputs.startSsh,
    readme: inputs.readme,
    isServerless: true,
  };
  for (const k of Object.keys(save) as (keyof SaveTemplateInput)[]) if (save[k] === undefined) delete save[k];
  if (id !== undefined) save.id = id;
  return save;
}

export function graphqlTemplatePort(context: PortContext): Port<TemplateInputs, TemplateState> {
  return {
    capabilities: { unreported: [], replaces: [], copiesTemplates: false, uniqueNames: true, usersFollow: true },
    refusedInUse: isFailedPrecondition,
    create: async (inputs) => templateStateFromGraphql(await context.client.saveTemplate(saveTemplateInput(inputs))),
    read: (id) => context.listing<TemplateState>("template").find(id),
    update: async (id, inputs) => templateStateFromGraphql(await context.client.saveTemplate(saveTemplateInput(inputs, id))),
    async delete(id) {
      const record = await context.listing<TemplateState>("template").find(id);
      if (!record) return;
      context.listing<TemplateState>("template").changed(id);
      try {
        await context.client.deleteTemplate(record.name);
      } catch (err) {
        if (!isGoneOnGraphql(err)) throw err;
      }
    },
  };
}
