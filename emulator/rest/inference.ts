/**
 * Job interface under `{inference_url}/v2/{endpoint_id}/` (spec: POST .../run and .../runsync): `/run`,
 * `/runsync?wait=`, `/status/{jobId}`, and from the official clients (docs/spec/platform-clients.md)
 * `/status-sync/{jobId}?wait=`, `/stream/{jobId}`, `/cancel/{jobId}`, `/retry/{jobId}`, `/purge-queue` and
 * `/health`. `{endpoint_id}` is the caller's queue-based endpoint or a public model. Load-balancing endpoints
 * have no job queue: `/run` and `/runsync` answer 400; they take HTTP requests at their `requestUrls`
 * instead, `base` (`/lb/{endpoint_id}`: the echo app) and `health` (`/lb/{endpoint_id}/ping`).
 */
import { z } from "zod";
import type { Core, Route, RouteContext } from "../core";
import type { JobTarget } from "../jobs";
import { ENDPOINT_FACTS } from "../facts";
import { ProblemError, issueList } from "../problem";
import { json } from "../reply";

/** Input of the public image models (spec: only prompt, width, height are shown; 1024 is the default size). */
const imageInputSchema = z
  .object({
    prompt: z.string().trim().min(1).max(10_000),
    width: z.number().int().min(256).max(2048).optional(),
    height: z.number().int().min(256).max(2048).optional(),
    fail: z.boolean().optional(),
  })
  .passthrough();

const bodySchema = z.object({ input: z.record(z.unknown()) }).passthrough();

/** Bounds of the job policy (the platform's docs: executionTimeout at least 5 s, ttl from 10 s to a week). */
export const POLICY_MS = { executionTimeout: { min: 5000, max: 604_800_000 }, ttl: { min: 10_000, max: 604_800_000 } } as const;

const policyMs = (field: keyof typeof POLICY_MS) =>
  z
    .number({ invalid_type_error: `must be an integer number of milliseconds from ${POLICY_MS[field].min} to ${POLICY_MS[field].max}` })
    .int(`must be an integer number of milliseconds from ${POLICY_MS[field].min} to ${POLICY_MS[field].max}`)
    .min(POLICY_MS[field].min, `must be an integer number of milliseconds from ${POLICY_MS[field].min} to ${POLICY_MS[field].max}`)
    .max(POLICY_MS[field].max, `must be an integer number of milliseconds from ${POLICY_MS[field].min} to ${POLICY_MS[field].max}`)
    .optional();

/** `policy` of a job: its execution timeout, its TTL and whether it may make the scaler start workers. */
const policySchema = z
  .object({
    executionTimeout: policyMs("executionTimeout"),
    ttl: policyMs("ttl"),
    lowPriority: z.boolean({ invalid_type_error: "must be true or false" }).optional(),
  })
  .passthrough();

/** Longest `input.executionMs` the echo handler accepts (1 hour). */
const EXECUTION_MS_MAX = 3_600_000;

/** `wait` of `/runsync` and `/status-sync`: milliseconds, 1000–300000, default 90000 (platform-clients.md). */
export const WAIT_MS = { min: 1000, max: 300_000, default: 90_000 } as const;

function waitParam(url: URL): number {
  const raw = url.searchParams.get("wait");
  if (raw === null) return WAIT_MS.default;
  const wait = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(wait >= WAIT_MS.min && wait <= WAIT_MS.max)) {
    throw new ProblemError(400, "The wait parameter is invalid.", [`wait: must be an integer number of milliseconds from ${WAIT_MS.min} to ${WAIT_MS.max}`]);
  }
  return wait;
}

function resolveTarget(core: Core, userId: string, endpointId: string): JobTarget {
  const model = core.seed.publicEndpoints.find((m) => m.id === endpointId);
  if (model) return { kind: "model", model };
  const endpoint = core.platform.ownedEndpoint(userId, endpointId);
  return { kind: "endpoint", endpointId: endpoint.id, executionTimeoutMs: endpoint.executionTimeoutMs ?? ENDPOINT_FACTS.executionTimeoutMs.default };
}

