/**
 * What every resource kind of one dynamic-provider process shares: one api client, the API path it
 * manages resources through (`runpod:api`, apiPath.ts), and, for each kind it is given, that kind's
 * port on the path and one shared listing (listing.ts). A kind that needs another kind's facts asks
 * here by the kind's name (`listing("template")`), never by importing it. session.ts gives it the
 * package's kinds (kinds.ts); this file names none but the network volumes the endpoint and pod checks read.
 */
import type { NetworkVolume, PlatformClient } from "../api";
import { portOf, resolveApiPath, type ApiPath, type PerPath } from "./apiPath";
import { StackLedger, type LedgerEntry } from "./catalog/budget";
import type { Catalog } from "./catalog/catalog";
import { fetchCatalog } from "./catalog/fetch";
import { CatalogReads } from "./catalog/queries";
import { resolveCatalogSettings, type CatalogSettings } from "./catalog/settings";
import { LOOKUP_MAX_AGE_MS, LOOKUP_WINDOW_MS, SharedListing } from "./listing";
import type { NetworkVolumeState } from "./paths/records";
import { retryingInUse, type InUseOptions } from "./inUse";
import { containsUnknown } from "./unknown";
import type { ContainerFacts, Port, PortContext, PortFactory } from "./port";

/** The names of what a Template diff found changing in a template's container: never a value (env values are secrets). */
export interface TemplateChanges {
  /** The container fields that change (template/container.ts `CONTAINER_FIELDS`). */
  readonly fields: readonly string[];
  /** The env keys added, removed or given another value; undefined when not known (an env unknown at preview). */
  readonly envKeys?: readonly string[];
}

/** What a session needs of a kind (the rest of its descriptor: kind.ts). */
export interface SessionKind<I = never, R extends { id: string } = { id: string }> {
  /** `resources.<kind>` of the provider module and the model's `kind`. */
  readonly kind: string;
  /** The kind's port per API path (`<kind>/paths/index.ts`): the only place a path is chosen. */
  readonly ports: PerPath<PortFactory<I, R>>;
  /** The caller's records of this kind, per path; the session shares one listing per burst. */
  readonly listing: PerPath<(client: PlatformClient) => Promise<R[]>>;
  /**
   * What this kind's records use of other kinds, by kind: the words naming the users of record `id` in
   * that kind's refused delete ("endpoints a (x), b (y)"), or "". The stack commands remove a kind's
   * orphans before those of the kinds it uses.
   */
  readonly usesOf?: { readonly [kind: string]: (session: KindSession, id: string) => Promise<string> };
  /**
   * An endpoint's or pod's hourly estimate from its cost inputs as the program gave them (catalog/budget.ts
   * `MEMBER_COST_INPUTS`), for the budget refusal's total; undefined when it cannot be told.
   */
  readonly hourlyCost?: (session: KindSession, args: Record<string, unknown>) => Promise<number | undefined>;
  /** Facts other kinds compare with (Template's container settings), if any. */
  readonly container?: ContainerFacts;
  /** How messages call a record of the kind (kind.ts `StackFacts`). */
  readonly stack: { readonly noun: string };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySessionKind = SessionKind<any, any>;

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

/**
 * Why a refusal's total may leave resources out when no program handed the declared ones over (the
 * provider plugin: the engine gives a provider one resource per check, in the order the program
 * registers them, and nothing marks the last one before the preview ends).
 */
export const CHECKED_ONLY =
  "counted: the endpoints and pods checked so far, not those registered after this one (a resource whose inputs wait on another's outputs registers once they resolve, whatever its place in the program; the provider plugin sees each resource only at its own check; `pulumi-runpod cost` totals the deployed stack)";

export class KindSession implements PortContext {
  private clientInstance?: PlatformClient;
  private apiPath?: ApiPath;
  private readonly kinds: ReadonlyMap<string, AnySessionKind>;
  private readonly listings = new Map<string, SharedListing<{ id: string }>>();
  /** What a Template diff of this process found a template's container about to take (in memory only: env values are secrets). */
  private readonly changingTemplates = new Map<string, { next: Readonly<Record<string, unknown>>; changes: TemplateChanges }>();
  private catalogRead?: Promise<Catalog>;
  private catalogQueries?: CatalogReads;
  private catalogReads = 0;
  /** The estimates of this deployment's endpoints, as their checks ran (catalog/budget.ts). */
  readonly ledger = new StackLedger();
  /** Per kind and record id: the resources this deployment keeps using it ({@link keepsUsing}). */
  private readonly keptUses = new Map<string, Map<string, Set<string>>>();

  /**
   * @param getClient returns the client (throws ConfigurationError when the key or an address is
   *   missing or invalid); called at the first use that needs it, and again after it threw.
   * @param kinds the kinds this session serves (kinds.ts `KINDS`).
   */
  constructor(
    private readonly getClient: () => PlatformClient,
    private readonly options: SessionOptions,
    kinds: readonly AnySessionKind[],
  ) {
    this.kinds = new Map(kinds.map((k) => [k.kind, k]));
  }

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

  private descriptor(kind: string): AnySessionKind {
    const found = this.kinds.get(kind);
    if (!found) throw new Error(`this session serves no resource kind "${kind}"; it serves ${[...this.kinds.keys()].join(", ")}`);
    return found;
  }

  /**
   * The caller's records of `kind` on this session's path, one listing per burst of lookups shared by
   * every kind (reads, create settlement, the users named by a refused delete).
   */
  listing<R extends { id: string }>(kind: string): SharedListing<R> {
    let shared = this.listings.get(kind);
    if (!shared) {
      const list = portOf(this.descriptor(kind).listing, this.api);
      // A burst of checks (a preview of many endpoints naming one template) shares one listing as long as the checks keep coming.
      shared = new SharedListing(() => list(this.client), this.options.lookupWindowMs ?? LOOKUP_WINDOW_MS, LOOKUP_MAX_AGE_MS);
      this.listings.set(kind, shared);
    }
    return shared as unknown as SharedListing<R>;
  }

