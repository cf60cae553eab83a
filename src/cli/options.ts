/**
 * Parsers for option values, in commander's custom-parser form: each returns the typed value or
 * throws `InvalidArgumentError`, which commander reports as a usage error (exit 2).
 */
import { InvalidArgumentError } from "commander";
import { isRfc3339DateTime, LOG_SOURCES, TAIL_MAX, TAIL_MIN, type LogSource } from "../api";

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

/**
 * `--since`: an RFC 3339 date-time, passed on unchanged, or a duration before now (`90s`, `10m`,
 * `2h`, `1d`) turned into an RFC 3339 UTC time.
 */
export function parseSince(value: string, now: () => number = Date.now): string {
  // The api's own check, so a time accepted here is never refused by the client afterwards.
  if (isRfc3339DateTime(value)) return value;
  const m = DURATION.exec(value);
  if (m) return new Date(now() - Number(m[1]) * UNIT_MS[m[2]]).toISOString();
  throw new InvalidArgumentError("must be an RFC 3339 date-time (2024-05-01T12:00:00Z) or a duration (90s, 10m, 2h).");
}

/** A positive number of seconds (`--timeout`). */
export function parseSeconds(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("must be a positive number of seconds.");
  return n;
}

/** A non-negative number of seconds (`recover --settle`; 0 = do not wait). */
export function parseSettle(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError("must be a non-negative number of seconds.");
  return n;
}

/** A positive integer of milliseconds (`--poll-interval`). */
export function parseMillis(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n <= 0) throw new InvalidArgumentError("must be a positive integer of milliseconds.");
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
