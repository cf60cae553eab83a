/**
 * Parsers for option values, in commander's custom-parser form: each returns the typed value or
 * throws `InvalidArgumentError`, which commander reports as a usage error (exit 2).
 */
import { InvalidArgumentError } from "commander";
import { isRfc3339DateTime, LOG_SOURCES, MAX_TIMER_MS, TAIL_MAX, TAIL_MIN, type LogSource } from "../api";

/** `--tail`: an integer within the spec's bounds 0..5000. */
export function parseTail(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < TAIL_MIN || n > TAIL_MAX) {
    throw new InvalidArgumentError(`must be an integer from ${TAIL_MIN} to ${TAIL_MAX}.`);
  }
  return n;
}

/** `--source`: one of the spec's log sources. */
export function parseSource(value: string): LogSource {
  if (!(LOG_SOURCES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of: ${LOG_SOURCES.join(", ")}.`);
  }
  return value as LogSource;
}

const DURATION = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The earliest `--since` a duration may reach back to: the Unix epoch (logs are never older). */
const EARLIEST_MS = 0;

/**
 * `--since`: an RFC 3339 date-time, passed on unchanged, or a duration before now (`90s`, `10m`,
 * `2h`, `1d`) turned into an RFC 3339 UTC time; a duration reaching before 1970 is refused.
 */
export function parseSince(value: string, now: () => number = Date.now): string {
  // The api's own check, so a time accepted here is never refused by the client afterwards.
  if (isRfc3339DateTime(value)) return value;
  const m = DURATION.exec(value);
  if (m) {
    const at = now() - Number(m[1]) * UNIT_MS[m[2]];
    if (!(at >= EARLIEST_MS)) throw new InvalidArgumentError(`duration ${value} reaches back before 1970-01-01T00:00:00Z.`);
    return new Date(at).toISOString();
  }
  throw new InvalidArgumentError("must be an RFC 3339 date-time (2024-05-01T12:00:00Z) or a duration (90s, 10m, 2h).");
}

// Timers hold at most MAX_TIMER_MS; a longer delay fires after 1 ms.
const MAX_SECONDS = MAX_TIMER_MS / 1000;

/** `ms` in the largest unit that keeps it readable, rounded down so a stated limit stays true. */
export function humanDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "days"],
    [3_600_000, "h"],
    [60_000, "min"],
    [1000, "s"],
  ];
  for (const [size, name] of units) {
    if (ms >= size) return `${Math.floor((ms / size) * 10) / 10} ${name}`;
  }
  return `${ms} ms`;
}

const SECONDS_FORM = "a number of seconds or a duration (300, 90s, 10m, 2h)";
const MAX_HUMAN = humanDuration(MAX_TIMER_MS);

/** Seconds from `300`, `2.5`, `90s`, `10m`, `2h`, `1d`; NaN for anything else. */
function secondsOf(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(value.trim());
  if (m) return (Number(m[1]) * UNIT_MS[m[2]]) / 1000;
  return value.trim() === "" ? NaN : Number(value);
}

/** A positive time in seconds (`--timeout`): a number of seconds or a duration with its unit, up to about 24.8 days. */
export function parseSeconds(value: string): number {
  const n = secondsOf(value);
  if (!Number.isFinite(n) || n <= 0 || n > MAX_SECONDS) throw new InvalidArgumentError(`must be a time above 0, up to ${MAX_HUMAN}: ${SECONDS_FORM}.`);
  return n;
}

/** A non-negative time in seconds (`recover --settle`; 0 = do not wait), in the forms of {@link parseSeconds}. */
export function parseSettle(value: string): number {
  const n = secondsOf(value);
  if (!Number.isFinite(n) || n < 0 || n > MAX_SECONDS) throw new InvalidArgumentError(`must be a time from 0 to ${MAX_HUMAN}: ${SECONDS_FORM}.`);
  return n;
}

/** A positive integer of milliseconds up to about 24.8 days (`--poll-interval`). */
export function parseMillis(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n <= 0 || n > MAX_TIMER_MS) {
    throw new InvalidArgumentError(`must be a whole number of milliseconds (1000 = 1 s), from 1 to ${humanDuration(MAX_TIMER_MS)}.`);
  }
  return n;
}

/** A non-negative integer count (`workers --wait`). */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("must be a non-negative integer.");
  return Number(value);
}

/** An http(s) URL (address overrides). */
export function parseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError("must be an absolute http(s) URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidArgumentError("must be an absolute http(s) URL.");
  return value;
}

/** `cost --max-hourly`: a non-negative number of US dollars per hour. */
export function parseUsdPerHour(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError("must be a non-negative number of US dollars per hour.");
  return n;
}

/** `cost --bucket`: the billing bucket, `hour` or `day` (REST v2 BillingBucketSize). */
export function parseBucket(value: string): "hour" | "day" {
  if (value !== "hour" && value !== "day") throw new InvalidArgumentError("must be hour or day.");
  return value;
}

/** A repeatable option (`--id a --id b`): each value joins the earlier ones. */
export function collect(value: string, earlier: string[]): string[] {
  return [...earlier, value];
}