  /**
   * `kind`'s port on this session's path: how that path creates, reads, updates and deletes it.
   * @param inUse when given, a delete the platform refuses while something still uses the record is
   *   retried within its deadline, then fails naming the users (inUse.ts); otherwise the refusal comes as it is.
   */
  port<I, R extends { id: string }>(kind: string, inUse?: InUseOptions): Port<I, R> {
    const descriptor = this.descriptor(kind);
    const port = portOf(descriptor.ports, this.api)(this) as Port<I, R>;
    if (!inUse) return port;
    return retryingInUse(port, descriptor.stack.noun, { users: (id) => this.usersOf(kind, id), kept: (id) => this.keptUsers(kind, id) }, inUse);
  }

  /**
   * Notes, at a resource's `check`, that this deployment keeps `user` ("endpoint llm") using record `id`
   * of `kind`: the program still declares it so. A delete of that record the platform refuses as in use
   * then fails at once, naming the users, instead of waiting for a release that cannot come.
   */
  keepsUsing(kind: string, id: string, user: string): void {
    let byId = this.keptUses.get(kind);
    if (!byId) this.keptUses.set(kind, (byId = new Map()));
    let users = byId.get(id);
    if (!users) byId.set(id, (users = new Set()));
    users.add(user);
  }

  /** {@link keepsUsing} for the network volumes a checked endpoint's or pod's mount fields name (unknown ids: none). */
  keepsMounting(user: string, ...mounts: unknown[]): void {
    for (const id of mounts.flat()) if (typeof id === "string" && id !== "" && !containsUnknown(id)) this.keepsUsing("networkVolume", id, user);
  }

  /** The resources this deployment keeps using record `id` of `kind` ({@link keepsUsing}), sorted. */
  keptUsers(kind: string, id: string): string[] {
    return [...(this.keptUses.get(kind)?.get(id) ?? [])].sort();
  }

  /**
   * Who still uses record `id` of `kind`, in the words of its refused delete ("endpoints a (x); pods
   * b (y)"), or "": each kind that declares it uses `kind` (kind.ts `usesOf`) names its records.
   */
  async usersOf(kind: string, id: string): Promise<string> {
    const words: string[] = [];
    for (const user of this.kinds.values()) {
      const phrase = await user.usesOf?.[kind]?.(this, id);
      if (phrase) words.push(phrase);
    }
    return words.join("; ");
  }

  /** The container settings `kind` declares for other kinds to compare with (Template's). */
  container<T, C>(kind: string): ContainerFacts<T, C> {
    const facts = this.descriptor(kind).container;
    if (!facts) throw new Error(`resource kind "${kind}" declares no container settings`);
    return facts as ContainerFacts<T, C>;
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

  /**
   * Records `entry` in the stack ledger: the refusal when the recorded sum passes `runpod:maxHourlyCost`.
   * Its total counts the stack's declared endpoints and pods not checked yet at their inputs' estimates;
   * without a program's hand-over of them (the plugin path) it says it counts the checked ones ({@link CHECKED_ONLY}).
   */
  async budgetRefusal(entry: LedgerEntry): Promise<string | undefined> {
    const budget = this.catalogSettings.maxHourlyCost;
    if (this.ledger.admit(entry, budget) === undefined) return undefined;
    const counted: LedgerEntry[] = [];
    const unknown: string[] = [];
    await Promise.all(
      this.ledger.unchecked().map(async (m) => {
        const estimate = this.kinds.get(m.kind)?.hourlyCost;
        const cost = m.args && estimate ? await estimate(this, m.args).catch(() => undefined) : undefined;
        if (typeof cost === "number") counted.push({ key: m.key, name: m.key, maxHourlyCost: cost });
        else unknown.push(m.key);
      }),
    );
    const reason = this.ledger.overBudget(budget, counted, unknown);
    return reason === undefined || this.ledger.handedOver ? reason : `${reason}; ${CHECKED_ONLY}`;
  }

  /** A notice for the user (e.g. scarce availability), shown by the engine with the preview. */
  warn(message: string): void {
    (this.options.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`)))(message);
  }

  /**
   * Reports that this deployment is about to change the container settings of template `id` to those of
   * `next` (its checked inputs; its diff, at preview and at up): the endpoints using it, checked and diffed
   * after it, compare their copy with them where the path copies templates (endpoint/provider.ts), and
   * name the `changes` in their checked inputs (endpoint/check.ts `templateChangesOf`).
   */
  templateChanging(id: string, next: Readonly<Record<string, unknown>>, changes: TemplateChanges): void {
    this.changingTemplates.set(id, { next, changes });
  }

  /** The settings a Template diff of this deployment found template `id`'s container about to take, if any. */
  templateNext(id: string): Readonly<Record<string, unknown>> | undefined {
    return this.changingTemplates.get(id)?.next;
  }

  /** Which of template `id`'s container fields (and env keys) a Template diff of this deployment found changing, if any. */
  templateChanges(id: string): TemplateChanges | undefined {
    return this.changingTemplates.get(id)?.changes;
  }

  /**
   * The caller's network volumes in the api's words (what the endpoint and pod checks compare), read from
   * the NetworkVolume kind's shared listing: one `GET /v2/network-volumes` per burst on both paths.
   */
  async networkVolumes(): Promise<NetworkVolume[]> {
    const records = await this.listing<NetworkVolumeState>("networkVolume").list();
    return records.map(({ dataCenterId, ...volume }) => ({ ...volume, dataCenter: dataCenterId }));
  }
}
