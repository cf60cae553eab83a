/**
 * Endpoints on REST v2 (docs/spec/rest-v2-openapi.json, tag Serverless), the whole mapping between the
 * model and this path's shapes: Endpoint ↔ {@link EndpointState} (v2 nests what the model keeps flat:
 * `gpu { pools, count, allowedCudaVersions }`, `workers { min, max, idleTimeout }`, `scaling`; names
 * the type `QUEUE` / `LOAD_BALANCER`; keeps no link to a template: `templateId` is a snapshot);
 * `createEndpoint` with every managed field, `updateEndpoint` (PATCH) with only what changed, as whole
 * sub-documents — a release (container settings, a re-applied template) followed to health and rolled
 * back to the endpoint's previous container when it fails (rollOut) — and a delete that looks at the
 * workers first: idle, `deleteEndpoint` at once; a job running, scale to zero (PATCH `workers { min: 0,
 * max: 0 }`), let running jobs finish, then `deleteEndpoint`.
 */
import type { V2 } from "../../../api";
import { isNotFound } from "../../errorKinds";
import { changedFields } from "../../model/compare";
import type { EndpointState } from "../../paths/records";
import type { Port, PortContext } from "../../port";
import { settingsFrom } from "../../model/state";
import { drain, drainLimitMs, runningJobs } from "../drain";
import { ENDPOINT_INPUT_FIELDS, ENDPOINT_MODEL, type EndpointInputField, type EndpointInputs, type EndpointSettings } from "../model";
import { guardRollout } from "../../rollout/rollout";

const TYPE_TO_V2 = { QB: "QUEUE", LB: "LOAD_BALANCER" } as const;
const TYPE_FROM_V2 = { QUEUE: "QB", LOAD_BALANCER: "LB" } as const;

/**
 * The model's record of a v2 endpoint; `templateId` stays absent (v2 reports none), as does an omitted `idleTimeout`.
 * `container` is the endpoint's own copy of its template's settings (ContainerConfig).
 */
export function endpointStateFromV2(e: V2.Endpoint): EndpointState {
  const scaling = e.scaling;
  const scalerValue = scaling.type === "REQUEST_COUNT" ? scaling.requestCount : scaling.queueDelay;
  return {
    id: e.id,
    name: e.name,
    gpuIds: [...(e.gpu?.pools ?? [])],
    type: TYPE_FROM_V2[e.type ?? "QUEUE"],
    idleTimeout: e.workers.idleTimeout,
    locations: [],
    fastBootType: e.flashboot === "OFF" ? null : "FASTBOOT",
    flashboot: e.flashboot,
    scalerType: scaling.type,
    scalerValue,
    workersMin: e.workers.min ?? 0,
    workersMax: e.workers.max ?? 0,
    networkVolumeId: e.networkVolumes.length === 1 ? e.networkVolumes[0] : null,
    networkVolumeIds: e.networkVolumes.length > 1 ? [...e.networkVolumes] : [],
    gpuCount: e.gpu?.count ?? null,
    allowedCudaVersions: [...(e.gpu?.allowedCudaVersions ?? [])],
    executionTimeoutMs: e.timeout,
    excludedGpuTypes: [...(e.gpu?.excludedTypes ?? [])],
    dataCenterIds: [...e.dataCenterIds],
    minCudaVersion: e.gpu?.minCudaVersion ?? null,
    container: {
      imageName: e.image ?? "",
      dockerArgs: e.args ?? null,
      containerDiskInGb: e.disk ?? null,
      ports: [...(e.ports ?? [])],
      env: { ...(e.env ?? {}) },
      containerRegistryAuthId: e.registry ?? null,
    },
  };
}

type Scaling = V2.EndpointScaling;
const scalingOf = (inputs: EndpointInputs): Scaling =>
  inputs.scalerType === "REQUEST_COUNT" ? { type: "REQUEST_COUNT", requestCount: inputs.scalerValue } : { type: "QUEUE_DELAY", queueDelay: inputs.scalerValue };

