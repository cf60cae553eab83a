/**
 * Waiting for an endpoint's jobs in progress before it is deleted (a delete cancels them), on either
 * path: the worker listing (`GET /v2/serverless/{id}/workers`, spec: REST v2 › workers) is the
 * service's one view of workers, whichever interface manages the endpoint.
 */
import { poll } from "../../api/poll";
import { settingsFrom } from "../model/state";
import type { PortContext } from "../port";
import { ENDPOINT_MODEL } from "./model";

/** Pause between two worker listings while jobs drain, in milliseconds. */
export const DRAIN_POLL_MS = 250;
/** The drain's limit in milliseconds: the stored `workersReadyTimeout`, else its default (600 s). */
export function drainLimitMs(props: object | undefined): number {
  return settingsFrom(ENDPOINT_MODEL, props).workersReadyTimeout * 1000;
}

/** How many of the endpoint's workers run a job now. */
export async function runningJobs(context: PortContext, id: string): Promise<number> {
  return (await context.client.v2.listEndpointWorkers(id)).summary.running;
}

/**
 * Waits until no worker of the endpoint, already scaled to zero, runs a job (`summary.running` 0).
 * @throws Error naming the endpoint and the jobs still running when `limitMs` passes; nothing is deleted then.
 */
export async function drain(context: PortContext, id: string, limitMs: number): Promise<void> {
  const { met, value } = await poll(
    () => context.client.v2.listEndpointWorkers(id),
    (w) => w.summary.running === 0,
    { timeoutMs: limitMs, intervalMs: DRAIN_POLL_MS },
  );
  if (met) return;
  const running = value?.summary.running ?? 0;
  throw new Error(
    `Endpoint ${id} is scaled to zero, but ${running} worker${running === 1 ? " still runs a job" : "s still run jobs"} after ` +
      `${Math.round(limitMs / 1000)} seconds; it was not deleted (a delete cancels them). Run the destroy again once they finish, or raise workersReadyTimeout`,
  );
}
