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
  DEFAULT_RATE_LIMIT_DEADLINE_MS,
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
export { TERMINAL_JOB_STATUSES, DEFAULT_POLL_INTERVAL_MS, DEFAULT_JOB_TIMEOUT_MS, type JobEndpoint } from "./jobs";
export { waitForWorkers, isWorkerReady, WorkersNotReadyError, type WaitForWorkersOptions } from "./readiness";
// Named one by one, so a new internal export never joins the public surface unnoticed (api report: etc/).
export type {
  PlatformClient,
  ClientConfig,
  RetryPolicy,
  ClientStats,
  WaitForJobOptions,
  LogEvent,
  LogStreamOptions,
  RateLimitState,
  RateLimitWindowState,
  EndpointIdentity,
  EndpointRecord,
  GpuType,
  Job,
  JobStatus,
  Myself,
  NetworkVolume,
  RestCreateEndpointInput,
  SaveEndpointInput,
  ServerlessDiscount,
  Worker,
  TemplateRecord,
  SaveTemplateInput,
  RegistryAuthRecord,
  SaveRegistryAuthInput,
  UpdateRegistryAuthInput,
  EndpointTemplateInput,
} from "./types";
export {
  GPU_TIERS,
  LOCATIONS,
  ENDPOINT_TYPES,
  SCALER_TYPES,
  FAST_BOOT_TYPES,
  LOG_SOURCES,
  TAIL_MIN,
  TAIL_MAX,
  TAIL_DEFAULT,
  RATE_LIMIT_WINDOWS,
  type GpuTier,
  type Location,
  type EndpointType,
  type ScalerType,
  type FastBootType,
  type LogSource,
  type RateLimitWindow,
} from "./spec";
/** REST v2 shapes, generated from the platform's OpenAPI document: `V2.Endpoint`, `V2.CreateEndpointRequest`, … */
export type * as V2 from "./v2/types";
export { REQUEST_ID_HEADERS } from "./http";
