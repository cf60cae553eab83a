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
 * crosses it fails the preview. Its total and shares count the whole stack: the resource classes hand
 * every check the stack's declared endpoints and pods with their plain cost inputs
 * (stackMembers.ts, src/resources/stackMembers.ts), and those not checked yet are counted
 * at the estimate their inputs give (never in the decision: an unchecked one may be about to change).
 */
import { roundUsd } from "./cost";
import type { StackMember } from "./stackMembers";

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
  private readonly members = new Map<string, StackMember>();

  /** Notes the stack's declared endpoints and pods, for the refusal's total. */
  expect(members: readonly StackMember[]): void {
    for (const m of members) this.members.set(m.key, m);
  }

  /**
   * Whether a program handed over its declared endpoints and pods (the resource classes do, with a
   * budget set, each including itself). The plugin's programs hand over nothing: their total counts
   * the checked ones alone.
   */
  get handedOver(): boolean {
    return this.members.size > 0;
  }

  /** The declared endpoints and pods whose check has not run yet. */
  unchecked(): StackMember[] {
    return [...this.members.values()].filter((m) => !this.entries.has(m.key));
  }

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
   * endpoint or pod with its estimate and share, largest first. Only the recorded sum decides; the total
   * and shares also count `unchecked` (declared endpoints and pods not checked yet, at their inputs'
   * estimates), and name those whose estimate is not known (`unknown`).
   */
  overBudget(budget: number | undefined, unchecked: readonly LedgerEntry[] = [], unknown: readonly string[] = []): string | undefined {
    if (budget === undefined) return undefined;
    if (this.total <= budget) return undefined;
    const all = [...this.list(), ...unchecked.filter((e) => !this.entries.has(e.key))];
    const total = roundUsd(all.reduce((sum, e) => sum + e.maxHourlyCost, 0));
    const shares = all
      .sort((a, b) => b.maxHourlyCost - a.maxHourlyCost)
      .map(
        (e) => `${e.key}${e.name !== e.key ? ` (${e.name})` : ""} ${usd(e.maxHourlyCost)} = ${total > 0 ? Math.round((e.maxHourlyCost / total) * 100) : 0}%`,
      );
    const left = unknown.length > 0 ? `; not counted, their cost inputs unknown before their own check: ${[...unknown].sort().join(", ")}` : "";
    return `the stack would cost up to ${usd(total)} (its endpoints with all workers busy, its pods running), over runpod:maxHourlyCost ${usd(budget)}: ${shares.join(", ")}${left}`;
  }
}
