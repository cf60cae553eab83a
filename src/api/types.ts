/**
 * The api client's contract: record shapes (derived from the schemas that mirror the spec's tables,
 * schemas.ts), options, and the client surface. {@link PlatformClient}'s operation methods are derived
 * from the operation declarations (clientOperations.ts); the provider, CLI and benchmark use only this surface.
 */
import type { ClientConfig } from "./config";
import type { ClientStats } from "./http";
import type { ClientOperations, V2ClientOperations } from "./clientOperations";
import type { RateLimitState } from "./ratelimit";

export type { ClientConfig, RetryPolicy } from "./config";
export type { V2ClientOperations } from "./clientOperations";
export type { ClientStats } from "./http";
export type { WaitForJobOptions } from "./jobs";
export type { LogEvent, LogStreamOptions } from "./logs";
export type { RateLimitState, RateLimitWindowState } from "./ratelimit";
export type {
  EndpointIdentity,
  EndpointRecord,
  GpuType,
  Job,
  JobStatus,
  Myself,
  RestCreateEndpointInput,
  SaveEndpointInput,
  ServerlessDiscount,
  TemplateRecord,
  SaveTemplateInput,
  RegistryAuthRecord,
  SaveRegistryAuthInput,
  UpdateRegistryAuthInput,
  EndpointTemplateInput,
} from "./schemas";
/** The REST v2 document's records of the two reads named outside `client.v2` (`listNetworkVolumes`, `listWorkers`). */
export type { NetworkVolume, Worker } from "./v2/types";

/** The whole client surface: one method per declared operation, plus the client's own state. */
export interface PlatformClient extends ClientOperations {
  readonly config: Readonly<Omit<ClientConfig, "apiKey">>;
  /** Latest `RateLimit` figures seen on any REST response, per window. */
  readonly rateLimit: RateLimitState;
  /** Request, retry and pacing counters of this client. */
  readonly stats: Readonly<ClientStats>;
  /** `{inferenceUrl}/v2/{id}/` */
  jobUrl(endpointId: string): string;
  /**
   * The REST v2 operations (docs/spec/rest-v2-openapi.json), named by the document's operationIds:
   * `client.v2.createEndpoint(...)`. Shapes are the `V2` types; see docs/api-paths.md "REST v2 client".
   */
  readonly v2: V2ClientOperations;
}
