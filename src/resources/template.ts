/**
 * The public `Template` resource: a serverless template — the image, disk, start arguments, ports,
 * environment and registry credentials an endpoint runs (spec: Common GraphQL input fields (pods and
 * templates); operations: docs/spec/platform-clients.md, Templates).
 */
import * as pulumi from "@pulumi/pulumi";
import type { TemplateCategoryName } from "../api/spec";
import type { SmokeStatus } from "./endpoint";
import { LOOKUP_PROPERTY, providerStub, TEMPLATE_MODEL, TEMPLATE_OUTPUT_FIELDS, TEMPLATE_SECRET_FIELDS, type ArgsOf } from "../provider";
import type { Agrees, ArgsMismatch } from "./modelArgs";
import { checkedOptions, registeredProperties } from "./registration";
import { secretValues } from "./secretInputs";

/**
 * Arguments of a {@link Template}. Unset optional fields take the platform's defaults. Invalid values
 * fail at preview with one message per field naming the accepted values or range.
 */
export interface TemplateArgs {
  /**
   * Template name: non-empty, at most 255 characters, no leading or trailing spaces; unique per account.
   * Unset: Pulumi auto-naming, `<resource name>-<7 random hex digits>`. Changing it replaces the
   * template: the new one is created first, endpoints move to it, then the old one is deleted.
   */
  name?: pulumi.Input<string>;
  /** Container image with repository and tag, e.g. `ghcr.io/acme/llm-worker:1.4.3` (at most 1000 characters). Updated in place: endpoints using the template roll their workers onto it. */
  imageName: pulumi.Input<string>;
  /** Start command overriding the image's own (at most 4096 characters); unset = the image's. Updated in place. */
  dockerArgs?: pulumi.Input<string>;
  /** Container disk in GB, at least 1 (at most 1024 on `runpod:api graphql`). Default 10. Updated in place. */
  containerDiskInGb?: pulumi.Input<number>;
  /** Persistent volume in GB (kept across restarts); 0 = none, else at least 10 on `runpod:api v2`, at most 4096 on `graphql`. Default 0. Updated in place. */
  volumeInGb?: pulumi.Input<number>;
  /** Where the volume is mounted: an absolute path of at most 255 characters. Default `/workspace`. Updated in place. */
  volumeMountPath?: pulumi.Input<string>;
  /** Exposed ports as `port/protocol` (port 1 to 65535, `http` or `tcp`), e.g. `["8000/http"]`; no repeats, order ignored. Default none. Updated in place. */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Environment variables, name → value (names `[A-Za-z_][A-Za-z0-9_]*`, values at most 32768
   * characters). Default `{}`. Secret: every value is stored encrypted and the `env` output is always a
   * secret; `pulumi preview --diff` shows which names change, never a value. Updated in place: endpoints
   * using the template roll their workers.
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Registry credentials to pull a private image: a {@link ContainerRegistryAuth} id (at most 64 letters, digits, `_`, `-`), checked at preview; unset = public image. Updated in place. */
  containerRegistryAuthId?: pulumi.Input<string>;
  /**
   * Hardware the image is built for: `NVIDIA` (default), `AMD` or `CPU` (REST v2 `category`). Updated in
   * place. Other than `NVIDIA` is `runpod:api v2` only: on `graphql` preview fails naming the field and the path.
   */
  category?: pulumi.Input<TemplateCategoryName>;
  /**
   * Provision SSH access at container start: true or false (default). The platform then injects
   * `PUBLIC_KEY` into the env; the outputs leave it out, so it shows no drift, and `env` must not set
   * it (preview fails naming `env`). Updated in place, on both API paths.
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * Start JupyterLab at container start: true or false (default). The platform then injects a generated
   * `JUPYTER_PASSWORD` into the env; the outputs leave it out, so it shows no drift, and `env` must not
   * set it (preview fails naming `env`). Updated in place. `runpod:api v2` only: set on `graphql`,
   * preview fails naming the field and the path.
   */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * Visible to other users of the platform (REST v2 `public`): true or false (default). Updated in place.
   * `runpod:api v2` only: set on `graphql`, preview fails naming the field and the path.
   */
  isPublic?: pulumi.Input<boolean>;
  /** Description shown with the template (at most 65536 characters); unset = none. Updated in place. */
  readme?: pulumi.Input<string>;
  /**
   * Longest a container rollout may take, in seconds: an integer from 1 to 7200. Default 600. A
   * rollout (a changed image, env, … of the template, on `runpod:api graphql`, where each endpoint using the template rolls; on `v2` endpoints hold copies and each endpoint's own rollout settings apply to its re-apply) is followed until every worker runs the new release on each endpoint using the template;
   * past this limit it fails and, unless `rollback` is false, is rolled back. Changing it alone is no diff.
   * docs/endpoint.md › Rollouts and rollback.
   */
  rolloutTimeout?: pulumi.Input<number>;
  /**
   * Failed starts of the new release's workers (workers seen UNHEALTHY: a crash on boot, an image that
   * cannot be pulled) that fail a rollout at once: an integer from 1 to 100. Default 1. Changing it alone is no diff.
   */
  rolloutFailedStarts?: pulumi.Input<number>;
  /**
   * Whether a failed rollout is rolled back: the previous container settings are put back (the template's previous settings saved again: every endpoint using it rolls back) and
   * waited for until the workers run them again, then the update fails, naming the endpoint, the release,
   * the failed workers and the last log lines of one (env values redacted). Default true; false leaves the
   * failed release in place for debugging. Changing it alone is no diff.
   */
  rollback?: pulumi.Input<boolean>;
  /**
   * A smoke job's `input`, as JSON object text (what `pulumi-runpod run --input` takes), e.g.
   * `'{"prompt":"ping"}'`; at most 10000 characters. On `runpod:api graphql`, sent to each endpoint using
   * the template once its workers run the template's new settings: the rollout counts as healthy only when
   * each job ends in `smokeStatus`; unset = no smoke job. Refused on `v2` (endpoints hold copies: set it on
   * each Endpoint). Changing it alone is no diff.
   */
  smokeInput?: pulumi.Input<string>;
  /** The status the smoke job must end in: `COMPLETED` (default), `FAILED`, `CANCELLED` or `TIMED_OUT`; `runpod:api graphql` only. Changing it alone is no diff. */
  smokeStatus?: pulumi.Input<SmokeStatus>;
}

