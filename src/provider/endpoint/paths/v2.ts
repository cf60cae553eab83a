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
import type { ContainerSettings, EndpointState } from "../../paths/records";
import type { Port, PortContext } from "../../port";
import { settingsFrom } from "../../model/state";
import { drain, drainLimitMs, runningJobs } from "../drain";
import { ENDPOINT_INPUT_FIELDS, ENDPOINT_MODEL, type EndpointInputField, type EndpointInputs, type EndpointOutputs, type EndpointSettings } from "../model";
import { guardRollout } from "../../rollout/rollout";
import { reappliesTemplate, runsCurrentTemplate, templateDifferences } from "./v2TemplateCopy";

const TYPE_TO_V2 = { QB: "QUEUE", LB: "LOAD_BALANCER" } as const;
const TYPE_FROM_V2 = { QUEUE: "QB", LOAD_BALANCER: "LB" } as const;

/**
 * The model's record of a v2 endpoint; `templateId` stays absent (v2 reports none), as does an omitted `idleTimeout`.
 * `container` is the endpoint's own copy of its template's settings (ContainerConfig).
 */
export function endpointStateFromV2(e: V2.Endpoint): EndpointState {
  const scaling = e.scaling;
  const scalerValue = scaling.type === "REQUEST_COUNT" ? scaling.requestCount : scaling.queueDelay;
  const container = containerOf(e);
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
    cpuFlavorIds: (e.cpu ?? []).map((c) => c.id),
    // The model keeps one count for every flavor; an endpoint made elsewhere with several keeps its first.
    vcpuCount: e.cpu?.[0]?.vcpuCount ?? null,
    ...container,
    container,
    requestUrls: e.requestUrls ? { ...(e.requestUrls as Record<string, string>) } : null,
  };
}

/** An endpoint's container (REST v2 ContainerConfig) in the model's terms. */
function containerOf(e: V2.Endpoint): ContainerSettings {
  return {
    imageName: e.image ?? "",
    dockerArgs: e.args ?? "",
    containerDiskInGb: e.disk ?? null,
    ports: [...(e.ports ?? [])],
    env: { ...(e.env ?? {}) },
    containerRegistryAuthId: e.registry ?? null,
  };
}

/** The container fields of a body (ContainerConfig) for the inputs that hold a value: unset ones stay the template's or the platform's. */
function containerFieldsOf(inputs: EndpointInputs, only?: ReadonlySet<string>): Partial<V2.UpdateEndpointRequest> {
  const body: Partial<V2.UpdateEndpointRequest> = {};
  const wanted = (f: EndpointInputField) => inputs[f] !== undefined && (!only || only.has(f));
  if (wanted("imageName")) body.image = inputs.imageName!;
  if (wanted("dockerArgs")) body.args = inputs.dockerArgs ?? "";
  if (wanted("containerDiskInGb") && inputs.containerDiskInGb !== null) body.disk = inputs.containerDiskInGb;
  if (wanted("ports")) body.ports = [...(inputs.ports ?? [])];
  if (wanted("env")) body.env = { ...(inputs.env ?? {}) };
  if (wanted("containerRegistryAuthId")) body.registry = inputs.containerRegistryAuthId ?? null;
  return body;
}

/** `cpu`: every listed flavor at the one vCPU count. */
const cpuOf = (inputs: EndpointInputs): V2.CreateCpuConfig[] => (inputs.cpuFlavorIds ?? []).map((id) => ({ id, vcpuCount: inputs.vcpuCount ?? 2 }));
const isCpu = (inputs: EndpointInputs): boolean => (inputs.cpuFlavorIds?.length ?? 0) > 0;

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
    ...containerFieldsOf(inputs),
    workers: workersOf(inputs),
    scaling: scalingOf(inputs),
    networkVolumes: volumesOf(inputs),
    flashboot: inputs.flashboot,
    dataCenterIds: [...inputs.dataCenterIds],
  };
  if (inputs.templateId) body.templateId = inputs.templateId;
  if (isCpu(inputs)) body.cpu = cpuOf(inputs);
  else body.gpu = gpuOf(inputs);
  if (inputs.executionTimeoutMs !== undefined) body.timeout = inputs.executionTimeoutMs;
  return body;
}

const GPU_FIELDS: readonly EndpointInputField[] = ["gpuIds", "excludedGpuTypes", "gpuCount", "allowedCudaVersions", "minCudaVersion"];
const CPU_FIELDS: readonly EndpointInputField[] = ["cpuFlavorIds", "vcpuCount"];
const WORKER_FIELDS: readonly EndpointInputField[] = ["workersMin", "workersMax", "idleTimeout"];
const SCALING_FIELDS: readonly EndpointInputField[] = ["scalerType", "scalerValue"];

