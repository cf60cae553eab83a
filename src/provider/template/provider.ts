/**
 * The `Template` dynamic provider (docs/template.md) on a {@link KindSession}: the shared skeleton of
 * kinds with unique names (namedRecordProvider.ts) over the path the session uses (`paths/*.ts`).
 * A changed image or env rolls the workers of every endpoint using the template. Env values are
 * secrets: they are removed from every error this provider throws.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { InUseOptions } from "../inUse";
import { isUnknown } from "../unknown";
import type { InputFailure } from "../model/check";
import { NamedRecordProvider } from "../namedRecordProvider";
import type { RegistryAuthState, TemplateState } from "../paths/records";
import type { KindSession } from "../kindSession";
import { checkFields } from "../model/check";
import { inputsFromOutputs, outputsFromRecord } from "../model/state";
import { INJECTED_ENV, TEMPLATE_MODEL, type TemplateInputs, type TemplateOutputs } from "./model";
import { changedContainerFields, containerChanges } from "./container";
import { followTemplateRollout } from "./templateRollout";

export type TemplateProviderOptions = InUseOptions;

export class TemplateProvider extends NamedRecordProvider<TemplateInputs, TemplateOutputs, TemplateState> {
  constructor(session: KindSession, options: TemplateProviderOptions = {}) {
    super(session, TEMPLATE_MODEL, { noun: "template" }, options);
  }

  /** The model's rules, and no declared env key that a start flag injects (it would be overwritten or drift). */
  protected override validate(news: Record<string, unknown>): { inputs: Record<string, unknown>; failures: InputFailure[] } {
    const r = checkFields(TEMPLATE_MODEL, news);
    const env = r.inputs.env;
    for (const [flag, key] of Object.entries(INJECTED_ENV)) {
      if (r.inputs[flag] !== true || !env || typeof env !== "object" || isUnknown(env) || !(key in env)) continue;
      r.failures.push({ property: "env", reason: `env must not set ${key} while ${flag} is true: the platform injects it; unset one` });
    }
    return { inputs: r.inputs, failures: r.failures };
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
    const auths = await this.session.listing<RegistryAuthState>("registryAuth").list();
    if (!auths.some((a) => a.id === auth)) {
      const known = auths.map((a) => `${a.id} (${a.name})`).join(", ") || "none";
      failures.push({
        property: "containerRegistryAuthId",
        reason: `containerRegistryAuthId "${auth}" is not one of your registry credentials; yours: ${known}`,
      });
    }
  }

  /**
   * The model's diff; an in-place change of the image, start arguments, disk, ports, env or credentials
   * is a new container version, recorded in the session (preview and up alike) so the endpoints using
   * the template, diffed after it in the same process, show their re-apply (template/container.ts).
   */
  override async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.DiffResult & { changed: string[] }> {
    const d = await super.diff(id, olds, news);
    const changes = containerChanges(olds ?? {}, news ?? {});
    if (d.changes && (d.replaces ?? []).length === 0 && changes.fields.length > 0) this.session.templateChanging(id, news, changes);
    return d;
  }

  /**
   * Updates through the path's port; where endpoints follow their template (GraphQL; on REST v2 they
   * hold copies, and each endpoint's own re-apply is followed), a new container version is then
   * followed to health on every endpoint using it.
   * @throws when a rollout fails (templateRollout.ts): the template's previous settings are saved back first unless `rollback` is false.
   */
  override async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.UpdateResult<TemplateOutputs>> {
    const result = await super.update(id, olds, news);
    if (this.port.capabilities.usersFollow && changedContainerFields(olds ?? {}, news).length > 0) {
      await followTemplateRollout(
        { session: this.session, port: this.port, secrets: this.secretsOf(news, olds) },
        { id, olds, inputs: this.checked(news, "update"), outs: result.outs as TemplateOutputs },
      );
    }
    return result;
  }

  protected outputs(record: TemplateState, carried: Partial<TemplateOutputs> | undefined): TemplateOutputs {
    return outputsFromRecord(TEMPLATE_MODEL, record, carried, carried);
  }

  protected inputsOf(outs: TemplateOutputs): Partial<TemplateInputs> {
    return inputsFromOutputs(TEMPLATE_MODEL, outs);
  }
}
