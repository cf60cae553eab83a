/**
 * Every operation of the client, keyed by method name: the table `client.ts` builds the client from
 * and `types.ts` derives `PlatformClient` from. Each entry is declared once, in the module of its
 * interface (GraphQL, REST v1, REST v2, log stream, job interface).
 */
import type { ClientContext } from "./context";
import { endpointOperations } from "./endpoints";
import { jobOperations } from "./jobs";
import { logOperations } from "./logs";
import { bind, mapResult, operationTable, type MethodsOf, type Operation } from "./operation";
import { restV1Operations } from "./restV1";
import { templateOperations } from "./templates";
import { restV2ApiOperations } from "./v2/operations";

/**
 * The REST v2 reads the client had before its `v2` namespace, kept under their names (messages name
 * them so): the same declarations as `v2.listNetworkVolumes` and `v2.listEndpointWorkers`.
 */
const restV2Reads = operationTable({
  /** The caller's network volumes: `GET {restV2Url}/v2/network-volumes` (`size` in GB). */
  listNetworkVolumes: restV2ApiOperations.listNetworkVolumes,
  /**
   * Workers of a serverless endpoint: `GET {restV2Url}/v2/serverless/{id}/workers`, the `workers` of
   * the answer (the source of `workerId` values for the log stream).
   * @throws InvalidArgumentError (bad id), NotFoundError (unknown endpoint), and the errors of every read.
   */
  listWorkers: mapResult(restV2ApiOperations.listEndpointWorkers, (answer) => answer.workers),
});

export const OPERATIONS = { ...endpointOperations, ...restV1Operations, ...restV2Reads, ...templateOperations, ...logOperations, ...jobOperations };

/** The client's operation methods, as declared in {@link OPERATIONS}. */
export type ClientOperations = MethodsOf<typeof OPERATIONS>;

/**
 * The REST v2 operations, named by the document's operationIds and bound as the client's `v2`
 * namespace: several of those ids already name methods above (see v2/operations.ts).
 */
export const V2_OPERATIONS = restV2ApiOperations;

/** The methods of `client.v2`, as declared in {@link V2_OPERATIONS}. */
export type V2ClientOperations = MethodsOf<typeof V2_OPERATIONS>;

function bindTable<T extends Record<string, Operation>>(ctx: ClientContext, table: T): MethodsOf<T> {
  return Object.fromEntries(Object.entries(table).map(([name, op]) => [name, bind(ctx, op)])) as MethodsOf<T>;
}

/** Every operation method, bound to the client of `ctx`. */
export function bindOperations(ctx: ClientContext): ClientOperations {
  return bindTable(ctx, OPERATIONS);
}

/** The `v2` namespace's methods, bound to the client of `ctx`. */
export function bindV2Operations(ctx: ClientContext): V2ClientOperations {
  return bindTable(ctx, V2_OPERATIONS);
}
