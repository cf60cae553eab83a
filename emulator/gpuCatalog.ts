/**
 * GPU type records for `gpuTypes` (spec: ids; docs/spec/platform-clients.md: the price fields runpod-python selects).
 * Seeded per-GPU hourly prices; the term and spot prices are derived from them by fixed factors (emulator choice).
 */
import type { SeedGpuType } from "./seed";

/** Discounts of longer commitments and the spot share, relative to the on-demand secure price. */
const FACTORS = { oneWeek: 0.97, oneMonth: 0.92, threeMonth: 0.87, spot: 0.5 } as const;

const usd = (v: number | null): number | null => (v === null ? null : Math.round(v * 1000) / 1000);

/** A GPU type as `gpuTypes` answers it; `lowestPrice` takes the `gpuCount` argument (null beyond `maxGpuCount`). */
export function gpuTypeRecord(g: SeedGpuType) {
  const lowest = g.communityPrice === null ? g.securePrice : g.securePrice === null ? g.communityPrice : Math.min(g.securePrice, g.communityPrice);
  const secureSpotPrice = usd(g.securePrice === null ? null : g.securePrice * FACTORS.spot);
  const communitySpotPrice = usd(g.communityPrice === null ? null : g.communityPrice * FACTORS.spot);
  return {
    id: g.id,
    displayName: g.displayName,
    memoryInGb: g.memoryInGb,
    manufacturer: g.manufacturer,
    cudaCores: g.cudaCores,
    maxGpuCount: g.maxGpuCount,
    secureCloud: g.securePrice !== null,
    communityCloud: g.communityPrice !== null,
    securePrice: g.securePrice,
    communityPrice: g.communityPrice,
    oneWeekPrice: usd(g.securePrice === null ? null : g.securePrice * FACTORS.oneWeek),
    oneMonthPrice: usd(g.securePrice === null ? null : g.securePrice * FACTORS.oneMonth),
    threeMonthPrice: usd(g.securePrice === null ? null : g.securePrice * FACTORS.threeMonth),
    secureSpotPrice,
    communitySpotPrice,
    /** USD per GPU-hour for `gpuCount` GPUs: the cheapest interruptible bid and on-demand price. */
    lowestPrice: ({ input }: { input?: { gpuCount?: number | null } | null }) => {
      const count = input?.gpuCount ?? 1;
      if (count < 1 || count > g.maxGpuCount) return null;
      const spots = [secureSpotPrice, communitySpotPrice].filter((p): p is number => p !== null);
      return { gpuCount: count, minimumBidPrice: spots.length > 0 ? Math.min(...spots) : null, uninterruptablePrice: lowest };
    },
  };
}
