/**
 * The provider's defaults for endpoint fields the user leaves unset — the single place they are defined.
 *
 * They are the values the platform itself assigns (the emulator mirrors them, see
 * notes/emulator-contract.md), so that inputs completed by `check` and the platform's answer agree and a
 * field the user never set does not show a perpetual diff. Spec: Resources › Serverless endpoint
 * (`type` defaults to `QB`; the other defaults are "not shown" there and follow the platform's behaviour).
 */
import type { EndpointType, ScalerType } from "../api/spec";

export const ENDPOINT_DEFAULTS = {
  type: "QB" as EndpointType,
  /** Seconds. */
  idleTimeout: 5,
  /** Empty = any region. */
  locations: [] as string[],
  /** No fast boot. */
  fastBootType: null,
  scalerType: "QUEUE_DELAY" as ScalerType,
  scalerValue: 4,
  workersMin: 0,
  /** Raised to `workersMin` when that is larger, so a lone `workersMin: 5` stays valid. */
  workersMax: 3,
  networkVolumeId: null,
} as const;

/** Default `workersMax` for a given `workersMin`: the platform default, or `workersMin` when larger. */
export function defaultWorkersMax(workersMin: number): number {
  return Math.max(ENDPOINT_DEFAULTS.workersMax, workersMin);
}
