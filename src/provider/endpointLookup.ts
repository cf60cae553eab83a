/**
 * Finding endpoints by id with one shared listing: the platform has no "get endpoint" call, only
 * `myself { endpoints }` (spec: GraphQL › List endpoints), so a `pulumi refresh` of N endpoints would
 * otherwise list them all N times. Lookups that arrive while a listing is in flight, or within
 * {@link LOOKUP_WINDOW_MS} after one completed, share it; every mutation made through this process
 * invalidates it (see coalesce.ts).
 */
import type { EndpointRecord, PlatformClient } from "../api/types";
import { CoalescedCall } from "./coalesce";

/** How long a completed listing may answer later lookups, in milliseconds. */
export const LOOKUP_WINDOW_MS = 100;

/** A coalescing view of the caller's endpoints for one client. */
export class EndpointDirectory {
  private readonly listing: CoalescedCall<EndpointRecord[]>;

  constructor(client: Pick<PlatformClient, "listEndpoints">, windowMs: number = LOOKUP_WINDOW_MS) {
    this.listing = new CoalescedCall(() => client.listEndpoints(), windowMs);
  }

  /** Number of `listEndpoints` calls made so far. */
  get listingCount(): number {
    return this.listing.callCount;
  }

  /**
   * All of the caller's endpoints, from a shared listing when one is fresh.
   * @throws whatever `client.listEndpoints` throws.
   */
  list(): Promise<EndpointRecord[]> {
    return this.listing.get();
  }

  /**
   * The endpoint with `id`, or undefined when the caller has none with that id (deleted, or never existed).
   * @throws listing errors (authentication, network, ...), never for a missing endpoint.
   */
  async findEndpoint(id: string): Promise<EndpointRecord | undefined> {
    return (await this.list()).find((e) => e.id === id);
  }

  /** Forget the shared listing; called after every mutation made through this process. */
  invalidate(): void {
    this.listing.invalidate();
  }
}
