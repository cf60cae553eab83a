/**
 * What every resource kind of one dynamic-provider process shares: one api client and the listings
 * built on it. The platform has no "get one" calls for these, only listings, so resources of all kinds
 * answered from one shared listing cost one request per burst instead of one each (endpoint/directory.ts).
 */
import type { NetworkVolume, PlatformClient, RegistryAuthRecord, TemplateRecord } from "../api";
import { StackLedger } from "./catalog/budget";
import type { Catalog } from "./catalog/catalog";
import { fetchCatalog } from "./catalog/fetch";
import { resolveCatalogSettings, type CatalogSettings } from "./catalog/settings";
import { CoalescedCall } from "./coalesce";
import { EndpointDirectory, LOOKUP_WINDOW_MS } from "./endpoint/directory";
import { SharedListing } from "./listing";

export interface SessionOptions {
  /** Largest gap between lookups that share one listing (default {@link LOOKUP_WINDOW_MS}). */
  lookupWindowMs?: number;
  /** `runpod:requireAvailability` / `runpod:maxHourlyCost` as configured (catalog/settings.ts). */
  catalogSettings?: Record<string, string>;
  /** Where notices of a preview go (scarce availability); default: the provider's stderr, which the engine shows. */
  warn?: (message: string) => void;
}

export class PlatformSession {
  private clientInstance?: PlatformClient;
  private endpointDirectory?: EndpointDirectory;
  private volumes?: CoalescedCall<NetworkVolume[]>;
  private templateListing?: SharedListing<TemplateRecord>;
  private registryAuthListing?: SharedListing<RegistryAuthRecord>;
  private catalogRead?: Promise<Catalog>;
  private catalogReads = 0;
  /** The estimates of this deployment's endpoints, as their checks ran (catalog/budget.ts). */
  readonly ledger = new StackLedger();

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
    this.templateListing ??= new SharedListing(() => this.client.listTemplates(), this.windowMs);
    return this.templateListing;
  }

  /** The caller's registry credentials (`myself { containerRegistryCreds }`). */
  get registryAuths(): SharedListing<RegistryAuthRecord> {
    this.registryAuthListing ??= new SharedListing(() => this.client.listRegistryAuths(), this.windowMs);
    return this.registryAuthListing;
  }

  /**
   * The serverless catalog, read once per session (one provider process serves a whole preview or
   * up, so: once per deployment, whatever the number of endpoints); concurrent callers share the read,
   * and a failed read is not repeated for the next endpoint.
   */
  catalog(): Promise<Catalog> {
    this.catalogRead ??= (async () => {
      this.catalogReads += 1;
      return fetchCatalog(this.client.v2);
    })();
    return this.catalogRead;
  }

  /** How many catalog reads this session started (at most 1). */
  get catalogReadCount(): number {
    return this.catalogReads;
  }

  /** @throws ConfigurationError naming the key of a malformed setting. */
  get catalogSettings(): CatalogSettings {
    return resolveCatalogSettings(this.options.catalogSettings ?? {});
  }

  /** A notice for the user (e.g. scarce availability), shown by the engine with the preview. */
  warn(message: string): void {
    (this.options.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`)))(message);
  }

  /** The caller's network volumes (`GET /v2/network-volumes`), one listing per burst of checks. */
  networkVolumes(): Promise<NetworkVolume[]> {
    this.volumes ??= new CoalescedCall(() => this.client.listNetworkVolumes(), this.windowMs);
    return this.volumes.get();
  }
}
