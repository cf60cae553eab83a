/**
 * Every operation of the client, keyed by method name: the table `client.ts` builds the client from
 * and `types.ts` derives `PlatformClient` from. Each entry is declared once, in the module of its
 * interface (GraphQL, REST v1, REST v2, log stream, job interface).
 */
import type { ClientContext } from "./context";
import { endpointOperations } from "./endpoints";
import { jobOperations } from "./jobs";
import { logOperations } from "./logs";
import { bind, type MethodsOf } from "./operation";
import { restV1Operations } from "./restV1";
import { restV2Operations } from "./restV2";
import { templateOperations } from "./templates";

export const OPERATIONS = { ...endpointOperations, ...restV1Operations, ...restV2Operations, ...templateOperations, ...logOperations, ...jobOperations };

/** The client's operation methods, as declared in {@link OPERATIONS}. */
export type ClientOperations = MethodsOf<typeof OPERATIONS>;

/** Every operation method, bound to the client of `ctx`. */
export function bindOperations(ctx: ClientContext): ClientOperations {
  return Object.fromEntries(Object.entries(OPERATIONS).map(([name, op]) => [name, bind(ctx, op)])) as ClientOperations;
}
