/**
 * The `cost` report's pods (pure): each Pod of the stack with its hourly cost (the `costPerHour` preview
 * computes from the catalog, or the platform's as deployed: 0 while stopped; docs/pod.md) and, with a spend
 * window, what it was billed per bucket (REST v2 `listPodBilling`). A running pod costs its rate whether busy or
 * not, so it counts toward both the busy and the idle totals.
 */
import type { V2 } from "../../api";
import { money, round, spendIn, tableLines } from "./amounts";

/** The part of the report's spend window the pods use (report.ts `SpendWindow`). */
interface Window {
  bucketSize: string;
  /** Start of each bucket of the window, in order. */
  buckets: string[];
}

/** One Pod of the stack, from the preview or the state. */
export interface PodEstimate {
  /** Pulumi resource name. */
  resource: string;
  /** Platform id; undefined for a pod the preview would create. */
  podId?: string;
  name?: string;
  /** `RUNNING` or `EXITED` as declared. */
  desiredStatus: string | null;
  /** USD per hour. */
  costPerHour: number | null;
}

export type PodBillingRecord = V2.PodBillingRecord;

export interface PodCost extends PodEstimate {
  spend?: { totalAmount: number; records: PodBillingRecord[]; perBucket: number[] };
}

/** The pods with their spend in `spend`'s window (records of other pods are ignored). */
export function podCosts(estimates: readonly PodEstimate[], spend?: { window: Window; records: readonly PodBillingRecord[] }): PodCost[] {
  return estimates.map((p) => {
    if (!spend) return { ...p };
    const records = p.podId ? spend.records.filter((r) => r.podId === p.podId) : [];
    return { ...p, spend: spendIn(records, spend.window.buckets) };
  });
}

/** The pods' hourly cost (a stopped pod: 0) and, with a window, the total billed. */
export function podTotals(pods: readonly PodCost[]): { hourlyCost: number; spend?: number } {
  const hourlyCost = round(pods.reduce((s, p) => s + (p.desiredStatus === "EXITED" ? 0 : (p.costPerHour ?? 0)), 0));
  const billed = pods.some((p) => p.spend) ? round(pods.reduce((s, p) => s + (p.spend?.totalAmount ?? 0), 0)) : undefined;
  return billed === undefined ? { hourlyCost } : { hourlyCost, spend: billed };
}

/** The pods' table for the terminal: resource, id, status, USD per hour, and the spend with its sparkline. */
export function renderPodsText(
  pods: readonly PodCost[],
  window: Window | undefined,
  bold: (s: string) => string,
  sparkline: (v: readonly number[]) => string,
): string[] {
  if (pods.length === 0) return [];
  const headers = ["POD", "ID", "STATUS", "$/H", ...(window ? ["SPENT", `PER ${window.bucketSize.toUpperCase()}`] : [])];
  const rows = pods.map((p) => [
    p.resource,
    p.podId ?? "(new)",
    p.desiredStatus ?? "-",
    money(p.desiredStatus === "EXITED" ? 0 : p.costPerHour),
    ...(window ? [money(p.spend?.totalAmount), sparkline(p.spend?.perBucket ?? [])] : []),
  ]);
  const totals = podTotals(pods);
  rows.push(["total", "", "", money(totals.hourlyCost), ...(window ? [money(totals.spend), ""] : [])]);
  const out = ["", ...tableLines(headers, rows, bold), "pods, USD per hour while running, busy or idle (docs/pod.md)"];
  if (window) out.push(`spent: per ${window.bucketSize} (listPodBilling)`);
  return out;
}
