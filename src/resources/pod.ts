/**
 * The public `Pod` resource: a GPU or CPU pod (REST v2, docs/spec/rest-v2-openapi.json › Pods: createPod,
 * getPod, updatePod, deletePod, podAction). Pods speak REST v2 whatever `runpod:api` says: the platform has no
 * GraphQL operations for them in the contract. docs/pod.md.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  LOOKUP_PROPERTY,
  POD_MODEL,
  POD_OUTPUT_FIELDS,
  POD_SECRET_FIELDS,
  providerStub,
  type CloudType,
  type DesiredStatus,
  type PodStatus,
  type ArgsOf,
} from "../provider";
import type { Agrees, ArgsMismatch } from "./modelArgs";
import { checkedOptions, registeredProperties } from "./registration";
import { secretValues } from "./secretInputs";
import { withStackMembers } from "./stackMembers";

/**
 * Arguments of a {@link Pod}. Give `gpuTypeIds` (a GPU pod) or `cpuFlavorId` with `vcpuCount` (a CPU pod), and
 * `imageName` unless `templateId` gives it. Invalid values fail at preview with one message per field naming the
 * accepted values; unknown GPU types, CPU flavors and data centers fail naming the nearest catalog values
 * (document: CreatePodRequest, UpdatePodRequest).
 */
export interface PodArgs {
  /**
   * Pod name: non-empty, at most 191 characters, no leading or trailing spaces. Unset: Pulumi auto-naming,
   * `<resource name>-<7 random hex digits>`. Updated in place (PATCH `name`).
   */
  name?: pulumi.Input<string>;
  /**
   * Container image with repository and tag (at most 1000 characters), e.g. `runpod/pytorch:2.4.0`. Required
   * unless `templateId` gives it; unset = the template's. Updated in place: a running pod restarts its container.
   */
  imageName?: pulumi.Input<string>;
  /**
   * A pod template (not a serverless one; yours or a public one, `GET /v2/catalog/templates`) whose image, args,
   * disk, ports, env and registry apply, the pod's own fields winning (a declared `env` is the pod's whole env);
   * at create also its volume. Applied once: the pod keeps no link. A template id: at most 64 letters, digits, `_`, `-`; unset = none.
   * A change applies the new template in place (PATCH `templateId`).
   */
  templateId?: pulumi.Input<string>;
  /** Start command overriding the image's own (at most 4096 characters); unset = the template's, else none. Updated in place. */
  dockerArgs?: pulumi.Input<string>;
  /** Container disk in GB (ephemeral: wiped on restart), at least 1; unset = the template's, else 50. Updated in place. */
  containerDiskInGb?: pulumi.Input<number>;
  /**
   * Exposed ports as `port/protocol` (port 1 to 65535, `http` or `tcp`), e.g. `["8888/http", "22/tcp"]`; no
   * repeats, order ignored; `22/tcp` gives `sshDirectCommand`. Unset = the template's, else none. Updated in place.
   */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Environment variables, name → value (names `[A-Za-z_][A-Za-z0-9_]*`, values at most 32768 characters).
   * Secret: every value is stored encrypted and the `env` output is always a secret; `pulumi preview --diff` shows
   * which names change, never a value. Unset = the template's, else none. Updated in place.
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Registry credentials to pull a private image: a {@link ContainerRegistryAuth} id (at most 64 letters, digits, `_`, `-`), checked at preview; unset = public image. Updated in place. */
  containerRegistryAuthId?: pulumi.Input<string>;
  /**
   * A volume on the pod's host in GB (kept across restarts, lost with the pod): `0` = none, else at least 10.
   * GPU pods only, and not with `networkVolumeId`. Unset = the template's, else none. A new size updates in place;
   * adding a volume to a pod or removing it creates the pod again (the mount kind is fixed at create).
   */
  volumeInGb?: pulumi.Input<number>;
  /** Where the volume or the network volume is mounted: an absolute path (at most 255 characters). Unset = the template's, else `/workspace`. Updated in place. */
  volumeMountPath?: pulumi.Input<string>;
  /**
   * A network volume to mount (a `NetworkVolume` id of at most 64 letters, digits, `_`, `-`, checked at preview):
   * the pod is placed in the volume's data center. Not with `volumeInGb`; unset = none. Changing it replaces the
   * pod (the volume is fixed at create).
   */
  networkVolumeId?: pulumi.Input<string>;
  /**
   * GPU types in order of preference (catalog ids of at most 100 characters, `getGpuTypes`), e.g. `["NVIDIA GeForce RTX 4090"]`: the pod
   * is created on the first one the platform can place (a 400 or 403 moves to the next). A GPU pod; not with
   * `cpuFlavorId`. Changing it replaces the pod.
   */
  gpuTypeIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** GPUs of the pod, at least 1, at most the GPU type's `maxCount` on the cloud (checked at preview). Default 1. Changing it replaces the pod. */
  gpuCount?: pulumi.Input<number>;
  /** CPU flavor of a CPU pod (catalog ids of at most 64 characters, `getCpuTypes`), e.g. `cpu3c`; needs `vcpuCount`; unset = a GPU pod. Changing it replaces the pod. */
  cpuFlavorId?: pulumi.Input<string>;
  /** vCPUs of a CPU pod: a power of two within the flavor's range (at least 2, e.g. 2 to 32); memory follows from the flavor; unset for a GPU pod. Changing it replaces the pod. */
  vcpuCount?: pulumi.Input<number>;
  /** Data centers the pod may be placed in (catalog ids of at most 64 characters, e.g. `US-TX-3`); unset = any. Changing it replaces the pod. */
  dataCenterIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Cloud tier: `SECURE` (default, Runpod data centers) or `COMMUNITY`. Changing it replaces the pod. */
  cloudType?: pulumi.Input<CloudType>;
  /**
   * Set up SSH at create: the platform injects `PUBLIC_KEY` (your account's registered keys) into the env; the
   * outputs leave it out, and `env` must not set it. Default false. Changing it replaces the pod (a create-time flag).
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * `RUNNING` (default) or `EXITED`: stopped with its disk kept, compute released and not billed. Changed in place
   * through podAction `stop` / `start`; a pod stopped outside Pulumi shows as drift after a refresh.
   */
  desiredStatus?: pulumi.Input<DesiredStatus>;
}

