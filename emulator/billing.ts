/**
 * Billing from what the simulated workers did (REST v2 `listServerlessBilling`, `listEndpointBilling`;
 * docs/spec/rest-v2-openapi.json, ServerlessBillingRecord, BillingBucketSize, parameters BillingStartTime …
 * BillingLastN). Every worker is metered from its creation to its stop at its endpoint's rate (per-GPU pool price
 * × GPU count, or per-vCPU flavor price × vCPU count); a bucket's amount is the overlap of each metered interval
 * with the bucket times the rate. Public model jobs are charged their output `cost` when they finish. Network
 * volumes (`listNetworkVolumeBilling`) are metered from creation to deletion at size × their tier's price per GB
 * per month (facts.ts), spread over the hours of the month; a resize starts a new interval at the new size. Times
 * come from the billing clock (clock.ts). The ledger lives in memory: it does not survive a restart.
 *
 * Pods (`listPodBilling`): a pod is metered at its hourly rate from each start (its create included: the GPU or
 * CPU is held while it provisions) to the next stop or delete; a stopped pod costs nothing (its `cost` is 0).
 */
import type { Clock } from "./clock";
import { HOURS_PER_MONTH, VOLUME_PRICE_PER_GB_MONTH, type VolumeType } from "./facts";

export const BUCKET_SIZES = ["hour", "day", "week", "month", "year"] as const;
export type BucketSize = (typeof BUCKET_SIZES)[number];

/** Rate of one worker, USD per hour, split as the record splits it. */
export interface WorkerRate {
  gpuPerHour: number;
  cpuPerHour: number;
}

interface Interval extends WorkerRate {
  userId: string;
  endpointId: string;
  workerId: string;
  startMs: number;
  stopMs?: number;
}

/** One stretch of a network volume at one size. */
interface VolumeInterval {
  userId: string;
  volumeId: string;
  type: VolumeType;
  sizeGb: number;
  startMs: number;
  stopMs?: number;
}

interface PodInterval extends WorkerRate {
  userId: string;
  podId: string;
  startMs: number;
  stopMs?: number;
}

/** A cluster, metered as a whole (GPU only: "Clusters are GPU-only, so no CPU cost component is returned"). */
interface ClusterInterval {
  userId: string;
  clusterId: string;
  gpuPerHour: number;
  startMs: number;
  stopMs?: number;
}

