/**
 * The platform's facts as the emulator states them: value sets read from the spec (docs/spec/platform-api.md)
 * and the defaults and bounds the emulator chose where the spec is silent (emulator/README.md, "Spec gaps").
 * Written here on their own, not taken from the client's copy, so that a test comparing either with the spec
 * can fail (tests/conformance/emulatorFacts.test.ts compares these with the spec's own tables).
 */

/**
 * Endpoint fields with closed value sets, bounds and defaults (spec: Resources › Serverless endpoint), as GraphQL and
 * REST v1 apply them. REST v2 applies only the bounds its document states (emulator/v2/schemas.ts).
 * `values` are the accepted values; `gpuIds` and `locations` are comma-separated lists of them on the wire.
 * `min`/`max` are inclusive integer bounds; `default` is what an omitted (or null) field becomes.
 */
export const ENDPOINT_FACTS = {
  gpuIds: { values: ["AMPERE_16", "AMPERE_24", "ADA_24", "AMPERE_48", "ADA_48_PRO", "AMPERE_80", "ADA_80_PRO"] },
  /** null or empty = any region. */
  locations: { values: ["CZ", "FR", "GB", "NO", "RO", "US"], default: null },
  type: { values: ["QB", "LB"], default: "QB" },
  scalerType: { values: ["QUEUE_DELAY", "REQUEST_COUNT"], default: "QUEUE_DELAY" },
  /** A GraphQL enum (the spec shows it unquoted). */
  fastBootType: { values: ["FASTBOOT"], default: null },
  /** Seconds. */
  idleTimeout: { min: 0, max: 3600, default: 5 },
  scalerValue: { min: 1, max: 3600, default: 4 },
  workersMin: { min: 0, max: 100, default: 0 },
  workersMax: { min: 0, max: 100, default: 3 },
  networkVolumeId: { default: null },
  /** GPUs per worker (platform-clients.md; bounds: emulator choice). */
  gpuCount: { min: 1, max: 8, default: 1 },
  /** CUDA versions a worker's host may run; comma-separated list, null or "" = any (platform-clients.md; value set: emulator choice). */
  allowedCudaVersions: { values: ["11.8", "12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.7", "12.8"], default: null },
  /** Lowest CUDA version a worker's host may run; one of `allowedCudaVersions.values`, null or "" = any. */
  minCudaVersion: { default: null },
  /** Milliseconds a job may run (platform-clients.md; bounds: emulator choice, 5 s to 7 days; default 600 s). */
  executionTimeoutMs: { min: 5000, max: 604_800_000, default: 600_000 },
  /** Warm standby workers the platform keeps (read back by the clients; emulator: settable, no workers started). */
  workersStandby: { min: 0, max: 100, default: 0 },
} as const;

/**
 * Endpoint fields only REST v2 writes (docs/spec/rest-v2-openapi.json › CreateEndpointRequest), apart from
 * ENDPOINT_FACTS, whose every defaulted field the GraphQL saveEndpoint fills in.
 */
export const ENDPOINT_V2_FACTS = {
  /** `flashboot` (› FlashBoot); GraphQL's `fastBootType` FASTBOOT reads as FLASHBOOT. */
  flashboot: { values: ["OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"], default: "OFF" },
  /** `gpu.excludedTypes`: none by default. */
  excludedGpuTypes: { default: [] },
  /** `dataCenterIds`: empty = any data center. */
  dataCenterIds: { default: [] },
  /** `networkVolumes` of two or more (one reads as `networkVolumeId`): none by default. */
  networkVolumeIds: { default: [] },
  /** `disk` (› BaseContainerConfig), GB: at least 1; no default of its own (the template's, else the platform's). */
  containerDiskInGb: { min: 1 },
  /** `cpu[].vcpuCount` (› BaseCpuConfig): a power of two, at least 2; the flavor's own range bounds it (catalog.ts). */
  vcpuCount: { min: 2 },
} as const;

