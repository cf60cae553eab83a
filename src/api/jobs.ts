/**
 * Job interface of serverless and public model endpoints (spec: Endpoints › POST
 * {inference_url}/v2/{endpoint_id}/run and /runsync). Status polling uses
 * `GET {inference_url}/v2/{endpoint_id}/status/{job_id}` as the platform's official SDKs do
 * (the spec marks its path and shape "not shown").
 */
import { z } from "zod";
import { idArgument } from "./arguments";
import type { ClientConfig } from "./config";
import { AbortedError, InvalidArgumentError, TimeoutError } from "./errors";
import { joinUrl } from "./http";
import { composite, httpOperation, operationTable, perform, type HttpRequestSpec } from "./operation";
import { poll } from "./poll";
import { jobSchema, type Job, type JobStatus } from "./schemas";
import { MAX_TIMER_MS } from "./timers";
import type { JobEndpoint } from "./requestUrls";

export { loadBalancerUrls, type JobEndpoint } from "./requestUrls";

/** Statuses after which a job no longer changes. */
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"];

/** Default poll interval of `waitForJob`, in milliseconds. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/** Default overall limit of `waitForJob`, in milliseconds. */
export const DEFAULT_JOB_TIMEOUT_MS = 10 * 60_000;

/** Options of `waitForJob` (and the polling part of `runSync`). */
export interface WaitForJobOptions {
  /** Pause between status polls, in milliseconds (default 1000). */
  pollIntervalMs?: number;
  /** Overall limit in milliseconds (default 10 minutes); for `runSync` also the request timeout. */
  timeoutMs?: number;
  /** Called with every status seen. */
  onStatus?: (job: Job) => void;
  /** Stops waiting (AbortedError). */
  signal?: AbortSignal;
}

/** `{inferenceUrl}/v2/{endpointId}/` — where an endpoint takes jobs. */
export function jobUrl(config: Pick<ClientConfig, "inferenceUrl">, endpointId: string): string {
  return `${joinUrl(config.inferenceUrl, "v2", endpointId)}/`;
}

const JOB_ID = "{job_id}";
/** An address the platform gave: http(s) only, so a record can never point the key at another scheme. */
const requestUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL");
const endpointArgument = z
  .union([idArgument("endpointId"), z.object({ id: idArgument("endpointId"), requestUrls: z.record(requestUrl).nullish() }).passthrough()])
  .describe("endpointId");

const ROUTE_PATHS = { run: "run", runSync: "runsync", status: "status", cancel: "cancel" } as const;

/**
 * Where a job request goes: the endpoint's own `requestUrls[route]` when it has it (`{job_id}` filled in,
 * encoded), else `{inferenceUrl}/v2/{id}/<route>[/{jobId}]`.
 */
function jobRoute(endpoint: JobEndpoint, route: keyof typeof ROUTE_PATHS, jobId?: string): Pick<HttpRequestSpec, "base" | "path" | "url"> {
  const id = typeof endpoint === "string" ? endpoint : endpoint.id;
  const path = ["v2", id, ROUTE_PATHS[route], ...(jobId === undefined ? [] : [jobId])];
  const given = typeof endpoint === "string" ? undefined : endpoint.requestUrls?.[route];
  if (!given || (jobId !== undefined && !given.includes(JOB_ID))) return { base: "inferenceUrl", path };
  return { base: "inferenceUrl", path, url: jobId === undefined ? given : given.split(JOB_ID).join(encodeURIComponent(jobId)) };
}

/** A job submission (`run`, `runsync`): `POST` `{ input }`, never repeated after an unknown outcome (it would queue a second job). */
function submitJob(route: "run" | "runSync") {
  return httpOperation({
    name: route,
    args: z.tuple([endpointArgument, z.unknown()]),
    request: (endpoint: JobEndpoint, input) => ({ method: "POST" as const, ...jobRoute(endpoint, route), body: { input } }),
    response: jobSchema,
    result: (job): Job => job,
    idempotent: false,
  });
}

/** A request about one job (`status`, `cancel`): a repeat has no second effect, so it is retried. */
function jobRequest(method: "GET" | "POST", route: "status" | "cancel") {
  return httpOperation({
    args: z.tuple([endpointArgument, idArgument("jobId")]),
    request: (endpoint: JobEndpoint, jobId: string) => ({ method, ...jobRoute(endpoint, route, jobId) }),
    response: jobSchema,
    result: (job): Job => job,
    idempotent: true,
  });
}

/** `POST …/runsync`: the request of `runSync`, which polls after it when the job is not done yet. */
const runSyncRequest = submitJob("runSync");

