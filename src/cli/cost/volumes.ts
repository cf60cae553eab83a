/**
 * The `cost` report's network volumes (pure): each NetworkVolume of the stack with its monthly storage
 * cost (the `monthlyCost` preview computes; docs/networkVolume.md) and, with a spend window, what it was
 * billed per bucket (REST v2 `listNetworkVolumeBilling`).
 */
import type { V2 } from "../../api";
import { money, round, spendIn, tableLines } from "./amounts";

/** The part of the report's spend window the volumes use (report.ts `SpendWindow`). */
interface Window {
  bucketSize: string;
  /** Start of each bucket of the window, in order. */
  buckets: string[];
}

/** One NetworkVolume of the stack, from the preview or the state. */
export interface VolumeEstimate {
  /** Pulumi resource name. */
  resource: string;
  /** Platform id; undefined for a volume the preview would create. */
  networkVolumeId?: string;
  name?: string;
  /** GB. */
  size: number | null;
  type: string | null;
  /** USD per month. */
  monthlyCost: number | null;
}

export type VolumeBillingRecord = V2.NetworkVolumeBillingRecord;

export interface VolumeCost extends VolumeEstimate {
  spend?: { totalAmount: number; records: VolumeBillingRecord[]; perBucket: number[] };
}

/** The volumes with their spend in `spend`'s window (records of other volumes are ignored). */
export function volumeCosts(estimates: readonly VolumeEstimate[], spend?: { window: Window; records: readonly VolumeBillingRecord[] }): VolumeCost[] {
  return estimates.map((v) => {
    if (!spend) return { ...v };
    const records = v.networkVolumeId ? spend.records.filter((r) => r.networkVolumeId === v.networkVolumeId) : [];
    return { ...v, spend: spendIn(records, spend.window.buckets) };
  });
}

/** The total monthly storage cost and, with a window, the total billed. */
export function volumeTotals(volumes: readonly VolumeCost[]): { monthlyCost: number; spend?: number } {
  const monthlyCost = round(volumes.reduce((s, v) => s + (v.monthlyCost ?? 0), 0));
  const billed = volumes.some((v) => v.spend) ? round(volumes.reduce((s, v) => s + (v.spend?.totalAmount ?? 0), 0)) : undefined;
  return billed === undefined ? { monthlyCost } : { monthlyCost, spend: billed };
}

/** The volumes' table for the terminal: resource, id, size and tier, USD per month, and the spend with its sparkline. */
export function renderVolumesText(
  volumes: readonly VolumeCost[],
  window: Window | undefined,
  bold: (s: string) => string,
  sparkline: (v: readonly number[]) => string,
): string[] {
  if (volumes.length === 0) return [];
  const headers = ["VOLUME", "ID", "SIZE", "$/MONTH", ...(window ? ["SPENT", `PER ${window.bucketSize.toUpperCase()}`] : [])];
  const rows = volumes.map((v) => [
    v.resource,
    v.networkVolumeId ?? "(new)",
    v.size === null ? "-" : `${v.size} GB ${v.type ?? ""}`.trim(),
    money(v.monthlyCost),
    ...(window ? [money(v.spend?.totalAmount), sparkline(v.spend?.perBucket ?? [])] : []),
  ]);
  const totals = volumeTotals(volumes);
  rows.push(["total", "", "", money(totals.monthlyCost), ...(window ? [money(totals.spend), ""] : [])]);
  const out = ["", ...tableLines(headers, rows, bold), "network volume storage, USD per month at list prices (docs/networkVolume.md)"];
  if (window) out.push(`spent: per ${window.bucketSize} (listNetworkVolumeBilling)`);
  return out;
}
