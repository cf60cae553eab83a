/** REST v2 resource routes: network volumes and the worker listing (spec: Endpoints). */
import type { Route } from "../core";
import { json } from "../reply";

/** `GET {base_url}/v2/network-volumes` → `{ networkVolumes: [...] }`, the caller's volumes only. */
export const listNetworkVolumesRoute: Route = {
  method: "GET",
  path: "/api/v2/network-volumes",
  style: "rest",
  auth: "bearer",
  classify: { operations: ["listNetworkVolumes"], scope: "read" },
  handle: ({ principal, core }) => json({ networkVolumes: core.platform.networkVolumes(principal.user.id) }),
};

/** `GET {base_url}/v2/serverless/{id}/workers` → JSON array of running workers (shape not shown by the spec). */
export const listWorkersRoute: Route = {
  method: "GET",
  path: "/api/v2/serverless/:id/workers",
  style: "rest",
  auth: "bearer",
  classify: { operations: ["listWorkers"], scope: "read" },
  handle({ params, principal, core }) {
    const endpoint = core.platform.ownedEndpoint(principal.user.id, params.id);
    return json(core.workers.list(endpoint.id).map((w) => w.toJSON()));
  },
};
