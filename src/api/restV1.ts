/**
 * REST v1 endpoint management (spec: Endpoints › POST {rest_url}/v1/endpoints; Resources ›
 * Serverless endpoint (REST v1 creation body)).
 */
import { z } from "zod";
import { checkedFields } from "./arguments";
import { httpOperation, operationTable, type HttpRequestSpec } from "./operation";
import { endpointRecordSchema, restCreateEndpointInputSchema, type EndpointRecord, type RestCreateEndpointInput } from "./schemas";

export const restV1Operations = operationTable({
  /**
   * Creates a serverless endpoint: `POST {restV1Url}/v1/endpoints` with bearer auth.
   *
   * The answer's shape is "not shown" by the spec; it is read as the GraphQL endpoint record
   * (what the emulator returns). Creation is not repeated after a 5xx, timeout or dropped
   * connection (`outcomeUnknown: true`); 429 and refused connections are retried.
   *
   * @param input the creation body: GPU type names in priority order (first available wins), the
   *   idle timeout in seconds, worker counts (fields: schemas.ts `restCreateEndpointInputSchema`).
   * @returns the created endpoint.
   * @throws InvalidArgumentError (an empty GPU type list), AuthenticationError, PermissionError,
   *   ApiHttpError (validation; problem details in the message), RateLimitError, ServerError,
   *   NetworkError, TimeoutError, ResponseValidationError.
   */
  createEndpointRest: httpOperation({
    args: z.tuple([checkedFields(restCreateEndpointInputSchema, "gpuTypeIds")]),
    request: (input: RestCreateEndpointInput): HttpRequestSpec => ({ method: "POST", base: "restV1Url", path: ["v1", "endpoints"], body: input }),
    response: endpointRecordSchema,
    result: (record): EndpointRecord => record,
    idempotent: false,
  }),
});
