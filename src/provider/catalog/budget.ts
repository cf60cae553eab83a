/**
 * The budget guards of a preview: an endpoint's own `maxHourlyCostLimit`, and the stack-wide
 * `runpod:maxHourlyCost` over the endpoints of the deployment (docs/cost.md "Stack budget").
 *
 * How the provider knows the stack's endpoints: the engine runs `check` for every resource the
 * program declares, new, changed or unchanged, in one provider process per deployment. The ledger
 * records each endpoint's estimate as its `check` runs (a changed one: the new estimate; an unchanged
 * one: the estimate kept in its state), keyed by its Pulumi resource name. Endpoints of the state that
 * the program no longer declares are deleted by the deployment and are rightly not counted. Costs are
 * never negative, so once the recorded sum exceeds the budget, the full sum does too: the `check` that
 * crosses it fails the preview, naming every endpoint counted so far and its share.
 */
import { roundUsd } from "./cost";

export interface LedgerEntry {
  /** The Pulumi resource name (or the platform name when the registration carries none). */
  key: string;
  /** The endpoint's or pod's name on the platform. */
  name: string;
  /** USD per hour: an endpoint with all workers busy, a running pod (a stopped one: 0). */
  maxHourlyCost: number;
}

const usd = (n: number) => `$${roundUsd(n).toFixed(2)}/h`;

/** The per-endpoint limit: a reason when `maxHourlyCost` exceeds `limit`. */
export function overLimit(maxHourlyCost: number, limit: number | null | undefined, source: string): string | undefined {
  if (limit === null || limit === undefined || maxHourlyCost <= limit) return undefined;
  return `maxHourlyCost ${usd(maxHourlyCost)} (${source}) exceeds maxHourlyCostLimit ${usd(limit)}; lower workersMax or choose cheaper pools, or raise the limit`;
}

/** The hourly estimates of one deployment's endpoints and pods, as their checks ran. */
export class StackLedger {
  private readonly entries = new Map<string, LedgerEntry>();

  record(entry: LedgerEntry): void {
    this.entries.set(entry.key, entry);
  }

  get total(): number {
    return roundUsd([...this.entries.values()].reduce((sum, e) => sum + e.maxHourlyCost, 0));
  }

  list(): LedgerEntry[] {
    return [...this.entries.values()];
  }

  /** Records `entry` (replacing an earlier one of its key): a reason when the stack is then over `budget` ({@link overBudget}). */
  admit(entry: LedgerEntry, budget: number | undefined): string | undefined {
    this.record(entry);
    return this.overBudget(budget);
  }

  /**
   * A reason when the recorded sum exceeds `budget` (`runpod:maxHourlyCost`): the total, then each
   * endpoint or pod with its estimate and share, largest first.
   */
  overBudget(budget: number | undefined): string | undefined {
    if (budget === undefined) return undefined;
    const total = this.total;
    if (total <= budget) return undefined;
    const shares = this.list()
      .sort((a, b) => b.maxHourlyCost - a.maxHourlyCost)
      .map(
        (e) => `${e.key}${e.name !== e.key ? ` (${e.name})` : ""} ${usd(e.maxHourlyCost)} = ${total > 0 ? Math.round((e.maxHourlyCost / total) * 100) : 0}%`,
      );
    return `the stack would cost up to ${usd(total)} (its endpoints with all workers busy, its pods running), over runpod:maxHourlyCost ${usd(budget)}: ${shares.join(", ")}`;
  }
}
