/**
 * The public `ContainerRegistryAuth` resource: credentials the platform uses to pull a private image
 * (docs/spec/platform-clients.md, Registry credentials).
 */
import * as pulumi from "@pulumi/pulumi";
import { LOOKUP_PROPERTY, providerStub, REGISTRY_AUTH_MODEL, REGISTRY_AUTH_OUTPUT_FIELDS, REGISTRY_AUTH_SECRET_FIELDS, type ArgsOf } from "../provider";
import type { Agrees, ArgsMismatch } from "./modelArgs";
import { checkedOptions, registeredProperties } from "./registration";

/** Arguments of a {@link ContainerRegistryAuth}. */
export interface ContainerRegistryAuthArgs {
  /**
   * Name of the credentials: non-empty, at most 255 characters, no leading or trailing spaces; unique per
   * account. Unset: Pulumi auto-naming, `<resource name>-<7 random hex digits>`. Changing it replaces the
   * credentials (created first; templates move to them; then the old ones are deleted).
   */
  name?: pulumi.Input<string>;
  /** Registry user name (non-empty, at most 255 characters). Updated in place. */
  username: pulumi.Input<string>;
  /**
   * Registry password or token (non-empty, at most 4096 characters). Always stored as a secret. Updated
   * in place. The platform never returns it: a password changed outside Pulumi is not seen by `pulumi refresh`.
   */
  password: pulumi.Input<string>;
}

/**
 * Private registry credentials. Create: `saveRegistryAuth`; update: `updateRegistryAuth` (username and
 * password); delete: `deleteRegistryAuth`, retried while a template still names them. Refresh sees the
 * name and whether they exist, not the username or password (the platform does not report them).
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- a compile-time check: the Args follow the model.
type ContainerRegistryAuthArgsFollowModel = Agrees<ArgsMismatch<ContainerRegistryAuthArgs, ArgsOf<(typeof REGISTRY_AUTH_MODEL)["fields"]>>>;

export class ContainerRegistryAuth extends pulumi.dynamic.Resource {
  declare public readonly name: pulumi.Output<string>;
  declare public readonly username: pulumi.Output<string>;
  /** Always a Pulumi secret. */
  declare public readonly password: pulumi.Output<string>;

  constructor(name: string, args: ContainerRegistryAuthArgs, opts?: pulumi.CustomResourceOptions) {
    const { kind, module, type } = REGISTRY_AUTH_MODEL;
    opts = checkedOptions(type, name, opts);
    const props = registeredProperties(REGISTRY_AUTH_OUTPUT_FIELDS, args, name);
    if (args && "password" in args) props.password = pulumi.secret(args.password);
    const secrets = { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...REGISTRY_AUTH_SECRET_FIELDS] };
    super(providerStub(kind), name, props, secrets, module, type);
  }

  /** Looks up existing credentials by id without managing them (name only; the password is never read). */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): ContainerRegistryAuth {
    return new ContainerRegistryAuth(name, { [LOOKUP_PROPERTY]: true } as unknown as ContainerRegistryAuthArgs, { ...opts, id });
  }
}
