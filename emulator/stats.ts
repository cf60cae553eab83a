/** Request and fault counters exposed by `stats()` and `GET {admin}/stats`. */
import type { EmulatorStats } from "./types";

export class Stats {
  private data: EmulatorStats = Stats.empty();

  private static empty(): EmulatorStats {
    return { requests: 0, byOperation: {}, faultsInjected: 0, faultsByKind: {}, rateLimited: 0 };
  }

  /** One received request carrying the given operations (a GraphQL request may carry several). */
  request(operations: string[]): void {
    this.data.requests++;
    for (const op of operations) this.data.byOperation[op] = (this.data.byOperation[op] ?? 0) + 1;
  }

  /** One request refused by the seeded quota (not an injected fault). */
  rateLimited(): void {
    this.data.rateLimited++;
  }

  fault(kind: string): void {
    this.data.faultsInjected++;
    this.data.faultsByKind[kind] = (this.data.faultsByKind[kind] ?? 0) + 1;
  }

  snapshot(): EmulatorStats {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = Stats.empty();
  }
}
