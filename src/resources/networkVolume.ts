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
import type { NetworkVolume, PlatformClient } from "../api/types";
import { clientInputFromConfig } from "../provider";
import { checkNetworkVolumeQuery, selectNetworkVolume } from "../provider/networkVolumes";

export type { NetworkVolume } from "../api/types";

/** Which volume to look up: by its id, or by its name (which must match exactly one volume). */
export type GetNetworkVolumeArgs = { id: string; name?: undefined } | { name: string; id?: undefined };

let cached: { key: string; client: PlatformClient } | undefined;

/**
 * The client for the program's configuration; rebuilt only when that configuration changes. The api
 * client modules are loaded here, at the first lookup, not when the program loads this package: most
 * programs never look a volume up, and loading them costs every `pulumi up` tens of milliseconds.
 */
async function programClient(): Promise<PlatformClient> {
  const config = new pulumi.Config("runpod");
  const input = clientInputFromConfig({ get: (key) => config.get(key.slice(key.indexOf(":") + 1)) });
  const key = JSON.stringify(input);
  if (!cached || cached.key !== key) {
    const { createClient, resolveClientConfig } = await import("../api");
    cached = { key, client: createClient(resolveClientConfig(input, process.env)) };
  }
  return cached.client;
}

/**
 * All network volumes of the configured account.
 * @returns records `{ id, name, size, dataCenter, type }` (`size` in GB as the console shows it; the spec does not state the unit).
 * @throws ConfigurationError without an API key; AuthenticationError (401) / PermissionError (403) for a bad key.
 */
export async function getNetworkVolumes(): Promise<NetworkVolume[]> {
  return (await programClient()).listNetworkVolumes();
}

/** {@link getNetworkVolumes} as an Output. */
export function getNetworkVolumesOutput(): pulumi.Output<NetworkVolume[]> {
  return pulumi.output(getNetworkVolumes());
}

/**
 * One network volume, by `id` or by `name`.
 * @throws Error when no volume has that id or name, or several share the name; the message lists the
 *   account's volumes. Also the errors of {@link getNetworkVolumes}.
 */
export async function getNetworkVolume(args: GetNetworkVolumeArgs): Promise<NetworkVolume> {
  checkNetworkVolumeQuery(args);
  return selectNetworkVolume(await getNetworkVolumes(), args);
}

/** {@link getNetworkVolume} as an Output; `args` may hold Outputs. */
export function getNetworkVolumeOutput(args: pulumi.Input<{ id: pulumi.Input<string> } | { name: pulumi.Input<string> }>): pulumi.Output<NetworkVolume> {
  return pulumi.output(args).apply((a) => getNetworkVolume(a as GetNetworkVolumeArgs));
}
