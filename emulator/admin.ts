/**
 * Emulator-only routes under `/_emulator` (no auth, not counted in stats, never faulted):
 * GET|POST /faults, GET|POST /clock (billing clock), GET /workers?endpoint=ID, GET /stats, POST /stats/reset, GET /state[?user=USER_ID], GET /health. The server lets
 * only loopback, same-origin JSON requests reach them (server.ts `refuseForeign`).
 */
import type { IncomingMessage } from "http";
import type { Core } from "./core";
import { problem } from "./problem";
import { json, type BodyReply } from "./reply";

export const ADMIN_PREFIX = "/_emulator";

/**
 * Answers one admin request (path under {@link ADMIN_PREFIX}) with JSON; an invalid fault configuration
 * gives 400 and an unknown route or user 404, as problem+json.
 */
export function handleAdmin(core: Core, req: IncomingMessage, url: URL, body: unknown): BodyReply {
  const route = `${req.method} ${url.pathname.slice(ADMIN_PREFIX.length) || "/"}`;
  switch (route) {
    case "GET /health":
      return json({ ok: true, urls: core.urls() });
    case "GET /faults":
      return json(core.faults.get());
    case "POST /faults":
      try {
        core.faults.set((body ?? {}) as never);
      } catch (e) {
        return problem(400, "The fault configuration is invalid.", [(e as Error).message]);
      }
      return json(core.faults.get());
    case "GET /workers": {
      // The simulator's own view (INITIALIZING/READY/DRAINING, template version, jobs), beside REST v2's listing.
      const endpointId = url.searchParams.get("endpoint") ?? "";
      if (!core.store.getEndpoint(endpointId)) return problem(404, `No endpoint "${endpointId}" (give ?endpoint=ENDPOINT_ID).`);
      return json(core.workers.list(endpointId).map((w) => w.toJSON()));
    }
    case "GET /clock":
      return json(clockState(core));
    case "POST /clock": {
      const { advanceMs, freeze } = (body ?? {}) as { advanceMs?: unknown; freeze?: unknown };
      if (freeze !== undefined && typeof freeze !== "boolean")
        return problem(400, "The clock change is invalid.", [`freeze must be true or false; got ${JSON.stringify(freeze)}`]);
      if (advanceMs === undefined && freeze === undefined)
        return problem(400, "The clock change is invalid.", ["give advanceMs (milliseconds), freeze (true or false), or both"]);
      try {
        if (advanceMs !== undefined) core.clock.advance(advanceMs as number);
      } catch (e) {
        return problem(400, "The clock change is invalid.", [(e as Error).message]);
      }
      if (freeze === true) core.clock.freeze();
      if (freeze === false) core.clock.resume();
      return json(clockState(core));
    }
    case "GET /stats":
      return json(core.stats.snapshot());
    case "POST /stats/reset":
      core.stats.reset();
      return json(core.stats.snapshot());
    case "GET /state": {
      // User ids only: accepting keys here would tell any caller which keys are valid.
      const who = url.searchParams.get("user");
      const userId = who === null ? undefined : core.seed.users.find((u) => u.id === who)?.id;
      if (who !== null && userId === undefined) return problem(404, "No user has that id (give a user id such as user_1; API keys are not accepted here).");
      return json({
        endpoints: core.platform.listEndpoints(userId),
        templates: core.templates.states(userId),
        registryAuths: core.registryAuths.states(userId),
      });
    }
    default:
      return problem(404, `No emulator admin route ${route}.`);
  }
}

function clockState(core: Core) {
  return { now: new Date(core.clock.now()).toISOString(), offsetMs: core.clock.offset(), frozen: core.clock.frozen() };
}
