/**
 * Value sets fixed by the platform API specification (`shared/spec/platform-api.md`).
 * Shared by the api client, the provider's input validation and the emulator so all three agree.
 */
import type { FlashBoot, TemplateCategory } from "./generated/types.gen";

/** GPU tiers accepted in `gpuIds` (spec: Resources › Serverless endpoint). */
export const GPU_TIERS = ["AMPERE_16", "AMPERE_24", "ADA_24", "AMPERE_48", "ADA_48_PRO", "AMPERE_80", "ADA_80_PRO"] as const;
export type GpuTier = (typeof GPU_TIERS)[number];

/** Region codes accepted in `locations`; empty or null means any region (spec: Resources › Serverless endpoint). */
export const LOCATIONS = ["CZ", "FR", "GB", "NO", "RO", "US"] as const;
export type Location = (typeof LOCATIONS)[number];

/** Endpoint types: `QB` queue-based (default), `LB` load balancing (spec: What the service does › Serverless endpoints). */
export const ENDPOINT_TYPES = ["QB", "LB"] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

/** Autoscaling strategies for `scalerType`. */
export const SCALER_TYPES = ["QUEUE_DELAY", "REQUEST_COUNT"] as const;
export type ScalerType = (typeof SCALER_TYPES)[number];

/** Values of the GraphQL enum `fastBootType`. */
export const FAST_BOOT_TYPES = ["FASTBOOT"] as const;
export type FastBootType = (typeof FAST_BOOT_TYPES)[number];

/**
 * REST v2 FlashBoot modes: the vendored document's `FlashBoot` enum (docs/spec/rest-v2-openapi.json),
 * typed by the generated shape; a literal rather than the generated zod enum, since a program loading the
 * package loads no zod (tests/api/specEnums.test.ts keeps it equal to the document's).
 */
export const FLASHBOOT_MODES = ["OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"] as const satisfies readonly FlashBoot[];
export type FlashbootMode = (typeof FLASHBOOT_MODES)[number];

/** REST v2 template categories: the document's `TemplateCategory` enum, in its order (tests/api/specEnums.test.ts). */
export const TEMPLATE_CATEGORIES = ["CPU", "NVIDIA", "AMD"] as const satisfies readonly TemplateCategory[];
export type TemplateCategoryName = (typeof TEMPLATE_CATEGORIES)[number];

/**
 * A CUDA version as the REST v2 document writes `gpu.minCudaVersion` on create (CreateEndpointGpuConfig:
 * `major.minor`, compared numerically, so 12.11 is above 12.2); tests/api/specEnums.test.ts keeps it equal to the document's pattern.
 */
export const CUDA_VERSION_PATTERN = /^\d+\.\d+$/;

/** Worker log sources (spec: Resources › Log event). */
export const LOG_SOURCES = ["container", "system"] as const;
export type LogSource = (typeof LOG_SOURCES)[number];

/** Bounds of the log stream's `tail` query parameter (spec: Limits). */
export const TAIL_MIN = 0;
export const TAIL_MAX = 5000;
export const TAIL_DEFAULT = 100;

/** Rate-limit windows named by `RateLimit` / `RateLimit-Policy` (spec: Errors). */
export const RATE_LIMIT_WINDOWS = ["minute", "hour", "day"] as const;
export type RateLimitWindow = (typeof RATE_LIMIT_WINDOWS)[number];
