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
import { clientInputFromConfig, PULUMI_CONFIG_KEYS } from "../provider";
import { checkNetworkVolumeQuery, selectNetworkVolume } from "../provider/networkVolumes";
import { checkStackConfig } from "./registration";

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
  checkStackConfig();
  const config = new pulumi.Config("runpod");
  const input = clientInputFromConfig({ get: (key) => config.get(key.slice(key.indexOf(":") + 1)) });
  const key = JSON.stringify(input);
  if (!cached || cached.key !== key) {
    const { createClient, resolveClientConfig } = await import("../api");
    cached = { key, client: createClient(resolveClientConfig(input, process.env, PULUMI_CONFIG_KEYS)) };
  }
  return cached.client;
}

/**
 * All network volumes of the configured account.
 * @returns records `{ id, name, size, dataCenter, type }` (`size` in GB as the console shows it; the spec does not state the unit).
 * @throws pulumi.RunError (printed as one line) without an API key, for a bad key (401, 403) or any
 *   other failure of the request; the message says what to set.
 */
export async function getNetworkVolumes(): Promise<NetworkVolume[]> {
  try {
    return await (await programClient()).listNetworkVolumes();
  } catch (err) {
    throw await lookupFailure(err, "listing network volumes");
  }
}

/**
 * A lookup's failure as the program shows it: a `pulumi.RunError`, which Pulumi prints as one line
 * (any other error comes with its stack), with the Pulumi front end's hint.
 */
async function lookupFailure(err: unknown, doing: string): Promise<pulumi.RunError> {
  if (err instanceof pulumi.RunError) return err;
  const { explainError } = await import("../api");
  const { PULUMI_HINTS } = await import("../provider");
  return new pulumi.RunError(`runpod network volume lookup failed: ${explainError(err, { doing, hints: PULUMI_HINTS })}`);
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
