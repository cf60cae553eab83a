/**
 * The `cost` command's report (pure): each endpoint of the stack with its two estimates (docs/cost.md),
 * the totals, the actual spend per billing bucket when asked (REST v2 `listServerlessBilling`), the
 * endpoints billed while idle, and the budget verdict. Rendered as a terminal table with a
 * per-endpoint sparkline, as JSON, or as CSV records.
 */
import { stringify } from "csv-stringify/sync";
import type { V2 } from "../../api";
import { money, round, spendIn, tableLines } from "./amounts";
import { podTotals, renderPodsText, type PodCost } from "./pods";
import { renderVolumesText, volumeTotals, type VolumeCost } from "./volumes";

/** One Endpoint of the stack, from the preview (the program after the change) or the state. */
export interface EndpointEstimate {
  /** Pulumi resource name. */
  resource: string;
  /** Platform id; undefined for an endpoint the preview would create. */
  endpointId?: string;
  name?: string;
  maxHourlyCost: number | null;
  idleHourlyCost: number | null;
  workersMin: number;
  workersStandby: number;
}

export type BillingRecord = V2.ServerlessBillingRecord;
export type BucketSize = "hour" | "day";

export interface SpendWindow {
  startTime: string;
  endTime: string;
  bucketSize: BucketSize;
  /** Start of each bucket of the window, in order. */
  buckets: string[];
}

export interface EndpointCost extends EndpointEstimate {
  /** Minimum or standby workers above 0: billed with no traffic at all. */
  idleBilled: boolean;
  spend?: { totalAmount: number; records: BillingRecord[]; perBucket: number[] };
}

export interface CostReport {
  /** Where the estimates come from: `preview` (the program as it would deploy) or `state` (as deployed). */
  source: "preview" | "state";
  endpoints: EndpointCost[];
  /** The stack's network volumes (volumes.ts), when it has any. */
  volumes?: VolumeCost[];
  /** The stack's pods (pods.ts), when it has any. */
  pods?: PodCost[];
  totals: {
    maxHourlyCost: number;
    idleHourlyCost: number;
    spend?: number;
    monthlyStorageCost?: number;
    storageSpend?: number;
    /** USD per hour of the running pods (also in `maxHourlyCost` and `idleHourlyCost`: a pod costs the same busy or idle). */
    podHourlyCost?: number;
    podSpend?: number;
  };
  window?: SpendWindow;
  budget?: { maxHourly: number; over: boolean };
}

const BUCKET_MS: Record<BucketSize, number> = { hour: 3_600_000, day: 86_400_000 };

/** The bucket starts from `startTime` (inclusive) to `endTime` (exclusive), as the platform aligns them. */
export function bucketStarts(startTime: string, endTime: string, size: BucketSize): string[] {
  const out: string[] = [];
  const step = BUCKET_MS[size];
  const end = Date.parse(endTime);
  for (let t = Date.parse(startTime); t < end && out.length < 10_000; t += step) out.push(new Date(t).toISOString());
  return out;
}

/** `rows` ordered by Pulumi resource name. */
const byResource = <T extends { resource: string }>(rows: readonly T[]): T[] =>
  [...rows].sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));

/** Builds the report. `records`: the window's billing records of every endpoint (others are ignored). */
export function buildReport(
  source: CostReport["source"],
  estimates: readonly EndpointEstimate[],
  spend?: { window: SpendWindow; records: readonly BillingRecord[] },
  maxHourly?: number,
): CostReport {
  // By resource name: the stack's order follows which create finished first, and a report should not.
  const endpoints: EndpointCost[] = byResource(estimates).map((e) => {
    const row: EndpointCost = { ...e, idleBilled: e.workersMin > 0 || e.workersStandby > 0 };
    if (spend) row.spend = spendIn(e.endpointId ? spend.records.filter((r) => r.serverlessId === e.endpointId) : [], spend.window.buckets);
    return row;
  });
  const report: CostReport = { source, endpoints, totals: endpointTotals(endpoints, spend !== undefined) };
  if (spend) report.window = spend.window;
  if (maxHourly !== undefined) report.budget = { maxHourly, over: report.totals.maxHourlyCost > maxHourly };
  return report;
}

/** The endpoints' own sums (the stack's totals add the pods, {@link withPods}); `spend` with a spend window. */
export function endpointTotals(endpoints: readonly EndpointCost[], withSpend: boolean): { maxHourlyCost: number; idleHourlyCost: number; spend?: number } {
  const sum = (f: (e: EndpointCost) => number | null | undefined) => round(endpoints.reduce((s, e) => s + (f(e) ?? 0), 0));
  const totals = { maxHourlyCost: sum((e) => e.maxHourlyCost), idleHourlyCost: sum((e) => e.idleHourlyCost) };
  return withSpend ? { ...totals, spend: sum((e) => e.spend?.totalAmount) } : totals;
}

/** Adds the stack's network volumes and their totals to `report` (none: left as it is). */
export function withVolumes(report: CostReport, volumes: VolumeCost[]): CostReport {
  if (volumes.length === 0) return report;
  const totals = volumeTotals(volumes);
  report.volumes = byResource(volumes);
  report.totals.monthlyStorageCost = totals.monthlyCost;
  if (totals.spend !== undefined) report.totals.storageSpend = totals.spend;
  return report;
}

/**
 * Adds the stack's pods to `report` (none: left as it is): their hourly cost joins both estimates and the
 * `--max-hourly` verdict, their billed amount is `podSpend`.
 */
