/**
 * The stack's network volumes this deployment deletes, for the endpoints and pods that mount one
 * (src/provider/volumesLeaving.ts refuses the mount at preview). The deployed state is read once per
 * program through the engine's `pulumi:pulumi:readStackResourceOutputs` (any backend); a volume is
 * leaving when the program declares no NetworkVolume of its resource name.
 */
import * as pulumi from "@pulumi/pulumi";
import { ENDPOINT_MODEL, NETWORK_VOLUME_MODEL, POD_MODEL } from "../provider";
import type { LeavingVolume } from "../provider/volumesLeaving";

/** Resource names the program declares, per type name (`NetworkVolume`, `Endpoint`, `Pod`). */
const declared = new Map<string, Set<string>>();

/** Called by every resource class of this package as it is constructed. */
export function noteDeclared(type: string, name: string): void {
  let names = declared.get(type);
  if (!names) declared.set(type, (names = new Set()));
  names.add(name);
}

interface StateResource {
  type: string;
  name: string;
  outputs: Record<string, unknown>;
}

let state: Promise<StateResource[]> | undefined;

/** The deployed state's resources of this package (none for a stack never deployed, or when the engine cannot read it). */
function readState(): Promise<StateResource[]> {
  state ??= (async () => {
    try {
      const stackName = `${pulumi.getOrganization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
      const result = (await pulumi.runtime.invoke("pulumi:pulumi:readStackResourceOutputs", { stackName }, { async: true })) as {
        outputs?: Record<string, { type?: string; outputs?: Record<string, unknown> }>;
      };
      return Object.entries(result?.outputs ?? {}).flatMap(([urn, r]) => {
        const type = /^pulumi-nodejs:dynamic\/runpod:(\w+)$/.exec(r?.type ?? "")?.[1];
        return type ? [{ type, name: urn.slice(urn.lastIndexOf("::") + 2), outputs: r.outputs ?? {} }] : [];
      });
    } catch {
      return []; // a stack never deployed, or an engine without the builtin: nothing known to refuse
    }
  })();
  return state;
}

const mounted = (outputs: Record<string, unknown>): unknown[] => [
  outputs.networkVolumeId,
  ...(Array.isArray(outputs.networkVolumeIds) ? outputs.networkVolumeIds : []),
];

/**
 * `{ <volume id>: { resource, users } }` of the state's volumes the program does not declare, once the
 * program's declarations of this turn of the event loop are in.
 */
export async function volumesLeaving(): Promise<Record<string, LeavingVolume>> {
  const resources = await readState();
  await new Promise((resolve) => setImmediate(resolve));
  const kept = (type: string, name: string) => declared.get(type)?.has(name) === true;
  const leaving: Record<string, LeavingVolume> = {};
  for (const v of resources) {
    const id = v.outputs.networkVolumeId;
    if (v.type !== NETWORK_VOLUME_MODEL.type || typeof id !== "string" || v.outputs.__lookup === true || kept(v.type, v.name)) continue;
    const users = resources
      .filter((r) => (r.type === ENDPOINT_MODEL.type || r.type === POD_MODEL.type) && kept(r.type, r.name) && mounted(r.outputs).includes(id))
      .map((r) => `${r.type === POD_MODEL.type ? "pod" : "endpoint"} ${r.name}`);
    leaving[id] = { resource: v.name, users };
  }
  return leaving;
}
