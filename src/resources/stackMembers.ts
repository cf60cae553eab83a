/**
 * What the program hands the endpoint and pod checks about the rest of the stack:
 * - the declared endpoints and pods, for the budget refusal's total (src/provider/catalog/budget.ts):
 *   with `runpod:maxHourlyCost` set, every Endpoint and Pod hands its check those the program declares by
 *   the next turn of the event loop, each with its cost inputs as plain values (`MEMBER_COST_INPUTS`: never
 *   env or another secret). An input that is still an output of another resource leaves that member's
 *   inputs out, so no registration waits for another resource.
 * - the declared NetworkVolumes, to an Endpoint or Pod that mounts one (src/provider/stackMounts.ts):
 *   their names, and the ids of those declared before it. Its registration waits for those volumes' own
 *   (they cannot wait for it: it did not exist when they were declared), never for a later one.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  MEMBER_COST_INPUTS,
  STACK_MEMBERS_PROPERTY,
  STACK_VOLUMES_PROPERTY,
  type StackMember,
  type StackVolume,
  type StackVolumes,
} from "../provider/catalog/stackMembers";

const declared: StackMember[] = [];
const volumes: { key: string; id: pulumi.Output<string>; retained: boolean }[] = [];
/** The declared endpoints and pods with volume ids given as plain strings: who ("endpoint llm") mounts which. */
const mounters: { user: string; ids: string[] }[] = [];

/** The fields by which an endpoint or pod mounts network volumes. */
const MOUNT_ARGS = { endpoint: ["networkVolumeId", "networkVolumeIds"], pod: ["networkVolumeId"] } as const;

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

/**
 * Notes NetworkVolume `key`, for the checks of the endpoints and pods that mount volumes. `retained`: the
 * program never deletes it by dropping it (a `get`, or `retainOnDelete`).
 */
export function declareStackVolume(key: string, id: pulumi.Output<string>, retained: boolean): void {
  volumes.push({ key, id, retained });
}

/** A volume's id once its registration answers: null when unknown at this preview, undefined when its registration failed. */
async function idOf(id: pulumi.Output<string>): Promise<string | null | undefined> {
  // The id's value, not the Output: an Output in the registered properties would make the endpoint depend on the volume.
  const output = id as unknown as { isKnown: Promise<boolean>; promise(): Promise<string> };
  try {
    return (await output.isKnown) ? await output.promise() : null;
  } catch {
    return undefined;
  }
}

/**
 * Adds the declared volumes to the registered `props` of endpoint or pod `name` when its `args` mount
 * one, with who else mounts the ids it gives as plain strings (only those: the hand-over grows with the
 * volumes and with the resources sharing its literal mounts, not with the stack).
 */
function withStackVolumes(kind: StackMember["kind"], name: string, args: object | undefined, props: pulumi.Inputs): void {
  const given = (args ?? {}) as Record<string, unknown>;
  if (!MOUNT_ARGS[kind].some((f) => given[f] !== undefined && given[f] !== null)) return;
  const ids = MOUNT_ARGS[kind].flatMap((f) => [given[f]].flat()).filter((id): id is string => typeof id === "string" && id !== "");
  if (ids.length > 0) mounters.push({ user: `${kind} ${name}`, ids });
  const before = volumes.length;
  props[STACK_VOLUMES_PROPERTY] = new Promise<StackVolumes>((resolve) =>
    setImmediate(() => {
      const all = volumes.slice();
      const mountedBy = Object.fromEntries(ids.map((id) => [id, mounters.filter((m) => m.ids.includes(id)).map((m) => m.user)]));
      void Promise.all(all.slice(0, before).map((v) => idOf(v.id))).then((known) =>
        resolve({
          volumes: all.map((v, i): StackVolume => ({
            key: v.key,
            ...(v.retained ? { retained: true } : {}),
            ...(i < before && known[i] !== undefined ? { id: known[i] } : {}),
          })),
          mountedBy,
        }),
      );
    }),
  );
}

/**
 * Notes the endpoint or pod `name`; adds the declared volumes to its registered `props` when it mounts
 * one, and the declared members when the stack has a budget.
 */
export function withStackMembers(kind: StackMember["kind"], name: string, args: object | undefined, props: pulumi.Inputs): void {
  withStackVolumes(kind, name, args, props);
  if (new pulumi.Config("runpod").get("maxHourlyCost") === undefined) return;
  declared.push({ kind, key: name, args: costInputs(kind, args) });
  props[STACK_MEMBERS_PROPERTY] = new Promise<StackMember[]>((resolve) => setImmediate(() => resolve(declared.slice())));
}
