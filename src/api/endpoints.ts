/**
 * Serverless endpoint and account operations over GraphQL (spec: Endpoints › POST {graphql_url};
 * Resources › Serverless endpoint). Documents are fixed text whose selections come from the record
 * schemas (schemas.ts); every user value travels in variables.
 */
import { z } from "zod";
import { checkedFields, nonEmptyArgument, requireNonEmpty } from "./arguments";
import { callWithRetry } from "./context";
import { NotFoundError } from "./errors";
import { definedOnly, executeGraphQLFields, fieldFailure, gql, refusedBeforeExecution, selectionOf } from "./graphql";
import type { Transport } from "./http";
import { composite, graphqlOperation, operationTable, perform } from "./operation";
import {
  SCALED_TO_ZERO,
  endpointIdentitySchema,
  endpointRecordSchema,
  fieldsOf,
  gpuTypeSchema,
  myselfSchema,
  saveEndpointInputSchema,
  scaledDownSchema,
  type EndpointIdentity,
  type EndpointRecord,
  type GpuType,
  type Myself,
  type SaveEndpointInput,
} from "./schemas";

/** Endpoint fields selected everywhere an endpoint is returned (spec: Resources › Serverless endpoint). */
const ENDPOINT_FIELDS = selectionOf(endpointRecordSchema);

/**
 * The scale-down and the delete in one document: mutation root fields run one after the other
 * (GraphQL specification, "Mutation"), so `deleteEndpoint` sees the workers at zero, as the spec's
 * deletion precondition asks, and a destroy needs one round trip per endpoint instead of two.
 */
export const SCALE_DOWN_AND_DELETE_ENDPOINT = gql`
  mutation scaleDownAndDeleteEndpoint($input: EndpointInput!, $id: String!) {
    saveEndpoint(input: $input) { ${selectionOf(scaledDownSchema)} }
    deleteEndpoint(id: $id)
  }
`;

/** Clients whose platform refused {@link SCALE_DOWN_AND_DELETE_ENDPOINT}: they send its two fields as two requests from then on. */
const refusesTwoFieldDelete = new WeakSet<Transport>();

