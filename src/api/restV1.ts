/**
 * REST v1 endpoint management (spec: Endpoints › POST {rest_url}/v1/endpoints; Resources ›
 * Serverless endpoint (REST v1 creation body)).
 */
import { callWithRetry, type ClientContext } from "./context";
import { InvalidArgumentError } from "./errors";
import { joinUrl, requestParsed } from "./http";
import { endpointRecordSchema } from "./schemas";
import type { EndpointRecord, RestCreateEndpointInput } from "./types";

/**
 * Creates a serverless endpoint: `POST {restV1Url}/v1/endpoints` with bearer auth.
 *
 * The answer's shape is "not shown" by the spec; it is read as the GraphQL endpoint record
 * (what the emulator returns). Creation is not repeated after a 5xx, timeout or dropped
 * connection (`outcomeUnknown: true`); 429 and refused connections are retried.
 *
 * @param input `gpuTypeIds` are GPU type names in priority order (first available wins);
 *   `idleTimeout` is seconds; `workersMin`/`workersMax` are counts.
 * @returns the created endpoint.
 * @throws InvalidArgumentError (empty `gpuTypeIds`), AuthenticationError, PermissionError,
 *   ApiHttpError (validation; problem details in the message), RateLimitError, ServerError,
 *   NetworkError, TimeoutError, ResponseValidationError.
 */
export async function createEndpointRest(ctx: ClientContext, input: RestCreateEndpointInput): Promise<EndpointRecord> {
  const operation = "createEndpointRest";
  if (!Array.isArray(input.gpuTypeIds) || input.gpuTypeIds.length === 0) {
    throw new InvalidArgumentError(`${operation}: gpuTypeIds must list at least one GPU type, in priority order`, "gpuTypeIds", { operation });
  }
  const url = joinUrl(ctx.config.restV1Url, "v1", "endpoints");
  return callWithRetry(ctx, operation, false, () => requestParsed(ctx.transport, { method: "POST", url, body: input, operation }, endpointRecordSchema));
}
