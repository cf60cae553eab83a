/**
 * The public `Endpoint` resource: a serverless endpoint of the platform (spec: Resources › Serverless
 * endpoint; What the service does › Serverless endpoints), managed by a Pulumi dynamic provider.
 */
import * as pulumi from "@pulumi/pulumi";
import type { EndpointType, FastBootType, FlashbootMode, GpuTier, Location, ScalerType } from "../api/spec";
import { ENDPOINT_MODEL, ENDPOINT_OUTPUT_FIELDS, ENDPOINT_SECRET_FIELDS, LOOKUP_PROPERTY, providerStub, type ArgsOf, type CudaVersion } from "../provider";
import type { Agrees, ArgsMismatch } from "./modelArgs";
import { checkedOptions, registeredProperties, warnDeprecated } from "./registration";
import { secretValues } from "./secretInputs";

/** A job status a smoke job may be expected to end in (`smokeStatus`): a terminal status of the job interface. */
export type SmokeStatus = "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";

/**
 * Arguments of an {@link Endpoint}. Give `imageName`, `templateId` or both (the endpoint's own container
 * values win over the template's), and exactly one of `gpuIds`, `gpuTypeIds` and `cpuFlavorIds`. Unset
 * optional fields take the platform's defaults (shown per field), which is also what `pulumi preview` shows.
 * Invalid values fail at preview with one message per field naming the accepted values or range.
 */