/**
 * A serverless template (`isServerless: true`).
 *
 * Create and update: `saveTemplate` (an update carries every field). Delete: `deleteTemplate` by name,
 * retried while the platform still counts an endpoint as using it (Pulumi deletes or moves endpoints
 * first); a template already gone counts as deleted. Refresh reads the platform's record (drift shows
 * as a diff; a template deleted outside Pulumi leaves the stack). Look one up with {@link Template.get}.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- a compile-time check: the Args follow the model.
type TemplateArgsFollowModel = Agrees<ArgsMismatch<TemplateArgs, ArgsOf<(typeof TEMPLATE_MODEL)["fields"]>>>;

export class Template extends pulumi.dynamic.Resource {
  declare public readonly name: pulumi.Output<string>;
  declare public readonly imageName: pulumi.Output<string>;
  declare public readonly dockerArgs: pulumi.Output<string>;
  /** GB. */
  declare public readonly containerDiskInGb: pulumi.Output<number>;
  /** GB. */
  declare public readonly volumeInGb: pulumi.Output<number>;
  declare public readonly volumeMountPath: pulumi.Output<string>;
  declare public readonly ports: pulumi.Output<string[]>;
  /** Always a Pulumi secret. */
  declare public readonly env: pulumi.Output<Record<string, string>>;
  declare public readonly containerRegistryAuthId: pulumi.Output<string | null>;
  declare public readonly category: pulumi.Output<TemplateCategoryName>;
  declare public readonly startSsh: pulumi.Output<boolean>;
  declare public readonly startJupyter: pulumi.Output<boolean>;
  declare public readonly isPublic: pulumi.Output<boolean>;
  declare public readonly readme: pulumi.Output<string>;
  /** Seconds; the rollout limit as last applied. */
  declare public readonly rolloutTimeout: pulumi.Output<number>;
  /** Failed starts of new workers that fail a rollout, as last applied. */
  declare public readonly rolloutFailedStarts: pulumi.Output<number>;
  /** Whether a failed rollout is rolled back, as last applied. */
  declare public readonly rollback: pulumi.Output<boolean>;
  /** The smoke job's input as last applied (null = none). */
  declare public readonly smokeInput: pulumi.Output<string | null>;
  /** The status the smoke job must end in, as last applied. */
  declare public readonly smokeStatus: pulumi.Output<string>;

  /**
   * @param name the Pulumi resource name; the template's name is `args.name`, or this name plus a random suffix.
   * @param args see {@link TemplateArgs}.
   */
  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    const { kind, module, type } = TEMPLATE_MODEL;
    opts = checkedOptions(type, name, opts);
    const props = registeredProperties(TEMPLATE_OUTPUT_FIELDS, args, name);
    if (args && "env" in args) props.env = secretValues(args.env);
    const secrets = { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...TEMPLATE_SECRET_FIELDS] };
    super(providerStub(kind), name, props, secrets, module, type);
  }

  /**
   * Looks up an existing template by id without managing it.
   * @throws (at deployment) when no template with that id exists for the configured API key.
   */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Template {
    return new Template(name, { [LOOKUP_PROPERTY]: true } as unknown as TemplateArgs, { ...opts, id });
  }
}
