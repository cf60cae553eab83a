/** The Pod kind: its descriptor (kind.ts), listed in kinds.ts. */
import type { KindDescriptor } from "../kind";
import type { PodState } from "../paths/records";
import { podsMounting } from "./mounts";
import { POD_MODEL, type PodInputs } from "./model";
import { POD_LISTING, POD_PORTS } from "./paths";

export const POD: KindDescriptor<"pod", PodInputs, PodState> = {
  kind: "pod",
  model: POD_MODEL,
  doc: "A GPU or CPU pod (REST v2 on every `runpod:api` value: the platform has no GraphQL operations for pods). `gpuTypeIds` are tried in order of preference; `desiredStatus` `EXITED` / `RUNNING` stops and starts the pod in place. Env values are secret. `name` is generated from the resource name when unset.\n\nImport: `pulumi import runpod:index:Pod <name> <pod id>`.",
  ports: POD_PORTS,
  listing: POD_LISTING,
  stack: {
    noun: "pod",
    summary: (p) => `${p.gpuTypeId ? `${p.gpuCount} x ${p.gpuTypeId}` : `${String(p.vcpuCount)} vCPU ${String(p.cpuFlavorId)}`}, ${p.status}`,
  },
  usesOf: { networkVolume: (session, id) => podsMounting(session.client, id) },
  hourlyCost: async (session, args) => (await import("./review")).podHourlyCost(session, args),
  provider: async (session) => new (await import("./provider")).PodProvider(session),
};
