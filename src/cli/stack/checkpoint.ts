/**
 * The parts of an exported stack (`pulumi stack export`, deployment version 3) that the stack
 * commands read and edit. Everything else in the file is carried through untouched.
 */

/** One resource of the deployment. */
export interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  /** Provider id; absent for components. */
  id?: string;
  /** True for a resource replaced by a newer one of the same URN and not yet deleted. */
  delete?: boolean;
  parent?: string;
  /** `<provider urn>::<provider id>`. */
  provider?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  [key: string]: unknown;
}

/** What an interrupted `pulumi` was doing to a resource when it stopped. */
export type OperationType = "creating" | "updating" | "deleting" | "reading" | "importing";

/** A pending operation: written before the provider is called, removed once its result is recorded. */
export interface PendingOperation {
  resource: StateResource;
  type: OperationType;
}

export interface Deployment {
  manifest?: { time?: string; [key: string]: unknown };
  resources?: StateResource[];
  pending_operations?: PendingOperation[];
  [key: string]: unknown;
}

export interface Checkpoint {
  version: number;
  deployment: Deployment;
}

export const STACK_TYPE = "pulumi:pulumi:Stack";

/** How an exported state marks a secret: `{ [SECRET_SIG_KEY]: SECRET_SIG_VALUE, ciphertext | plaintext }`. */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG_VALUE = "1b47061264138c4ac30d75fd1eb44270";
export const NODEJS_PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";

/**
 * Parses `pulumi stack export` output. A stack that was never deployed exports an empty deployment.
 * @throws Error when the text is not an exported stack.
 */
export function parseCheckpoint(text: string): Checkpoint {
  const parsed = JSON.parse(text) as Partial<Checkpoint>;
  if (typeof parsed !== "object" || parsed === null || typeof parsed.version !== "number") {
    throw new Error("`pulumi stack export` did not print an exported stack");
  }
  return { version: parsed.version, deployment: parsed.deployment ?? {} };
}

/** The resource name at the end of a URN (`urn:pulumi:stack::project::type::name` → `name`). */
export function resourceNameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** `<urn>::<id>` → `<urn>` (provider references carry the provider's id after the last `::`). */
export function providerUrnOf(reference: string): string {
  return reference.slice(0, reference.lastIndexOf("::"));
}

/** The resources of `checkpoint` (none for an empty stack). */
export function resourcesOf(checkpoint: Checkpoint): StateResource[] {
  return checkpoint.deployment.resources ?? [];
}

/** The pending operations of `checkpoint`. */
export function pendingOf(checkpoint: Checkpoint): PendingOperation[] {
  return checkpoint.deployment.pending_operations ?? [];
}
