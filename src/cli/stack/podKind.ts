/**
 * `Pod` as the stack commands see it (`import`, `recover`, `orphans`): listed and deleted through REST v2 on
 * every API path (pods have no GraphQL operations; the kind's port, paths/ports.ts). A pending create's pod is
 * the one with the recorded name.
 */
import { POD_MODEL } from "../../provider";
import { POD_PORTS } from "../../provider/paths/ports";
import { listPodStates } from "../../provider/pod/paths/v2";
import { namedKind } from "./namedKind";
import { portFor } from "./ports";

export const podKind = namedKind({
  model: POD_MODEL,
  noun: "pod",
  list: async (client) =>
    (await listPodStates(client)).map((p) => ({
      id: p.id,
      name: p.name,
      summary: `${p.gpuTypeId ? `${p.gpuCount} x ${p.gpuTypeId}` : `${String(p.vcpuCount)} vCPU ${String(p.cpuFlavorId)}`}, ${p.status}`,
    })),
  delete: (client, object, api) => portFor(POD_PORTS, client, api).delete(object.id, { name: object.name }),
});
