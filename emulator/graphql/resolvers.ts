/**
 * Root resolvers for the schema in schema.ts. Domain errors become GraphQL errors whose
 * `extensions` carry `code` (BAD_USER_INPUT, NOT_FOUND, FAILED_PRECONDITION), `field` and `allowed`.
 */
import { GraphQLError } from "graphql";
import type { Principal } from "../auth";
import { DomainError } from "../domainError";
import type { Platform } from "../platform";
import type { EndpointRecord, SaveEndpointInput, SaveTemplateInput } from "../records";
import type { RegistryAuths } from "../registryAuths";
import { templateRecord, type Templates } from "../templates";

export interface GraphqlContext {
  principal: Principal;
  platform: Platform;
  templates: Templates;
  registryAuths: RegistryAuths;
}

/** An endpoint record whose `template` field is resolved only when selected. */
function withTemplate(record: EndpointRecord, { templates }: GraphqlContext) {
  return {
    ...record,
    template: () => {
      const row = templates.get(record.templateId);
      return row ? templateRecord(row) : null;
    },
  };
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
  myself: (_args: unknown, ctx: GraphqlContext) => ({
    id: ctx.principal.user.id,
    email: ctx.principal.user.email,
    endpoints: () => ctx.platform.listEndpoints(ctx.principal.user.id).map((e) => withTemplate(e, ctx)),
    serverlessDiscount: ctx.principal.user.serverlessDiscount,
    podTemplates: () => ctx.templates.list(ctx.principal.user.id),
    containerRegistryCreds: () => ctx.registryAuths.list(ctx.principal.user.id),
  }),
  gpuTypes: (_args: unknown, { platform }: GraphqlContext) =>
    platform.gpuTypes().map(({ id, displayName, memoryInGb }) => ({ id, displayName, memoryInGb })),
  saveEndpoint: ({ input }: { input: SaveEndpointInput }, ctx: GraphqlContext) =>
    domain(() => withTemplate(ctx.platform.saveEndpoint(ctx.principal.user.id, input), ctx)),
  updateEndpointTemplate: ({ input }: { input: { endpointId?: string; templateId?: string } | null }, ctx: GraphqlContext) =>
    domain(() => withTemplate(ctx.platform.updateEndpointTemplate(ctx.principal.user.id, input), ctx)),
  saveTemplate: ({ input }: { input: SaveTemplateInput | null }, { principal, templates }: GraphqlContext) =>
    domain(() => templates.save(principal.user.id, input ?? {})),
  deleteTemplate: ({ templateName }: { templateName?: string | null }, { principal, templates }: GraphqlContext) =>
    domain(() => {
      templates.delete(principal.user.id, templateName);
      return null;
    }),
  saveRegistryAuth: ({ input }: { input: Record<string, unknown> | null }, { principal, registryAuths }: GraphqlContext) =>
    domain(() => registryAuths.save(principal.user.id, input)),
  updateRegistryAuth: ({ input }: { input: Record<string, unknown> | null }, { principal, registryAuths }: GraphqlContext) =>
    domain(() => registryAuths.update(principal.user.id, input)),
  deleteRegistryAuth: ({ registryAuthId }: { registryAuthId?: string | null }, { principal, registryAuths }: GraphqlContext) =>
    domain(() => {
      registryAuths.delete(principal.user.id, registryAuthId);
      return null;
    }),
  deleteEndpoint: ({ id }: { id: string }, { principal, platform }: GraphqlContext) =>
    domain(() => {
      platform.deleteEndpoint(principal.user.id, id);
      return null;
    }),
};
