/**
 * The `ContainerRegistryAuth` dynamic provider's operations on a {@link PlatformSession} (docs/template.md):
 * `saveRegistryAuth` creates, `updateRegistryAuth` changes username and password in place,
 * `deleteRegistryAuth` deletes (retried while a template still names the credentials). The platform
 * reports only `{ id, name }`, so the username and password are carried from the inputs; the password
 * is removed from every error this provider throws.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { PlatformClient, RegistryAuthRecord } from "../../api";
import { createOnceByName } from "../createByName";
import { isNotFound } from "../errorKinds";
import { deleteWhenReleased, type InUseOptions } from "../inUse";
import { checkFields, isComplete } from "../model/check";
import { diffModel } from "../model/compare";
import { apiInput, inputsFromOutputs, outputsFromRecord } from "../model/state";
import { withAutoName } from "../naming";
import { AUTONAMED_PROPERTY, LOOKUP_PROPERTY } from "../reserved";
import { redactSecrets, secretValues, withoutSecrets } from "../secrets";
import { PlatformSession } from "../session";
import { REGISTRY_AUTH_INPUT_FIELDS, REGISTRY_AUTH_MODEL, REGISTRY_AUTH_SECRET_FIELDS, type RegistryAuthInputs, type RegistryAuthOutputs } from "./model";

export type RegistryAuthProviderOptions = InUseOptions;

const secretsOf = (...sources: (Record<string, unknown> | undefined)[]) => sources.flatMap((s) => secretValues(s, REGISTRY_AUTH_SECRET_FIELDS));

/** Outputs of `record`: its name, the username and password carried from `carried` (inputs or stored outputs). */
function outputsOf(record: RegistryAuthRecord, carried: Record<string, unknown> | undefined): RegistryAuthOutputs {
  const outs = outputsFromRecord(REGISTRY_AUTH_MODEL, record, undefined) as RegistryAuthOutputs;
  if (typeof carried?.username === "string") outs.username = carried.username;
  if (typeof carried?.password === "string") outs.password = carried.password;
  return outs;
}

export class RegistryAuthProvider {
  private readonly session: PlatformSession;

  /** @param source the process's session, or a function returning the client (a session of its own). */
  constructor(
    source: PlatformSession | (() => PlatformClient),
    private readonly options: RegistryAuthProviderOptions = {},
  ) {
    this.session = source instanceof PlatformSession ? source : new PlatformSession(source);
  }

  private get client(): PlatformClient {
    return this.session.client;
  }

  /** Validates and completes inputs; an unset `name` is auto-named. Failures never quote the password. */
  async check(olds: Record<string, unknown> | undefined, news: Record<string, unknown>): Promise<dynamic.CheckResult> {
    void this.client;
    const named = withAutoName(olds, news ?? {});
    const { inputs, failures } = checkFields(REGISTRY_AUTH_MODEL, named.news);
    if (named.autonamed) inputs[AUTONAMED_PROPERTY] = true;
    const secrets = secretsOf(news);
    return { inputs, failures: failures.map((f) => ({ property: f.property, reason: redactSecrets(f.reason, secrets) })) };
  }

  /** Field-by-field diff; a name change replaces (created first under the new name). */
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.DiffResult & { changed: string[] }> {
    const d = diffModel(REGISTRY_AUTH_MODEL, REGISTRY_AUTH_INPUT_FIELDS, olds ?? {}, news ?? {});
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace, changed: d.changed };
  }

  /** Creates the credentials; an unknown outcome is settled by looking the name up (createByName.ts). */
  async create(news: Record<string, unknown>): Promise<dynamic.CreateResult<RegistryAuthOutputs>> {
    if (!isComplete(news)) throw new Error("ContainerRegistryAuth inputs are not all known; cannot create the credentials yet");
    const inputs = news as unknown as RegistryAuthInputs;
    const record = await withoutSecrets(secretsOf(news), () =>
      createOnceByName(this.session.registryAuths, inputs.name, `registry credentials "${inputs.name}"`, () =>
        this.client.saveRegistryAuth(apiInput(REGISTRY_AUTH_MODEL, "create", inputs) as never),
      ),
    );
    return { id: record.id, outs: outputsOf(record, news) };
  }

  /**
   * Reads the credentials' name from the shared listing; gone → leaves the stack (an error for `get`).
   * The username and password are not reported: a change to them outside Pulumi is not seen.
   */
  async read(id: string, props?: Record<string, unknown>): Promise<dynamic.ReadResult<RegistryAuthOutputs>> {
    const record = await withoutSecrets(secretsOf(props), () => this.session.registryAuths.find(id));
    if (!record) {
      if (props?.[LOOKUP_PROPERTY] === true)
        throw new Error(`ContainerRegistryAuth.get: no registry credentials with id "${id}" exist for the configured API key`);
      return {};
    }
    const outs = outputsOf(record, props);
    return { id: record.id, props: outs, inputs: inputsFromOutputs(REGISTRY_AUTH_MODEL, outs) as unknown as RegistryAuthOutputs };
  }

  /** `updateRegistryAuth` with the id, username and password (the whole desired state). */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.UpdateResult<RegistryAuthOutputs>> {
    if (!isComplete(news)) throw new Error("ContainerRegistryAuth inputs are not all known; cannot update the credentials yet");
    const inputs = news as unknown as RegistryAuthInputs;
    const record = await withoutSecrets(secretsOf(news, olds), async () => {
      try {
        return await this.client.updateRegistryAuth({ id, ...(apiInput(REGISTRY_AUTH_MODEL, "update", inputs) as { username: string; password: string }) });
      } catch (err) {
        if (isNotFound(err))
          throw new Error(
            `Registry credentials ${id} no longer exist on the platform; run \`pulumi refresh\` to drop them from the stack, then \`pulumi up\` to create them again`,
            { cause: err },
          );
        throw err;
      } finally {
        this.session.registryAuths.changed(id);
      }
    });
    return { outs: outputsOf(record, news) };
  }

  /**
   * `deleteRegistryAuth`; refused while a template names the credentials, which is retried within a
   * deadline (inUse.ts) and then fails naming those templates. Already gone counts as deleted.
   */
  async delete(id: string, props?: Record<string, unknown>): Promise<void> {
    await withoutSecrets(secretsOf(props), async () => {
      this.session.registryAuths.changed(id);
      await deleteWhenReleased(
        `Registry credentials "${typeof props?.name === "string" ? props.name : id}" (${id})`,
        async () => {
          try {
            await this.client.deleteRegistryAuth(id);
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        },
        async () => {
          const users = (await this.session.templates.list()).filter((t) => t.containerRegistryAuthId === id);
          return users.length > 0 ? `templates ${users.map((t) => `${t.id} (${t.name})`).join(", ")}` : "";
        },
        this.options,
      );
    });
  }
}
