/**
 * Finding endpoints by id with one shared listing: the platform has no "get endpoint" call, only
 * `myself { endpoints }` (spec: GraphQL › List endpoints), so a `pulumi refresh` of N endpoints would
 * otherwise list them all N times (as would the deletes that need the live record, see `delete`).
 *
 * Lookups share one listing while it is in flight and through a burst of lookups that follow it
 * (each within {@link LOOKUP_WINDOW_MS} of the previous, up to {@link LOOKUP_MAX_AGE_MS} after the
 * listing completed) — the engine's reads (and deletes) of one operation arrive as such a burst, so an
 * operation on N endpoints costs O(1) listings. The provider reports every endpoint it changes
 * ({@link EndpointDirectory.changed}); a lookup of a changed endpoint, or of the whole list, takes a
 * new listing, so nobody is answered from a listing that predates this process's own change to what
 * they ask about. Other endpoints' records in the listing stay valid.
 */
import { CoalescedCall } from "../coalesce";
import type { EndpointState } from "../paths/records";

/** Largest gap between two lookups of one burst that still share a listing, in milliseconds. */
export const LOOKUP_WINDOW_MS = 1000;
/** Oldest a listing may be and still answer a lookup, in milliseconds (at least the window). */
export const LOOKUP_MAX_AGE_MS = 30_000;

/** A coalescing view of the caller's endpoints for one client. */
export class EndpointDirectory {
  private readonly listing: CoalescedCall<EndpointState[]>;
  /** Endpoints this process changed since the shared listing was started. */
  private readonly changedIds = new Set<string>();

  /**
   * @param list the path's listing of the caller's endpoints.
   * @param windowMs largest gap between lookups sharing one listing (default {@link LOOKUP_WINDOW_MS}).
   * @param maxAgeMs oldest listing that may answer (default {@link LOOKUP_MAX_AGE_MS}, never below `windowMs`).
   */
  constructor(list: () => Promise<EndpointState[]>, windowMs: number = LOOKUP_WINDOW_MS, maxAgeMs: number = LOOKUP_MAX_AGE_MS) {
    this.listing = new CoalescedCall(list, windowMs, Math.max(windowMs, maxAgeMs));
  }

  /** Number of listings made so far. */
  get listingCount(): number {
    return this.listing.callCount;
  }

  /**
   * All of the caller's endpoints, from a shared listing when one is fresh and no endpoint changed
   * by this process since it was started.
   * @throws whatever the listing throws.
   */
  list(): Promise<EndpointState[]> {
    if (this.changedIds.size > 0) this.invalidate();
    return this.listing.get();
  }

  /**
   * The endpoint with `id`, or undefined when the caller has none with that id (deleted, or never
   * existed). Answered from the shared listing unless this process changed `id` since it was started.
   * @throws listing errors (authentication, network, ...), never for a missing endpoint.
   */
  async findEndpoint(id: string): Promise<EndpointState | undefined> {
    if (this.changedIds.has(id)) this.invalidate();
    return (await this.listing.get()).find((e) => e.id === id);
  }

  /** Reports a change this process made to endpoint `id` (created, updated, deleted, or tried to). */
  changed(id: string): void {
    this.changedIds.add(id);
  }

  /** Forget the shared listing (e.g. after a create whose outcome, and so whose id, is unknown). */
  invalidate(): void {
    // A listing started from now on reflects every change reported so far.
    this.changedIds.clear();
    this.listing.invalidate();
  }
}
