/**
 * The stack's declared endpoints and pods, as the resource classes hand them to every check when the
 * stack has a budget (src/resources/stackMembers.ts), for the budget refusal's total (budget.ts).
 * Imports nothing: a program loads it.
 */

/** Registered by Endpoint and Pod when the stack has a budget: the stack's declared {@link StackMember}s. `check` removes it. */
export const STACK_MEMBERS_PROPERTY = "__stackMembers";

/** The inputs an endpoint's or pod's estimate reads, per kind: the program hands them over, never a secret. */
export const MEMBER_COST_INPUTS = {
  endpoint: [
    "gpuIds",
    "gpuTypeIds",
    "excludedGpuTypes",
    "cpuFlavorIds",
    "vcpuCount",
    "gpuCount",
    "allowedCudaVersions",
    "dataCenterIds",
    "workersMin",
    "workersMax",
  ],
  pod: ["gpuTypeIds", "gpuCount", "cpuFlavorId", "vcpuCount", "cloudType", "desiredStatus"],
} as const;

/** An endpoint or pod the program declares. */
export interface StackMember {
  kind: keyof typeof MEMBER_COST_INPUTS;
  /** Its Pulumi resource name (the ledger's key). */
  key: string;
  /** Its {@link MEMBER_COST_INPUTS} as the program gave them; absent when one is not a plain value yet (an output of another resource). */
  args?: Record<string, unknown>;
}

/** The well-formed members of a registered {@link STACK_MEMBERS_PROPERTY}. */
export function stackMembers(value: unknown): StackMember[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (m): m is StackMember =>
      typeof m === "object" &&
      m !== null &&
      (m.kind === "endpoint" || m.kind === "pod") &&
      typeof m.key === "string" &&
      (m.args === undefined || (typeof m.args === "object" && m.args !== null && !Array.isArray(m.args))),
  );
}

/**
 * Registered by an Endpoint or Pod that mounts a network volume: the stack's declared NetworkVolumes
 * ({@link StackVolumes}), so `check` can tell a mounted volume of the stack that the program stops
 * declaring (stackMounts.ts). `check` removes it.
 */
export const STACK_VOLUMES_PROPERTY = "__stackVolumes";

/** A NetworkVolume the program declares. */
export interface StackVolume {
  /** Its Pulumi resource name. */
  key: string;
  /**
   * Its id: a string when known, null when unknown at this preview (a volume this deployment creates or
   * replaces, which cannot be one mounted already); absent when not awaited (declared after the mounting
   * resource, whose registration never waits for a later one).
   */
  id?: string | null;
  /** Declared with `retainOnDelete`, or looked up with `NetworkVolume.get`: removing it from the program leaves it on the platform. */
  retained?: boolean;
}

/** A registered {@link STACK_VOLUMES_PROPERTY}. */
export interface StackVolumes {
  volumes: StackVolume[];
  /**
   * Per volume id the resource mounts as a plain string: the declared endpoints and pods that mount it
   * so ("endpoint llm", "pod nb"), itself included, for the refusal to name them all.
   */
  mountedBy: Record<string, string[]>;
}

/** The well-formed parts of a registered {@link STACK_VOLUMES_PROPERTY}, or undefined when none was handed over. */
export function stackVolumes(value: unknown): StackVolumes | undefined {
  if (typeof value !== "object" || value === null || !("volumes" in value) || !Array.isArray(value.volumes)) return undefined;
  const given = "mountedBy" in value ? value.mountedBy : undefined;
  const mountedBy = typeof given === "object" && given !== null ? given : {};
  const volumes = value.volumes.filter(
    (v): v is StackVolume =>
      typeof v === "object" &&
      v !== null &&
      typeof v.key === "string" &&
      (v.id === undefined || v.id === null || typeof v.id === "string") &&
      (v.retained === undefined || typeof v.retained === "boolean"),
  );
  const names = (v: unknown) => (Array.isArray(v) ? v.filter((u): u is string => typeof u === "string") : []);
  return { volumes, mountedBy: Object.fromEntries(Object.entries(mountedBy).map(([id, users]) => [id, names(users)])) };
}
