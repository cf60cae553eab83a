/**
 * Rate-limit figures: parsing `RateLimit`, `RateLimit-Policy` and `Retry-After` (spec: Errors, Limits),
 * and pacing by them (spec: Limits). The limit is the account's: every process using the key spends the
 * same budget, so each answer's figures replace what this process counted, and the waits are jittered.
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
  /** Units left as this process counts them: the last answer's `r`, less the requests sent since. */
  remaining?: number;
  resetAt?: number;
  quota?: number;
  windowMs?: number;
}

/** How `beforeSend` let a request go: at once, after a pacing slot, or after a window's reset. */
export type SendHold = "none" | "paced" | "reset";

/** Past a reset, so the platform's window has certainly rolled over (its `t` is whole seconds). */
const RESET_MARGIN_MS = 50;

/**
 * Random delay added to a wait for a reset: up to a tenth of the wait, at least 1 s, at most 10 s.
 * Every process of the account that waits for the same reset would otherwise send at the same instant
 * and meet the next 429 together.
 */
export function resetJitterMs(waitMs: number, random: () => number = Math.random): number {
  return Math.round(random() * Math.min(10_000, Math.max(1_000, waitMs / 10)));
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
 * Keeps the latest `RateLimit` figures of one client and paces its requests by them (spec: Limits).
 *
 * - Each answer's figures replace the window's budget, less the requests this process has sent and
 *   not yet seen answered (the answer may not count them): other processes spend the same budget, so
 *   only the platform's figures say what is left.
 * - A window used up (`r` = 0), or a 429's `Retry-After`, holds every request until the reset plus a
 *   jitter ({@link resetJitterMs}); the window then counts as unknown until the next answer reports it.
 * - Before that, a window that is both under half its quota and spent ahead of its time
 *   (`r / q` < `t / w`) spreads its remaining units evenly until its reset, one slot per request; with
 *   several processes pacing so, each sees `r` fall faster and slows down further.
 */
export class RateLimitTracker {
  /** Latest figures as the platform reported them, per window (exposed as `client.rateLimit`). */
  readonly latest: RateLimitState = {};
  private readonly budgets = new Map<RateLimitWindow, WindowBudget>();
  /** No request goes before this (ms epoch): the `Retry-After` of the last 429. */
  private blockedUntil = 0;
  /** When this process's latest paced request goes; the next slot follows it. */
  private lastSlot = 0;
  /** Requests counted against the budgets whose answer has not arrived yet. */
  private pending = 0;
  /** Count of waits for a reset `beforeSend` made, for reports. */
  waits = 0;

  /** Records the figures of a response received at `receivedAt` (ms epoch). */
  update(state: RateLimitState | undefined, receivedAt = Date.now()): void {
    if (!state) return;
    // This answer's own request is still pending; the others may have reached the platform after it.
    const unseen = Math.max(0, this.pending - 1);
    for (const w of RATE_LIMIT_WINDOWS) {
      const s = state[w];
      if (!s) continue;
      this.latest[w] = { ...this.latest[w], ...s };
      const b = this.budgets.get(w) ?? {};
      if (s.quota !== undefined) b.quota = s.quota;
      if (s.windowSeconds !== undefined) b.windowMs = s.windowSeconds * 1000;
      if (s.remaining !== undefined) {
        b.remaining = s.remaining - unseen;
        b.resetAt = s.resetSeconds !== undefined ? receivedAt + s.resetSeconds * 1000 : undefined;
      }
      this.budgets.set(w, b);
    }
  }

  /** A 429 asked to wait `retryAfterSeconds`: nothing goes before then. */
  holdFor(retryAfterSeconds: number, receivedAt = Date.now()): void {
    this.blockedUntil = Math.max(this.blockedUntil, receivedAt + retryAfterSeconds * 1000);
  }

  /** Milliseconds until every exhausted window has reset and a 429's `Retry-After` has passed; 0 when a request may go now. */
  delayMs(now = Date.now()): number {
    let wait = Math.max(0, this.blockedUntil - now);
    for (const b of this.budgets.values()) {
      if (b.remaining !== undefined && b.remaining <= 0 && b.resetAt !== undefined && b.resetAt > now) {
        wait = Math.max(wait, b.resetAt - now);
      }
    }
    return wait;
  }

  /** When the next request may go by pacing (ms epoch, ≥ now); see the class comment. */
  private slot(now: number): number {
    const from = Math.max(now, this.lastSlot);
    let spacing = 0;
    for (const b of this.budgets.values()) {
      const { remaining: r, resetAt, quota: q, windowMs: w } = b;
      if (r === undefined || r <= 0 || resetAt === undefined || resetAt <= from || !q || !w) continue;
      if (r < q / 2 && r / q < (resetAt - now) / w) spacing = Math.max(spacing, (resetAt - from) / r);
    }
    return spacing > 0 ? Math.max(now, this.lastSlot + spacing) : now;
  }

  /**
   * Holds a request while a window is used up or a 429's `Retry-After` runs, then until its pacing slot,
   * and counts it against every known budget. Call {@link settled} once its answer (or failure) is in.
   * @param deadline ms epoch after which waiting is pointless; a longer wait is skipped and the
   *   request goes out (the platform then answers 429 and the caller decides).
   * @returns how this request was held (`waits` is shared by concurrent requests, so callers counting
   *   their own use this instead).
   */
  async beforeSend(deadline: number, signal?: AbortSignal): Promise<SendHold> {
    let hold: SendHold = "none";
    for (;;) {
      const now = Date.now();
      const wait = this.delayMs(now);
      if (wait <= 0) break;
      if (now + wait + RESET_MARGIN_MS > deadline || signal?.aborted) break;
      // The jitter never makes a wait that fits the deadline pass it.
      const total = Math.min(wait + RESET_MARGIN_MS + resetJitterMs(wait), deadline - now);
      hold = "reset";
      this.waits++;
      await sleep(total, signal);
      const after = Date.now();
      for (const b of this.budgets.values()) {
        if (b.resetAt !== undefined && b.resetAt <= after) b.remaining = b.resetAt = undefined;
      }
    }
    const now = Date.now();
    const at = this.slot(now);
    // Counted (and the slot taken) before the pause, so concurrent requests see it at once.
    this.lastSlot = at;
    for (const b of this.budgets.values()) if (b.remaining !== undefined) b.remaining--;
    this.pending++;
    if (at > now && at <= deadline) {
      await sleep(at - now, signal);
      if (hold === "none") hold = "paced";
    }
    return hold;
  }

  /** The request counted by {@link beforeSend} has its answer, or failed without one. */
  settled(): void {
    this.pending = Math.max(0, this.pending - 1);
  }
}
