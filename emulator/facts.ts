/**
 * The platform's facts as the emulator states them: value sets read from the spec (docs/spec/platform-api.md)
 * and the defaults and bounds the emulator chose where the spec is silent (emulator/README.md, "Spec gaps").
 * Written here on their own, not taken from the client's copy, so that a test comparing either with the spec
 * can fail (tests/conformance/emulatorFacts.test.ts compares these with the spec's own tables).
 */

/**
 * Endpoint fields with closed value sets, bounds and defaults (spec: Resources › Serverless endpoint).
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
