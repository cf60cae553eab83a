/**
 * Templates on REST v2 (docs/spec/rest-v2-openapi.json, tag Templates): `createTemplate` (a serverless
 * template), `updateTemplate` (PATCH) with only the changed fields, `deleteTemplate` by id (400 while
 * an endpoint is bound to it, which the provider retries as an in-use refusal).
 */
import { isNotFound, messageOf } from "../../errorKinds";
import type { NamedRecordPort } from "../../namedRecordProvider";
import type { TemplateState } from "../../paths/records";
import type { PlatformSession } from "../../session";
import type { TemplateInputs } from "../model";
import { createTemplateBody, patchTemplateBody, templateStateFromV2 } from "./v2Records";

export function v2TemplatePort(session: PlatformSession): NamedRecordPort<TemplateInputs, TemplateState> {
  const v2 = () => session.client.v2;
  return {
    listing: session.templates,
    create: async (inputs) => templateStateFromV2(await v2().createTemplate(createTemplateBody(inputs))),
    async update(id, inputs, olds) {
      const body = patchTemplateBody(inputs, olds);
      return templateStateFromV2(body ? await v2().updateTemplate(id, body) : await v2().getTemplate(id));
    },
    deletion: async (id, props) => ({
      name: typeof props?.name === "string" ? props.name : id,
      async remove() {
        try {
          await v2().deleteTemplate(id);
        } catch (err) {
          if (isNotFound(err)) return;
          // 400: still bound to an endpoint (document: deleteTemplate) — the in-use refusal the provider retries.
          if ((err as { status?: unknown }).status === 400) throw Object.assign(new Error(messageOf(err)), { codes: ["FAILED_PRECONDITION"] });
          throw err;
        }
      },
    }),
  };
}