/** `workers`: `idleTimeout` is not applicable to a queue-based endpoint scaling on request count (the document rejects it there). */
function workersOf(inputs: EndpointInputs): V2.EndpointWorkers {
  const workers: V2.EndpointWorkers = { min: inputs.workersMin, max: inputs.workersMax };
  if (!(inputs.type === "QB" && inputs.scalerType === "REQUEST_COUNT")) workers.idleTimeout = inputs.idleTimeout;
  return workers;
}

/**
 * The whole GPU selection: pools with their exclusions, count and CUDA set (a PATCH carrying `gpu`
 * without `excludedTypes` would clear them). A floor goes with an explicit empty set: it clears a set the
 * endpoint has (the two are mutually exclusive, and sending one does not clear the other).
 */
function gpuOf(inputs: EndpointInputs): V2.CreateEndpointGpuConfig {
  const gpu: V2.CreateEndpointGpuConfig = { pools: [...(inputs.gpuIds ?? [])], excludedTypes: [...inputs.excludedGpuTypes] };
  if (inputs.gpuCount !== undefined) gpu.count = inputs.gpuCount;
  if (inputs.allowedCudaVersions !== undefined) gpu.allowedCudaVersions = [...inputs.allowedCudaVersions];
  if (inputs.minCudaVersion) {
    gpu.minCudaVersion = inputs.minCudaVersion;
    if (!gpu.allowedCudaVersions?.length) gpu.allowedCudaVersions = [];
  }
  return gpu;
}

/** `networkVolumes`: the one volume or the several (check keeps at most one of the two fields set). */
const volumesOf = (inputs: EndpointInputs): string[] => (inputs.networkVolumeId ? [inputs.networkVolumeId] : [...inputs.networkVolumeIds]);

/** The `createEndpoint` body for complete inputs; every managed field, so v2's own defaults never apply. */
export function createBody(inputs: EndpointInputs): V2.CreateEndpointRequest {
  const body: V2.CreateEndpointRequest = {
    name: inputs.name,
    type: TYPE_TO_V2[inputs.type],
    templateId: inputs.templateId,
    gpu: gpuOf(inputs),
    workers: workersOf(inputs),
    scaling: scalingOf(inputs),
    networkVolumes: volumesOf(inputs),
    flashboot: inputs.flashboot,
    dataCenterIds: [...inputs.dataCenterIds],
  };
  if (inputs.executionTimeoutMs !== undefined) body.timeout = inputs.executionTimeoutMs;
  return body;
}

const GPU_FIELDS: readonly EndpointInputField[] = ["gpuIds", "excludedGpuTypes", "gpuCount", "allowedCudaVersions", "minCudaVersion"];
const WORKER_FIELDS: readonly EndpointInputField[] = ["workersMin", "workersMax", "idleTimeout"];
const SCALING_FIELDS: readonly EndpointInputField[] = ["scalerType", "scalerValue"];

/**
 * The `updateEndpoint` body: only what changed between the stored outputs `olds` and `inputs`, each
 * change as the whole v2 sub-document it belongs to (`gpu`, `workers`, `scaling`), since a `gpu`
 * without its exclusions would clear them. `templateId` re-applies the template (a release).
 * Undefined when nothing the platform stores changed.
 */
export function patchBody(inputs: EndpointInputs, olds: Record<string, unknown>, reapplyTemplate = false): V2.UpdateEndpointRequest | undefined {
  const changed = new Set(changedFields(ENDPOINT_MODEL, ENDPOINT_INPUT_FIELDS, olds, { ...inputs }));
  const body: V2.UpdateEndpointRequest = {};
  if (changed.has("name")) body.name = inputs.name;
  if (changed.has("templateId") || reapplyTemplate) body.templateId = inputs.templateId;
  if (GPU_FIELDS.some((f) => changed.has(f))) {
    const gpu: V2.UpdateEndpointGpuConfig = gpuOf(inputs);
    // "" clears a floor the endpoint has (document: UpdateEndpointGpuConfig); omitted would keep it.
    if (!inputs.minCudaVersion && olds.minCudaVersion) gpu.minCudaVersion = "";
    body.gpu = gpu;
  }
  if (WORKER_FIELDS.some((f) => changed.has(f)) || SCALING_FIELDS.some((f) => changed.has(f))) body.workers = workersOf(inputs);
  if (SCALING_FIELDS.some((f) => changed.has(f))) body.scaling = scalingOf(inputs);
  if (changed.has("dataCenterIds")) body.dataCenterIds = [...inputs.dataCenterIds];
  if (changed.has("networkVolumeId") || changed.has("networkVolumeIds")) body.networkVolumes = volumesOf(inputs);
  if (changed.has("flashboot") || changed.has("fastBootType")) body.flashboot = inputs.flashboot;
  if (changed.has("executionTimeoutMs") && inputs.executionTimeoutMs !== undefined) body.timeout = inputs.executionTimeoutMs;
  return Object.keys(body).length > 0 ? body : undefined;
}

