/**
 * What every resource kind of one dynamic-provider process shares: one api client, the API path it
 * manages resources through (`runpod:api`, apiPath.ts), and the listings built on them. The design's
 * interfaces have no "get one" calls for these, only listings, so resources of all kinds answered from
 * one shared listing cost one request per burst instead of one each (endpoint/directory.ts).
 */
import type { NetworkVolume, PlatformClient } from "../api";
import { portOf, resolveApiPath, type ApiPath } from "./apiPath";
import { StackLedger } from "./catalog/budget";
import type { Catalog } from "./catalog/catalog";
import { fetchCatalog } from "./catalog/fetch";
import { CatalogReads } from "./catalog/queries";
import { resolveCatalogSettings, type CatalogSettings } from "./catalog/settings";
import { CoalescedCall } from "./coalesce";
import { EndpointDirectory, LOOKUP_MAX_AGE_MS, LOOKUP_WINDOW_MS } from "./endpoint/directory";
import { SharedListing } from "./listing";
import { LISTINGS, type Listings } from "./paths/listings";
import type { NetworkVolumeState, PodState, RegistryAuthState, TemplateState } from "./paths/records";

export interface SessionOptions {
  /** Largest gap between lookups that share one listing (default {@link LOOKUP_WINDOW_MS}). */
  lookupWindowMs?: number;
  /** The configured `runpod:api` (validated at first use; unset: `RUNPOD_API`, then the default). */
  api?: string;
  /** `runpod:requireAvailability` / `runpod:maxHourlyCost` as configured (catalog/settings.ts). */
  catalogSettings?: Record<string, string>;
  /** Where notices of a preview go (scarce availability); default: the provider's stderr, which the engine shows. */
  warn?: (message: string) => void;
}

export class PlatformSession {
  private clientInstance?: PlatformClient;
  private apiPath?: ApiPath;
  private endpointDirectory?: EndpointDirectory;
  private volumes?: CoalescedCall<NetworkVolume[]>;
  private templateListing?: SharedListing<TemplateState>;
  private registryAuthListing?: SharedListing<RegistryAuthState>;
  private networkVolumeStates?: SharedListing<NetworkVolumeState>;
  private podStates?: SharedListing<PodState>;
  /** The settings a Template diff of this process found a template's container about to take (in memory only: env values are secrets). */
  private readonly changingTemplates = new Map<string, Readonly<Record<string, unknown>>>();
  private catalogRead?: Promise<Catalog>;
  private catalogQueries?: CatalogReads;
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

  /**
   * The path every kind of this session uses, resolved once.
   * @throws ConfigurationError naming `runpod:api` (or `RUNPOD_API`) and its values.
   */
  get api(): ApiPath {
    this.apiPath ??= resolveApiPath(this.options.api);
    return this.apiPath;
  }

  private get windowMs(): number {
    return this.options.lookupWindowMs ?? LOOKUP_WINDOW_MS;
  }

  private get listings(): Listings {
    return portOf(LISTINGS, this.api);
  }

  /** The caller's endpoints, from a shared listing (reads, create's duplicate check, a refused delete). */
  get endpoints(): EndpointDirectory {
    const { endpoints } = this.listings;
    this.endpointDirectory ??= new EndpointDirectory(() => endpoints(this.client), this.windowMs);
    return this.endpointDirectory;
  }

  /** The caller's templates: template reads and deletes, Endpoint's `templateId` check. */
  get templates(): SharedListing<TemplateState> {
    // A burst of checks (a preview of many endpoints naming one template) shares one listing as long
    // as the checks keep coming, like the endpoint directory's, instead of one per window.
    const { templates } = this.listings;
    this.templateListing ??= new SharedListing(() => templates(this.client), this.windowMs, LOOKUP_MAX_AGE_MS);
    return this.templateListing;
  }

  /** The caller's registry credentials. */
  get registryAuths(): SharedListing<RegistryAuthState> {
    const { registryAuths } = this.listings;
    this.registryAuthListing ??= new SharedListing(() => registryAuths(this.client), this.windowMs, LOOKUP_MAX_AGE_MS);
    return this.registryAuthListing;
  }

  /** The caller's network volumes as the NetworkVolume kind reads them (REST v2 on every path). */
  get networkVolumeListing(): SharedListing<NetworkVolumeState> {
    const { networkVolumes } = this.listings;
    this.networkVolumeStates ??= new SharedListing(() => networkVolumes(this.client), this.windowMs, LOOKUP_MAX_AGE_MS);
    return this.networkVolumeStates;
  }

  /** The caller's pods as the Pod kind reads them (REST v2 on every path): a refresh of N pods lists once. */
  get podListing(): SharedListing<PodState> {
    const { pods } = this.listings;
    this.podStates ??= new SharedListing(() => pods(this.client), this.windowMs, LOOKUP_MAX_AGE_MS);
    return this.podStates;
  }

  /**
   * The serverless catalog, read once per session (one provider process serves a whole preview or
   * up, so: once per deployment, whatever the number of endpoints); concurrent callers share the read,
   * and a failed read is not repeated for the next endpoint.
   */
  catalog(): Promise<Catalog> {
    this.catalogRead ??= (async () => {
      this.catalogReads += 1;
      return fetchCatalog(this.catalogSource);
    })();
    return this.catalogRead;
  }

  /** The catalog reads of this session's client, shared by preview's catalog and the plugin's catalog functions. */
  get catalogSource(): CatalogReads {
    this.catalogQueries ??= new CatalogReads(this.client.v2);
    return this.catalogQueries;
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

  /**
   * Reports that this deployment is about to change the container settings of template `id` to those of
   * `next` (its checked inputs; its diff, at preview and at up): the endpoints using it, diffed after it,
   * compare their copy with them where the path copies templates (endpoint/provider.ts).
   */
  templateChanging(id: string, next: Readonly<Record<string, unknown>>): void {
    this.changingTemplates.set(id, next);
  }

  /** The settings a Template diff of this deployment found template `id`'s container about to take, if any. */
  templateNext(id: string): Readonly<Record<string, unknown>> | undefined {
    return this.changingTemplates.get(id);
  }

  /** This process created, changed or deleted a network volume: the next {@link networkVolumes} lists again. */
  networkVolumeChanged(): void {
    this.volumes?.invalidate();
  }

  /** The caller's network volumes (`GET /v2/network-volumes` on both paths), one listing per burst of checks. */
  networkVolumes(): Promise<NetworkVolume[]> {
    this.volumes ??= new CoalescedCall(() => this.client.listNetworkVolumes(), this.windowMs, Math.max(this.windowMs, LOOKUP_MAX_AGE_MS));
    return this.volumes.get();
  }
}
