/**
 * Rate-limit figures: parsing `RateLimit`, `RateLimit-Policy` and `Retry-After` (spec: Errors, Limits),
 * and pacing — holding a request back while the latest figures say a window is used up (spec: Limits).
 */
import { RATE_LIMIT_WINDOWS, type RateLimitWindow } from "./spec";
import { MAX_TIMER_MS } from "./timers";
import { parseList, type BareItem, type List, type Parameters } from "./structuredHeaders";

/** One parsed member of `RateLimit` (r = remaining, t = seconds to reset) and `RateLimit-Policy` (q = quota, w = window seconds). */
export interface RateLimitWindowState {
  remaining?: number;
  resetSeconds?: number;
  quota?: number;
  windowSeconds?: number;
}
export type RateLimitState = Partial<Record<RateLimitWindow, RateLimitWindowState>>;

/** Minimal view of response headers (node-fetch `Headers`, WHATWG `Headers`). */
export interface HeaderSource {
  get(name: string): string | null;
}

function windowName(item: BareItem): RateLimitWindow | undefined {
  // Members may be sf-strings ("minute") or tokens (minute); both name the window.
  const name = typeof item === "string" ? item : item && typeof item === "object" ? String(item) : undefined;
  return RATE_LIMIT_WINDOWS.find((w) => w === name);
}

function numberParam(params: Parameters, key: string): number | undefined {
  const v = params.get(key);
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function parseMembers(header: string | null): Map<RateLimitWindow, Parameters> {
  const out = new Map<RateLimitWindow, Parameters>();
  if (!header) return out;
  let list: List;
  try {
    list = parseList(header);
  } catch {
    return out; // A malformed advisory header must not fail the request it came with.
  }
  for (const member of list) {
    if (Array.isArray(member[0])) continue; // inner lists carry no window
    const name = windowName(member[0]);
    if (name) out.set(name, member[1]);
  }
  return out;
}

/**
 * Parses `RateLimit` (params `r` remaining, `t` seconds to reset) and `RateLimit-Policy`
 * (params `q` quota, `w` window seconds) into one state per window (spec: Errors, 429 headers).
 *
 * @returns windows found in either header; `undefined` when neither header is present or parseable.
 * Unknown window names and malformed headers are ignored, never thrown.
 */
export function parseRateLimitHeaders(headers: HeaderSource): RateLimitState | undefined {
  const limit = parseMembers(headers.get("ratelimit"));
  const policy = parseMembers(headers.get("ratelimit-policy"));
  if (limit.size === 0 && policy.size === 0) return undefined;
  const state: RateLimitState = {};
  for (const w of RATE_LIMIT_WINDOWS) {
    const l = limit.get(w);
    const p = policy.get(w);
    if (!l && !p) continue;
    const s: RateLimitWindowState = {};
    if (l) {
      s.remaining = numberParam(l, "r");
      s.resetSeconds = numberParam(l, "t");
    }
    if (p) {
      s.quota = numberParam(p, "q");
      s.windowSeconds = numberParam(p, "w");
    }
    state[w] = s;
  }
  return state;
}

/**
 * Parses `Retry-After`: delay-seconds (spec: integer seconds) or an HTTP-date.
 * @returns seconds to wait (≥ 0), or undefined when absent or unparseable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value == null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

interface WindowBudget {
  remaining?: number;
  resetAt?: number;
}

/**
 * Milliseconds to sleep, cut short when `signal` aborts.
 * @throws RangeError beyond 2,147,483,647 ms, which a timer would turn into 1 ms.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (!(ms <= MAX_TIMER_MS)) throw new RangeError(`sleep: ${ms} ms is beyond what a timer holds (at most ${MAX_TIMER_MS} ms)`);
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Keeps the latest `RateLimit` figures of one client and paces requests by them (spec: Limits).
 *
 * Each response's figures replace the window's budget; each request sent takes one from every
 * known budget, so concurrent requests do not all spend the last unit. When a budget is 0 and its
 * reset is ahead, `beforeSend` waits for the reset (if it fits the caller's deadline), after which
 * the window counts as unknown until the next response reports it.
 */
export class RateLimitTracker {
  /** Latest figures as the platform reported them, per window (exposed as `client.rateLimit`). */
  readonly latest: RateLimitState = {};
  private readonly budgets = new Map<RateLimitWindow, WindowBudget>();
  /** Count of waits `beforeSend` made, for reports. */
  waits = 0;

  /** Records the figures of a response received at `receivedAt` (ms epoch). */
  update(state: RateLimitState | undefined, receivedAt = Date.now()): void {
    if (!state) return;
    for (const w of RATE_LIMIT_WINDOWS) {
      const s = state[w];
      if (!s) continue;
      this.latest[w] = { ...this.latest[w], ...s };
      if (s.remaining !== undefined) {
        this.budgets.set(w, {
          remaining: s.remaining,
          resetAt: s.resetSeconds !== undefined ? receivedAt + s.resetSeconds * 1000 : undefined,
        });
      }
    }
  }

  /** Milliseconds until every exhausted window has reset; 0 when a request may go now. */
  delayMs(now = Date.now()): number {
    let wait = 0;
    for (const b of this.budgets.values()) {
      if (b.remaining !== undefined && b.remaining <= 0 && b.resetAt !== undefined && b.resetAt > now) {
        wait = Math.max(wait, b.resetAt - now);
      }
    }
    return wait;
  }

  /**
   * Waits while a window is exhausted, then takes one unit from each known budget.
   * @param deadline ms epoch after which waiting is pointless; a longer wait is skipped and the
   *   request goes out (the platform then answers 429 and the caller sees a RateLimitError).
   * @returns whether this request was held back (`waits` is shared by concurrent requests, so callers
   *   counting their own waits use this instead).
   */
  async beforeSend(deadline: number, signal?: AbortSignal): Promise<boolean> {
    const now = Date.now();
    const wait = this.delayMs(now);
    const held = wait > 0 && now + wait <= deadline;
    if (held) {
      this.waits++;
      // A little past the reset, so the platform's window has certainly rolled over.
      await sleep(wait + 50, signal);
      for (const b of this.budgets.values()) {
        if (b.resetAt !== undefined && b.resetAt <= Date.now()) b.remaining = undefined;
      }
    }
    for (const b of this.budgets.values()) if (b.remaining !== undefined) b.remaining--;
    return held;
  }
}