function submit(ctx: RouteContext, sync: boolean) {
  const { core, principal, params } = ctx;
  const target = resolveTarget(core, principal.user.id, params.endpointId);
  if (target.kind === "endpoint" && core.store.getEndpoint(target.endpointId)!.type === "LB") {
    throw new ProblemError(
      400,
      `Endpoint "${target.endpointId}" is a load-balancing (LB) endpoint; it has no job queue. Send HTTP requests to its workers instead of /run or /runsync.`,
    );
  }
  const body = bodySchema.safeParse(ctx.body);
  if (!body.success) throw new ProblemError(400, "The request body must be an object with an 'input' object.", issueList(body.error));
  const policy = body.data.policy === undefined ? undefined : policySchema.safeParse(body.data.policy);
  if (policy && !policy.success)
    throw new ProblemError(
      400,
      "The job policy is invalid.",
      issueList(policy.error, "policy").map((e) => (e.startsWith("policy") ? e : `policy.${e}`)),
    );
  let input = body.data.input;
  const executionMs = input.executionMs;
  if (
    target.kind === "endpoint" &&
    executionMs !== undefined &&
    !(typeof executionMs === "number" && Number.isInteger(executionMs) && executionMs >= 1 && executionMs <= EXECUTION_MS_MAX)
  ) {
    throw new ProblemError(400, "The input is invalid.", [
      `input.executionMs: must be an integer number of milliseconds from 1 to ${EXECUTION_MS_MAX} (how long the echo handler runs)`,
    ]);
  }
  if (target.kind === "model") {
    const parsed = imageInputSchema.safeParse(input);
    if (!parsed.success)
      throw new ProblemError(
        400,
        `The input is invalid for model "${target.model.id}".`,
        issueList(parsed.error).map((e) => `input.${e}`),
      );
    input = parsed.data;
  }
  const { executionTimeout, ttl, lowPriority } = policy?.data ?? {};
  const given = Object.entries({ executionTimeout, ttl, lowPriority }).filter(([, v]) => v !== undefined);
  return core.jobs.submit(principal.user.id, target, input, sync, Object.fromEntries(given));
}

function findJob(ctx: RouteContext) {
  const { core, principal, params } = ctx;
  resolveTarget(core, principal.user.id, params.endpointId);
  return stillThere(ctx, params.jobId);
}

/** The caller's job `jobId` on the route's endpoint, or 404 (never existed, another user's, or gone: TTL, retention, purge). */
function stillThere(ctx: RouteContext, jobId: string) {
  const { core, principal, params } = ctx;
  const job = core.jobs.find(principal.user.id, params.endpointId, jobId);
  if (!job) throw new ProblemError(404, `Job "${jobId}" not found on endpoint "${params.endpointId}" (${core.jobs.retentionNote()}).`);
  return job;
}

const base = { style: "rest", auth: "bearer" } as const;

/** The caller's load-balancing endpoint `endpointId` and its READY workers (404 for another's or a queue-based one). */
function lbEndpoint(ctx: RouteContext) {
  const { core, principal, params } = ctx;
  const endpoint = core.platform.ownedEndpoint(principal.user.id, params.endpointId);
  if (endpoint.type !== "LB") throw new ProblemError(404, `Endpoint "${endpoint.id}" is queue-based; it takes jobs at /v2/${endpoint.id}/run.`);
  return { endpoint, ready: core.workers.list(endpoint.id).filter((w) => w.status === "READY") };
}