interface Charge {
  userId: string;
  endpointId: string;
  atMs: number;
  amount: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Amounts keep 10 decimals: exact enough that N × T × price survives, free of float noise. */
const usd = (v: number): number => Math.round(v * 1e10) / 1e10;

/** Start of the bucket holding `t` (UTC; weeks start on Monday). */
export function bucketFloor(t: number, size: BucketSize): number {
  const d = new Date(t);
  switch (size) {
    case "hour":
      return Math.floor(t / HOUR_MS) * HOUR_MS;
    case "day":
      return Math.floor(t / DAY_MS) * DAY_MS;
    case "week": {
      const day = Math.floor(t / DAY_MS) * DAY_MS;
      return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
    }
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case "year":
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

/** Start of the bucket after the one starting at `start`. */
export function bucketNext(start: number, size: BucketSize): number {
  const d = new Date(start);
  switch (size) {
    case "hour":
      return start + HOUR_MS;
    case "day":
      return start + DAY_MS;
    case "week":
      return start + 7 * DAY_MS;
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case "year":
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

export interface BillingWindow {
  startMs: number;
  endMs: number;
  bucketSize: BucketSize;
}

/** The most buckets one answer spans; a wider window is refused (400). */
export const MAX_BUCKETS = 10_000;

export class BillingError extends Error {}

/**
 * Resolve the query window as the document describes: `startTime` snapped down and `endTime` snapped up to bucket
 * boundaries (defaults: 30 days ago and now), or `lastN` buckets ending with the current one; not both.
 */
export function resolveWindow(query: URLSearchParams, now: number): BillingWindow {
  const sizeText = query.get("bucketSize") ?? "day";
  if (!(BUCKET_SIZES as readonly string[]).includes(sizeText)) {
    throw new BillingError(`bucketSize: must be one of ${BUCKET_SIZES.join(", ")}; got "${sizeText}"`);
  }
  const bucketSize = sizeText as BucketSize;
  const time = (name: string): number | undefined => {
    const text = query.get(name);
    if (text === null) return undefined;
    const ms = Date.parse(text);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(ms)) throw new BillingError(`${name}: must be an RFC 3339 date-time; got "${text}"`);
    return ms;
  };
  const start = time("startTime");
  const end = time("endTime");
  const lastNText = query.get("lastN");
  let window: BillingWindow;
  if (lastNText !== null) {
    if (start !== undefined || end !== undefined) throw new BillingError("lastN is mutually exclusive with startTime/endTime; give one or the other.");
    const n = Number(lastNText);
    if (!/^\d+$/.test(lastNText) || n < 1) throw new BillingError(`lastN: must be an integer of at least 1; got "${lastNText}"`);
    if (n > MAX_BUCKETS) throw new BillingError(`lastN: at most ${MAX_BUCKETS} buckets per answer; got ${n}`);
    let startMs = bucketFloor(now, bucketSize);
    const endMs = bucketNext(startMs, bucketSize);
    for (let i = 1; i < n; i++) startMs = bucketFloor(startMs - 1, bucketSize);
    window = { startMs, endMs, bucketSize };
  } else {
    const startMs = bucketFloor(start ?? now - 30 * DAY_MS, bucketSize);
    const endAt = end ?? now;
    const floored = bucketFloor(endAt, bucketSize);
    const endMs = floored === endAt ? endAt : bucketNext(floored, bucketSize);
    if (endMs <= startMs) throw new BillingError("endTime must be after startTime.");
    window = { startMs, endMs, bucketSize };
  }
  let count = 0;
  for (let t = window.startMs; t < window.endMs; t = bucketNext(t, bucketSize)) {
    if (++count > MAX_BUCKETS) throw new BillingError(`The window spans more than ${MAX_BUCKETS} ${bucketSize} buckets; narrow it or use a larger bucketSize.`);
  }
  return window;
}

export interface ServerlessAmounts {
  totalAmount: number;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
  feeAmount: number;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

export class Billing {
  private intervals = new Map<string, Interval>();
  private charges: Charge[] = [];
  private podIntervals: PodInterval[] = [];
  private volumes: VolumeInterval[] = [];
  private clusterIntervals: ClusterInterval[] = [];

  constructor(private clock: Clock) {}

  /** A worker started: meter it from now at `rate`. */
  workerStarted(userId: string, endpointId: string, workerId: string, rate: WorkerRate): void {
    this.intervals.set(workerId, { userId, endpointId, workerId, startMs: this.clock.now(), ...rate });
  }

  /** A worker stopped: close its interval. */
  workerStopped(workerId: string): void {
    const interval = this.intervals.get(workerId);
    if (interval && interval.stopMs === undefined) interval.stopMs = this.clock.now();
  }

  /** A pod started (created or started again): meter it from now at `rate` until {@link podStopped}. */
  podStarted(userId: string, podId: string, rate: WorkerRate): void {
    this.podStopped(podId);
    this.podIntervals.push({ userId, podId, startMs: this.clock.now(), ...rate });
  }

  /** A pod stopped or was deleted: close its open interval, if any. */
  podStopped(podId: string): void {
    for (const i of this.podIntervals) if (i.podId === podId && i.stopMs === undefined) i.stopMs = this.clock.now();
  }

  /** `GET /v2/billing/pods`: records per pod per bucket with a nonzero amount, oldest bucket first. */
  pods(userId: string, window: BillingWindow, podId?: string) {
    const now = this.clock.now();
    const mine = this.podIntervals.filter((i) => i.userId === userId && (podId === undefined || i.podId === podId));
    const pods = [...new Set(mine.map((i) => i.podId))];
    const records: (PodAmounts & { startTime: string; endTime: string; podId: string })[] = [];
    for (let b = window.startMs; b < window.endMs; b = bucketNext(b, window.bucketSize)) {
      const e = bucketNext(b, window.bucketSize);
      for (const id of pods) {
        let gpu = 0;
        let cpu = 0;
        for (const i of mine) {
          if (i.podId !== id) continue;
          const ms = Math.max(0, Math.min(e, i.stopMs ?? now) - Math.max(b, i.startMs));
          gpu += (ms / HOUR_MS) * i.gpuPerHour;
          cpu += (ms / HOUR_MS) * i.cpuPerHour;
        }
        if (gpu + cpu <= 0) continue;
        records.push({ startTime: iso(b), endTime: iso(e), podId: id, ...podAmounts(gpu, cpu) });
      }
    }
    const totals = records.reduce((t, r) => podAmounts(t.gpuAmount + r.gpuAmount, t.cpuAmount + r.cpuAmount), podAmounts(0, 0));
    return {
      records,
      metadata: {
        query: { startTime: iso(window.startMs), endTime: iso(window.endMs), bucketSize: window.bucketSize, podId: podId ?? null },
        recordCount: records.length,
        uniquePodCount: new Set(records.map((r) => r.podId)).size,
        totals,
      },
    };
  }

  /** A cluster was created: meter it from now at `gpuPerHour` (all its pods' GPUs). */
  clusterStarted(userId: string, clusterId: string, gpuPerHour: number): void {
    this.clusterIntervals.push({ userId, clusterId, gpuPerHour, startMs: this.clock.now() });
  }

  /** A cluster was deleted. */
  clusterStopped(clusterId: string): void {
    for (const i of this.clusterIntervals) if (i.clusterId === clusterId && i.stopMs === undefined) i.stopMs = this.clock.now();
  }

  /** `GET /v2/billing/clusters`: records per cluster per bucket with a nonzero amount, oldest bucket first. */
  clusters(userId: string, window: BillingWindow, clusterId?: string) {
    const now = this.clock.now();
    const mine = this.clusterIntervals.filter((i) => i.userId === userId && (clusterId === undefined || i.clusterId === clusterId));
    const ids = [...new Set(mine.map((i) => i.clusterId))];
    const records: (ClusterAmounts & { startTime: string; endTime: string; clusterId: string })[] = [];
    for (let b = window.startMs; b < window.endMs; b = bucketNext(b, window.bucketSize)) {
      const e = bucketNext(b, window.bucketSize);
      for (const id of ids) {
        let gpu = 0;
        for (const i of mine) {
          if (i.clusterId !== id) continue;
          gpu += (Math.max(0, Math.min(e, i.stopMs ?? now) - Math.max(b, i.startMs)) / HOUR_MS) * i.gpuPerHour;
        }
        if (gpu <= 0) continue;
        records.push({ startTime: iso(b), endTime: iso(e), clusterId: id, ...clusterAmounts(gpu) });
      }
    }
    const totals = records.reduce((t, r) => clusterAmounts(t.gpuAmount + r.gpuAmount), clusterAmounts(0));
    return {
      records,
      metadata: {
        query: { startTime: iso(window.startMs), endTime: iso(window.endMs), bucketSize: window.bucketSize, clusterId: clusterId ?? null },
        recordCount: records.length,
        uniqueClusterCount: new Set(records.map((r) => r.clusterId)).size,
        totals,
      },
    };
  }

  /** `GET /v2/billing`: every resource's spend per bucket (buckets with a nonzero total), from the per-kind answers. */
  all(userId: string, window: BillingWindow) {
    const parts = {
      pods: this.pods(userId, window).records,
      serverless: this.serverless(userId, window).records,
      volumes: this.networkVolumes(userId, window).records,
      endpoints: this.publicEndpoints(userId, window).records,
      clusters: this.clusters(userId, window).records,
    };
    const records: (AllAmounts & { startTime: string; endTime: string })[] = [];
    for (let b = window.startMs; b < window.endMs; b = bucketNext(b, window.bucketSize)) {
      const start = iso(b);
      const inBucket = <T extends { startTime: string }>(rs: T[]) => rs.filter((r) => r.startTime === start);
      const sum = <T>(rs: T[], f: (r: T) => number) => rs.reduce((t, r) => t + f(r), 0);
      const p = inBucket(parts.pods);
      const sv = inBucket(parts.serverless);
      const v = inBucket(parts.volumes);
      const c = inBucket(parts.clusters);
      const a = allAmounts({
        podGpuAmount: sum(p, (r) => r.gpuAmount),
        podCpuAmount: sum(p, (r) => r.cpuAmount),
        podDiskAmount: sum(p, (r) => r.diskAmount),
        serverlessGpuAmount: sum(sv, (r) => r.gpuAmount),
        serverlessCpuAmount: sum(sv, (r) => r.cpuAmount),
        serverlessDiskAmount: sum(sv, (r) => r.diskAmount),
        serverlessFeeAmount: sum(sv, (r) => r.feeAmount),
        storageStandardAmount: sum(v, (r) => r.standardAmount),
        storageHighPerformanceAmount: sum(v, (r) => r.highPerformanceAmount),
        endpointAmount: sum(inBucket(parts.endpoints), (r) => r.totalAmount),
        clusterGpuAmount: sum(c, (r) => r.gpuAmount),
        clusterDiskAmount: sum(c, (r) => r.diskAmount),
        clusterNetworkingAmount: sum(c, (r) => r.networkingAmount),
      });
      if (a.totalAmount > 0) records.push({ startTime: start, endTime: iso(bucketNext(b, window.bucketSize)), ...a });
    }
    const keys = Object.keys(allAmounts({})) as (keyof AllAmounts)[];
    const totals = allAmounts(Object.fromEntries(keys.filter((k) => k !== "totalAmount").map((k) => [k, records.reduce((t, r) => t + r[k], 0)])));
    return {
      records,
      metadata: { query: { startTime: iso(window.startMs), endTime: iso(window.endMs), bucketSize: window.bucketSize }, recordCount: records.length, totals },
    };
  }

  /** A public model job finished with this cost (USD). */
  charge(userId: string, endpointId: string, amount: number, atMs = this.clock.now()): void {
    if (amount > 0) this.charges.push({ userId, endpointId, atMs, amount });
  }

  /** A network volume was created or resized (`sizeGb`), or deleted (undefined): close its open interval, open the next. */
  volumeChanged(userId: string, volumeId: string, type: VolumeType, sizeGb: number | undefined): void {
    const now = this.clock.now();
    for (const v of this.volumes) if (v.volumeId === volumeId && v.stopMs === undefined) v.stopMs = now;
    if (sizeGb !== undefined) this.volumes.push({ userId, volumeId, type, sizeGb, startMs: now });
  }

  /** `GET /v2/billing/network-volumes`: records per volume per bucket with a nonzero amount, oldest bucket first. */
  networkVolumes(userId: string, window: BillingWindow, networkVolumeId?: string) {
    const now = this.clock.now();
    const mine = this.volumes.filter((v) => v.userId === userId && (networkVolumeId === undefined || v.volumeId === networkVolumeId));
    const ids = [...new Set(mine.map((v) => v.volumeId))];
    const records: (VolumeAmounts & { startTime: string; endTime: string; networkVolumeId: string })[] = [];
    for (let b = window.startMs; b < window.endMs; b = bucketNext(b, window.bucketSize)) {
      const e = bucketNext(b, window.bucketSize);
      for (const volumeId of ids) {
        const spent = { STANDARD: 0, HIGH_PERFORMANCE: 0 };
        for (const v of mine) {
          if (v.volumeId !== volumeId) continue;
          const ms = Math.max(0, Math.min(e, v.stopMs ?? now) - Math.max(b, v.startMs));
          spent[v.type] += (ms / HOUR_MS / HOURS_PER_MONTH) * v.sizeGb * VOLUME_PRICE_PER_GB_MONTH[v.type];
        }
        if (spent.STANDARD + spent.HIGH_PERFORMANCE <= 0) continue;
        records.push({ startTime: iso(b), endTime: iso(e), networkVolumeId: volumeId, ...volumeAmounts(spent.STANDARD, spent.HIGH_PERFORMANCE) });
      }
    }
    const totals = records.reduce(
      (t, r) => volumeAmounts(t.standardAmount + r.standardAmount, t.highPerformanceAmount + r.highPerformanceAmount),
      volumeAmounts(0, 0),
    );
    return {
      records,
      metadata: {
        query: { startTime: iso(window.startMs), endTime: iso(window.endMs), bucketSize: window.bucketSize, networkVolumeId: networkVolumeId ?? null },
        recordCount: records.length,
        uniqueNetworkVolumeCount: new Set(records.map((r) => r.networkVolumeId)).size,
        totals,
      },
    };
  }

  /** `GET /v2/billing/serverless`: records per endpoint per bucket with a nonzero amount, oldest bucket first. */
  serverless(userId: string, window: BillingWindow, serverlessId?: string) {
    const now = this.clock.now();
    const mine = [...this.intervals.values()].filter((i) => i.userId === userId && (serverlessId === undefined || i.endpointId === serverlessId));
    const endpoints = [...new Set(mine.map((i) => i.endpointId))];
    const records: (ServerlessAmounts & { startTime: string; endTime: string; serverlessId: string })[] = [];
    for (let b = window.startMs; b < window.endMs; b = bucketNext(b, window.bucketSize)) {
      const e = bucketNext(b, window.bucketSize);
      for (const endpointId of endpoints) {
        let gpu = 0;
        let cpu = 0;
        for (const i of mine) {
          if (i.endpointId !== endpointId) continue;
          const ms = Math.max(0, Math.min(e, i.stopMs ?? now) - Math.max(b, i.startMs));
          gpu += (ms / HOUR_MS) * i.gpuPerHour;
          cpu += (ms / HOUR_MS) * i.cpuPerHour;
        }
        if (gpu + cpu <= 0) continue;
        records.push({ startTime: iso(b), endTime: iso(e), serverlessId: endpointId, ...amounts(gpu, cpu) });
      }
    }
    const totals = records.reduce((t, r) => amounts(t.gpuAmount + r.gpuAmount, t.cpuAmount + r.cpuAmount), amounts(0, 0));
    return {
      records,
      metadata: {
        query: { startTime: iso(window.startMs), endTime: iso(window.endMs), bucketSize: window.bucketSize, serverlessId: serverlessId ?? null },
        recordCount: records.length,
        uniqueServerlessCount: new Set(records.map((r) => r.serverlessId)).size,
        totals,
      },
    };
  }

  /** `GET /v2/billing/endpoints`: public model endpoint spend per bucket with a nonzero amount. */
  publicEndpoints(userId: string, window: BillingWindow) {
    const records: { startTime: string; endTime: string; totalAmount: number }[] = [];
    for (let b = window.startMs; b < window.endMs; b = bucketNext(b, window.bucketSize)) {
      const e = bucketNext(b, window.bucketSize);
      const total = this.charges.filter((c) => c.userId === userId && c.atMs >= b && c.atMs < e).reduce((s, c) => s + c.amount, 0);
      if (total > 0) records.push({ startTime: iso(b), endTime: iso(e), totalAmount: usd(total) });
    }
    return {
      records,
      metadata: {
        query: { startTime: iso(window.startMs), endTime: iso(window.endMs), bucketSize: window.bucketSize },
        recordCount: records.length,
        totals: { totalAmount: usd(records.reduce((s, r) => s + r.totalAmount, 0)) },
      },
    };
  }
}

export interface PodAmounts {
  totalAmount: number;
  gpuAmount: number;
  cpuAmount: number;
  diskAmount: number;
}

function podAmounts(gpu: number, cpu: number): PodAmounts {
  return { totalAmount: usd(gpu + cpu), gpuAmount: usd(gpu), cpuAmount: usd(cpu), diskAmount: 0 };
}

function amounts(gpu: number, cpu: number): ServerlessAmounts {
  return { totalAmount: usd(gpu + cpu), gpuAmount: usd(gpu), cpuAmount: usd(cpu), diskAmount: 0, feeAmount: 0 };
}

export interface VolumeAmounts {
  totalAmount: number;
  standardAmount: number;
  highPerformanceAmount: number;
}

function volumeAmounts(standard: number, highPerformance: number): VolumeAmounts {
  return { totalAmount: usd(standard + highPerformance), standardAmount: usd(standard), highPerformanceAmount: usd(highPerformance) };
}

export interface ClusterAmounts {
  totalAmount: number;
  gpuAmount: number;
  diskAmount: number;
  networkingAmount: number;
}

function clusterAmounts(gpu: number): ClusterAmounts {
  return { totalAmount: usd(gpu), gpuAmount: usd(gpu), diskAmount: 0, networkingAmount: 0 };
}

/** `BillingAmounts`: every component, prefixed by resource. */
export interface AllAmounts {
  totalAmount: number;
  podGpuAmount: number;
  podCpuAmount: number;
  podDiskAmount: number;
  serverlessGpuAmount: number;
  serverlessCpuAmount: number;
  serverlessDiskAmount: number;
  serverlessFeeAmount: number;
  storageStandardAmount: number;
  storageHighPerformanceAmount: number;
  endpointAmount: number;
  clusterGpuAmount: number;
  clusterDiskAmount: number;
  clusterNetworkingAmount: number;
}

function allAmounts(parts: Partial<Omit<AllAmounts, "totalAmount">>): AllAmounts {
  const a = {
    podGpuAmount: 0,
    podCpuAmount: 0,
    podDiskAmount: 0,
    serverlessGpuAmount: 0,
    serverlessCpuAmount: 0,
    serverlessDiskAmount: 0,
    serverlessFeeAmount: 0,
    storageStandardAmount: 0,
    storageHighPerformanceAmount: 0,
    endpointAmount: 0,
    clusterGpuAmount: 0,
    clusterDiskAmount: 0,
    clusterNetworkingAmount: 0,
    ...parts,
  };
  const rounded = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, usd(v)])) as Omit<AllAmounts, "totalAmount">;
  return { totalAmount: usd(Object.values(rounded).reduce((t, v) => t + v, 0)), ...rounded };
}
