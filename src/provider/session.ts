/**
 * What every resource kind of one dynamic-provider process shares: one api client and the listings
 * built on it. The platform has no "get one" calls for these, only listings, so resources of all kinds
 * answered from one shared listing cost one request per burst instead of one each (endpoint/directory.ts).
 */
import type { NetworkVolume, PlatformClient, RegistryAuthRecord, TemplateRecord } from "../api";
import { CoalescedCall } from "./coalesce";
import { EndpointDirectory, LOOKUP_MAX_AGE_MS, LOOKUP_WINDOW_MS } from "./endpoint/directory";
import { SharedListing } from "./listing";

export interface SessionOptions {
  /** Largest gap between lookups that share one listing (default {@link LOOKUP_WINDOW_MS}). */
  lookupWindowMs?: number;
}

export class PlatformSession {
  private clientInstance?: PlatformClient;
  private endpointDirectory?: EndpointDirectory;
  private volumes?: CoalescedCall<NetworkVolume[]>;
  private templateListing?: SharedListing<TemplateRecord>;
  private registryAuthListing?: SharedListing<RegistryAuthRecord>;

  /**
   * @param getClient returns the client (throws ConfigurationError when the key or an address is
   *   missing or invalid); called at the first use that needs it, and again after it threw.
   */
  constructor(
    private readonly getClient: () => PlatformClient,
    private readonly options: SessionOptions = {},
  ) {}

  get client(): PlatformClient {
    this.clientInstance ??= this.getClient();
    return this.clientInstance;
  }

  private get windowMs(): number {
    return this.options.lookupWindowMs ?? LOOKUP_WINDOW_MS;
  }

  /** The caller's endpoints, from a shared listing (reads, create's duplicate check, a refused delete). */
  get endpoints(): EndpointDirectory {
    this.endpointDirectory ??= new EndpointDirectory(this.client, this.windowMs);
    return this.endpointDirectory;
  }

  /** The caller's templates (`myself { podTemplates }`): template reads and deletes, Endpoint's `templateId` check. */
  get templates(): SharedListing<TemplateRecord> {
    // A burst of checks (a preview of many endpoints naming one template) shares one listing as long
    // as the checks keep coming, like the endpoint directory's, instead of one per window.
    this.templateListing ??= new SharedListing(() => this.client.listTemplates(), this.windowMs, LOOKUP_MAX_AGE_MS);
    return this.templateListing;
  }

  /** The caller's registry credentials (`myself { containerRegistryCreds }`). */
  get registryAuths(): SharedListing<RegistryAuthRecord> {
    this.registryAuthListing ??= new SharedListing(() => this.client.listRegistryAuths(), this.windowMs, LOOKUP_MAX_AGE_MS);
    return this.registryAuthListing;
  }

  /** The caller's network volumes (`GET /v2/network-volumes`), one listing per burst of checks. */
  networkVolumes(): Promise<NetworkVolume[]> {
    this.volumes ??= new CoalescedCall(() => this.client.listNetworkVolumes(), this.windowMs, Math.max(this.windowMs, LOOKUP_MAX_AGE_MS));
    return this.volumes.get();
  }
}