export function withPods(report: CostReport, pods: PodCost[]): CostReport {
  if (pods.length === 0) return report;
  const totals = podTotals(pods);
  report.pods = byResource(pods);
  report.totals.podHourlyCost = totals.hourlyCost;
  report.totals.maxHourlyCost = round(report.totals.maxHourlyCost + totals.hourlyCost);
  report.totals.idleHourlyCost = round(report.totals.idleHourlyCost + totals.hourlyCost);
  if (totals.spend !== undefined) report.totals.podSpend = totals.spend;
  if (report.budget) report.budget.over = report.totals.maxHourlyCost > report.budget.maxHourly;
  return report;
}

const BARS = "▁▂▃▄▅▆▇█";

/** Below half a cent an amount prints as $0.00, so it draws no bar either. */
const SHOWN_AS_ZERO = 0.005;

/** A sparkline of `values`: one block per value, scaled to the largest; blank for an amount that prints as $0.00. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (v < SHOWN_AS_ZERO ? " " : BARS[Math.min(BARS.length - 1, Math.floor((v / max) * (BARS.length - 1) + 0.5))])).join("");
}

/** The terminal table, the totals, the idle-billed notes and the budget verdict. */
export function renderText(report: CostReport, styles: { bold: (s: string) => string; yellow: (s: string) => string; red: (s: string) => string }): string {
  const spend = report.window !== undefined;
  const headers = ["RESOURCE", "ENDPOINT", "MAX $/H", "IDLE $/H", ...(spend ? [`SPENT`, `PER ${report.window!.bucketSize.toUpperCase()}`] : [])];
  const rows = report.endpoints.map((e) => [
    e.resource,
    e.endpointId ?? "(new)",
    money(e.maxHourlyCost),
    `${money(e.idleHourlyCost)}${e.idleBilled ? " !" : ""}`,
    ...(spend ? [money(e.spend?.totalAmount), sparkline(e.spend?.perBucket ?? [])] : []),
  ]);
  // The endpoints' own total: the stack's, pods included, follows the pods' table.
  const own = endpointTotals(report.endpoints, spend);
  rows.push(["total", "", money(own.maxHourlyCost), money(own.idleHourlyCost), ...(spend ? [money(own.spend ?? 0), ""] : [])]);
  const out = tableLines(headers, rows, styles.bold);
  out.push(
    `estimates from the ${report.source === "preview" ? "preview of the program (after the change)" : "stack's state (as deployed)"}, USD per hour at catalog list prices`,
  );
  if (spend) out.push(`spent: ${report.window!.startTime} to ${report.window!.endTime}, per ${report.window!.bucketSize} (listServerlessBilling)`);
  for (const e of report.endpoints.filter((x) => x.idleBilled)) {
    out.push(
      styles.yellow(
        `! ${e.resource} costs money while idle: workersMin ${e.workersMin}, standby ${e.workersStandby}` +
          (e.idleHourlyCost !== null ? ` = ${money(e.idleHourlyCost)}/h, ${money(e.idleHourlyCost * 24 * 30)} per 30 days with no traffic` : ""),
      ),
    );
  }
  out.push(...renderVolumesText(report.volumes ?? [], report.window, styles.bold, sparkline));
  out.push(...renderPodsText(report.pods ?? [], report.window, styles.bold, sparkline));
  if (report.pods?.length)
    out.push(
      "",
      `stack total (endpoints and running pods): ${money(report.totals.maxHourlyCost)}/h with all workers busy, ${money(report.totals.idleHourlyCost)}/h idle`,
    );
  if (report.budget) {
    const verdict = `${money(report.totals.maxHourlyCost)}/h with all workers busy ${report.budget.over ? "exceeds" : "is within"} --max-hourly ${money(report.budget.maxHourly)}/h`;
    out.push(report.budget.over ? styles.red(`over budget: ${verdict}`) : verdict);
  }
  return out.join("\n") + "\n";
}

export function renderJson(report: CostReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}

/**
 * CSV records: with a spend window one row per endpoint per bucket (the billing record's amounts, zero
 * for a bucket without one), else one row per endpoint with its estimates.
 */
export function renderCsv(report: CostReport): string {
  if (!report.window) {
    return stringify(
      report.endpoints.map((e) => [
        e.resource,
        e.endpointId ?? "",
        e.name ?? "",
        e.maxHourlyCost ?? "",
        e.idleHourlyCost ?? "",
        e.workersMin,
        e.workersStandby,
        e.idleBilled,
      ]),
      {
        header: true,
        cast: { boolean: String },
        columns: ["resource", "endpointId", "name", "maxHourlyCost", "idleHourlyCost", "workersMin", "workersStandby", "idleBilled"],
      },
    );
  }
  const rows: unknown[][] = [];
  for (const e of report.endpoints) {
    report.window.buckets.forEach((start, i) => {
      const rec = e.spend?.records.find((r) => Date.parse(r.startTime) === Date.parse(start));
      const end = new Date(Date.parse(start) + BUCKET_MS[report.window!.bucketSize]).toISOString();
      rows.push([
        e.resource,
        e.endpointId ?? "",
        start,
        end,
        e.spend?.perBucket[i] ?? 0,
        rec?.gpuAmount ?? 0,
        rec?.cpuAmount ?? 0,
        rec?.diskAmount ?? 0,
        rec?.feeAmount ?? 0,
        e.maxHourlyCost ?? "",
        e.idleHourlyCost ?? "",
      ]);
    });
  }
  return stringify(rows, {
    header: true,
    columns: [
      "resource",
      "endpointId",
      "startTime",
      "endTime",
      "totalAmount",
      "gpuAmount",
      "cpuAmount",
      "diskAmount",
      "feeAmount",
      "maxHourlyCost",
      "idleHourlyCost",
    ],
  });
}
