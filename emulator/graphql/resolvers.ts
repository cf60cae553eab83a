/**
 * Root resolvers for the schema in schema.ts. Domain errors become GraphQL errors whose
 * `extensions` carry `code` (BAD_USER_INPUT, NOT_FOUND, FAILED_PRECONDITION), `field` and `allowed`.
 */
import { GraphQLError } from "graphql";
import type { Principal } from "../auth";
import { DomainError } from "../domainError";
import { gpuTypeRecord } from "../gpuCatalog";
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

/** The caller's volumes as `myself.networkVolumes` and `Endpoint.networkVolume` answer them. */
function volumesOf(ctx: GraphqlContext) {
  return ctx.platform.networkVolumes(ctx.principal.user.id).map((v) => ({ ...v, dataCenterId: v.dataCenter }));
}

/** An endpoint record plus the fields the official clients select, resolved only when selected. */
function endpointView(record: EndpointRecord, ctx: GraphqlContext) {
  const template = () => ctx.templates.get(record.templateId);
  return {
    ...record,
    ...ctx.platform.meta(record.id),
    template: () => {
      const row = template();
      return row ? templateRecord(row) : null;
    },
    flashBootType: record.fastBootType === null ? null : "FLASHBOOT",
    networkVolumeIds: record.networkVolumeId ? [record.networkVolumeId] : [],
    instanceIds: () => ctx.platform.workerIds(record.id),
    env: () => template()?.env ?? [],
    networkVolume: () => volumesOf(ctx).find((v) => v.id === record.networkVolumeId) ?? null,
  };
}

function myself(ctx: GraphqlContext) {
  const userId = ctx.principal.user.id;
  return {
    id: userId,
    email: ctx.principal.user.email,
    endpoints: () => ctx.platform.listEndpoints(userId).map((e) => endpointView(e, ctx)),
    serverlessDiscount: ctx.principal.user.serverlessDiscount,
    podTemplates: () => ctx.templates.list(userId),
    containerRegistryCreds: () => ctx.registryAuths.list(userId),
    pubKey: () => ctx.platform.pubKey(userId),
    networkVolumes: () => volumesOf(ctx),
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
  myself: (_args: unknown, ctx: GraphqlContext) => myself(ctx),
  gpuTypes: ({ input }: { input?: { id?: string | null } | null }, { platform }: GraphqlContext) =>
    platform
      .gpuTypes()
      .filter((g) => input?.id == null || g.id === input.id)
      .map(gpuTypeRecord),
  updateUserSettings: ({ input }: { input?: { pubKey?: string | null } | null }, ctx: GraphqlContext) =>
    domain(() => {
      ctx.platform.setPubKey(ctx.principal.user.id, input?.pubKey);
      return myself(ctx);
    }),
  saveEndpoint: ({ input }: { input: SaveEndpointInput }, ctx: GraphqlContext) =>
    domain(() => endpointView(ctx.platform.saveEndpoint(ctx.principal.user.id, input), ctx)),
  updateEndpointTemplate: ({ input }: { input: { endpointId?: string; templateId?: string } | null }, ctx: GraphqlContext) =>
    domain(() => endpointView(ctx.platform.updateEndpointTemplate(ctx.principal.user.id, input), ctx)),
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
