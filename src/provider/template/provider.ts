/**
 * The `Template` dynamic provider's operations on a {@link PlatformSession} (docs/template.md). Create and
 * modify with `saveTemplate` (a modify carries every managed field), delete by name with
 * `deleteTemplate`, reads from the shared template listing. Env values are secrets: they are removed
 * from every error this provider throws.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { PlatformClient, TemplateRecord } from "../../api";
import { createOnceByName } from "../createByName";
import { isNotFound } from "../errorKinds";
import { deleteWhenReleased, type InUseOptions } from "../inUse";
import { checkFields, isComplete } from "../model/check";
import { diffModel } from "../model/compare";
import { withAutoName } from "../naming";
import { AUTONAMED_PROPERTY, LOOKUP_PROPERTY } from "../reserved";
import { redactSecrets, secretValues, withoutSecrets } from "../secrets";
import { PlatformSession } from "../session";
import { isUnknown } from "../unknown";
import { TEMPLATE_INPUT_FIELDS, TEMPLATE_MODEL, TEMPLATE_SECRET_FIELDS, type TemplateInputs, type TemplateOutputs } from "./model";
import { saveTemplateInput, templateInputs, templateOutputs } from "./state";

export type TemplateProviderOptions = InUseOptions;

const secretsOf = (...sources: (Record<string, unknown> | undefined)[]) => sources.flatMap((s) => secretValues(s, TEMPLATE_SECRET_FIELDS));

export class TemplateProvider {
  private readonly session: PlatformSession;

  /** @param source the process's session, or a function returning the client (a session of its own). */
  constructor(
    source: PlatformSession | (() => PlatformClient),
    private readonly options: TemplateProviderOptions = {},
  ) {
    this.session = source instanceof PlatformSession ? source : new PlatformSession(source);
  }

  private get client(): PlatformClient {
    return this.session.client;
  }

  /**
   * Validates and completes inputs (model/check.ts; an unset `name` is auto-named, naming.ts). A new or
   * changed `containerRegistryAuthId` is looked up among the caller's registry credentials, so an unknown
   * id fails at preview. Failures never quote an env value.
   */
  async check(olds: Record<string, unknown> | undefined, news: Record<string, unknown>): Promise<dynamic.CheckResult> {
    void this.client;
    const named = withAutoName(olds, news ?? {});
    const { inputs, failures } = checkFields(TEMPLATE_MODEL, named.news);
    if (named.autonamed) inputs[AUTONAMED_PROPERTY] = true;
    const secrets = secretsOf(news);
    const auth = inputs.containerRegistryAuthId;
    const shapeOk = !failures.some((f) => f.property === "containerRegistryAuthId");
    if (typeof auth === "string" && !isUnknown(auth) && shapeOk && olds?.containerRegistryAuthId !== auth) {
      const auths = await withoutSecrets(secrets, () => this.session.registryAuths.list());
      if (!auths.some((a) => a.id === auth)) {
        const known = auths.map((a) => `${a.id} (${a.name})`).join(", ") || "none";
        failures.push({
          property: "containerRegistryAuthId",
          reason: `containerRegistryAuthId "${auth}" is not one of your registry credentials; yours: ${known}`,
        });
      }
    }
    return { inputs, failures: failures.map((f) => ({ property: f.property, reason: redactSecrets(f.reason, secrets) })) };
  }

  /** Field-by-field diff; a name change replaces (created first under the new name). */
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.DiffResult & { changed: string[] }> {
    const d = diffModel(TEMPLATE_MODEL, TEMPLATE_INPUT_FIELDS, olds ?? {}, news ?? {});
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace, changed: d.changed };
  }

  /**
   * Creates the template (`saveTemplate` without `id`, `isServerless: true`). An unknown outcome is
   * settled by looking the name up (createByName.ts), never by a blind second create.
   */
  async create(news: Record<string, unknown>): Promise<dynamic.CreateResult<TemplateOutputs>> {
    if (!isComplete(news)) throw new Error("Template inputs are not all known; cannot create the template yet");
    const inputs = news as unknown as TemplateInputs;
    const record = await withoutSecrets(secretsOf(news), () =>
      createOnceByName(this.session.templates, inputs.name, `template "${inputs.name}"`, () => this.client.saveTemplate(saveTemplateInput(inputs))),
    );
    return { id: record.id, outs: templateOutputs(record, news) };
  }

  /**
   * Reads the template from the shared listing: refresh (drift shows on the next preview), `Template.get`.
   * A template deleted outside Pulumi returns no id and leaves the stack — except for `Template.get`.
   */
  async read(id: string, props?: Record<string, unknown>): Promise<dynamic.ReadResult<TemplateOutputs>> {
    const record = await withoutSecrets(secretsOf(props), () => this.session.templates.find(id));
    if (!record) {
      if (props?.[LOOKUP_PROPERTY] === true) throw new Error(`Template.get: no template with id "${id}" exists for the configured API key`);
      return {};
    }
    const outs = templateOutputs(record, props);
    return { id: record.id, props: outs, inputs: templateInputs(outs) as unknown as TemplateOutputs };
  }

  /**
   * Applies in-place changes with `saveTemplate` carrying `id` and every managed field. A changed image
   * or env rolls the workers of every endpoint using the template (the platform's rollout).
   * @throws when the template no longer exists (run `pulumi refresh`) or the platform refuses a value.
   */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.UpdateResult<TemplateOutputs>> {
    if (!isComplete(news)) throw new Error("Template inputs are not all known; cannot update the template yet");
    const inputs = news as unknown as TemplateInputs;
    const record = await withoutSecrets(secretsOf(news, olds), async () => {
      try {
        return await this.client.saveTemplate(saveTemplateInput(inputs, id));
      } catch (err) {
        if (isNotFound(err))
          throw new Error(
            `Template ${id} no longer exists on the platform; run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` to create it again`,
            { cause: err },
          );
        throw err;
      } finally {
        this.session.templates.changed(id);
      }
    });
    return { outs: templateOutputs(record, news) };
  }

  /**
   * Deletes the template by its current name (looked up by id: `deleteTemplate` takes a name, and the
   * stored one may be stale). The platform refuses while an endpoint uses it and for a short while after;
   * that is retried within a deadline (inUse.ts), then fails naming the endpoints still using it. A
   * template already gone counts as deleted.
   */
  async delete(id: string, props?: Record<string, unknown>): Promise<void> {
    await withoutSecrets(secretsOf(props), async () => {
      const record: TemplateRecord | undefined = await this.session.templates.find(id);
      if (!record) return;
      this.session.templates.changed(id);
      await deleteWhenReleased(
        `Template "${record.name}" (${id})`,
        async () => {
          try {
            await this.client.deleteTemplate(record.name);
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        },
        async () => {
          const users = (await this.session.endpoints.list()).filter((e) => e.templateId === id);
          return users.length > 0 ? `endpoints ${users.map((e) => `${e.id} (${e.name})`).join(", ")}` : "";
        },
        this.options,
      );
    });
  }
}
