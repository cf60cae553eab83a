/**
 * Endpoints on REST v2 (docs/spec/rest-v2-openapi.json, tag Serverless): `createEndpoint` with every
 * managed field (`templateId` copies the template's container settings: a snapshot), `updateEndpoint`
 * (PATCH) with only what changed, as whole sub-documents (v2Records.ts), and a delete that scales to
 * zero first (PATCH `workers { min: 0, max: 0 }`), then `deleteEndpoint`.
 */
import { isNotFound } from "../../errorKinds";
import type { PlatformSession } from "../../session";
import type { EndpointPort } from "../port";
import { createBody, endpointStateFromV2, patchBody } from "./v2Records";

export function v2EndpointPort(session: PlatformSession): EndpointPort {
  const v2 = () => session.client.v2;
  return {
    carried: ["templateId", "idleTimeout"],
    create: async (inputs) => endpointStateFromV2(await v2().createEndpoint(createBody(inputs))),

    // The create body carries every field: nothing to finish.
    finishCreate: async (record) => record,

    async update(id, inputs, olds) {
      const body = patchBody(inputs, olds);
      return endpointStateFromV2(body ? await v2().updateEndpoint(id, body) : await v2().getEndpoint(id));
    },

    async remove(id, props) {
      session.endpoints.changed(id);
      try {
        const atZero = props?.workersMin === 0 && props?.workersMax === 0;
        if (!atZero) await v2().updateEndpoint(id, { workers: { min: 0, max: 0 } });
        await v2().deleteEndpoint(id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
