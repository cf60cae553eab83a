/** Route lookup by method and `:param` path pattern. */
import type { Route } from "./core";

export type RouteMatch = { route: Route; params: Record<string, string> } | { allowed: string[] } | null;

function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) {
      if (got[i] === "") return null;
      try {
        params[want[i].slice(1)] = decodeURIComponent(got[i]);
      } catch {
        return null;
      }
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

/**
 * The matching route; `{ allowed }` when only the method differs (405); null when nothing matches (404). A path
 * with fewer `:param` segments wins, so `/registries/delegations` is never read as `/registries/:id`.
 */
export function findRoute(routes: Route[], method: string, path: string): RouteMatch {
  const normalized = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const matches: { route: Route; params: Record<string, string>; n: number }[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, normalized);
    if (params) matches.push({ route, params, n: Object.keys(params).length });
  }
  if (matches.length === 0) return null;
  const fewest = Math.min(...matches.map((m) => m.n));
  const best = matches.filter((m) => m.n === fewest);
  const hit = best.find((m) => m.route.method === method);
  return hit ? { route: hit.route, params: hit.params } : { allowed: [...new Set(best.map((m) => m.route.method))] };
}
