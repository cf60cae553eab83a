/**
 * Per-user rate limiting with fixed minute, hour and day windows (spec: Errors, Limits). Counters live in the
 * store so they survive a restart with `dataFile`. Headers follow the spec's structured-field format:
 *   RateLimit: minute;r=5999;t=42, hour;r=99999;t=1242, day;r=999999;t=30042
 *   RateLimit-Policy: minute;q=6000;w=60, hour;q=100000;w=3600, day;q=1000000;w=86400
 * (members are sf-tokens named after the window; r = remaining, t = seconds to reset, q = quota, w = window seconds).
 */
import type * as StructuredHeaders from "structured-headers/dist/index.js";
import { RATE_LIMIT_WINDOWS, type RateLimitWindow } from "./facts";
import type { Quotas } from "./seed";
import type { Store } from "./store";

// The package's types are reachable only through its `exports` map, which `moduleResolution: node` ignores:
// types from its dist folder, runtime from the package entry.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serializeList, Token }: typeof StructuredHeaders = require("structured-headers");

export const WINDOW_SECONDS: Record<RateLimitWindow, number> = { minute: 60, hour: 3600, day: 86400 };

export interface WindowState {
  window: RateLimitWindow;
  quota: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  windows: WindowState[];
  /** Windows whose quota is used up (only when not allowed). */
  exceeded: WindowState[];
}

export class RateLimiter {
  constructor(
    private store: Store,
    private quotasFor: (userId: string) => Quotas,
  ) {}

  /** Count `units` requests of `userId` (GraphQL: one per top-level field) unless a window would be exceeded; rejected requests are not counted. */
  take(userId: string, units = 1, now = Date.now()): RateDecision {
    const quotas = this.quotasFor(userId);
    const current = RATE_LIMIT_WINDOWS.map((window) => {
      const ms = WINDOW_SECONDS[window] * 1000;
      const windowStart = Math.floor(now / ms) * ms;
      const stored = this.store.getCounter(`${userId}:${window}`);
      const count = stored && stored.windowStart === windowStart ? stored.count : 0;
      return { window, windowStart, count, quota: quotas[window], resetSeconds: Math.max(1, Math.ceil((windowStart + ms - now) / 1000)) };
    });
    const allowed = current.every((c) => c.count + units <= c.quota);
    if (allowed) for (const c of current) this.store.putCounter(`${userId}:${c.window}`, { windowStart: c.windowStart, count: (c.count += units) });
    const windows = current.map((c) => ({
      window: c.window,
      quota: c.quota,
      windowSeconds: WINDOW_SECONDS[c.window],
      remaining: Math.max(0, c.quota - c.count),
      resetSeconds: c.resetSeconds,
    }));
    return { allowed, windows, exceeded: allowed ? [] : windows.filter((w) => w.remaining === 0) };
  }
}

/** `RateLimit` and `RateLimit-Policy` header values for the given window states. */
export function rateLimitHeaders(windows: WindowState[]): Record<string, string> {
  return {
    RateLimit: serializeList(
      windows.map((w) => [
        new Token(w.window),
        new Map<string, number>([
          ["r", w.remaining],
          ["t", w.resetSeconds],
        ]),
      ]),
    ),
    "RateLimit-Policy": serializeList(
      windows.map((w) => [
        new Token(w.window),
        new Map<string, number>([
          ["q", w.quota],
          ["w", w.windowSeconds],
        ]),
      ]),
    ),
  };
}

/** Detail text and Retry-After seconds of a 429 for the exhausted windows. */
export function describeExceeded(exceeded: WindowState[]): { detail: string; retryAfter: number } {
  const retryAfter = Math.max(...exceeded.map((w) => w.resetSeconds));
  const names = exceeded.map((w) => `${w.window} (quota ${w.quota} requests per ${w.windowSeconds} seconds)`).join(", ");
  return {
    detail: `Per-user rate limit exceeded for the ${names} window${exceeded.length > 1 ? "s" : ""}; retry in ${retryAfter} seconds.`,
    retryAfter,
  };
}