export interface EndpointArgs {
  /**
   * Endpoint name: non-empty, at most 191 characters, no leading or trailing spaces. Updated in place.
   * Unset: Pulumi auto-naming, `<resource name>-<7 random hex digits>` (e.g. `llm-3f9a2c1`), drawn at
   * create and kept for the endpoint's life; a replacement gets a fresh one. (`pulumi preview` shows a
   * draw of its own for a new endpoint; `pulumi up` draws again.) An auto-named create spends exactly
   * one request even when it must be checked after a lost answer; with a chosen name the first create
   * of each `pulumi up` also lists the existing endpoints, so one with the same name is never mistaken
   * for the new one.
   */
  name?: pulumi.Input<string>;
  /**
   * Serverless template to run: its id, e.g. `tpl_vllm` (1 to 64 letters, digits, `_`, `-`). Updated in
   * place. Optional on `runpod:api v2` (the default), where the endpoint runs a copy of the template's
   * container with its own container values winning; required on `graphql`. Unset: the endpoint runs
   * its own `imageName`. A template whose `category` does not match the compute (a `CPU` template on
   * GPUs, or the reverse) fails at preview.
   */
  templateId?: pulumi.Input<string>;
  /**
   * Container image the endpoint runs, with repository and tag, e.g. `ghcr.io/acme/worker:1.2.0` (at
   * most 1000 characters; REST v2 `image`). Unset: the template's. A change is a release: followed to
   * health and rolled back on failure. `runpod:api v2` only: on `graphql` preview fails (saveEndpoint
   * carries no container). Give `imageName`, `templateId` or both; neither fails at preview naming both.
   */
  imageName?: pulumi.Input<string>;
  /** Start command overriding the image's own (REST v2 `args`; at most 4096 characters). Unset: the template's, none without one. A release; `runpod:api v2` only. */
  dockerArgs?: pulumi.Input<string>;
  /** Container disk of each worker in GB, an integer of at least 1 (REST v2 `disk`). Unset: the template's, else the platform's. A release; `runpod:api v2` only. */
  containerDiskInGb?: pulumi.Input<number>;
  /** Exposed ports as `port/protocol` (`http` or `tcp`), e.g. `["8000/http"]`. Unset: the template's, none without one. Order does not matter. A release; `runpod:api v2` only. */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Environment variables, name → value (names `[A-Za-z_][A-Za-z0-9_]*`, values at most 32768
   * characters). Secret: every value is stored encrypted and the `env` output is always a secret. With
   * `templateId`, merged over the template's per key (the endpoint's values win). Unset: the template's,
   * none without one. A release; `runpod:api v2` only.
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Registry credentials to pull a private image (a `ContainerRegistryAuth` id, at most 64 characters).
   * Unset: the template's, none without one. A release; `runpod:api v2` only.
   */
  containerRegistryAuthId?: pulumi.Input<string>;
  /**
   * CPU flavors in priority order (distinct catalog ids of at most 64 characters, e.g.
   * `["cpu3c", "cpu5c"]`; see `getCpuTypes()`): a CPU endpoint (REST v2 `cpu`). Not together with
   * `gpuIds` / `gpuTypeIds` (preview fails naming them); GPU-only inputs (`gpuCount`, CUDA versions,
   * `excludedGpuTypes`) fail at preview on a CPU endpoint. Changes update in place; switching between
   * GPUs and CPUs deletes and re-creates the endpoint (the compute family is immutable).
   * `runpod:api v2` only.
   */
  cpuFlavorIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * vCPUs of each worker of a CPU endpoint: a power of two of at least 2 (2, 4, 8, …) that every flavor of
   * `cpuFlavorIds` offers (checked at preview against the catalog). Default 2. Only with
   * `cpuFlavorIds`. Updated in place. `runpod:api v2` only.
   */
  vcpuCount?: pulumi.Input<number>;
  /**
   * GPU tiers in priority order, e.g. `["ADA_24", "AMPERE_24"]` (sent as the comma-separated string the
   * platform expects). One of `AMPERE_16`, `AMPERE_24`, `ADA_24`, `AMPERE_48`, `ADA_48_PRO`, `AMPERE_80`,
   * `ADA_80_PRO`; no repeats. Order matters; changes (also switching from `gpuTypeIds`) update in place.
   */
  gpuIds?: pulumi.Input<pulumi.Input<GpuTier>[]>;
  /**
   * GPU type names in priority order, e.g. `["NVIDIA GeForce RTX 4090"]` (each at most 100 characters; no
   * repeats): the first available is allocated, otherwise the next. Only the REST v1 create accepts
   * them, so any change replaces the endpoint.
   */
  gpuTypeIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * GPU type names (each at most 100 characters, no repeats) left out of the `gpuIds` tiers, e.g.
   * `["NVIDIA L40"]` (REST v2 `gpu.excludedTypes`; each must be a type of one of the tiers); empty or
   * unset = none. Order does not matter; changes update in place (the whole GPU selection is sent).
   * `runpod:api v2` only: set on `graphql`, preview fails naming the field and the path.
   */
  excludedGpuTypes?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Data center ids the workers may run in, e.g. `["EU-RO-1"]` (each at most 64 characters, no
   * repeats); empty or unset = any data center. Order does not matter; changes update in place.
   * `runpod:api v2` only: set on `graphql`, preview fails naming the field and the path.
   */
  dataCenterIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** `QB` queue-based (default) or `LB` load balancing (on `runpod:api v2` with `scalerType: "REQUEST_COUNT"`). Changing it replaces the endpoint. */
  type?: pulumi.Input<EndpointType>;
  /** Seconds before idle workers shut down, 0 to 3600 (1 to 3600 on `runpod:api v2`). Default 5. */
  idleTimeout?: pulumi.Input<number>;
  /** Regions the workers may run in (`CZ`, `FR`, `GB`, `NO`, `RO`, `US`); empty or unset = any. Order does not matter. */
  locations?: pulumi.Input<pulumi.Input<Location>[]>;
  /**
   * FlashBoot cold-start acceleration: `OFF` (default), `FLASHBOOT`, or `PRIORITY_FLASHBOOT` (enabled
   * with priority capacity; `runpod:api v2` only: on `graphql` preview fails naming the field and the
   * path). Updated in place. On `graphql` it is sent as `fastBootType` (`FASTBOOT` or none).
   */
  flashboot?: pulumi.Input<FlashbootMode>;
  /**
   * Deprecated: use `flashboot` (`true` is `flashboot: "FLASHBOOT"`, `false` is `"OFF"`); a warning
   * says so. Default false.
   */
  fastBoot?: pulumi.Input<boolean>;
  /** Deprecated: use `flashboot` (`FASTBOOT` is `flashboot: "FLASHBOOT"`, unset is `"OFF"`); a warning says so. */
  fastBootType?: pulumi.Input<FastBootType>;
  /** Autoscaling strategy: `QUEUE_DELAY` (default) or `REQUEST_COUNT`. */
  scalerType?: pulumi.Input<ScalerType>;
  /**
   * Scaler target: queue delay in seconds (at least 0.5, fractions kept on `runpod:api v2`; an integer
   * 1 to 3600 on `graphql`), or requests per worker, an integer, with `REQUEST_COUNT`. Default 4.
   */
  scalerValue?: pulumi.Input<number>;
  /** Minimum active workers, 0 (scale to zero, default) or more (at most 100 on `runpod:api graphql`); at most `workersMax`. */
  workersMin?: pulumi.Input<number>;
  /** Maximum concurrent workers, 0 or more (at most 100 on `runpod:api graphql`). Default 3, or `workersMin` when larger. */
  workersMax?: pulumi.Input<number>;
  /**
   * Network volume to mount: the id (1 to 64 letters, digits, `_`, `-`) of one of yours, e.g.
   * `getNetworkVolumeOutput({ name: "models" }).id`; unset = none. Checked at preview.
   */
  networkVolumeId?: pulumi.Input<string>;
  /**
   * Several network volumes to mount (REST v2 `networkVolumes`): ids (each 1 to 64 letters, digits,
   * `_`, `-`, no repeats) of yours, checked at preview; empty or unset = none. Not together with
   * `networkVolumeId`. A single id is kept as `networkVolumeId` (so it works on both paths); two or more
   * are `runpod:api v2` only: on `graphql` preview fails naming the field and the path. Order does not
   * matter; changes update in place.
   */
  networkVolumeIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * GPUs per worker: an integer of at least 1 (at most 8 on `runpod:api graphql`; on v2 the selected GPU types' own maximum, checked at preview). Updated in place. Unset = the platform's default (1) and no
   * diff; a modify keeps the value the platform last reported. Not shown in the spec: from the official
   * clients / REST v1 document.
   */
  gpuCount?: pulumi.Input<number>;
  /**
   * CUDA versions a worker's host may run, as `major.minor` of at most 16 characters each, e.g. `["12.9", "13.0"]`; on `runpod:api
   * graphql` each one of `11.8`, `12.0`, `12.1`, `12.2`, `12.3`, `12.4`, `12.5`, `12.6`, `12.7`, `12.8`;
   * no repeats; empty = any. Order does not matter; updated in place. Unset = the platform's default (any) and no diff; a
   * modify keeps the value the platform last reported. Not shown in the spec: from the official clients
   * / REST v1 document.
   */
  allowedCudaVersions?: pulumi.Input<pulumi.Input<CudaVersion>[]>;
  /**
   * Lowest CUDA version a worker's host may run, as `major.minor`, at most 16 characters (e.g. `"12.4"`; compared numerically,
   * so 12.11 is above 12.2; REST v2 `gpu.minCudaVersion`). Unset = no floor. Not together with a
   * non-empty `allowedCudaVersions` (an exact set): preview fails naming both. Updated in place; unsetting
   * it clears the floor. `runpod:api v2` only: set on `graphql`, preview fails naming the field and the path.
   */
  minCudaVersion?: pulumi.Input<string>;
  /**
   * Longest time a job may run, in milliseconds: an integer at least 1; on `runpod:api graphql` from 5000 (5 s) to 604800000 (7 days).
   * Updated in place. Unset = the platform's default (600000 in the emulator) and no diff; a modify
   * keeps the value the platform last reported. Not shown in the spec: from the official clients / REST
   * v1 document.
   */
  executionTimeoutMs?: pulumi.Input<number>;
  /**
   * Readiness wait: when true and `workersMin` > 0, `pulumi up` waits after creating or updating the
   * endpoint until `workersMin` of its workers report ready (worker listing, polled every 2 s), so a
   * pipeline can send a smoke job right after. Default false (no wait, no request).
   * A setting of the provider, not of the endpoint: changing it alone is no diff (nothing is updated, so
   * nothing is waited for until the next create or update). Errors: see `workersReadyTimeout`.
   */
  waitForWorkers?: pulumi.Input<boolean>;
  /**
   * Longest readiness wait, in seconds: an integer from 1 to 3600. Default 600. Used only with
   * `waitForWorkers`; changing it alone is no diff.
   * When it runs out during a create, the endpoint is kept in the stack (the error says it exists and
   * how many of `workersMin` workers were ready after how many seconds) and the next `pulumi up` waits
   * again; during an update, the update fails with the same figures (the change is applied on the
   * platform; the next `pulumi up` applies it again and waits again).
   */
  workersReadyTimeout?: pulumi.Input<number>;
  /**
   * Budget of this endpoint, in US dollars per hour (a number ≥ 0): a `pulumi preview` (and `up`)
   * whose `maxHourlyCost` estimate would exceed it fails, naming the estimate and where its price
   * comes from, before anything changes on the platform; unset = no limit. A setting of the provider:
   * changing it alone is no diff. See docs/cost.md (also for the stack-wide `runpod:maxHourlyCost`).
   */
  maxHourlyCostLimit?: pulumi.Input<number>;
  /**
   * Longest a container rollout may take, in seconds: an integer from 1 to 7200. Default 600. A
   * rollout (a changed image, env, … or a re-applied template) is followed until every worker runs the new release and, with `smokeInput`, its smoke job has ended;
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
   * Whether a failed rollout is rolled back: the previous container settings are put back (a PATCH of the endpoint's own previous image, args, disk, ports, env and registry) and
   * waited for until the workers run them again, then the update fails, naming the endpoint, the release,
   * the failed workers and the last log lines of one (env values redacted). Default true; false leaves the
   * failed release in place for debugging. Changing it alone is no diff.
   */
  rollback?: pulumi.Input<boolean>;
  /**
   * A smoke job's `input`, as JSON object text (what `pulumi-runpod run --input` takes), e.g.
   * `'{"prompt":"ping"}'`; at most 10000 characters. Sent to the endpoint once every worker runs a new
   * release: the rollout counts as healthy only when the job ends in `smokeStatus`; unset = no smoke job.
   * A load-balancing endpoint (`type: "LB"`, REST v2 only; on graphql it fails at preview) has no queue: the
   * input is POSTed as the body to its `requestUrls.base` once `health` answers 200, and a 2xx answer counts
   * as `COMPLETED` (otherwise `FAILED`). docs/endpoint.md › Where to send requests. Changing it alone is no diff.
   */
  smokeInput?: pulumi.Input<string>;
  /** The status the smoke job must end in: `COMPLETED` (default), `FAILED`, `CANCELLED` or `TIMED_OUT`. Changing it alone is no diff. */
  smokeStatus?: pulumi.Input<SmokeStatus>;
}

