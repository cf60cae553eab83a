/**
 * Choosing one network volume from the account's listing (spec: GET {base_url}/v2/network-volumes;
 * Resources › Network volume), stated once for the program-side lookups (src/resources/networkVolume.ts)
 * and the provider plugin's `getNetworkVolume` function.
 */
import type { NetworkVolume } from "../api/types";

/** Which volume to look up: by its id, or by its name (which must match exactly one volume). */
export type NetworkVolumeQuery = { id: string; name?: undefined } | { name: string; id?: undefined };

const describe = (volumes: readonly NetworkVolume[]): string =>
  volumes.length === 0 ? "you have no network volumes" : `yours: ${volumes.map((v) => `${v.id} ("${v.name}", ${v.dataCenter})`).join(", ")}`;

/**
 * Whether `query` looks a volume up by id (true) or by name (false); checked before any request.
 * @throws Error when it gives neither or both.
 */
export function checkNetworkVolumeQuery(query: Partial<{ id: unknown; name: unknown }> | undefined): boolean {
  const byId = query?.id !== undefined && query?.id !== null;
  if (byId === (query?.name !== undefined && query?.name !== null)) throw new Error("getNetworkVolume needs exactly one of `id` and `name`");
  return byId;
}

/**
 * The one volume of `volumes` with the query's id or name.
 * @throws Error when the query gives neither or both, when no volume matches, or several share the
 *   name; the message lists the account's volumes.
 */
export function selectNetworkVolume(volumes: readonly NetworkVolume[], query: Partial<{ id: unknown; name: unknown }> | undefined): NetworkVolume {
  const byId = checkNetworkVolumeQuery(query);
  const matches = byId ? volumes.filter((v) => v.id === query!.id) : volumes.filter((v) => v.name === query!.name);
  const what = byId ? `id "${String(query!.id)}"` : `name "${String(query!.name)}"`;
  if (matches.length === 0) throw new Error(`No network volume with ${what}; ${describe(volumes)}`);
  if (matches.length > 1) throw new Error(`${matches.length} network volumes have ${what}; look one up by id instead: ${describe(matches)}`);
  return matches[0];
}