/** Worker log stream (spec: Resources › Log event; Endpoints › GET …/logs; Limits): sources and the `tail` bounds. */
export const LOG_FACTS = { sources: ["container", "system"], tail: { min: 0, max: 5000, default: 100 } } as const;

/** Rate-limit windows, in the order `RateLimit` and `RateLimit-Policy` list them (spec: Errors, Limits). */
export const RATE_LIMIT_WINDOWS = ["minute", "hour", "day"] as const;

export type GpuTier = (typeof ENDPOINT_FACTS.gpuIds.values)[number];
export type Location = (typeof ENDPOINT_FACTS.locations.values)[number];
export type EndpointType = (typeof ENDPOINT_FACTS.type.values)[number];
export type ScalerType = (typeof ENDPOINT_FACTS.scalerType.values)[number];
export type FastBootType = (typeof ENDPOINT_FACTS.fastBootType.values)[number];
export type LogSource = (typeof LOG_FACTS.sources)[number];
export type RateLimitWindow = (typeof RATE_LIMIT_WINDOWS)[number];

/**
 * Template fields as GraphQL's `saveTemplate` applies them (REST v2 follows its document: v2/resources.ts)
 * (spec: Common GraphQL input fields; operations from docs/spec/platform-clients.md). Bounds are the
 * emulator's choice (the spec shows none): `containerDiskInGb` 1–1024 GB, `volumeInGb` 0–4096 GB. `default` is what an
 * omitted (or null) field becomes on create, and on modify under `replace` save semantics.
 */
export const TEMPLATE_FACTS = {
  /** GB. */
  containerDiskInGb: { min: 1, max: 1024, default: 10 },
  /** GB; 0 = no persistent volume. */
  volumeInGb: { min: 0, max: 4096, default: 0 },
  /** Absolute path, or "" = none. */
  volumeMountPath: { default: "/workspace" },
  dockerArgs: { default: "" },
  /** `port/protocol` items, comma separated; "" = none. */
  ports: { protocols: ["http", "tcp"], minPort: 1, maxPort: 65535, default: "" },
  /** Environment variable names: a letter or `_`, then letters, digits or `_`. */
  env: { keyPattern: /^[A-Za-z_][A-Za-z0-9_]*$/, default: [] as { key: string; value: string }[] },
  readme: { default: "" },
  /** null or "" = the image is public. */
  containerRegistryAuthId: { default: null },
  startSsh: { default: true },
  isPublic: { default: false },
  /** Fixed at creation (a pod template cannot become serverless, nor the reverse). */
  isServerless: { default: false },
  /** Length bounds of `name` (characters, after trimming). */
  name: { maxLength: 255 },
} as const;

/** Registry credentials (platform-clients.md): names unique per user on GraphQL (REST v2 states no such rule); the password is write-only. */
export const REGISTRY_AUTH_FACTS = { name: { maxLength: 255 } } as const;

/** REST v2 catalog stock levels (docs/spec/rest-v2-openapi.json, AvailabilityLevel), lowest first. */
export const AVAILABILITY_LEVELS = ["NONE", "LOW", "MEDIUM", "HIGH"] as const;
export type AvailabilityLevel = (typeof AVAILABILITY_LEVELS)[number];

/** Network volume storage tiers (docs/spec/rest-v2-openapi.json, VolumeType). */
export const VOLUME_TYPES = ["STANDARD", "HIGH_PERFORMANCE"] as const;
export type VolumeType = (typeof VOLUME_TYPES)[number];

/**
 * Network volume storage price, USD per GB per month, by tier. Neither the REST v2 document nor its catalog
 * states one: these are the platform's published list prices (billing.ts meters volumes at them).
 */
export const VOLUME_PRICE_PER_GB_MONTH: Readonly<Record<VolumeType, number>> = { STANDARD: 0.07, HIGH_PERFORMANCE: 0.14 };
/** Hours in the billing month the per-GB price is quoted for (365 × 24 / 12). */
export const HOURS_PER_MONTH = 730;
