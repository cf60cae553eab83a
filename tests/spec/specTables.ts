/**
 * The spec's own statement of its value sets and bounds, read from the tables of the vendored spec
 * (docs/spec/platform-api.md), so tests compare the client's and the emulator's facts with the spec itself
 * rather than with each other. Every reader throws naming the heading, row or phrase it could not find,
 * so a reworded spec fails loudly instead of yielding an empty list.
 */
import { readFileSync } from "fs";
import { join } from "path";

export const SPEC_PATH = join(__dirname, "..", "..", "docs", "spec", "platform-api.md");

const SPEC_LINES = readFileSync(SPEC_PATH, "utf8").split("\n");

type Row = Record<string, string>;

function fail(what: string): never {
  throw new Error(`${SPEC_PATH}: ${what}`);
}

const isHeading = (line: string) => /^#+ /.test(line);
const cellsOf = (line: string) =>
  line
    .trim()
    .slice(1, -1)
    .split("|")
    .map((c) => c.trim());

/** Every table in the section under the heading whose text is `heading` (any level), rows keyed by the header cells. */
export function specTables(heading: string): Row[][] {
  const at = SPEC_LINES.findIndex((l) => isHeading(l) && l.replace(/^#+ /, "").trim() === heading);
  if (at < 0) fail(`no heading "${heading}"`);
  const tables: Row[][] = [];
  let header: string[] | undefined;
  let separatorSeen = false;
  for (const line of SPEC_LINES.slice(at + 1)) {
    if (isHeading(line)) break;
    if (!line.startsWith("|")) {
      header = undefined;
      continue;
    }
    const cells = cellsOf(line);
    if (!header) {
      header = cells;
      separatorSeen = false;
      tables.push([]);
    } else if (!separatorSeen) {
      separatorSeen = true; // the |---|---| line
    } else {
      tables[tables.length - 1].push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])));
    }
  }
  if (tables.length === 0) fail(`no table under "${heading}"`);
  return tables;
}

/** The cell `column` of the row whose first cell is `key` (backticks ignored), in any table under `heading`. */
export function specCell(heading: string, key: string, column: string): string {
  for (const table of specTables(heading)) {
    const row = table.find((r) => Object.values(r)[0].replace(/`/g, "") === key);
    if (row && column in row) return row[column];
  }
  return fail(`no row "${key}" with a column "${column}" under "${heading}"`);
}

/** Backticked words of `text` after `marker` (or from the start): "Allowed: `A` (x), `B`" → [A, B]. */
function codes(text: string, marker?: string): string[] {
  const from = marker === undefined ? 0 : text.indexOf(marker);
  if (from < 0) fail(`"${marker}" not found in "${text}"`);
  const found = [...text.slice(from).matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  if (found.length === 0) fail(`no values in "${text}"`);
  return found;
}

/** The first capture group of `re` in `text`. */
function capture(text: string, re: RegExp): string {
  return re.exec(text)?.[1] ?? fail(`"${text}" does not match ${re}`);
}

/** Integer range "0 to 5000" in `text`. */
function range(text: string): { min: number; max: number } {
  const m = /(\d+) to (\d+)/.exec(text) ?? fail(`no "<min> to <max>" in "${text}"`);
  return { min: Number(m[1]), max: Number(m[2]) };
}

const list = (text: string) => text.split(",").map((s) => s.replace(/`/g, "").trim());

const ENDPOINT = "Serverless endpoint (GraphQL record and creation input)";
const LOG_EVENT = "Log event (worker log stream)";
const LOGS_OPERATION = "GET {base_url}/v2/serverless/{id}/workers/{workerId}/logs";
const endpointNotes = (field: string) => specCell(ENDPOINT, field, "Notes");
const typeNotes = endpointNotes("type");
const limitsTail = specCell("Limits", "tail", "Value");

/**
 * What the spec states, by table. Facts the spec leaves open (bounds of worker counts, defaults of most
 * endpoint fields) are absent: those are the emulator's and the provider's own choices.
 */
export const SPEC_TABLES = {
  /** Resources › Serverless endpoint, `gpuIds` "Allowed:". */
  gpuTiers: codes(endpointNotes("gpuIds"), "Allowed:"),
  /** Resources › Serverless endpoint, `locations` "Options:". */
  locations: codes(endpointNotes("locations"), "Options:"),
  /** Resources › Serverless endpoint, `type`. */
  endpointTypes: codes(typeNotes),
  /** The `type` value marked "(default)". */
  endpointTypeDefault: capture(typeNotes, /`(\w+)`[^`]*\(default\)/),
  scalerTypes: codes(endpointNotes("scalerType")),
  fastBootTypes: codes(endpointNotes("fastBootType")),
  /** Resources › Log event, `source`. */
  logSources: codes(specCell(LOG_EVENT, "source", "Notes")),
  /** The log operation's `source` parameter enum (the same set, stated a second time). */
  logSourceParameter: list(capture(specCell(LOGS_OPERATION, "source", "Type"), /^enum (.+)$/)),
  /** Limits, `tail`. */
  tail: { ...range(limitsTail), default: Number(capture(limitsTail, /default (\d+)/)) },
  /** The log operation's `tail` parameter (the same bounds, stated a second time). */
  tailParameter: {
    ...range(specCell(LOGS_OPERATION, "tail", "Type")),
    default: Number(capture(specCell(LOGS_OPERATION, "tail", "Rules"), /Default (\d+)/)),
  },
  /** Limits, "Rate-limit windows". */
  rateLimitWindows: list(capture(specCell("Limits", "Rate-limit windows", "Value"), /^([a-z, ]+?)(?: \(|$)/)),
  /** Errors, the `RateLimit` header's members (the same windows, stated a second time). */
  rateLimitHeaderWindows: list(capture(specCell("Errors", "RateLimit", "Format"), /one member per window \(([^)]*)\)/)),
};
