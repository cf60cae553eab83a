/**
 * The readiness wait of create and update (`waitForWorkers`, `workersReadyTimeout`; README › Resources): with
 * the wait on and `workersMin` > 0, polls the endpoint's worker listing until `workersMin` workers
 * report ready (spec: GET {base_url}/v2/serverless/{id}/workers).
 */
import { waitForWorkers, WorkersNotReadyError, type PlatformClient } from "../../api";
import { settingsFrom } from "../model/state";
import { ENDPOINT_MODEL, type EndpointInputs } from "./model";

/** Pause between two worker listings of the readiness wait, in milliseconds. */
export const READINESS_POLL_MS = 2_000;

/**
 * Waits as the inputs' settings say; returns at once, without a request, when the wait is off or
 * `workersMin` is 0.
 * @throws WorkersNotReadyError on timeout; the listing's own errors (401, 404, ...).
 */
export async function awaitWorkers(client: PlatformClient, id: string, inputs: EndpointInputs, pollIntervalMs: number = READINESS_POLL_MS): Promise<void> {
  const { waitForWorkers: wait, workersReadyTimeout } = settingsFrom(ENDPOINT_MODEL, inputs);
  if (!wait || inputs.workersMin <= 0) return;
  await waitForWorkers(client, id, { count: inputs.workersMin, timeoutMs: workersReadyTimeout * 1000, pollIntervalMs });
}

export { WorkersNotReadyError };

/** "N of M workers were ready after S seconds (…)", for the readiness wait's failures. */
export function notReadyFigures(err: WorkersNotReadyError): string {
  const seconds = Math.round(err.timeoutMs / 100) / 10;
  return (
    `${err.ready} of ${err.expected} worker${err.expected === 1 ? " was" : "s were"} ready after ${seconds} seconds ` +
    "(waitForWorkers; raise workersReadyTimeout to wait longer)"
  );
}
