/**
 * Templates on the design's path (docs/spec/platform-clients.md, Templates): `saveTemplate` creates
 * (without `id`, `isServerless: true`) and modifies (with `id`, carrying every managed field, so the
 * template ends up exactly as declared whether the platform merges a modify or replaces the settings);
 * `deleteTemplate` takes the template's current name, looked up by id (the stored one may be stale).
 */
import type { SaveTemplateInput } from "../../../api";
import { isNotFound } from "../../errorKinds";
import { apiInput } from "../../model/state";
import type { NamedRecordPort } from "../../namedRecordProvider";
import type { TemplateState } from "../../paths/records";
import type { PlatformSession } from "../../session";
import { TEMPLATE_MODEL, type TemplateInputs } from "../model";

/** The full `saveTemplate` input: every managed field; always a serverless template. */
export function saveTemplateInput(inputs: TemplateInputs, id?: string): SaveTemplateInput {
  const save = { ...apiInput(TEMPLATE_MODEL, "save", inputs), isServerless: true } as unknown as SaveTemplateInput;
  if (id !== undefined) save.id = id;
  return save;
}

export function graphqlTemplatePort(session: PlatformSession): NamedRecordPort<TemplateInputs, TemplateState> {
  return {
    listing: session.templates,
    create: (inputs) => session.client.saveTemplate(saveTemplateInput(inputs)),
    update: (id, inputs) => session.client.saveTemplate(saveTemplateInput(inputs, id)),
    async deletion(id) {
      const record = await session.templates.find(id);
      if (!record) return undefined;
      return {
        name: record.name,
        async remove() {
          try {
            await session.client.deleteTemplate(record.name);
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        },
      };
    },
  };
}
