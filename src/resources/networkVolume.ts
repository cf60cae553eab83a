/**
 * Read-only lookups of network volumes (spec: GET {base_url}/v2/network-volumes; Resources › Network
 * volume), Pulumi style: a promise form for plain code and an `...Output` form for wiring into resources,
 * e.g. `new Endpoint("e", { ..., networkVolumeId: getNetworkVolumeOutput({ name: "models" }).id })`.
 *
 * They run in the Pulumi program's process (also during preview), with the API key and addresses from
 * the stack config `runpod:*` (via `pulumi.Config("runpod")`), falling back to RUNPOD_API_KEY and the
 * other RUNPOD_* variables.
 */
import * as pulumi from "@pulumi/pulumi";
import type { NetworkVolume } from "../api/types";
import { checkNetworkVolumeQuery, selectNetworkVolume } from "../provider/networkVolumes";
import { functionFailure, programClient } from "./programClient";

export type { NetworkVolume } from "../api/types";

/** Which volume to look up: by its id, or by its name (which must match exactly one volume). */
export type GetNetworkVolumeArgs = { id: string; name?: undefined } | { name: string; id?: undefined };

/**
 * All network volumes of the configured account.
 * @returns records `{ id, name, size, dataCenter, type }` (`size` in GB as the console shows it; the spec does not state the unit).
 * @throws pulumi.RunError (printed as one line) without an API key, for a bad key (401, 403) or any
 *   other failure of the request; the message says what to set.
 */
export async function getNetworkVolumes(): Promise<NetworkVolume[]> {
  try {
    return await (await programClient()).client.listNetworkVolumes();
  } catch (err) {
    throw await functionFailure(err, "runpod network volume lookup", "listing network volumes");
  }
}

/** {@link getNetworkVolumes} as an Output. */
export function getNetworkVolumesOutput(): pulumi.Output<NetworkVolume[]> {
  return pulumi.output(getNetworkVolumes());
}

/**
 * One network volume, by `id` or by `name`.
 * @throws pulumi.RunError when no volume has that id or name, or several share the name; the message lists the
 *   account's volumes. Also the errors of {@link getNetworkVolumes}.
 */
export async function getNetworkVolume(args: GetNetworkVolumeArgs): Promise<NetworkVolume> {
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
export function getNetworkVolumeOutput(args: pulumi.Input<{ id: pulumi.Input<string> } | { name: pulumi.Input<string> }>): pulumi.Output<NetworkVolume> {
  return pulumi.output(args).apply((a) => getNetworkVolume(a as GetNetworkVolumeArgs));
}
