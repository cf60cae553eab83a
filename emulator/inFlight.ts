/** Requests the server is handling: received, not yet answered (a request held by a latency fault counts until it took effect). */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  /** Counts `handling` while it runs. */
  track(handling: Promise<unknown>): void {
    this.count++;
    void handling.finally(() => {
      if (--this.count > 0) return;
      const waiting = this.waiters;
      this.waiters = [];
      for (const resolve of waiting) resolve();
    });
  }

  /** Resolves once no request is being handled. */
  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
