/**
 * Serverless endpoint and account operations over GraphQL (spec: Endpoints › POST {graphql_url};
 * Resources › Serverless endpoint). Documents are fixed text; every user value travels in variables.
 */
import { z } from "zod";
import { gql } from "graphql-request";
import { requireNonEmpty } from "./arguments";
import { callWithRetry, type ClientContext } from "./context";
import { NotFoundError } from "./errors";
import { executeGraphQL, executeGraphQLFields, fieldFailure, refusedBeforeExecution } from "./graphql";
import type { Transport } from "./http";
import { endpointRecordSchema, gpuTypeSchema, myselfSchema } from "./schemas";
import type { EndpointIdentity, EndpointRecord, GpuType, Myself, SaveEndpointInput } from "./types";

/** Endpoint fields selected everywhere an endpoint is returned (spec: Resources › Serverless endpoint). */
export const ENDPOINT_FIELDS = `
  id name templateId gpuIds type idleTimeout locations fastBootType
  scalerType scalerValue workersMin workersMax networkVolumeId
  pods { desiredStatus }
`;

export const SAVE_ENDPOINT = gql`
  mutation saveEndpoint($input: EndpointInput!) {
    saveEndpoint(input: $input) { ${ENDPOINT_FIELDS} }
  }
`;

export const DELETE_ENDPOINT = gql`
  mutation deleteEndpoint($id: String!) {
    deleteEndpoint(id: $id)
  }
`;

/**
 * The scale-down and the delete in one document: mutation root fields run one after the other
 * (GraphQL specification, "Mutation"), so `deleteEndpoint` sees the workers at zero, as the spec's
 * deletion precondition asks, and a destroy needs one round trip per endpoint instead of two.
 */
export const SCALE_DOWN_AND_DELETE_ENDPOINT = gql`
  mutation scaleDownAndDeleteEndpoint($input: EndpointInput!, $id: String!) {
    saveEndpoint(input: $input) { id workersMin workersMax }
    deleteEndpoint(id: $id)
  }
`;

export const MYSELF = gql`
  query myself {
    myself {
      id email
      endpoints { ${ENDPOINT_FIELDS} }
      serverlessDiscount { discountFactor type expirationDate }
    }
  }
`;

export const LIST_ENDPOINTS = gql`
  query myself {
    myself { endpoints { ${ENDPOINT_FIELDS} } }
  }
`;

export const GPU_TYPES = gql`
  query gpuTypes {
    gpuTypes { id displayName memoryInGb }
  }
`;

/** Runs a variable-free query under the retry policy (reads are safe to repeat) and picks its result out of `data`. */
function readQuery<S extends z.ZodTypeAny, T>(
  ctx: ClientContext,
  operation: string,
  document: string,
  schema: S,
  pick: (data: z.output<S>) => T,
): Promise<T> {
  return callWithRetry(ctx, operation, true, async () =>
    pick(await executeGraphQL(ctx.transport, ctx.config.graphqlUrl, { operation, document, schema })),
  );
}

/** Removes `undefined` members so they are not sent; `null` is kept (it clears a field). */
function definedOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Creates (no `id`) or modifies (with `id`) a serverless endpoint: mutation `saveEndpoint(input)`.
 *
 * Creating is not repeated after a 5xx, timeout or dropped connection: the error is thrown with
 * `outcomeUnknown: true` and the caller must look for the endpoint (e.g. {@link findEndpointsByName})
 * before trying again. Modifying is idempotent and retried.
 *
 * @param input endpoint fields; the modify form must carry `gpuIds`, `name` and `templateId`.
 *   `idleTimeout` and `scalerValue` (queue delay) are seconds; `gpuIds`/`locations` are comma-separated.
 * @returns the endpoint as saved, including its `id`.
 * @throws InvalidArgumentError (empty `id`), AuthenticationError, PermissionError (read-only key),
 *   NotFoundError (unknown `id`), GraphQLRequestError (validation), RateLimitError, ServerError,
 *   NetworkError, TimeoutError, ResponseValidationError.
 */
export async function saveEndpoint(ctx: ClientContext, input: SaveEndpointInput): Promise<EndpointRecord> {
  const operation = "saveEndpoint";
  const modify = input.id !== undefined;
  if (modify) requireNonEmpty(input.id, "id", operation);
  const variables = { input: definedOnly(input) };
  return callWithRetry(ctx, operation, modify, async () => {
    const data = await executeGraphQL(ctx.transport, ctx.config.graphqlUrl, {
      operation,
      document: SAVE_ENDPOINT,
      variables,
      schema: z.object({ saveEndpoint: endpointRecordSchema }),
    });
    return data.saveEndpoint;
  });
}

/**
 * Deletes an endpoint: mutation `deleteEndpoint(id)`; the platform requires `workersMin` and
 * `workersMax` to be 0 first (spec: States and transitions). Idempotent, so retried.
 *
 * @param id endpoint id.
 * @throws NotFoundError when no such endpoint is the caller's (not thrown when a retry finds it
 *   gone after an earlier attempt's answer was lost),
 *   GraphQLRequestError (e.g. FAILED_PRECONDITION while workers are nonzero), and the errors of saveEndpoint.
 */