/**
 * A serverless endpoint.
 *
 * Create: `saveEndpoint` (tiers) or REST v1 `POST /v1/endpoints` (GPU type names) — a create whose
 * outcome is unknown is never blindly repeated. Update: `saveEndpoint` with the id (see the README's
 * update-vs-replace table). Delete: scale to zero workers, then `deleteEndpoint`; an endpoint already
 * gone counts as deleted. Refresh reads the platform's record (drift shows as a diff; an endpoint deleted
 * outside Pulumi leaves the stack). With `waitForWorkers`, create and update return once `workersMin`
 * workers are ready. Look an endpoint up, unmanaged, with {@link Endpoint.get}.
 *
 * Adopting an existing endpoint: `pulumi import` and the `import` resource option do not work with
 * dynamic providers (the engine reads the resource without its serialized provider, pulumi/pulumi#3550);
 * use `pulumi-runpod import <resource name> <id>` instead (docs/operations.md › Import).
 *
 * The API key comes from the stack config `runpod:apiKey` (secret) or `RUNPOD_API_KEY`; it is never an
 * input or output. Errors name the field or say what to fix (key, permissions, missing endpoint).
 * `customTimeouts` are not applied: the dynamic provider host does not hand them to providers.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- a compile-time check: the Args follow the model.
type EndpointArgsFollowModel = Agrees<ArgsMismatch<EndpointArgs, ArgsOf<(typeof ENDPOINT_MODEL)["fields"]>>>;

export class Endpoint extends pulumi.dynamic.Resource {
  /** The endpoint id (same as `id`). */
  declare public readonly endpointId: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  /** The template the endpoint was declared with (null when none; REST v2 keeps no link to it). */
  declare public readonly templateId: pulumi.Output<string | null>;
  /** The image the endpoint runs, as the platform reports it (REST v2; null on GraphQL). */
  declare public readonly imageName: pulumi.Output<string | null>;
  declare public readonly dockerArgs: pulumi.Output<string | null>;
  /** GB. */
  declare public readonly containerDiskInGb: pulumi.Output<number | null>;
  declare public readonly ports: pulumi.Output<string[] | null>;
  /** Secret; empty when the endpoint sets none (always on `runpod:api graphql`). */
  declare public readonly env: pulumi.Output<Record<string, string>>;
  declare public readonly containerRegistryAuthId: pulumi.Output<string | null>;
  /** CPU flavors of a CPU endpoint (empty for GPU endpoints). */
  declare public readonly cpuFlavorIds: pulumi.Output<string[]>;
  /** vCPUs per worker of a CPU endpoint (null for GPU endpoints). */
  declare public readonly vcpuCount: pulumi.Output<number | null>;
  /** GPU tiers as the platform reports them, in its order (also when created from `gpuTypeIds`). */
  declare public readonly gpuIds: pulumi.Output<GpuTier[]>;
  /** The GPU type names the endpoint was created with; absent when created with tiers (the platform does not report them). */
  declare public readonly gpuTypeIds: pulumi.Output<string[] | undefined>;
  /** GPU type names left out of the tiers (REST v2; empty on GraphQL). */
  declare public readonly excludedGpuTypes: pulumi.Output<string[]>;
  /** Data centers the workers may run in (REST v2; empty = any, and on GraphQL). */
  declare public readonly dataCenterIds: pulumi.Output<string[]>;
  declare public readonly type: pulumi.Output<EndpointType>;
  /** Seconds. */
  declare public readonly idleTimeout: pulumi.Output<number>;
  /** Regions; empty = any. */
  declare public readonly locations: pulumi.Output<Location[]>;
  declare public readonly flashboot: pulumi.Output<FlashbootMode>;
  /** The CUDA floor (REST v2; null = none, and on GraphQL). */
  declare public readonly minCudaVersion: pulumi.Output<string | null>;
  /** Deprecated: `flashboot` other than `OFF`. */
  declare public readonly fastBoot: pulumi.Output<boolean>;
  declare public readonly fastBootType: pulumi.Output<FastBootType | null>;
  declare public readonly scalerType: pulumi.Output<ScalerType>;
  declare public readonly scalerValue: pulumi.Output<number>;
  declare public readonly workersMin: pulumi.Output<number>;
  declare public readonly workersMax: pulumi.Output<number>;
  declare public readonly networkVolumeId: pulumi.Output<string | null>;
  /** The volumes when two or more (REST v2); empty otherwise. */
  declare public readonly networkVolumeIds: pulumi.Output<string[]>;
  /** GPUs per worker, as the platform reports it (also when unset). */
  declare public readonly gpuCount: pulumi.Output<number>;
  /** CUDA versions, as the platform reports them; empty = any. */
  declare public readonly allowedCudaVersions: pulumi.Output<CudaVersion[]>;
  /** Milliseconds a job may run, as the platform reports it (also when unset). */
  declare public readonly executionTimeoutMs: pulumi.Output<number>;
  /**
   * Warm workers the platform keeps on standby (null when it does not report them). Nonzero keeps a
   * `workersMin: 0` ("scale to zero") endpoint warm, and billed. Not shown in the spec: from the official clients.
   */
  declare public readonly workersStandby: pulumi.Output<number | null>;
  /** Where jobs are sent: `{inferenceUrl}/v2/{endpointId}/` (spec: Job interface); a load-balancing endpoint's `requestUrls.base`. */
  declare public readonly jobUrl: pulumi.Output<string>;
  /**
   * Where to send requests, as the platform gives them for the endpoint's type (REST v2): `run`,
   * `runSync`, `status`, `stream`, `cancel`, `retry`, `purgeQueue`, `health` for a queue-based endpoint;
   * `base` and `health` for a load-balancing one. Empty on `runpod:api graphql`.
   */
  declare public readonly requestUrls: pulumi.Output<Record<string, string>>;
  /**
   * The version of the release last followed to health (REST v2; null for the release a create made, and
   * on GraphQL). A newer release on the platform shows in preview; the next `up` follows it.
   */
  declare public readonly releaseVersion: pulumi.Output<number | null>;
  /** That release's container settings as JSON text (secret: it holds the env values); what a failed rollout is rolled back to. */
  declare public readonly releasedContainer: pulumi.Output<string | null>;
  /**
   * Whether the endpoint runs its template's current container settings. On `runpod:api v2` an endpoint
   * holds a copy of them, taken at create and at each re-apply: false after a refresh that found the
   * template changed since (outside Pulumi, by another stack, or by an interrupted `up`), and the next `up`
   * re-applies it; always true on `runpod:api graphql`, where endpoints follow their template.
   */
  declare public readonly templateCurrent: pulumi.Output<boolean>;
  /** The readiness-wait setting as last applied by a create or update (a provider setting; not reported by the platform). */
  declare public readonly waitForWorkers: pulumi.Output<boolean>;
  /** Seconds; the readiness-wait limit as last applied by a create or update. */
  declare public readonly workersReadyTimeout: pulumi.Output<number>;
  /** USD per hour; the per-endpoint limit as last applied (null = none). */
  declare public readonly maxHourlyCostLimit: pulumi.Output<number | null>;
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
   * USD per hour with all `workersMax` workers busy, at the highest-priced GPU pool or CPU flavor the
   * endpoint may land on (the catalog's serverless list prices; docs/cost.md). Known at `pulumi preview`
   * for a new or changed endpoint; null when the catalog could not be read.
   */
  declare public readonly maxHourlyCost: pulumi.Output<number | null>;
  /** USD per hour with no traffic: `workersMin` plus standby workers at that price; nonzero = billed while idle. */
  declare public readonly idleHourlyCost: pulumi.Output<number | null>;
  /** USD per hour of one worker at the highest-priced GPU pool or CPU flavor it may land on. */
  declare public readonly workerHourlyCost: pulumi.Output<number | null>;

  /**
   * @param name the Pulumi resource name; the endpoint's name is `args.name`, or this name plus a
   *   random suffix when that is unset.
   * @param args see {@link EndpointArgs}.
   * @param opts resource options. Not `import`: the engine cannot import through a dynamic provider
   *   (see the class documentation for the stand-in).
   */
  constructor(name: string, args: EndpointArgs, opts?: pulumi.CustomResourceOptions) {
    const { kind, module, type } = ENDPOINT_MODEL;
    opts = checkedOptions(type, name, opts);
    const props = registeredProperties(ENDPOINT_OUTPUT_FIELDS, args, name);
    if (args && "env" in args) props.env = secretValues(args.env);
    const secrets = { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...ENDPOINT_SECRET_FIELDS] };
    super(providerStub(kind), name, props, secrets, module, type);
    warnDeprecated(ENDPOINT_MODEL, args, this);
  }

  /**
   * Looks up an existing endpoint by id without managing it: the engine reads it through the provider
   * (the registration carries the serialized provider, so unlike `import` this works with a dynamic
   * provider) and its outputs are the platform's record; `pulumi destroy` leaves it alone.
   * @param name the Pulumi resource name.
   * @param id the endpoint id.
   * @throws (at deployment) when no endpoint with that id exists for the configured API key.
   */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Endpoint {
    return new Endpoint(name, { [LOOKUP_PROPERTY]: true } as unknown as EndpointArgs, { ...opts, id });
  }
}