/**
 * A GPU or CPU pod.
 *
 * Create: `createPod`, trying `gpuTypeIds` in order, then `podAction stop` when `desiredStatus` is `EXITED`.
 * Update: `updatePod` (PATCH) with the changed fields, then `podAction` when the status differs. Delete:
 * `deletePod`; a pod already gone counts as deleted. Refresh reads the pod (drift shows as a diff; a pod
 * deleted outside Pulumi leaves the stack). Preview checks the GPU types, CPU flavor and data centers against
 * the catalog and shows `costPerHour`. Look one up with {@link Pod.get}.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- a compile-time check: the Args follow the model.
type PodArgsFollowModel = Agrees<ArgsMismatch<PodArgs, ArgsOf<(typeof POD_MODEL)["fields"]>>>;

export class Pod extends pulumi.dynamic.Resource {
  declare public readonly name: pulumi.Output<string>;
  declare public readonly imageName: pulumi.Output<string>;
  declare public readonly templateId: pulumi.Output<string | null>;
  declare public readonly dockerArgs: pulumi.Output<string>;
  /** GB. */
  declare public readonly containerDiskInGb: pulumi.Output<number>;
  declare public readonly ports: pulumi.Output<string[]>;
  /** Always a Pulumi secret. */
  declare public readonly env: pulumi.Output<Record<string, string>>;
  declare public readonly containerRegistryAuthId: pulumi.Output<string | null>;
  /** GB; 0 = none. */
  declare public readonly volumeInGb: pulumi.Output<number>;
  declare public readonly volumeMountPath: pulumi.Output<string | null>;
  declare public readonly networkVolumeId: pulumi.Output<string | null>;
  declare public readonly gpuTypeIds: pulumi.Output<string[] | null>;
  declare public readonly gpuCount: pulumi.Output<number>;
  declare public readonly cpuFlavorId: pulumi.Output<string | null>;
  declare public readonly vcpuCount: pulumi.Output<number | null>;
  declare public readonly dataCenterIds: pulumi.Output<string[]>;
  declare public readonly cloudType: pulumi.Output<CloudType>;
  declare public readonly startSsh: pulumi.Output<boolean>;
  declare public readonly desiredStatus: pulumi.Output<DesiredStatus>;
  /** The platform's status: PROVISIONING, STARTING, RUNNING, EXITED, ERROR or TERMINATED. */
  declare public readonly status: pulumi.Output<PodStatus>;
  /** USD per hour (0 when stopped); at preview the catalog's list price. */
  declare public readonly costPerHour: pulumi.Output<number | null>;
  /** The GPU type the pod was placed on; null for a CPU pod. */
  declare public readonly gpuTypeId: pulumi.Output<string | null>;
  /** The data center the pod was placed in. */
  declare public readonly dataCenterId: pulumi.Output<string | null>;
  /** SSH through the platform's proxy, ready to run (an interactive shell only). */
  declare public readonly sshCommand: pulumi.Output<string | null>;
  /** SSH straight to the pod, ready to run: null unless `ports` has `22/tcp` and the pod runs. */
  declare public readonly sshDirectCommand: pulumi.Output<string | null>;

  /**
   * @param name the Pulumi resource name; the pod's name is `args.name`, or this name plus a random suffix.
   * @param args see {@link PodArgs}.
   */
  constructor(name: string, args: PodArgs, opts?: pulumi.CustomResourceOptions) {
    const { kind, module, type } = POD_MODEL;
    opts = checkedOptions(type, name, opts);
    const props = registeredProperties(POD_OUTPUT_FIELDS, args, name);
    withStackMembers("pod", name, args, props);
    if (args && "env" in args) props.env = secretValues(args.env);
    const secrets = { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...POD_SECRET_FIELDS] };
    super(providerStub(kind), name, props, secrets, module, type);
  }

  /**
   * Looks up an existing pod by id without managing it.
   * @throws (at deployment) when no pod with that id exists for the configured API key.
   */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Pod {
    return new Pod(name, { [LOOKUP_PROPERTY]: true } as unknown as PodArgs, { ...opts, id });
  }
}