export const endpointOperations = operationTable({
  /**
   * Creates (no `id`) or modifies (with `id`) a serverless endpoint: mutation `saveEndpoint(input)`.
   *
   * Creating is not repeated after a 5xx, timeout or dropped connection: the error is thrown with
   * `outcomeUnknown: true` and the caller must look for the endpoint (e.g. `findEndpointsByName`)
   * before trying again. Modifying is idempotent and retried.
   *
   * @param input endpoint fields (units and formats: schemas.ts `endpointRecordSchema`); the modify
   *   form must carry `gpuIds`, `name` and `templateId`. Values are checked by the platform.
   * @returns the endpoint as saved, including its `id`.
   * @throws InvalidArgumentError (empty `id`), AuthenticationError, PermissionError (read-only key),
   *   NotFoundError (unknown `id`), GraphQLRequestError (validation), RateLimitError, ServerError,
   *   NetworkError, TimeoutError, ResponseValidationError.
   */
  saveEndpoint: graphqlOperation({
    args: z.tuple([checkedFields(saveEndpointInputSchema, "id")]),
    document: gql`
      mutation saveEndpoint($input: EndpointInput!) {
        saveEndpoint(input: $input) { ${ENDPOINT_FIELDS} }
      }
    `,
    variables: (input: SaveEndpointInput) => ({ input: definedOnly(input) }),
    response: z.object({ saveEndpoint: endpointRecordSchema }),
    result: (data): EndpointRecord => data.saveEndpoint,
    idempotent: (input) => input.id !== undefined,
  }),

  /**
   * Deletes an endpoint: mutation `deleteEndpoint(id)`; the platform requires `workersMin` and
   * `workersMax` to be 0 first (spec: States and transitions). Idempotent, so retried.
   *
   * @param id endpoint id.
   * @throws NotFoundError when no such endpoint is the caller's (not thrown when a retry finds it
   *   gone after an earlier attempt's answer was lost),
   *   GraphQLRequestError (e.g. FAILED_PRECONDITION while workers are nonzero), and the errors of saveEndpoint.
   */
  deleteEndpoint: graphqlOperation({
    args: z.tuple([nonEmptyArgument("id")]),
    document: gql`
      mutation deleteEndpoint($id: String!) {
        deleteEndpoint(id: $id)
      }
    `,
    variables: (id) => ({ id }),
    response: z.object({ deleteEndpoint: z.unknown() }),
    result: (): void => undefined,
    idempotent: true,
    goneOnRetryIsDone: true,
  }),

  /**
   * Scales an endpoint to `workersMin` = 0, `workersMax` = 0 and deletes it (spec: GraphQL › Modify
   * endpoint, then Delete endpoint with its precondition), both mutations in one request (see
   * {@link SCALE_DOWN_AND_DELETE_ENDPOINT}). Safe to repeat, so retried; a retry that finds the endpoint
   * gone after an earlier attempt's answer was lost succeeds. A platform that refuses a document of two
   * mutation fields before running it (a GraphQL request error) gets `saveEndpoint` and
   * `deleteEndpoint` as two requests instead, from then on.
   *
   * @param endpoint `id` plus the fields every modify carries (`name`, `templateId`, `gpuIds`
   *   comma-separated), e.g. from the endpoint's last known record.
   * @throws InvalidArgumentError (empty `id`); the deletion's outcome decides otherwise: NotFoundError
   *   (no such endpoint), GraphQLRequestError naming the errors of both fields (e.g. FAILED_PRECONDITION
   *   when the scale-down was refused and workers are nonzero), and the request errors of saveEndpoint.
   *   An error of the scale-down alone is not thrown when the delete succeeded.
   */
  scaleDownAndDeleteEndpoint: composite((ctx) => async (endpoint: EndpointIdentity): Promise<void> => {
    const operation = "deleteEndpoint";
    requireNonEmpty(endpoint.id, "id", operation);
    const input: SaveEndpointInput = { ...fieldsOf(endpointIdentitySchema, endpoint), ...SCALED_TO_ZERO };
    if (!refusesTwoFieldDelete.has(ctx.transport)) {
      try {
        return await callWithRetry(ctx, operation, true, async (attempt) => {
          const { fieldErrors } = await executeGraphQLFields(ctx.transport, ctx.config.graphqlUrl, {
            operation,
            document: SCALE_DOWN_AND_DELETE_ENDPOINT,
            variables: { input, id: endpoint.id },
            schema: z.object({ deleteEndpoint: z.unknown() }),
          });
          const deleteErrors = fieldErrors.get("deleteEndpoint");
          if (!deleteErrors) return;
          // The scale-down's errors explain a refused delete (e.g. FAILED_PRECONDITION after a refused scale-down).
          const err = fieldFailure(ctx.transport, operation, [...deleteErrors, ...(fieldErrors.get("saveEndpoint") ?? [])]);
          if (attempt > 1 && err instanceof NotFoundError) return;
          throw err;
        });
      } catch (err) {
        if (!refusedBeforeExecution(err)) throw err;
        refusesTwoFieldDelete.add(ctx.transport);
      }
    }
    await perform(ctx, endpointOperations.saveEndpoint, [input]);
    await perform(ctx, endpointOperations.deleteEndpoint, [endpoint.id]);
  }),

  /**
   * The caller's account: query `myself { id email endpoints {…} serverlessDiscount {…} }`.
   * @returns id, e-mail, all endpoints, and the serverless discount or null.
   * @throws AuthenticationError, RateLimitError, ServerError, NetworkError, TimeoutError, ResponseValidationError.
   */
  myself: graphqlOperation({
    document: gql`
      query myself {
        myself { ${selectionOf(myselfSchema)} }
      }
    `,
    response: z.object({ myself: myselfSchema }),
    result: (data): Myself => data.myself,
    idempotent: true,
  }),

  /**
   * The caller's endpoints: query `myself { endpoints {…} }`.
   * @returns every endpoint record (possibly empty).
   * @throws as `myself`.
   */
  listEndpoints: graphqlOperation({
    document: gql`
      query myself {
        myself { endpoints { ${ENDPOINT_FIELDS} } }
      }
    `,
    response: z.object({ myself: z.object({ endpoints: z.array(endpointRecordSchema) }).passthrough() }),
    result: (data): EndpointRecord[] => data.myself.endpoints,
    idempotent: true,
  }),

  /**
   * One endpoint by id, from `listEndpoints` (the spec shows no single-endpoint query).
   * @returns the record, or undefined when the caller has no endpoint with that id.
   * @throws InvalidArgumentError for an empty id, and the errors of `listEndpoints`.
   */
  findEndpoint: composite((ctx) => async (id: string): Promise<EndpointRecord | undefined> => {
    requireNonEmpty(id, "id", "findEndpoint");
    return (await perform(ctx, endpointOperations.listEndpoints, [])).find((e) => e.id === id);
  }),

  /**
   * Endpoints with the given name (and template, when given): what a caller looks for after a create
   * whose outcome is unknown (docs/endpoint.md › Endpoint names).
   * @returns matching records, oldest first as listed by the platform.
   */
  findEndpointsByName: composite((ctx) => async (name: string, templateId?: string): Promise<EndpointRecord[]> => {
    const all = await perform(ctx, endpointOperations.listEndpoints, []);
    return all.filter((e) => e.name === name && (templateId === undefined || e.templateId === templateId));
  }),

  /**
   * GPU types: query `gpuTypes { id displayName memoryInGb }` (spec: only `id` is shown).
   * @returns available GPU type identifiers with display name and memory (GB) when provided.
   */
  gpuTypes: graphqlOperation({
    document: gql`
      query gpuTypes {
        gpuTypes { ${selectionOf(gpuTypeSchema)} }
      }
    `,
    response: z.object({ gpuTypes: z.array(gpuTypeSchema) }),
    result: (data): GpuType[] => data.gpuTypes,
    idempotent: true,
  }),
});
