/** Plain-text table for terminal listings: left-aligned columns, two spaces apart. */
import { printable } from "./terminalText";

/** Renders `rows` under `headers`; every cell is already a string, shown without control characters. Ends with a newline. */
export function renderTable(headers: string[], rawRows: string[][]): string {
  // Cells often hold platform text (names, statuses); control characters would drive the terminal and skew widths.
  const rows = rawRows.map((r) => r.map(printable));
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n") + "\n";
}

/** A cell for any JSON value: strings without control characters, absent as "-", the rest as compact JSON. */
export function cell(value: unknown): string {
  if (value === undefined || value === null || value === "") return "-";
  return printable(typeof value === "string" ? value : JSON.stringify(value));
}