export const jobOperations = operationTable({
  /**
   * Queues a job: `POST {inferenceUrl}/v2/{endpointId}/run` with body `{ input }`.
   * Not repeated after a 5xx, timeout or dropped connection (it would queue a second job): the
   * error carries `outcomeUnknown: true`.
   *
   * @param endpoint endpoint or public model endpoint id, or an endpoint with its `requestUrls` (sent to `run`).
   * @param input handler- or model-specific object (image model: `{ prompt, width, height }`).
   * @returns the job, normally `{ id, status: "IN_QUEUE" }`.
   * @throws InvalidArgumentError, AuthenticationError, PermissionError, NotFoundError,
   *   RateLimitError, ServerError, NetworkError, TimeoutError, ResponseValidationError.
   */
  run: submitJob("run"),

  /**
   * Status of a job: `GET {inferenceUrl}/v2/{endpointId}/status/{jobId}` (or the endpoint's `requestUrls.status`). Safe, so retried.
   * @returns `{ id, status, output?, error? }`.
   * @throws InvalidArgumentError, NotFoundError (unknown endpoint or job), and the errors of `run`.
   */
  jobStatus: jobRequest("GET", "status"),

  /**
   * Cancels a job: `POST {inferenceUrl}/v2/{endpointId}/cancel/{jobId}` (or the endpoint's
   * `requestUrls.cancel`): a queued job is removed before it starts, a running one stopped. A repeat
   * has no second effect, so it is retried.
   * @returns the job as it is then, normally `{ id, status: "CANCELLED" }`.
   * @throws the errors of `jobStatus`.
   */
  cancelJob: jobRequest("POST", "cancel"),

  /**
   * A load-balancing endpoint's health check: `GET` its `requestUrls.health` (the workers' `/ping`).
   * @returns true when it answers with a body (200: a worker is ready), false for an empty answer (204: initializing).
   * @throws the errors of `jobStatus`.
   */
  loadBalancerHealth: httpOperation({
    args: z.tuple([requestUrl.describe("health")]),
    request: (url: string) => ({ method: "GET" as const, base: "inferenceUrl" as const, path: [], url }),
    response: z.unknown(),
    result: (answer): boolean => answer !== undefined,
    idempotent: true,
  }),

  /**
   * A request to a load-balancing endpoint's workers: `POST` its `requestUrls.base` with `body` as JSON.
   * Not repeated after an unknown outcome (the app may act on it twice).
   * @returns the app's JSON answer (undefined when empty).
   * @throws the errors of `run`.
   */
  loadBalancerRequest: httpOperation({
    args: z.tuple([requestUrl.describe("base"), z.unknown()]),
    request: (url: string, body: unknown) => ({ method: "POST" as const, base: "inferenceUrl" as const, path: [], url, body }),
    response: z.unknown(),
    idempotent: false,
  }),

  /**
   * Polls `jobStatus` until the job reaches a terminal status (COMPLETED, FAILED, CANCELLED or TIMED_OUT).
   *
   * @param options.pollIntervalMs pause between polls (ms, default 1000);
   *   options.timeoutMs overall limit (ms, default 10 min); options.onStatus is called with every
   *   polled job; options.signal stops waiting.
   * @returns the job in COMPLETED, FAILED, CANCELLED or TIMED_OUT — a failed job is returned, not thrown.
   * @throws TimeoutError (outcomeUnknown false: the job exists, only the wait ended) when the limit
   *   passes, AbortedError when the signal fires, and the errors of `jobStatus`.
   */
  waitForJob: composite((ctx) => async (endpointId: JobEndpoint, jobId: string, options: WaitForJobOptions = {}): Promise<Job> => {
    const operation = "waitForJob";
    const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const timeoutMs = options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
    // Timers hold at most MAX_TIMER_MS; a longer delay would fire after 1 ms.
    if (!(pollIntervalMs >= 0 && pollIntervalMs <= MAX_TIMER_MS)) {
      throw new InvalidArgumentError(
        `${operation}: pollIntervalMs must be a number of milliseconds from 0 to ${MAX_TIMER_MS}, got ${pollIntervalMs}`,
        "pollIntervalMs",
        { operation },
      );
    }
    if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
      throw new InvalidArgumentError(`${operation}: timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${timeoutMs}`, "timeoutMs", {
        operation,
      });
    }
    const status = async () => {
      const job = await perform(ctx, jobOperations.jobStatus, [endpointId, jobId], { signal: options.signal });
      options.onStatus?.(job);
      return job;
    };
    // A status request has its own timeout: one in flight at the deadline is waited for, and its status named.
    const waited = await poll(status, (job) => TERMINAL_JOB_STATUSES.includes(job.status), {
      timeoutMs,
      intervalMs: pollIntervalMs,
      finishProbe: true,
      signal: options.signal,
      aborted: () => new AbortedError(`${operation}: aborted by the caller`, { operation }),
    });
    if (waited.met) return waited.value;
    throw new TimeoutError(`${operation}: job ${jobId} still ${waited.value?.status ?? "unanswered"} after ${timeoutMs} ms`, timeoutMs, {
      operation,
      outcomeUnknown: false,
    });
  }),

  /**
   * Runs a job and waits for it: `POST {inferenceUrl}/v2/{endpointId}/runsync` with `{ input }`.
   * If the platform answers before the job ends (it returns the job still queued or in progress),
   * the job is polled with `waitForJob`. Not repeated after an unknown outcome.
   *
   * @param options.timeoutMs limit for the runsync request and for any polling (ms; default: the
   *   client's timeout for the request, 10 min for polling).
   * @returns the finished job; `output` holds the result (image model: `output.image_url`).
   * @throws the errors of `run` and `waitForJob`.
   */
  runSync: composite((ctx) => async (endpointId: JobEndpoint, input: unknown, options: WaitForJobOptions = {}): Promise<Job> => {
    const job = await perform(ctx, runSyncRequest, [endpointId, input], { timeoutMs: options.timeoutMs, signal: options.signal });
    options.onStatus?.(job);
    if (TERMINAL_JOB_STATUSES.includes(job.status)) return job;
    return jobOperations.waitForJob.build(ctx)(endpointId, job.id, options);
  }),
});
