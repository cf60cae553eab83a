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

/** PATCH fields that make a release (document: updateEndpoint). */
const CONTAINER_KEYS = ["templateId", "image", "args", "disk", "ports", "env", "registry"] as const;
/** Pause between two release listings while a rollout runs, in milliseconds. */
export const ROLLOUT_POLL_MS = 250;

/**
 * Waits until the endpoint's rollout ends (`listEndpointReleases` › `rollout.inProgress` false: every
 * worker on the latest release), so a template change is on the workers when `pulumi up` returns.
 * @throws Error with the rollout's figures when it has not ended within `timeoutMs`.
 */
async function followRollout(session: PlatformSession, id: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rollout } = await session.client.v2.listEndpointReleases(id);
    if (!rollout.inProgress) return;
    if (Date.now() + ROLLOUT_POLL_MS > until) {
      throw new Error(
        `Endpoint ${id} was updated, but its rollout had ${rollout.workersOnLatest} of ${rollout.workersTotal} workers on the new release after ` +
          `${Math.round(timeoutMs / 1000)} seconds (raise workersReadyTimeout to wait longer; the rollout goes on)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, ROLLOUT_POLL_MS));
  }
}

/** Longest wait for in-progress jobs before a delete when the stored outputs hold no limit, in seconds. */
export const DRAIN_DEFAULT_S = 600;

/**
 * Waits until no worker of the endpoint runs a job (`listEndpointWorkers` › `summary.running` 0).
 * @throws Error naming the endpoint and the jobs still running when `limitMs` passes; nothing is deleted then.
 */
async function drain(session: PlatformSession, id: string, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    const { summary } = await session.client.v2.listEndpointWorkers(id);
    if (summary.running === 0) return;
    if (Date.now() + ROLLOUT_POLL_MS > until) {
      throw new Error(
        `Endpoint ${id} is scaled to zero, but ${summary.running} worker${summary.running === 1 ? " still runs a job" : "s still run jobs"} after ` +
          `${Math.round(limitMs / 1000)} seconds; it was not deleted (a delete cancels them). Run the destroy again once they finish, or raise workersReadyTimeout`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, ROLLOUT_POLL_MS));
  }
}

export function v2EndpointPort(session: PlatformSession): EndpointPort {
  const v2 = () => session.client.v2;
  return {
    carried: ["templateId", "idleTimeout"],
    copiesTemplates: true,
    create: async (inputs) => endpointStateFromV2(await v2().createEndpoint(createBody(inputs))),

    // The create body carries every field: nothing to finish.
    finishCreate: async (record) => record,

    async update(id, inputs, olds, reapplyTemplate) {
      const body = patchBody(inputs, olds, reapplyTemplate);
      const record = endpointStateFromV2(body ? await v2().updateEndpoint(id, body) : await v2().getEndpoint(id));
      if (body && CONTAINER_KEYS.some((k) => body[k] !== undefined)) await followRollout(session, id, inputs.workersReadyTimeout * 1000);
      return record;
    },

    /**
     * v2's DELETE cancels in-progress jobs, so between the scale-down and the delete the workers still
     * running a job are waited for (up to the stored `workersReadyTimeout`, default 600 s).
     */
    async remove(id, props) {
      session.endpoints.changed(id);
      try {
        const atZero = props?.workersMin === 0 && props?.workersMax === 0;
        if (!atZero) await v2().updateEndpoint(id, { workers: { min: 0, max: 0 } });
        const limit = typeof props?.workersReadyTimeout === "number" ? props.workersReadyTimeout : DRAIN_DEFAULT_S;
        await drain(session, id, limit * 1000);
        await v2().deleteEndpoint(id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
