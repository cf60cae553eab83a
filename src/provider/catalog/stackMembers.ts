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
