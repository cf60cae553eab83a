/**
 * The `Template` dynamic provider (docs/template.md) on a {@link PlatformSession}: the shared skeleton of
 * kinds with unique names (namedRecordProvider.ts) over the path the session uses (`paths/*.ts`).
 * A changed image or env rolls the workers of every endpoint using the template. Env values are
 * secrets: they are removed from every error this provider throws.
 */
import type { PerPath } from "../apiPath";
import type { InUseOptions } from "../inUse";
import { isUnknown } from "../unknown";
import type { InputFailure } from "../model/check";
import { changedFields } from "../model/compare";
import { NamedRecordProvider, type NamedRecordPort } from "../namedRecordProvider";
import type { TemplateState } from "../paths/records";
import type { SessionSource } from "../recordProvider";
import type { PlatformSession } from "../session";
import { TEMPLATE_MODEL, type TemplateInputs, type TemplateOutputs } from "./model";
import { graphqlTemplatePort } from "./paths/graphql";
import { v2TemplatePort } from "./paths/v2";
import { templateInputs, templateOutputs } from "./state";

export type TemplateProviderOptions = InUseOptions;

/** Fields that make a new container version (a rollout of the endpoints using the template). */
const CONTAINER_FIELDS = ["imageName", "dockerArgs", "containerDiskInGb", "ports", "env", "containerRegistryAuthId"] as const;

const TEMPLATE_PORTS: PerPath<(session: PlatformSession) => NamedRecordPort<TemplateInputs, TemplateState>> = {
  graphql: graphqlTemplatePort,
  v2: v2TemplatePort,
};

export class TemplateProvider extends NamedRecordProvider<TemplateInputs, TemplateOutputs, TemplateState> {
  /** @param source the process's session, or a function returning the client (a session of its own). */
  constructor(source: SessionSource, options: TemplateProviderOptions = {}) {
    super(source, TEMPLATE_MODEL, TEMPLATE_PORTS, { noun: "template" }, options);
  }

  /** A new or changed `containerRegistryAuthId` must be one of the caller's registry credentials (fails at preview otherwise). */
  protected override async checkReferences(
    olds: Record<string, unknown> | undefined,
    inputs: Record<string, unknown>,
    failures: InputFailure[],
  ): Promise<void> {
    const auth = inputs.containerRegistryAuthId;
    const shapeOk = !failures.some((f) => f.property === "containerRegistryAuthId");
    if (typeof auth !== "string" || isUnknown(auth) || !shapeOk || olds?.containerRegistryAuthId === auth) return;
    const auths = await this.session.registryAuths.list();
    if (!auths.some((a) => a.id === auth)) {
      const known = auths.map((a) => `${a.id} (${a.name})`).join(", ") || "none";
      failures.push({
        property: "containerRegistryAuthId",
        reason: `containerRegistryAuthId "${auth}" is not one of your registry credentials; yours: ${known}`,
      });
    }
  }

  /** A changed image, start arguments, disk, ports, env or credentials is a new container version for the endpoints using the template. */
  protected override updated(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): void {
    if (changedFields(TEMPLATE_MODEL, CONTAINER_FIELDS, olds, news).length > 0) this.session.templateChanged(id);
  }

  protected outputs(record: TemplateState, carried: Record<string, unknown> | undefined): TemplateOutputs {
    return templateOutputs(record, carried);
  }

  protected inputsOf(outs: TemplateOutputs): Record<string, unknown> {
    return templateInputs(outs);
  }

  /** The endpoints still running on template `id`. */
  protected async users(id: string): Promise<string> {
    const users = (await this.session.endpoints.list()).filter((e) => e.templateId === id);
    return users.length > 0 ? `endpoints ${users.map((e) => `${e.id} (${e.name})`).join(", ")}` : "";
  }
}
