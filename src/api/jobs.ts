/**
 * Job interface of serverless and public model endpoints (spec: Endpoints › POST
 * {inference_url}/v2/{endpoint_id}/run and /runsync). Status polling uses
 * `GET {inference_url}/v2/{endpoint_id}/status/{job_id}` as the platform's official SDKs do
 * (the spec marks its path and shape "not shown").
 */
import { requireNonEmpty } from "./arguments";
import { callWithRetry, type ClientContext } from "./context";
import { AbortedError, InvalidArgumentError, TimeoutError } from "./errors";
import { joinUrl, requestParsed } from "./http";
import { sleep } from "./ratelimit";
import { jobSchema } from "./schemas";
import type { Job, JobStatus, WaitForJobOptions } from "./types";

/** Statuses after which a job no longer changes. */
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"];

/** Default poll interval of {@link waitForJob}, in milliseconds. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/** Default overall limit of {@link waitForJob}, in milliseconds. */
export const DEFAULT_JOB_TIMEOUT_MS = 10 * 60_000;

/** `{inferenceUrl}/v2/{endpointId}` followed by `rest` (each segment encoded). */
export function jobUrl(ctx: ClientContext, endpointId: string, ...rest: string[]): string {
  return joinUrl(ctx.config.inferenceUrl, "v2", endpointId, ...rest);
}

/**
 * Queues a job: `POST {inferenceUrl}/v2/{endpointId}/run` with body `{ input }`.
 * Not repeated after a 5xx, timeout or dropped connection (it would queue a second job): the
 * error carries `outcomeUnknown: true`.
 *
 * @param endpointId endpoint or public model endpoint id.
 * @param input handler- or model-specific object (image model: `{ prompt, width, height }`).
 * @returns the job, normally `{ id, status: "IN_QUEUE" }`.
 * @throws InvalidArgumentError, AuthenticationError, PermissionError, NotFoundError,
 *   RateLimitError, ServerError, NetworkError, TimeoutError, ResponseValidationError.
 */
export async function run(ctx: ClientContext, endpointId: string, input: unknown): Promise<Job> {
  const operation = "run";
  requireNonEmpty(endpointId, "endpointId", operation);
  const url = jobUrl(ctx, endpointId, "run");
  return callWithRetry(ctx, operation, false, () => requestParsed(ctx.transport, { method: "POST", url, body: { input }, operation }, jobSchema));
}

/**
 * Status of a job: `GET {inferenceUrl}/v2/{endpointId}/status/{jobId}`. Safe, so retried.
 * @returns `{ id, status, output?, error? }`.
 * @throws InvalidArgumentError, NotFoundError (unknown endpoint or job), and the errors of {@link run}.
 */
export async function jobStatus(ctx: ClientContext, endpointId: string, jobId: string, signal?: AbortSignal): Promise<Job> {
  const operation = "jobStatus";
  requireNonEmpty(endpointId, "endpointId", operation);
  requireNonEmpty(jobId, "jobId", operation);
  const url = jobUrl(ctx, endpointId, "status", jobId);
  return callWithRetry(ctx, operation, true, () => requestParsed(ctx.transport, { method: "GET", url, operation, signal }, jobSchema), signal);
}

/**
 * Polls {@link jobStatus} until the job reaches a terminal status.
 *
 * @param options.pollIntervalMs pause between polls (ms, default 1000);
 *   options.timeoutMs overall limit (ms, default 10 min); options.onStatus is called with every
 *   polled job; options.signal stops waiting.
 * @returns the job in COMPLETED, FAILED, CANCELLED or TIMED_OUT — a failed job is returned, not thrown.
 * @throws TimeoutError (outcomeUnknown false: the job exists, only the wait ended) when the limit
 *   passes, AbortedError when the signal fires, and the errors of {@link jobStatus}.
 */
export async function waitForJob(ctx: ClientContext, endpointId: string, jobId: string, options: WaitForJobOptions = {}): Promise<Job> {
  const operation = "waitForJob";
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  if (!Number.isFinite(pollIntervalMs) || pollIntervalMs < 0) {
    throw new InvalidArgumentError(`${operation}: pollIntervalMs must be a non-negative number of milliseconds`, "pollIntervalMs", { operation });
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new InvalidArgumentError(`${operation}: timeoutMs must be a positive number of milliseconds`, "timeoutMs", { operation });
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (options.signal?.aborted) throw new AbortedError(`${operation}: aborted by the caller`, { operation });
    const job = await jobStatus(ctx, endpointId, jobId, options.signal);
    options.onStatus?.(job);
    if (TERMINAL_JOB_STATUSES.includes(job.status)) return job;
    if (Date.now() + pollIntervalMs > deadline) {
      throw new TimeoutError(`${operation}: job ${jobId} still ${job.status} after ${timeoutMs} ms`, timeoutMs, { operation, outcomeUnknown: false });
    }
    await sleep(pollIntervalMs, options.signal);
  }
}

/**
 * Runs a job and waits for it: `POST {inferenceUrl}/v2/{endpointId}/runsync` with `{ input }`.
 * If the platform answers before the job ends (it returns the job still queued or in progress),
 * the job is polled with {@link waitForJob}. Not repeated after an unknown outcome.
 *
 * @param options.timeoutMs limit for the runsync request and for any polling (ms; default: the
 *   client's timeout for the request, 10 min for polling).
 * @returns the finished job; `output` holds the result (image model: `output.image_url`).
 * @throws the errors of {@link run} and {@link waitForJob}.
 */
export async function runSync(ctx: ClientContext, endpointId: string, input: unknown, options: WaitForJobOptions = {}): Promise<Job> {
  const operation = "runSync";
  requireNonEmpty(endpointId, "endpointId", operation);
  const url = jobUrl(ctx, endpointId, "runsync");
  const request = { method: "POST", url, body: { input }, operation, timeoutMs: options.timeoutMs, signal: options.signal } as const;
  const job = await callWithRetry(ctx, operation, false, () => requestParsed(ctx.transport, request, jobSchema), options.signal);
  options.onStatus?.(job);
  if (TERMINAL_JOB_STATUSES.includes(job.status)) return job;
  return waitForJob(ctx, endpointId, job.id, options);
}
