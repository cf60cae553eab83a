/**
 * The one interface every kind's path port implements (`<kind>/paths/<path>.ts`): create, read, update
 * and delete in the model's terms (records of paths/records.ts), plus what the path can and cannot do,
 * declared ({@link PortCapabilities}) so the providers above ask instead of guessing from a record's shape.
 */
import type { PlatformClient } from "../api";
import type { SharedListing } from "./listing";

type Props = Record<string, unknown>;

/**
 * A kind's container settings as other kinds compare them (Template: REST v2 endpoints copy them), so a
 * kind asks the session rather than import the kind that owns them.
 */
export interface ContainerFacts<T = object, C = object> {
  /** The fields that make a new container version. */
  readonly fields: readonly string[];
  /** Whether `container` (a copy) holds `source`'s current settings (in memory: env values go nowhere). */
  runs(source: T, container: C): boolean;
  /** The fields in which `container` differs from `source`'s settings (names only: values go nowhere). */
  changed(source: T, container: C): string[];
}

/**
 * What a port may use: the session's client, the shared listings of every kind, and what the session
 * knows of other kinds (kindSession.ts provides them).
 */
export interface PortContext {
  readonly client: PlatformClient;
  /** The shared listing of a kind's records on the session's path, by the kind's name (`"endpoint"`). */
  listing<R extends { id: string }>(kind: string): SharedListing<R>;
  /** The container settings `kind` declares for other kinds to compare with (Template's). */
  container<T, C>(kind: string): ContainerFacts<T, C>;
  /** The settings a Template diff of this deployment found template `id`'s container about to take, if any. */
  templateNext(id: string): Readonly<Record<string, unknown>> | undefined;
}

/** What one path can do for a kind, in the model's terms. */
export interface PortCapabilities {
  /**
   * Fields this path leaves out of its records: outputs carry them from the inputs or stored outputs.
   * (REST v2 keeps no link from an endpoint to its template, and omits `workers.idleTimeout` of a
   * queue-based endpoint scaling on request count.)
   */
  readonly unreported: readonly string[];
  /** Inputs this path cannot change in place: a change replaces (REST v2 has no registry update). */
  readonly replaces: readonly string[];
  /**
   * Inputs this path cannot unset in place: a change to the model's default replaces (REST v2's PATCH
   * cannot remove a template's mount: omitting `mounts` keeps it). Other changes stay in place.
   */
  readonly replacesOnUnset?: readonly string[];
  /** Inputs the model replaces on change that this path changes in place (REST v2 renames a template). */
  readonly updatesInPlace?: readonly string[];
  /**
   * Names are unique per account on this path (GraphQL templates and registry credentials): a
   * replacement that keeps the name deletes the old record first (`deleteBeforeReplace`). Elsewhere the
   * replacement is created first, so what refers to the old record moves before it is deleted.
   */
  readonly uniqueNames?: boolean;
  /**
   * The path copies a referenced template into the resource at create (REST v2 endpoints: a snapshot,
   * reported as the record's `container`), so a template change reaches it only when re-applied; false
   * where the platform follows the template itself.
   */
  readonly copiesTemplates: boolean;
  /**
   * What uses a record of this kind follows its saves by itself (GraphQL templates: the platform rolls
   * every endpoint of a changed template onto it), so the provider follows that rollout to health.
   */
  readonly usersFollow?: boolean;
}

export interface Port<I, R extends { id: string }> {
  readonly capabilities: PortCapabilities;
  /** Sends the create of `inputs` (the provider settles an unknown outcome; never repeated here). */
  create(inputs: I): Promise<R>;
  /**
   * After a create: applies what the create could not carry, if anything (GraphQL's REST v1 create).
   * @throws IncompleteCreateError when the record exists but a follow-up failed.
   */
  finishCreate?(record: R, inputs: I): Promise<R>;

  /** The caller's record `id`, or undefined when it has none (from the session's shared listing). */
  read(id: string): Promise<R | undefined>;
  /**
   * What only this path sees changing, given the fields the model found `changed` between the stored
   * outputs `olds` and the checked inputs `news`: the fields to show as changed (REST v2 endpoints: a
   * template to re-apply shows as `templateId`, a release nobody followed as `releaseVersion`). Asked
   * only when nothing replaces: a replacement starts afresh.
   */
  changesOnPath?(id: string, olds: Props, news: Props, changed: readonly string[]): Promise<string[]>;
  /**
   * After a read of record `id`: the outputs only this path keeps, written into `outs` (REST v2
   * endpoints: the release taken as followed when adopted, whether it runs its template's current
   * settings). `props`: the stored outputs, if any.
   */
  readOutputs?(id: string, outs: Props, props: Props | undefined): Promise<void>;
  /**
   * Applies `inputs` to record `id`; `olds` are the stored outputs (last read). Where the path copies
   * templates, a template whose settings the record no longer runs is re-applied (and followed).
   */
  update(id: string, inputs: I, olds: Props): Promise<R>;
  /**
   * Deletes record `id`, first doing what the path needs for it (an endpoint: scale to zero, let
   * running jobs finish); gone counts as deleted. Refused while something still uses the record: the
   * platform's refusal ({@link refusedInUse}) as it came, once; the session's port retries it (inUse.ts)
   * for whoever asks it to. `props`: the stored outputs, if any.
   */
  delete(id: string, props: Props | undefined): Promise<void>;
  /**
   * Whether `err`, from {@link delete}, is the platform's refusal while something still uses the record
   * (REST v2: a 400 to the delete; GraphQL: `FAILED_PRECONDITION`, paths/graphqlErrors.ts). Unset: none is.
   */
  refusedInUse?(err: unknown): boolean;
}

/** Builds a kind's port for one path on a session (each kind's `paths/index.ts`). */
export type PortFactory<I, R extends { id: string }> = (context: PortContext) => Port<I, R>;

/** The record exists, but setting what its create could not carry failed (the provider records it, the next `up` finishes). */
export class IncompleteCreateError<R = unknown> extends Error {
  constructor(
    message: string,
    readonly record: R,
  ) {
    super(message);
    this.name = "IncompleteCreateError";
  }
}
