/**
 * A network volume's monthly storage cost (docs/networkVolume.md): `size` GB × its tier's list price per GB
 * and month. The REST v2 catalog says which tiers a data center offers (`networkVolumeTypes`, the first being
 * its primary tier) but prices no storage, and neither does the document: the prices are the platform's
 * published ones, stated here.
 */
import { roundUsd } from "../catalog/cost";
import type { VolumeTypeName } from "./model";

/** USD per GB per month, by tier. */
export const VOLUME_PRICE_PER_GB_MONTH: Readonly<Record<VolumeTypeName, number>> = { STANDARD: 0.07, HIGH_PERFORMANCE: 0.14 };

/** USD per month of `sizeGb` GB of `type` storage. */
export function monthlyStorageCost(sizeGb: number, type: VolumeTypeName): number {
  return roundUsd(sizeGb * VOLUME_PRICE_PER_GB_MONTH[type]);
}
