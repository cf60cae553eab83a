/**
 * What a resource kind is to the rest of the package: one descriptor per kind (`<kind>/index.ts`),
 * listed once in kinds.ts. Everything that used to keep its own list of kinds reads that list: the
 * session's listings and ports, the provider module's `resources`, the plugin's tokens and schema
 * docs, the CLI's stack commands. This file names no kind.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { KindSession, SessionKind } from "./kindSession";
import type { ResourceModel } from "./model/fields";

export type { ContainerFacts } from "./port";

type Props = Record<string, unknown>;

/** One resource kind's operations, as the dynamic provider host calls them (its `configure` is the runtime's). */
export type ResourceOperations = Required<Omit<dynamic.ResourceProvider, "configure">>;

/** What the stack commands (`import`, `recover`, `orphans`) need of a kind beyond its listing and port. */
export interface StackFacts<R> {
  /** Singular noun for messages and tables, e.g. `endpoint`. */
  readonly noun: string;
  /** A few words for tables (e.g. template and GPU tiers). */
  summary(record: R): string;
  /**
   * Whether `record`, of the same name, can be what a create with checked `inputs` made (default: yes,
   * the identity of kinds with unique names). `unreported`: the fields the stack's path leaves out of
   * records (its port's capabilities).
   */
  madeBy?(record: R, inputs: Props, unreported: readonly string[]): boolean;
  /** What the port's delete reads of stored outputs, from a listed record (default: its name). */
  deleteProps?(record: R): Props;
}

export interface KindDescriptor<K extends string = string, I = never, R extends { id: string } = { id: string }> extends SessionKind<I, R> {
  readonly kind: K;
  readonly model: ResourceModel;
  /** The plugin schema's description of the resource (docs line; Markdown). */
  readonly doc: string;
  readonly stack: StackFacts<R>;
  /** The kind's provider on a session; loaded at first use (the provider module stays light). */
  provider(session: KindSession): Promise<ResourceOperations>;
}

/** `records` in the words of an in-use error ("endpoints a (x), b (y)"), or "" when there are none. */
export function named(plural: string, records: readonly { id: string; name: string }[]): string {
  return records.length > 0 ? `${plural} ${records.map((r) => `${r.id} (${r.name})`).join(", ")}` : "";
}

/** Any kind's descriptor, as the lists and the session hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = KindDescriptor<string, any, any>;
