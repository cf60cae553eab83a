/**
 * Pods on REST v2 (docs/spec/rest-v2-openapi.json, tag Pods), the whole mapping between the model and the
 * document's shapes: Pod, CreatePodRequest, UpdatePodRequest ↔ {@link PodState} (`image`, `args`, `disk`,
 * `registry`, `cloud`, the volume as `mounts.persistent { size, path }` or `mounts.network [{ volumeId, path }]`,
 * the compute as `gpu { id, count }` or `cpu { id, vcpuCount }`). The document has no GraphQL operations for
 * pods: this port serves both `runpod:api` values (paths/index.ts).
 *
 * A declared env with `templateId` is the pod's whole env: the template's keys createPod (or updatePod's
 * `templateId`) merges in are dropped right after (one updatePod), so the stack shows no diff.
 *
 * createPod places one GPU type; `gpuTypeIds` are tried in order as the document's read-then-create pattern
 * says: a 400 (no capacity, or a rule) or 403 (no access to the pool) moves to the next, anything else stops.
 * `desiredStatus` is podAction's: stop after create, and stop / start after an update when the pod's status
 * differs.
 */
import type { PlatformClient, V2 } from "../../../api";
import { fieldOf, isNotFound, messageOf } from "../../errorKinds";
import { changedFields } from "../../model/compare";
import type { PodState } from "../../paths/records";
import type { Port, PortContext } from "../../port";
import { DEFAULT_MOUNT_PATH, INJECTED_SSH_KEY, POD_INPUT_FIELDS, POD_MODEL, type PodInputs } from "../model";

const RUNNING_LIKE: readonly string[] = ["PROVISIONING", "STARTING", "RUNNING"];

export function podStateFromV2(p: V2.Pod): PodState {
  const persistent = p.mounts?.persistent;
  const network = p.mounts?.network?.[0];
  return {
    id: p.id,
    name: p.name,
    imageName: p.image ?? "",
    dockerArgs: p.args ?? "",
    containerDiskInGb: p.disk ?? 0,
    ports: [...(p.ports ?? [])],
    env: { ...(p.env ?? {}) },
    containerRegistryAuthId: p.registry ?? null,
    volumeInGb: persistent?.size ?? 0,
    volumeMountPath: persistent?.path ?? network?.path ?? null,
    networkVolumeId: network?.volumeId ?? null,
    gpuCount: p.gpu?.count ?? 1,
    cpuFlavorId: p.cpu?.id ?? null,
    vcpuCount: p.cpu?.vcpuCount ?? null,
    cloudType: p.cloud,
    desiredStatus: RUNNING_LIKE.includes(p.status) ? "RUNNING" : "EXITED",
    status: p.status,
    costPerHour: p.cost,
    gpuTypeId: p.gpu?.id ?? null,
    dataCenterId: p.dataCenterId,
    sshCommand: p.ssh.proxy?.command ?? null,
    sshDirectCommand: p.ssh.direct?.command ?? null,
  };
}

/** Every pod of the caller, in the model's terms (the session's pod listing: reads, create settlement; the stack commands). */
export async function listPodStates(client: PlatformClient): Promise<PodState[]> {
  return (await client.v2.listPods()).map(podStateFromV2);
}

/** The mount the inputs declare; `size` falls back to the stored one (a template's volume keeps its size). */
function mountsOf(inputs: PodInputs, olds?: Record<string, unknown>): V2.Mounts | undefined {
  const path = inputs.volumeMountPath ?? (typeof olds?.volumeMountPath === "string" ? olds.volumeMountPath : DEFAULT_MOUNT_PATH);
  if (inputs.networkVolumeId) return { network: [{ volumeId: inputs.networkVolumeId, path }] };
  const size = inputs.volumeInGb ?? (typeof olds?.volumeInGb === "number" ? olds.volumeInGb : 0);
  return size > 0 ? { persistent: { size, path } } : undefined;
}

/** The createPod body for one GPU type of `gpuTypeIds` (or the CPU flavor when `gpuTypeId` is undefined). */
export function createPodBody(inputs: PodInputs, gpuTypeId?: string): V2.CreatePodRequest {
  const body: V2.CreatePodRequest = {
    name: inputs.name,
    cloud: inputs.cloudType,
    dataCenterIds: [...inputs.dataCenterIds],
    globalNetworking: false,
    startJupyter: false,
    startSsh: inputs.startSsh,
  };
  if (gpuTypeId !== undefined) body.gpu = { id: gpuTypeId, count: inputs.gpuCount };
  else body.cpu = { id: inputs.cpuFlavorId!, vcpuCount: inputs.vcpuCount! };
  if (inputs.templateId) body.templateId = inputs.templateId;
  if (inputs.imageName !== undefined) body.image = inputs.imageName;
  if (inputs.dockerArgs !== undefined) body.args = inputs.dockerArgs;
  if (inputs.containerDiskInGb !== undefined) body.disk = inputs.containerDiskInGb;
  if (inputs.ports !== undefined) body.ports = [...inputs.ports];
  if (inputs.env !== undefined) body.env = { ...inputs.env };
  if (inputs.containerRegistryAuthId !== null || !inputs.templateId) body.registry = inputs.containerRegistryAuthId;
  const mounts = mountsOf(inputs);
  if (mounts) body.mounts = mounts;
  return body;
}

