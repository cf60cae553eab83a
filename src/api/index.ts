/**
 * Public surface of the platform API client (`pulumi-runpod/api`).
 * The provider, CLI and benchmark use only what is exported here.
 */
export { createClient, createClientFromEnv } from "./client";
export {
  resolveClientConfig,
  DEFAULT_URLS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_RETRY,
  ENV_VARS,
  PULUMI_CONFIG_KEYS,
  MAX_TIMER_MS,
  isLoopbackHost,
  type ClientConfigInput,
} from "./config";
export {
  PlatformError,
  ConfigurationError,
  InvalidArgumentError,
  ApiHttpError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  RateLimitError,
  ServerError,
  GraphQLRequestError,
  ResponseValidationError,
  NetworkError,
  TimeoutError,
  AbortedError,
  type ProblemDetails,
  type GraphQLErrorEntry,
} from "./errors";
export { createRedactor, REDACTED, type Redactor } from "./redact";
export { parseRateLimitHeaders, parseRetryAfter } from "./ratelimit";
export { isRetryable } from "./retry";
export { validateLogStreamOptions, DEFAULT_LOG_IDLE_MS } from "./logs";
export { isRfc3339DateTime, isPlatformId } from "./arguments";
export { TERMINAL_JOB_STATUSES, DEFAULT_POLL_INTERVAL_MS, DEFAULT_JOB_TIMEOUT_MS } from "./jobs";
export { waitForWorkers, isWorkerReady, WorkersNotReadyError, type WaitForWorkersOptions } from "./readiness";
export * from "./types";
/** REST v2 shapes, generated from the platform's OpenAPI document: `V2.Endpoint`, `V2.CreateEndpointRequest`, … */
export type * as V2 from "./v2/types";
export { REQUEST_ID_HEADERS } from "./http";
export * from "./spec";
