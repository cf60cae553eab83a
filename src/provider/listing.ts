/**
 * A shared listing of the caller's records of one kind: the design's interfaces have no "get one" call
 * for most kinds, only listings (spec: GraphQL › List endpoints), so the reads of one `pulumi refresh`,
 * the checks of one preview and the deletes of one destroy share one listing per burst (coalesce.ts)
 * instead of one each.
 *
 * Lookups share one listing while it is in flight and through a burst of lookups that follow it (each
 * within {@link LOOKUP_WINDOW_MS} of the previous, up to {@link LOOKUP_MAX_AGE_MS} after the listing
 * completed). The providers report every record they change ({@link SharedListing.changed}); a lookup of
 * a changed record, or of the whole list after a change, takes a new listing, so nobody is answered from
 * a listing that predates this process's own change to what they ask about.
 */
import { CoalescedCall } from "./coalesce";

/** Largest gap between two lookups of one burst that still share a listing, in milliseconds. */
export const LOOKUP_WINDOW_MS = 1000;
/** Oldest a listing may be and still answer a lookup, in milliseconds (at least the window). */
export const LOOKUP_MAX_AGE_MS = 30_000;

export class SharedListing<T extends { id: string }> {
  private readonly listing: CoalescedCall<T[]>;
  private readonly changedIds = new Set<string>();
  private anyChanged = false;

  /**
   * @param windowMs largest gap between lookups sharing one listing.
   * @param maxAgeMs oldest listing that may answer (default `windowMs`; never below it).
   */
  constructor(list: () => Promise<T[]>, windowMs: number, maxAgeMs: number = windowMs) {
    this.listing = new CoalescedCall(list, windowMs, Math.max(windowMs, maxAgeMs));
  }
  /** Number of listings made so far. */
  get listingCount(): number {
    return this.listing.callCount;
  }

  /** Every record, from a fresh enough listing taken after this process's last change. */
  list(): Promise<T[]> {
    if (this.anyChanged) this.invalidate();
    return this.listing.get();
  }

  /** The record with `id`, or undefined when the caller has none. */
  async find(id: string): Promise<T | undefined> {
    if (this.changedIds.has(id)) this.invalidate();
    return (await this.listing.get()).find((r) => r.id === id);
  }

  /** Reports a change this process made (or tried) to record `id`; `undefined`: a record whose id is unknown. */
  changed(id?: string): void {
    if (id !== undefined) this.changedIds.add(id);
    this.anyChanged = true;
  }

  invalidate(): void {
    this.changedIds.clear();
    this.anyChanged = false;
    this.listing.invalidate();
  }
}