/**
 * The updatePod body: only the changed fields; undefined when none changed. `live` is the pod as it is, whose
 * injected `PUBLIC_KEY` (startSsh) a new env keeps.
 */
export function patchPodBody(inputs: PodInputs, olds: Record<string, unknown>, live?: V2.Pod): V2.UpdatePodRequest | undefined {
  const changed = new Set(changedFields(POD_MODEL, POD_INPUT_FIELDS, olds, { ...inputs }));
  const body: V2.UpdatePodRequest = {};
  if (changed.has("name")) body.name = inputs.name;
  if (changed.has("templateId") && inputs.templateId) body.templateId = inputs.templateId;
  if (changed.has("imageName") && inputs.imageName !== undefined) body.image = inputs.imageName;
  if (changed.has("dockerArgs") && inputs.dockerArgs !== undefined) body.args = inputs.dockerArgs;
  if (changed.has("containerDiskInGb") && inputs.containerDiskInGb !== undefined) body.disk = inputs.containerDiskInGb;
  if (changed.has("ports") && inputs.ports !== undefined) body.ports = [...inputs.ports];
  if (changed.has("env") && inputs.env !== undefined) {
    const injected = inputs.startSsh ? live?.env?.[INJECTED_SSH_KEY] : undefined;
    body.env = { ...(injected !== undefined ? { [INJECTED_SSH_KEY]: injected } : {}), ...inputs.env };
  }
  if (changed.has("containerRegistryAuthId")) body.registry = inputs.containerRegistryAuthId;
  if (changed.has("volumeInGb") || changed.has("volumeMountPath")) {
    const mounts = mountsOf(inputs, olds);
    if (mounts) body.mounts = mounts;
  }
  return Object.keys(body).length > 0 ? body : undefined;
}

/** A refusal of one candidate that the next GPU type may not meet (document: createPod's status table). */
const nextCandidate = (err: unknown) => {
  const status = fieldOf(err, "status");
  return status === 400 || status === 403;
};

export function v2PodPort(context: PortContext): Port<PodInputs, PodState> {
  const v2 = () => context.client.v2;

  /** Stops or starts the pod when its status differs from `desired` (podAction); the pod as it then is. */
  async function settleStatus(pod: V2.Pod, desired: PodInputs["desiredStatus"]): Promise<V2.Pod> {
    const running = RUNNING_LIKE.includes(pod.status);
    if (desired === "EXITED" && running) return (await v2().podAction(pod.id, { action: "stop" })) ?? pod;
    if (desired === "RUNNING" && !running) return (await v2().podAction(pod.id, { action: "start" })) ?? pod;
    return pod;
  }

  async function createPod(inputs: PodInputs): Promise<V2.Pod> {
    if (!inputs.gpuTypeIds || inputs.gpuTypeIds.length === 0) return v2().createPod(createPodBody(inputs));
    const refusals: string[] = [];
    for (const id of inputs.gpuTypeIds) {
      try {
        return await v2().createPod(createPodBody(inputs, id));
      } catch (err) {
        if (!nextCandidate(err) || inputs.gpuTypeIds.length === 1) throw err;
        refusals.push(`${id}: ${messageOf(err)}`);
      }
    }
    throw new Error(`No GPU type of gpuTypeIds could be placed (a refusal every candidate shares is a problem with the request): ${refusals.join("; ")}`);
  }

  /**
   * A template (createPod, or updatePod's `templateId`) merges its env under the declared one; the declared env
   * is the pod's whole env, as the other fields are, so one updatePod drops the template's extra keys.
   */
  async function exactEnv(pod: V2.Pod, inputs: PodInputs): Promise<V2.Pod> {
    if (inputs.env === undefined) return pod;
    const injected = inputs.startSsh ? pod.env?.[INJECTED_SSH_KEY] : undefined;
    const want = { ...(injected !== undefined ? { [INJECTED_SSH_KEY]: injected } : {}), ...inputs.env };
    const same = JSON.stringify(Object.entries(pod.env ?? {}).sort()) === JSON.stringify(Object.entries(want).sort());
    return same ? pod : v2().updatePod(pod.id, { env: want });
  }

  return {
    capabilities: { unreported: ["templateId", "gpuTypeIds", "dataCenterIds", "startSsh"], replaces: [], copiesTemplates: true },
    async create(inputs) {
      const pod = await createPod(inputs);
      return podStateFromV2(await settleStatus(inputs.templateId ? await exactEnv(pod, inputs) : pod, inputs.desiredStatus));
    },
    read: (id) => context.listing<PodState>("pod").find(id),
    async update(id, inputs, olds) {
      const envChanged = changedFields(POD_MODEL, ["env"], olds, { ...inputs }).length > 0;
      const live = envChanged && inputs.startSsh ? await v2().getPod(id) : undefined;
      const body = patchPodBody(inputs, olds, live);
      const pod = body ? await v2().updatePod(id, body) : await v2().getPod(id);
      return podStateFromV2(await settleStatus(body?.templateId ? await exactEnv(pod, inputs) : pod, inputs.desiredStatus));
    },
    async delete(id) {
      context.listing<PodState>("pod").changed(id);
      try {
        await v2().deletePod(id);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
    },
  };
}
