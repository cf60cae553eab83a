/** One shared call and when it completed. */
interface SharedCall<T> {
  promise: Promise<T>;
  /** When the call completed (ms since epoch); unset while it is in flight. */
  doneAt?: number;
  /** When a caller was last answered from the completed call (ms since epoch). */
  lastUsedAt?: number;
}

/**
 * One call shared by concurrent callers: callers that arrive while the call is in flight, or soon
 * after it completed, get the same result. "Soon" is a burst: a completed result keeps answering as
 * long as callers keep coming no more than `windowMs` apart, and never once it is older than
 * `maxAgeMs` (default `windowMs`, i.e. a plain window after completion). `invalidate()` (after a
 * mutation made by this process) makes the next caller start a fresh call, so nobody is answered from
 * a result that may predate this process's own last change. A failed call is never shared after it failed.
 */
export class CoalescedCall<T> {
  private current?: SharedCall<T>;
  private started = 0;

  constructor(
    private readonly call: () => Promise<T>,
    private readonly windowMs: number,
    private readonly maxAgeMs: number = windowMs,
  ) {}

  /** Number of underlying calls started so far. */
  get callCount(): number {
    return this.started;
  }

  /** The shared result; starts the call when none is fresh. Rejects with the call's error. */
  get(): Promise<T> {
    const c = this.current;
    const now = Date.now();
    if (c) {
      if (c.doneAt === undefined) return c.promise;
      if (now - (c.lastUsedAt ?? c.doneAt) <= this.windowMs && now - c.doneAt <= this.maxAgeMs) {
        c.lastUsedAt = now;
        return c.promise;
      }
    }
    const entry: SharedCall<T> = { promise: Promise.resolve(undefined as T) };
    this.started += 1;
    entry.promise = this.call().then(
      (value) => {
        entry.doneAt = Date.now();
        return value;
      },
      (err: unknown) => {
        if (this.current === entry) this.current = undefined;
        throw err;
      },
    );
    this.current = entry;
    return entry.promise;
  }

  /** Drop any shared result; the next `get()` starts a new call. */
  invalidate(): void {
    this.current = undefined;
  }
}
