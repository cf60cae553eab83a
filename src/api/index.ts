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
  MAX_TIMER_MS,
  isLoopbackHost,
  type ClientConfigInput,
  type SettingName,
  type SettingNames,
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
  composeApiMessage,
  explainError,
  type FrontEndHints,
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
export * from "./spec";