/**
 * The `updateEndpoint` body: only what changed between the stored outputs `olds` and `inputs`, each
 * change as the whole v2 sub-document it belongs to (`gpu`, `cpu`, `workers`, `scaling`), since a `gpu`
 * without its exclusions would clear them. `templateId` re-applies the template (a release), sent with
 * every container input the endpoint declares, so its own values keep winning; a changed container
 * input alone is a release too. Undefined when nothing the platform stores changed.
 */
export function patchBody(inputs: EndpointInputs, olds: Record<string, unknown>, reapplyTemplate = false): V2.UpdateEndpointRequest | undefined {
  const changed = new Set<string>(changedFields(ENDPOINT_MODEL, ENDPOINT_INPUT_FIELDS, olds, { ...inputs }));
  const body: V2.UpdateEndpointRequest = {};
  if (changed.has("name")) body.name = inputs.name;
  const template = inputs.templateId && (changed.has("templateId") || reapplyTemplate);
  if (template) body.templateId = inputs.templateId!;
  Object.assign(body, containerFieldsOf(inputs, template ? undefined : changed));
  if (isCpu(inputs)) {
    if (CPU_FIELDS.some((f) => changed.has(f))) body.cpu = cpuOf(inputs);
  } else if (GPU_FIELDS.some((f) => changed.has(f))) {
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

/** The PATCH that puts container `c` back (v2 takes the settings on the endpoint itself). */
function containerBody(c: ContainerSettings): V2.UpdateEndpointRequest {
  const body: V2.UpdateEndpointRequest = {
    image: c.imageName,
    args: c.dockerArgs ?? "",
    ports: [...c.ports],
    env: { ...c.env },
    registry: c.containerRegistryAuthId ?? null,
  };
  if (typeof c.containerDiskInGb === "number") body.disk = c.containerDiskInGb;
  return body;
}

/** The container of the release last followed to health, as the stored outputs hold it (JSON text), if they do. */
export function releasedContainerOf(olds: Partial<EndpointOutputs> | undefined): ContainerSettings | undefined {
  const text = olds?.releasedContainer;
  if (typeof text !== "string") return undefined;
  try {
    const c = JSON.parse(text) as ContainerSettings;
    return typeof c.imageName === "string" && Array.isArray(c.ports) && typeof c.env === "object" && c.env !== null ? c : undefined;
  } catch {
    return undefined;
  }
}

/** The release the stored outputs hold: a version, `null` for the one the create made, undefined when untracked (older state). */
const storedRelease = (olds: Partial<EndpointOutputs> | undefined): number | null | undefined =>
  typeof olds?.releaseVersion === "number" ? olds.releaseVersion : olds?.releaseVersion === null ? null : undefined;

/**
 * Follows endpoint `after`'s current release to health (rollout.ts; its smoke job sent to the record's
 * `requestUrls`); a failed one is rolled back by PATCHing the container the state holds (`target`: the
 * release last followed to health; v2 keeps the settings on the endpoint itself).
 */
async function rollOut(context: PortContext, after: EndpointState, inputs: EndpointInputs, target: ContainerSettings): Promise<void> {
  const { id, container: current } = after as EndpointState & { container: ContainerSettings };
  const settings: EndpointSettings = settingsFrom(ENDPOINT_MODEL, inputs);
  const secrets = [...Object.values(target.env), ...Object.values(current.env), ...Object.values(inputs.env ?? {})].filter((v) => v.length > 0);
  await guardRollout(context.client, { id, label: `${inputs.name} (${id})`, requestUrls: after.requestUrls }, settings, secrets, {
    what: "the previous container settings",
    detail: `(image ${target.imageName})`,
    put: async () => {
      context.listing<EndpointState>("endpoint").changed(id);
      await context.client.v2.updateEndpoint(id, containerBody(target));
    },
  });
}

/** The newest release in endpoint `id`'s listing. */
async function latestRelease(context: PortContext, id: string): Promise<{ id: string; version: number | null; count: number } | undefined> {
  const { releases, endpointVersion } = await context.client.v2.listEndpointReleases(id);
  const newest = releases[0];
  return newest ? { id: newest.id, version: newest.version ?? endpointVersion ?? null, count: releases.length } : undefined;
}

/**
 * The newest release when it is newer than the one the stored outputs hold (never followed to health:
 * left by an interrupted `up`, or made outside Pulumi); undefined when it is the same, or untracked.
 */
async function unfollowedRelease(
  context: PortContext,
  id: string,
  olds: Partial<EndpointOutputs>,
): Promise<{ id: string; version: number | null } | undefined> {
  const stored = storedRelease(olds);
  if (stored === undefined) return undefined;
  const newest = await latestRelease(context, id);
  if (!newest) return undefined;
  // null: the create's release, the oldest listed; any other is newer.
  const newer = stored === null ? newest.count > 1 : newest.version !== null && newest.version > stored;
  return newer ? { id: newest.id, version: newest.version } : undefined;
}

/** The record with the release it was followed to (its container: JSON text, a secret output). */
function released(record: EndpointState, version: number | null): EndpointState {
  return { ...record, releaseVersion: version, releasedContainer: JSON.stringify(record.container) };
}

export function v2EndpointPort(context: PortContext): Port<EndpointInputs, EndpointState> {
  const v2 = () => context.client.v2;
  return {
    capabilities: { unreported: ["templateId", "idleTimeout"], replaces: [], copiesTemplates: true },
    // The create's release (version null: the oldest listed), with no request of its own.
    create: async (inputs) => released(endpointStateFromV2(await v2().createEndpoint(createBody(inputs))), null),

    read: (id) => context.listing<EndpointState>("endpoint").find(id),

    /**
     * A declared template the stored outputs hold no link to (adopted, or declared anew) shows as the
     * container fields it would change, or as no change when the endpoint already runs it; an unchanged
     * one to re-apply shows as `templateId` (v2TemplateCopy.ts); a release nobody followed as `releaseVersion`.
     */
    async changesOnPath(id, olds, news, changed) {
      const out = [...changed];
      if (out.includes("templateId")) {
        const differing = await templateDifferences(context, id, olds, news);
        if (differing !== undefined && differing.length === 0) out.splice(out.indexOf("templateId"), 1);
        for (const f of differing ?? []) if (!out.includes(f)) out.push(f);
      } else if (await reappliesTemplate(context, id, olds, news)) {
        out.push("templateId");
      }
      if (await unfollowedRelease(context, id, olds)) out.push("releaseVersion");
      return out;
    },

    /**
     * An adopted endpoint (import, `get`, state older than release tracking) takes its current release as
     * followed (a refresh never moves it); `templateCurrent` says whether it still runs its template's
     * current settings (kept as stored when either is not found), so a refresh shows an older copy.
     */
    async readOutputs(id, outs, props) {
      if (!(props && "releaseVersion" in props)) {
        const record = await context.listing<EndpointState>("endpoint").find(id);
        if (record) {
          const adopted = released(record, (await latestRelease(context, record.id))?.version ?? null);
          outs.releaseVersion = adopted.releaseVersion ?? null;
          outs.releasedContainer = adopted.releasedContainer ?? null;
        }
      }
      if (typeof outs.templateId === "string") {
        outs.templateCurrent = (await runsCurrentTemplate(context, id, outs.templateId, props)) ?? props?.templateCurrent !== false;
      }
    },

    /**
     * A PATCH of container settings (or a re-applied template) makes a release, and a release nobody
     * followed (an interrupted `up`, a change outside Pulumi) is one too: each is followed to health and,
     * when it fails, rolled back to the container the state holds (rollOut).
     */
    async update(id, inputs, olds) {
      const reapply = await reappliesTemplate(context, id, olds, { ...inputs });
      let body = patchBody(inputs, olds, reapply);
      const releases = (b: V2.UpdateEndpointRequest | undefined) => b !== undefined && CONTAINER_KEYS.some((k) => b[k] !== undefined);
      let before: EndpointState | undefined;
      if (!releases(body)) {
        if (!(await unfollowedRelease(context, id, olds))) return endpointStateFromV2(body ? await v2().updateEndpoint(id, body) : await v2().getEndpoint(id));
        // A release nobody followed: what the endpoint runs now decides what to put back (drift no read has seen yet included).
        before = endpointStateFromV2(await v2().getEndpoint(id));
        body = patchBody(inputs, { ...olds, ...before.container }, reapply);
      }
      before ??= endpointStateFromV2(await v2().getEndpoint(id));
      const after = endpointStateFromV2(body ? await v2().updateEndpoint(id, body) : await v2().getEndpoint(id));
      await rollOut(context, after, inputs, releasedContainerOf(olds) ?? before.container!);
      return released(after, (await latestRelease(context, id))?.version ?? null);
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
