/**
 * Endpoints on the design's path (spec: GraphQL › Create / Modify / Delete endpoint; POST /v1/endpoints):
 * `saveEndpoint` creates with GPU tiers (`gpuIds`); GPU type names (`gpuTypeIds`) go through the REST v1
 * create, followed by `saveEndpoint` for the settings its body lacks. A modify carries every managed
 * field: the live platform resets a field left out of a modify to its default (platform-clients.md).
 * A delete scales to zero first (the spec's deletion precondition).
 */
import { isFailedPrecondition, isNotFound, messageOf } from "../../errorKinds";
import { isStringArray, joinList, splitList } from "../../model/state";

import type { EndpointState } from "../../paths/records";
import type { PlatformSession } from "../../session";
import { diffEndpoint } from "../diff";
import { IncompleteCreateError, type EndpointPort } from "../port";
import { outputsFromRecord, restCreateInputFrom, saveInputFrom } from "../state";

export function graphqlEndpointPort(session: PlatformSession): EndpointPort {
  const client = () => session.client;
  return {
    carried: [],
    // The platform rolls every endpoint of a changed template itself (saveTemplate modify).
    copiesTemplates: false,
    create: (inputs) =>
      inputs.gpuTypeIds ? client().createEndpointRest(restCreateInputFrom(inputs)) : client().saveEndpoint(saveInputFrom(inputs, inputs.gpuIds ?? [])),

    /** After a REST v1 create: `saveEndpoint` with the whole desired state when the answer differs from the inputs. */
    async finishCreate(record, inputs) {
      if (!inputs.gpuTypeIds) return record;
      const answered = outputsFromRecord(record, inputs.gpuTypeIds, "", undefined);
      const missing = diffEndpoint(answered, { ...inputs }).changed.filter((f) => f !== "gpuTypeIds");
      if (missing.length === 0) return record;
      // The whole desired state, not only `missing`: a modify may reset omitted fields (full-state modify).
      const save = saveInputFrom(inputs, splitList(record.gpuIds), record.id, answered);
      try {
        return await client().saveEndpoint(save);
      } catch (err) {
        throw new IncompleteCreateError(
          `Endpoint ${record.id} was created but setting ${missing.join(", ")} failed: ${messageOf(err)}. Run \`pulumi up\` again to finish`,
          record,
        );
      } finally {
        session.endpoints.changed(record.id);
      }
    },

    /** Fields left unset whose unset means the platform's default, and the unmanaged `workersStandby`, carry their value from `olds`. */
    update(id, inputs, olds) {
      const tiers = inputs.gpuIds ?? splitList(olds.gpuIds as string[] | string | null);
      return client().saveEndpoint(saveInputFrom(inputs, tiers, id, olds));
    },

    /**
     * Scale to `workersMin = 0`, `workersMax = 0` (skipped when already there), then `deleteEndpoint`,
     * both in one request (`scaleDownAndDeleteEndpoint`), written from the stored outputs, so a destroy
     * costs one request per endpoint. Only without stored outputs, or when the platform refuses the
     * delete because workers are not at zero, is the live record listed and the scale-down repeated once.
     */
    async remove(id, props) {
      let record = recordFromOutputs(id, props) ?? (await session.endpoints.findEndpoint(id));
      for (let attempt = 1; record; attempt++) {
        // Before the writes: a lookup after them must not be answered from a listing taken before.
        session.endpoints.changed(id);
        try {
          if (record.workersMin !== 0 || record.workersMax !== 0) {
            await client().scaleDownAndDeleteEndpoint({ id, name: record.name, templateId: record.templateId ?? "", gpuIds: record.gpuIds });
          } else {
            await client().deleteEndpoint(id);
          }
          return;
        } catch (err) {
          if (isNotFound(err)) return;
          if (!isFailedPrecondition(err) || attempt >= 2) throw err;
        }
        record = await session.endpoints.findEndpoint(id);
      }
    },
  };
}

/**
 * What the delete needs of the endpoint, from its stored outputs: undefined when they lack a field (an
 * older state, or a caller that has none), so the live record is listed instead.
 */
function recordFromOutputs(
  id: string,
  props: Record<string, unknown> | undefined,
): Pick<EndpointState, "name" | "templateId" | "gpuIds" | "workersMin" | "workersMax"> | undefined {
  const { name, templateId, gpuIds, workersMin, workersMax } = props ?? {};
  if (typeof name !== "string" || typeof templateId !== "string" || typeof workersMin !== "number" || typeof workersMax !== "number") return undefined;
  if (!isStringArray(gpuIds) || gpuIds.length === 0 || props?.endpointId !== id) return undefined;
  return { name, templateId, gpuIds: joinList(gpuIds), workersMin, workersMax };
}
