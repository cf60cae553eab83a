/**
 * REST v2 resource reads (spec: Endpoints › GET {base_url}/v2/network-volumes and
 * GET {base_url}/v2/serverless/{id}/workers). The worker log stream is in logs.ts.
 */
import { requireNonEmpty } from "./arguments";
import { callWithRetry, type ClientContext } from "./context";
import { joinUrl, requestParsed } from "./http";
import { networkVolumeListSchema, workerListSchema } from "./schemas";
import type { NetworkVolume, Worker } from "./types";

/**
 * The caller's network volumes: `GET {restV2Url}/v2/network-volumes`.
 * @returns `networkVolumes` of the answer (`size` unit not shown by the spec; GB in practice).
 * @throws AuthenticationError, PermissionError, RateLimitError, ServerError (after retries),
 *   NetworkError, TimeoutError, ResponseValidationError.
 */
export function listNetworkVolumes(ctx: ClientContext): Promise<NetworkVolume[]> {
  const operation = "listNetworkVolumes";
  const url = joinUrl(ctx.config.restV2Url, "v2", "network-volumes");
  return callWithRetry(ctx, operation, true, async () => (await requestParsed(ctx.transport, { method: "GET", url, operation }, networkVolumeListSchema)).networkVolumes);
}

/**
 * Workers of a serverless endpoint: `GET {restV2Url}/v2/serverless/{id}/workers` — the source of
 * `workerId` values for the log stream. Shape "not shown": a bare array or `{ workers: [...] }`
 * is accepted; only `id` is relied on.
 * @throws InvalidArgumentError (empty id), NotFoundError (unknown endpoint), and the errors of
 *   {@link listNetworkVolumes}.
 */
export async function listWorkers(ctx: ClientContext, endpointId: string): Promise<Worker[]> {
  const operation = "listWorkers";
  requireNonEmpty(endpointId, "endpointId", operation);
  const url = joinUrl(ctx.config.restV2Url, "v2", "serverless", endpointId, "workers");
  return callWithRetry(ctx, operation, true, () => requestParsed(ctx.transport, { method: "GET", url, operation }, workerListSchema));
}
