/**
 * REST v2 resource reads (spec: Endpoints › GET {base_url}/v2/network-volumes and
 * GET {base_url}/v2/serverless/{id}/workers). The worker log stream is in logs.ts.
 */
import { z } from "zod";
import { idArgument } from "./arguments";
import { httpOperation, operationTable } from "./operation";
import { networkVolumeListSchema, workerListSchema, type NetworkVolume, type Worker } from "./schemas";

export const restV2Operations = operationTable({
  /**
   * The caller's network volumes: `GET {restV2Url}/v2/network-volumes`.
   * @returns `networkVolumes` of the answer (`size` unit not shown by the spec; GB in practice).
   * @throws AuthenticationError, PermissionError, RateLimitError, ServerError (after retries),
   *   NetworkError, TimeoutError, ResponseValidationError.
   */
  listNetworkVolumes: httpOperation({
    request: () => ({ method: "GET", base: "restV2Url", path: ["v2", "network-volumes"] }),
    response: networkVolumeListSchema,
    result: (data): NetworkVolume[] => data.networkVolumes,
    idempotent: true,
  }),

  /**
   * Workers of a serverless endpoint: `GET {restV2Url}/v2/serverless/{id}/workers` — the source of
   * `workerId` values for the log stream. Shape "not shown": a bare array or `{ workers: [...] }`
   * is accepted; only `id` is relied on.
   * @throws InvalidArgumentError (empty id), NotFoundError (unknown endpoint), and the errors of
   *   `listNetworkVolumes`.
   */
  listWorkers: httpOperation({
    args: z.tuple([idArgument("endpointId")]),
    request: (endpointId) => ({ method: "GET", base: "restV2Url", path: ["v2", "serverless", endpointId, "workers"] }),
    response: workerListSchema,
    result: (workers): Worker[] => workers,
    idempotent: true,
  }),
});
