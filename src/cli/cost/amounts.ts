/**
 * What every section of the `cost` report (endpoints, volumes, pods) does with amounts: rounding, printing,
 * a billing window's records summed per bucket, and the section's terminal table.
 */
import { renderTable } from "../table";

/** Rounds USD to `digits` decimals (the report keeps 4). */
export const round = (n: number, digits = 4): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** USD with cents; "-" when unknown. */
export const money = (n: number | null | undefined): string => (n === null || n === undefined ? "-" : `$${n.toFixed(2)}`);

/** `records` (already one object's) summed over the window and per bucket (`buckets`: each bucket's start). */
export function spendIn<R extends { startTime: string; totalAmount: number }>(
  records: R[],
  buckets: readonly string[],
): { totalAmount: number; records: R[]; perBucket: number[] } {
  const perBucket = buckets.map((start) => round(records.filter((r) => Date.parse(r.startTime) === Date.parse(start)).reduce((s, r) => s + r.totalAmount, 0)));
  return { totalAmount: round(records.reduce((s, r) => s + r.totalAmount, 0)), records, perBucket };
}

/** A section's table as lines, its header line styled by `bold`. */
export function tableLines(headers: string[], rows: string[][], bold: (s: string) => string): string[] {
  const [head, ...body] = renderTable(headers, rows).trimEnd().split("\n");
  return [bold(head), ...body];
}
