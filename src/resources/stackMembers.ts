/**
 * The stack's declared endpoints and pods, for the budget refusal's total (src/provider/catalog/budget.ts):
 * with `runpod:maxHourlyCost` set, every Endpoint and Pod hands its check those the program declares by
 * the next turn of the event loop, each with its cost inputs as plain values (`MEMBER_COST_INPUTS`: never
 * env or another secret). An input that is still an output of another resource leaves that member's
 * inputs out, so no registration waits for another resource.
 */
import * as pulumi from "@pulumi/pulumi";
import { MEMBER_COST_INPUTS, STACK_MEMBERS_PROPERTY, type StackMember } from "../provider/catalog/stackMembers";

const declared: StackMember[] = [];

const isPlain = (v: unknown): boolean =>
  v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean" || (Array.isArray(v) && v.every(isPlain));

/** `args`' cost inputs, or undefined when one of them is not a plain value yet. */
function costInputs(kind: StackMember["kind"], args: object | undefined): Record<string, unknown> | undefined {
  const given = (args ?? {}) as Record<string, unknown>;
  const inputs: Record<string, unknown> = {};
  for (const f of MEMBER_COST_INPUTS[kind]) {
    const v = given[f];
    if (v === undefined) continue;
    if (!isPlain(v)) return undefined;
    inputs[f] = v;
  }
  return inputs;
}

/** Notes the endpoint or pod `name` and, when the stack has a budget, adds the declared members to its registered `props`. */
export function withStackMembers(kind: StackMember["kind"], name: string, args: object | undefined, props: pulumi.Inputs): void {
  if (new pulumi.Config("runpod").get("maxHourlyCost") === undefined) return;
  declared.push({ kind, key: name, args: costInputs(kind, args) });
  props[STACK_MEMBERS_PROPERTY] = new Promise<StackMember[]>((resolve) => setImmediate(() => resolve(declared.slice())));
}
