/**
 * Root resolvers for the schema in schema.ts. Domain errors become GraphQL errors whose
 * `extensions` carry `code` (BAD_USER_INPUT, NOT_FOUND, FAILED_PRECONDITION), `field` and `allowed`.
 */
import { GraphQLError } from "graphql";
import type { Principal } from "../auth";
import { DomainError } from "../domainError";
import type { Platform } from "../platform";
import type { SaveEndpointInput } from "../records";

export interface GraphqlContext {
  principal: Principal;
  platform: Platform;
}

function domain<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DomainError) {
      const extensions: Record<string, unknown> = { code: e.code };
      if (e.field) extensions.field = e.field;
      if (e.allowed) extensions.allowed = [...e.allowed];
      throw new GraphQLError(e.message, { extensions });
    }
    throw e;
  }
}

/** Root value for `graphql.execute`: plain functions called as `(args, context)`. */
export const rootValue = {
  myself: (_args: unknown, { principal, platform }: GraphqlContext) => ({
    id: principal.user.id,
    email: principal.user.email,
    endpoints: () => platform.listEndpoints(principal.user.id),
    serverlessDiscount: principal.user.serverlessDiscount,
  }),
  gpuTypes: (_args: unknown, { platform }: GraphqlContext) =>
    platform.gpuTypes().map(({ id, displayName, memoryInGb }) => ({ id, displayName, memoryInGb })),
  saveEndpoint: ({ input }: { input: SaveEndpointInput }, { principal, platform }: GraphqlContext) =>
    domain(() => platform.saveEndpoint(principal.user.id, input)),
  deleteEndpoint: ({ id }: { id: string }, { principal, platform }: GraphqlContext) =>
    domain(() => {
      platform.deleteEndpoint(principal.user.id, id);
      return null;
    }),
};
