/**
 * Settings of the provider rather than of the endpoint: the optional readiness wait (issue #7). The
 * platform neither takes nor reports them, so they are never sent, never compared by `diff` (a change
 * to them alone updates nothing) and are carried from the stored state by `read`.
 */

/** Names of the provider-only `Endpoint` arguments. */
export const ENDPOINT_SETTING_FIELDS = ["waitForWorkers", "workersReadyTimeout"] as const;
export type EndpointSettingField = (typeof ENDPOINT_SETTING_FIELDS)[number];

export interface EndpointSettings {
  /** After create and update, wait until `workersMin` workers report ready. */
  waitForWorkers: boolean;
  /** Longest readiness wait, in seconds. */
  workersReadyTimeout: number;
}

/** Smallest and largest `workersReadyTimeout` accepted, in seconds. */
export const WORKERS_READY_TIMEOUT_MIN = 1;
export const WORKERS_READY_TIMEOUT_MAX = 3600;

/** Defaults: no wait; up to 10 minutes when waiting. */
export const ENDPOINT_SETTING_DEFAULTS: Readonly<EndpointSettings> = Object.freeze({
  waitForWorkers: false,
  workersReadyTimeout: 600,
});

/**
 * The settings held by checked inputs or stored outputs; a missing or malformed value (state written
 * before these settings existed, an imported endpoint) takes its default.
 */
export function settingsFrom(source: { waitForWorkers?: unknown; workersReadyTimeout?: unknown } | undefined): EndpointSettings {
  const wait = source?.waitForWorkers;
  const timeout = source?.workersReadyTimeout;
  return {
    waitForWorkers: typeof wait === "boolean" ? wait : ENDPOINT_SETTING_DEFAULTS.waitForWorkers,
    workersReadyTimeout:
      typeof timeout === "number" && Number.isFinite(timeout) ? timeout : ENDPOINT_SETTING_DEFAULTS.workersReadyTimeout,
  };
}
