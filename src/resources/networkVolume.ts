/**
 * The public `NetworkVolume` resource (docs/networkVolume.md; docs/spec/rest-v2-openapi.json, tag Network
 * Volumes), and read-only lookups of network volumes (spec: GET {base_url}/v2/network-volumes; Resources ›
 * Network volume), Pulumi style: a promise form for plain code and an `...Output` form for wiring into resources,
 * e.g. `new Endpoint("e", { ..., networkVolumeId: getNetworkVolumeOutput({ name: "models" }).id })`.
 *
 * They run in the Pulumi program's process (also during preview), with the API key and addresses from
 * the stack config `runpod:*` (via `pulumi.Config("runpod")`), falling back to RUNPOD_API_KEY and the
 * other RUNPOD_* variables.
 */
import * as pulumi from "@pulumi/pulumi";
import type { NetworkVolume as ListedVolume } from "../api/types";
import { LOOKUP_PROPERTY, NETWORK_VOLUME_MODEL, NETWORK_VOLUME_OUTPUT_FIELDS, providerStub, type VolumeTypeName, type ArgsOf } from "../provider";
import type { Agrees, ArgsMismatch } from "./modelArgs";
import { checkNetworkVolumeQuery, selectNetworkVolume } from "../provider/networkVolumes";
import { functionFailure, programClient } from "./programClient";
import { checkedOptions, registeredProperties } from "./registration";
import { declareStackVolume } from "./stackMembers";

/** A network volume as the lookups return it: `{ id, name, size, dataCenter, type }` (`size` in GB). */
export type NetworkVolumeRecord = ListedVolume;

/**
 * Arguments of a {@link NetworkVolume}. Invalid values fail at preview with one message per field naming the
 * accepted values or range. The volume is managed through REST v2 whatever `runpod:api` says (the platform's
 * GraphQL has no volume operations; docs/spec/rest-v2-openapi.json, tag Network Volumes).
 */
export interface NetworkVolumeArgs {
  /**
   * Volume name: non-empty, at most 255 characters, no leading or trailing spaces; need not be unique.
   * Unset: Pulumi auto-naming, `<resource name>-<7 random hex digits>`. Updated in place (a rename).
   */
  name?: pulumi.Input<string>;
  /**
   * Allocated storage in GB: an integer from 10 to 4096. Grows in place. The platform cannot shrink a
   * volume: a smaller value fails at preview naming the current size (replace the volume to start smaller).
   */
  size: pulumi.Input<number>;
  /**
   * Data center holding the volume, a catalog data center id such as `EU-RO-1` (at most 64 characters;
   * checked against the catalog at preview, with the tiers it offers). Endpoints mounting the volume must be placed
   * there. Changing it replaces the volume: a new, empty one.
   */
  dataCenterId: pulumi.Input<string>;
  /**
   * Storage tier: `STANDARD` or `HIGH_PERFORMANCE` (document: VolumeType); unset = the data center's primary
   * tier. A tier the data center does not offer fails at preview. Changing it replaces the volume: a new, empty one.
   */
  type?: pulumi.Input<VolumeTypeName>;
}

/**
 * Persistent network storage that endpoints mount (`Endpoint.networkVolumeId`). Create:
 * `createNetworkVolume`; update: `updateNetworkVolume` (rename, grow); delete: `deleteNetworkVolume`, retried
 * while an endpoint still mounts it, then failing with the endpoints named. Deleting a volume deletes its
 * data: for data worth keeping set `protect: true` (or `retainOnDelete: true`). Preview shows `monthlyCost`.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- a compile-time check: the Args follow the model.
type NetworkVolumeArgsFollowModel = Agrees<ArgsMismatch<NetworkVolumeArgs, ArgsOf<(typeof NETWORK_VOLUME_MODEL)["fields"]>>>;

export class NetworkVolume extends pulumi.dynamic.Resource {
  /** The volume id (same as `id`). */
  declare public readonly networkVolumeId: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  /** GB. */
  declare public readonly size: pulumi.Output<number>;
  declare public readonly dataCenterId: pulumi.Output<string>;
  /** The tier the volume has (the data center's primary one when `type` was unset). */
  declare public readonly type: pulumi.Output<VolumeTypeName>;
  /** USD per month: `size` × the tier's list price per GB and month (docs/networkVolume.md); known at preview. */
  declare public readonly monthlyCost: pulumi.Output<number | null>;

  constructor(name: string, args: NetworkVolumeArgs, opts?: pulumi.CustomResourceOptions) {
    const { kind, module, type } = NETWORK_VOLUME_MODEL;
    opts = checkedOptions(type, name, opts);
    super(providerStub(kind), name, registeredProperties(NETWORK_VOLUME_OUTPUT_FIELDS, args, name), opts, module, type);
    declareStackVolume(name, this.id, (args as unknown as Record<string, unknown> | undefined)?.[LOOKUP_PROPERTY] === true || opts?.retainOnDelete === true);
  }

  /** Looks up an existing volume by id without managing it. */
  public static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): NetworkVolume {
    return new NetworkVolume(name, { [LOOKUP_PROPERTY]: true } as unknown as NetworkVolumeArgs, { ...opts, id });
  }
}

/** Which volume to look up: by its id, or by its name (which must match exactly one volume). */
export type GetNetworkVolumeArgs = { id: string; name?: undefined } | { name: string; id?: undefined };

/**
 * All network volumes of the configured account.
 * @returns records `{ id, name, size, dataCenter, type }` (`size` in GB as the console shows it; the spec does not state the unit).
 * @throws pulumi.RunError (printed as one line) without an API key, for a bad key (401, 403) or any
 *   other failure of the request; the message says what to set.
 */
export async function getNetworkVolumes(): Promise<NetworkVolumeRecord[]> {
  try {
    return await (await programClient()).client.listNetworkVolumes();
  } catch (err) {
    throw await functionFailure(err, "runpod network volume lookup", "listing network volumes");
  }
}

/** {@link getNetworkVolumes} as an Output. */
export function getNetworkVolumesOutput(): pulumi.Output<NetworkVolumeRecord[]> {
  return pulumi.output(getNetworkVolumes());
}

/**
 * One network volume, by `id` or by `name`.
 * @throws pulumi.RunError when no volume has that id or name, or several share the name; the message lists the
 *   account's volumes. Also the errors of {@link getNetworkVolumes}.
 */
export async function getNetworkVolume(args: GetNetworkVolumeArgs): Promise<NetworkVolumeRecord> {
  // A bad query or no match is the program's mistake: one clean line (RunError), not a stack trace.
  try {
    checkNetworkVolumeQuery(args);
  } catch (err) {
    throw new pulumi.RunError((err as Error).message);
  }
  const volumes = await getNetworkVolumes();
  try {
    return selectNetworkVolume(volumes, args);
  } catch (err) {
    throw new pulumi.RunError((err as Error).message);
  }
}

/** {@link getNetworkVolume} as an Output; `args` may hold Outputs. */
export function getNetworkVolumeOutput(args: pulumi.Input<{ id: pulumi.Input<string> } | { name: pulumi.Input<string> }>): pulumi.Output<NetworkVolumeRecord> {
  return pulumi.output(args).apply((a) => getNetworkVolume(a as GetNetworkVolumeArgs));
}
