/**
 * What the stack commands (`import`, `recover`, `orphans`) need to know of one kind of platform
 * resource managed by this package. Each kind registers one {@link StackKind} (registry.ts); the
 * commands themselves are the same for every kind.
 */
import type { PlatformClient } from "../../api";
import type { ApiPath } from "../../provider/apiPath";
import type { InUseOptions } from "../../provider/inUse";

/** A platform object of some kind, as far as the stack commands compare and show it. */
export interface PlatformObject {
  id: string;
  name: string;
  /** A few words for tables (e.g. template and GPU tiers). */
  summary: string;
}

export interface StackKind {
  /** Pulumi type token in the state, e.g. `pulumi-nodejs:dynamic/runpod:Endpoint`. */
  readonly type: string;
  /** Singular noun for messages and tables, e.g. `endpoint`. */
  readonly noun: string;

  /** Every object of this kind the API key can see, from the listing of the stack's API path. */
  list(client: PlatformClient, api: ApiPath): Promise<PlatformObject[]>;

  /**
   * Whether `object` can be what a create with `inputs` made: `inputs` are the checked inputs a
   * pending create recorded (the engine writes them before it calls the provider).
   */
  madeBy(object: PlatformObject, inputs: Record<string, unknown>): boolean;

  /** The platform name recorded in a resource's inputs or outputs, if any. */
  nameIn(props: Record<string, unknown> | undefined): string | undefined;

  /** Whether `name` has the form of the auto-name the provider draws for the resource `resourceName`. */
  isAutoNameOf(name: string, resourceName: string): boolean;

  /**
   * Deletes `object` from the platform, first stopping whatever keeps it from being deleted; gone already
   * counts as deleted. With `inUse`, a delete refused while something still uses it is retried as a destroy
   * retries it (provider/inUse.ts); without, the refusal comes as the platform gave it.
   */
  remove(client: PlatformClient, object: PlatformObject, api: ApiPath, inUse?: InUseOptions): Promise<void>;
}
