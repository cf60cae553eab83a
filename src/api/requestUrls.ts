/**
 * An endpoint as the job interface addresses it, and the load-balancing reading of its `requestUrls`
 * (REST v2 `Endpoint.requestUrls`). Kept free of the client and zod: the provider's rollout reads it
 * from modules a Pulumi program loads.
 */

/** An endpoint id, or an endpoint with the `requestUrls` the platform gave it (job routes or `base`/`health`). */
export type JobEndpoint = string | { id: string; requestUrls?: Readonly<Record<string, string>> | null };

/** A load-balancing endpoint's `requestUrls` (`base`, `health`, no job routes), if `endpoint` carries them. */
export function loadBalancerUrls(endpoint: JobEndpoint): { base: string; health: string } | undefined {
  const urls = typeof endpoint === "string" ? undefined : endpoint.requestUrls;
  return urls?.base && urls.health && !urls.run ? { base: urls.base, health: urls.health } : undefined;
}
