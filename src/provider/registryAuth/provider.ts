/**
 * The `ContainerRegistryAuth` dynamic provider (docs/template.md) on a {@link KindSession}: the shared
 * skeleton of kinds with unique names (namedRecordProvider.ts) over the path the session uses
 * (`paths/*.ts`). A delete is refused while a template names the credentials, which is retried within
 * a deadline and then fails naming those templates. The platform reports only `{ id, name }`, so the
 * username and password are carried from the inputs; the password is removed from every error this
 * provider throws.
 */
import type { InUseOptions } from "../inUse";
import { inputsFromOutputs, outputsFromRecord } from "../model/state";
import { NamedRecordProvider } from "../namedRecordProvider";
import type { RegistryAuthState } from "../paths/records";
import type { KindSession } from "../kindSession";
import { REGISTRY_AUTH_MODEL, type RegistryAuthInputs, type RegistryAuthOutputs } from "./model";

export type RegistryAuthProviderOptions = InUseOptions;

export class RegistryAuthProvider extends NamedRecordProvider<RegistryAuthInputs, RegistryAuthOutputs, RegistryAuthState> {
  constructor(session: KindSession, options: RegistryAuthProviderOptions = {}) {
    super(session, REGISTRY_AUTH_MODEL, { noun: "registry credentials", plural: true }, options);
  }

  /**
   * Outputs of `record`: its name, the username and password carried from `carried` (inputs or stored
   * outputs). A change to them outside Pulumi is not seen.
   */
  protected outputs(record: RegistryAuthState, carried: Partial<RegistryAuthOutputs> | undefined): RegistryAuthOutputs {
    const outs: RegistryAuthOutputs = outputsFromRecord(REGISTRY_AUTH_MODEL, record, undefined);
    if (typeof carried?.username === "string") outs.username = carried.username;
    if (typeof carried?.password === "string") outs.password = carried.password;
    return outs;
  }

  protected inputsOf(outs: RegistryAuthOutputs): Partial<RegistryAuthInputs> {
    return inputsFromOutputs(REGISTRY_AUTH_MODEL, outs);
  }
}