export async function deleteEndpoint(ctx: ClientContext, id: string): Promise<void> {
  const operation = "deleteEndpoint";
  requireNonEmpty(id, "id", operation);
  return callWithRetry(ctx, operation, true, async (attempt) => {
    try {
      await executeGraphQL(ctx.transport, ctx.config.graphqlUrl, {
        operation,
        document: DELETE_ENDPOINT,
        variables: { id },
        schema: z.object({ deleteEndpoint: z.unknown() }),
      });
    } catch (err) {
      // An earlier attempt may have deleted it before its answer was lost: gone is the goal.
      if (attempt > 1 && err instanceof NotFoundError) return;
      throw err;
    }
  });
}

/** Clients whose platform refused {@link SCALE_DOWN_AND_DELETE_ENDPOINT}: they send its two fields as two requests from then on. */
const refusesTwoFieldDelete = new WeakSet<Transport>();

/**
 * Scales an endpoint to `workersMin` = 0, `workersMax` = 0 and deletes it (spec: GraphQL › Modify
 * endpoint, then Delete endpoint with its precondition), both mutations in one request (see
 * {@link SCALE_DOWN_AND_DELETE_ENDPOINT}). Safe to repeat, so retried; a retry that finds the endpoint
 * gone after an earlier attempt's answer was lost succeeds. A platform that refuses a document of two
 * mutation fields before running it (a GraphQL request error) gets {@link saveEndpoint} and
 * {@link deleteEndpoint} as two requests instead, from then on.
 *
 * @param endpoint `id` plus the fields every modify carries (`name`, `templateId`, `gpuIds`
 *   comma-separated), e.g. from the endpoint's last known record.
 * @throws InvalidArgumentError (empty `id`); the deletion's outcome decides otherwise: NotFoundError
 *   (no such endpoint), GraphQLRequestError naming the errors of both fields (e.g. FAILED_PRECONDITION
 *   when the scale-down was refused and workers are nonzero), and the request errors of saveEndpoint.
 *   An error of the scale-down alone is not thrown when the delete succeeded.
 */
export async function scaleDownAndDeleteEndpoint(ctx: ClientContext, endpoint: EndpointIdentity): Promise<void> {
  const operation = "deleteEndpoint";
  requireNonEmpty(endpoint.id, "id", operation);
  const input: SaveEndpointInput = { id: endpoint.id, name: endpoint.name, templateId: endpoint.templateId, gpuIds: endpoint.gpuIds, workersMin: 0, workersMax: 0 };
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
  await saveEndpoint(ctx, input);
  await deleteEndpoint(ctx, endpoint.id);
}

/**
 * The caller's account: query `myself { id email endpoints {…} serverlessDiscount {…} }`.
 * @returns id, e-mail, all endpoints, and the serverless discount or null.
 * @throws AuthenticationError, RateLimitError, ServerError, NetworkError, TimeoutError, ResponseValidationError.
 */
export function myself(ctx: ClientContext): Promise<Myself> {
  return readQuery(ctx, "myself", MYSELF, z.object({ myself: myselfSchema }), (data) => data.myself);
}

/**
 * The caller's endpoints: query `myself { endpoints {…} }`.
 * @returns every endpoint record (possibly empty).
 * @throws as {@link myself}.
 */
export function listEndpoints(ctx: ClientContext): Promise<EndpointRecord[]> {
  const schema = z.object({ myself: z.object({ endpoints: z.array(endpointRecordSchema) }).passthrough() });
  return readQuery(ctx, "listEndpoints", LIST_ENDPOINTS, schema, (data) => data.myself.endpoints);
}

/**
 * One endpoint by id, from {@link listEndpoints} (the spec shows no single-endpoint query).
 * @returns the record, or undefined when the caller has no endpoint with that id.
 * @throws InvalidArgumentError for an empty id, and the errors of {@link listEndpoints}.
 */
export async function findEndpoint(ctx: ClientContext, id: string): Promise<EndpointRecord | undefined> {
  requireNonEmpty(id, "id", "findEndpoint");
  return (await listEndpoints(ctx)).find((e) => e.id === id);
}

/**
 * Endpoints with the given name (and template, when given): what a caller looks for after a create
 * whose outcome is unknown (issue #6).
 * @returns matching records, oldest first as listed by the platform.
 */
export async function findEndpointsByName(ctx: ClientContext, name: string, templateId?: string): Promise<EndpointRecord[]> {
  return (await listEndpoints(ctx)).filter((e) => e.name === name && (templateId === undefined || e.templateId === templateId));
}

/**
 * GPU types: query `gpuTypes { id displayName memoryInGb }` (spec: only `id` is shown).
 * @returns available GPU type identifiers with display name and memory (GB) when provided.
 */
export function gpuTypes(ctx: ClientContext): Promise<GpuType[]> {
  return readQuery(ctx, "gpuTypes", GPU_TYPES, z.object({ gpuTypes: z.array(gpuTypeSchema) }), (data) => data.gpuTypes);
}