export const inferenceRoutes: Route[] = [
  {
    ...base,
    method: "POST",
    path: "/inference/v2/:endpointId/run",
    classify: { operations: ["run"], scope: "write" },
    handle(ctx) {
      const job = submit(ctx, false);
      return json({ id: job.id, status: "IN_QUEUE" });
    },
  },
  {
    ...base,
    method: "POST",
    path: "/inference/v2/:endpointId/runsync",
    classify: { operations: ["runsync"], scope: "write" },
    async handle(ctx) {
      const wait = waitParam(ctx.url);
      const job = submit(ctx, true);
      await ctx.core.jobs.waitUntilDone(job, wait);
      return json(ctx.core.jobs.view(stillThere(ctx, job.id)));
    },
  },
  {
    ...base,
    method: "GET",
    path: "/inference/v2/:endpointId/status-sync/:jobId",
    classify: { operations: ["statusSync"], scope: "read" },
    async handle(ctx) {
      const wait = waitParam(ctx.url);
      const job = findJob(ctx);
      await ctx.core.jobs.waitUntilDone(job, wait);
      return json(ctx.core.jobs.view(stillThere(ctx, job.id)));
    },
  },
  {
    ...base,
    method: "GET",
    path: "/inference/v2/:endpointId/stream/:jobId",
    classify: { operations: ["stream"], scope: "read" },
    handle: (ctx) => json(ctx.core.jobs.stream(findJob(ctx))),
  },
  {
    ...base,
    method: "POST",
    path: "/inference/v2/:endpointId/retry/:jobId",
    classify: { operations: ["retry"], scope: "write" },
    handle(ctx) {
      const job = findJob(ctx);
      const target = resolveTarget(ctx.core, ctx.principal.user.id, ctx.params.endpointId);
      const retried = ctx.core.jobs.retry(job, target);
      if (!retried) {
        const status = ctx.core.jobs.view(job).status;
        throw new ProblemError(400, `Job "${job.id}" is ${status}; only FAILED or TIMED_OUT jobs can be retried.`);
      }
      return json(retried);
    },
  },
  {
    ...base,
    method: "POST",
    path: "/inference/v2/:endpointId/purge-queue",
    classify: { operations: ["purgeQueue"], scope: "write" },
    handle(ctx) {
      const { core, principal, params } = ctx;
      resolveTarget(core, principal.user.id, params.endpointId);
      return json({ removed: core.jobs.purgeQueue(principal.user.id, params.endpointId), status: "completed" });
    },
  },
  {
    ...base,
    method: "GET",
    path: "/inference/v2/:endpointId/status/:jobId",
    classify: { operations: ["jobStatus"], scope: "read" },
    handle: (ctx) => json(ctx.core.jobs.view(findJob(ctx))),
  },
  {
    ...base,
    method: "POST",
    path: "/inference/v2/:endpointId/cancel/:jobId",
    classify: { operations: ["cancel"], scope: "write" },
    handle: (ctx) => json(ctx.core.jobs.cancel(findJob(ctx))),
  },
  {
    ...base,
    method: "GET",
    path: "/inference/v2/:endpointId/health",
    classify: { operations: ["health"], scope: "read" },
    handle(ctx) {
      const { core, principal, params } = ctx;
      const target = resolveTarget(core, principal.user.id, params.endpointId);
      // Field names as runpod-sdk's HealthCheck type reads them; `running` = workers with jobs, `idle` = READY ones without.
      const workers =
        target.kind === "model"
          ? { idle: 1, initializing: 0, ready: 1, running: 0, throttled: 0, unhealthy: 0 }
          : (() => {
              const list = core.workers.list(target.endpointId);
              const ready = list.filter((w) => w.status === "READY");
              return {
                idle: ready.filter((w) => w.jobs.size === 0).length,
                initializing: list.filter((w) => w.status === "INITIALIZING").length,
                ready: ready.length,
                running: list.filter((w) => w.jobs.size > 0).length,
                throttled: 0,
                unhealthy: list.filter((w) => w.status === "UNHEALTHY").length,
              };
            })();
      return json({ jobs: core.jobs.health(principal.user.id, params.endpointId), workers });
    },
  },
  {
    ...base,
    method: "GET",
    path: "/inference/lb/:endpointId/ping",
    classify: { operations: ["lbPing"], scope: "read" },
    // A load balancer's health check: 200 once a worker is ready, 204 while none is (initializing).
    handle: (ctx) => (lbEndpoint(ctx).ready.length > 0 ? json({ status: "healthy" }) : { kind: "body", status: 204 }),
  },
  {
    ...base,
    method: "POST",
    path: "/inference/lb/:endpointId",
    classify: { operations: ["lbRequest"], scope: "write" },
    // The workers' app echoes the request body, as the queue's handler echoes a job's input.
    handle(ctx) {
      const { endpoint, ready } = lbEndpoint(ctx);
      if (ready.length === 0) throw new ProblemError(503, `No worker of endpoint "${endpoint.id}" is ready to take the request.`);
      return json({ echo: ctx.body ?? null });
    },
  },
  {
    method: "GET",
    path: "/inference/images/:file",
    style: "rest",
    auth: "none",
    classify: { operations: ["image"], scope: "read" },
    handle({ params, core }) {
      const match = /^(.+)\.png$/.exec(params.file);
      const job = match && core.store.getJob(match[1]);
      if (!job || core.jobs.view(core.jobs.latest(job)).status !== "COMPLETED") {
        throw new ProblemError(404, `Image "${params.file}" not found.`);
      }
      return { kind: "body", status: 200, body: PNG_1X1, contentType: "image/png" };
    },
  },
];

/** A 1×1 PNG: the emulator does not render images, it proves the URL resolves. */
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