/** PATCH fields that make a release (document: updateEndpoint). */
const CONTAINER_KEYS = ["templateId", "image", "args", "disk", "ports", "env", "registry"] as const;

/** The PATCH that puts endpoint `e`'s container settings back (v2 takes them on the endpoint itself). */
function containerBody(e: V2.Endpoint): V2.UpdateEndpointRequest {
  return { image: e.image ?? "", args: e.args ?? "", disk: e.disk, ports: [...(e.ports ?? [])], env: { ...(e.env ?? {}) }, registry: e.registry ?? null };
}

/**
 * Follows the release a container PATCH made to health (rollout.ts); a failed one is rolled back by
 * PATCHing the endpoint's previous container settings `before` (v2 keeps them on the endpoint itself).
 */
async function rollOut(context: PortContext, id: string, inputs: EndpointInputs, before: V2.Endpoint, after: V2.Endpoint): Promise<void> {
  const settings = settingsFrom(ENDPOINT_MODEL, inputs) as EndpointSettings;
  const secrets = [...Object.values(before.env ?? {}), ...Object.values(after.env ?? {})].filter((v) => v.length > 0);
  await guardRollout(context.client, { id, label: `${inputs.name} (${id})` }, settings, secrets, {
    what: "the previous container settings",
    detail: `(image ${before.image})`,
    put: async () => {
      context.listing<EndpointState>("endpoint").changed(id);
      await context.client.v2.updateEndpoint(id, containerBody(before));
    },
  });
}

export function v2EndpointPort(context: PortContext): Port<EndpointInputs, EndpointState> {
  const v2 = () => context.client.v2;
  return {
    capabilities: { unreported: ["templateId", "idleTimeout"], replaces: [], copiesTemplates: true },
    create: async (inputs) => endpointStateFromV2(await v2().createEndpoint(createBody(inputs))),

    read: (id) => context.listing<EndpointState>("endpoint").find(id),

    /** A PATCH of container settings (or a re-applied template) makes a release: followed to health, rolled back when it fails (rollOut). */
    async update(id, inputs, olds, options = {}) {
      const body = patchBody(inputs, olds, options.reapplyTemplate);
      if (!body) return endpointStateFromV2(await v2().getEndpoint(id));
      if (!CONTAINER_KEYS.some((k) => body[k] !== undefined)) return endpointStateFromV2(await v2().updateEndpoint(id, body));
      const before = await v2().getEndpoint(id);
      const after = await v2().updateEndpoint(id, body);
      await rollOut(context, id, inputs, before, after);
      return endpointStateFromV2(after);
    },

    /**
     * v2's DELETE cancels in-progress jobs (and needs no scale-down first), so the workers are looked at
     * first: none running a job, the DELETE goes at once (two requests: the rate limit is the account's).
     * Otherwise scale to zero (skipped when the stored outputs are there), wait for the workers still
     * running a job (up to the stored `workersReadyTimeout`, default 600 s), then delete.
     */
    async delete(id, props) {
      context.listing<EndpointState>("endpoint").changed(id);
      try {
        if ((await runningJobs(context, id)) > 0) {
          const atZero = props?.workersMin === 0 && props?.workersMax === 0;
          if (!atZero) await v2().updateEndpoint(id, { workers: { min: 0, max: 0 } });
          await drain(context, id, drainLimitMs(props));
        }
        await v2().deleteEndpoint(id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
