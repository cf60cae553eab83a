/**
 * REST v2 serverless endpoints over the one platform state GraphQL and REST v1 use (docs/spec/rest-v2-openapi.json:
 * createEndpoint, getEndpoint, updateEndpoint, deleteEndpoint, listEndpointWorkers, listEndpointReleases).
 *
 * A v2 endpoint is the same stored endpoint row; what GraphQL has no field for lives in `row.v2`. Its container
 * settings live in a bound template (a template made for that endpoint alone, `boundTo`), which GraphQL shows as the
 * endpoint's `templateId`. A `templateId` in a v2 body is copied into that bound template, never linked. A
 * container-affecting PATCH changes the bound template and records a release: workers roll surge-first (workers.ts).
 */
import { ENDPOINT_FACTS as F, TEMPLATE_FACTS } from "../facts";
import { randomId } from "../ids";
import type { Core } from "../core";
import type { EndpointRow, TemplateRow } from "../store";
import type { SimWorker } from "../workers";
import { checkContainer, containerDiff, containerOf, templateFields, type Container } from "./container";
import { refused, v2Problem } from "./problems";
import { createEndpointSchema, parseBody, updateEndpointSchema, type CreateEndpointBody, type UpdateEndpointBody } from "./schemas";

/** REST v2 defaults that differ from GraphQL's (document: CreateEndpointRequest). */
export const V2_DEFAULTS = { workersMin: 0, workersMax: 3, idleTimeout: 10, timeout: 300_000, flashboot: "OFF", gpuCount: 1 } as const;

const TYPE_TO_V2 = { QB: "QUEUE", LB: "LOAD_BALANCER" } as const;
const TYPE_FROM_V2 = { QUEUE: "QB", LOAD_BALANCER: "LB" } as const;

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;
const csv = (v: string | null | undefined): string[] => (v ? v.split(",").map((s) => s.trim()) : []);
const iso = (ms: number) => new Date(ms).toISOString();

/** The worker status the document derives: RUNNING with a job, IDLE when ready, INITIALIZING while starting, UNHEALTHY when its start failed. */
function workerStatus(w: SimWorker): "RUNNING" | "IDLE" | "INITIALIZING" | "THROTTLED" | "UNHEALTHY" {
  if (w.status === "INITIALIZING" || w.status === "THROTTLED" || w.status === "UNHEALTHY") return w.status;
  return w.jobs.size > 0 ? "RUNNING" : "IDLE";
}

export class ServerlessV2 {
  constructor(private core: Core) {}

  private get platform() {
    return this.core.platform;
  }

  // ---- answers -------------------------------------------------------------------------------------------------

  /** The document's `Endpoint` for a stored row. */
  endpoint(row: EndpointRow): Record<string, unknown> {
    const v2 = this.platform.v2State(row);
    const template = this.core.store.getTemplate(row.templateId);
    const c: Container = template
      ? containerOf(template)
      : { image: "", args: "", disk: TEMPLATE_FACTS.containerDiskInGb.default, ports: [], env: {}, registry: null };
    const type = TYPE_TO_V2[row.type];
    const base = this.core.urls().inference;
    const requestUrls =
      type === "QUEUE"
        ? {
            run: `${base}/v2/${row.id}/run`,
            runSync: `${base}/v2/${row.id}/runsync`,
            status: `${base}/v2/${row.id}/status/{job_id}`,
            stream: `${base}/v2/${row.id}/stream/{job_id}`,
            cancel: `${base}/v2/${row.id}/cancel/{job_id}`,
            retry: `${base}/v2/${row.id}/retry/{job_id}`,
            purgeQueue: `${base}/v2/${row.id}/purge-queue`,
            health: `${base}/v2/${row.id}/health`,
          }
        : { base: `${base}/lb/${row.id}`, health: `${base}/lb/${row.id}/ping` };
    const scalerValue = row.scalerValue ?? F.scalerValue.default;
    const scaling =
      row.scalerType === "REQUEST_COUNT"
        ? { type: "REQUEST_COUNT", requestCount: scalerValue }
        : {
            type: "QUEUE_DELAY",
            queueDelay: v2.queueDelay !== undefined && Math.max(1, Math.round(v2.queueDelay)) === scalerValue ? v2.queueDelay : scalerValue,
          };
    const workers: Record<string, number> = { min: row.workersMin, max: row.workersMax };
    if (!(type === "QUEUE" && scaling.type === "REQUEST_COUNT")) workers.idleTimeout = Math.max(1, row.idleTimeout ?? V2_DEFAULTS.idleTimeout);
    const volumes =
      v2.networkVolumeIds && v2.networkVolumeIds[0] === row.networkVolumeId ? v2.networkVolumeIds : row.networkVolumeId ? [row.networkVolumeId] : [];
    const out: Record<string, unknown> = {
      id: row.id,
      name: row.name,
      type,
      requestUrls,
      ...c,
      workers,
      scaling,
      dataCenterIds: v2.dataCenterIds ?? [],
      networkVolumes: volumes,
      timeout: row.executionTimeoutMs ?? F.executionTimeoutMs.default,
      flashboot: v2.flashboot && row.fastBootType ? v2.flashboot : row.fastBootType ? "FLASHBOOT" : "OFF",
      createdAt: iso(row.createdAt),
    };
    if (v2.cpu && v2.cpu.length > 0) {
      out.gpu = null;
      out.cpu = v2.cpu.map((c) => ({
        id: c.id,
        vcpuCount: c.vcpuCount,
        memory: Math.max(1, Math.round(c.vcpuCount * (this.core.catalog.cpuFlavor(c.id)?.ramGbPerVcpu ?? 1))),
      }));
    } else {
      out.gpu = {
        pools: csv(row.gpuIds),
        excludedTypes: v2.excludedGpuTypes ?? [],
        count: row.gpuCount ?? F.gpuCount.default,
        allowedCudaVersions: csv(row.allowedCudaVersions),
        minCudaVersion: row.minCudaVersion ? row.minCudaVersion : null,
      };
    }
    return out;
  }

  /** `listEndpointWorkers`: the running workers, a status histogram and the endpoint's version. */
  workers(userId: string, id: string) {
    const row = this.platform.ownedEndpoint(userId, id);
    const now = Date.now();
    const workers = this.core.workers.list(row.id).map((w) => ({
      id: w.id,
      status: workerStatus(w),
      isStale: this.core.workers.isStale(w),
      version: w.spec.releaseVersion ?? 1,
      gpuCount: w.spec.gpuCount ?? 0,
      image: w.spec.imageName,
      uptimeSeconds: w.readyAt === undefined ? null : Math.floor((now - w.readyAt) / 1000),
      gpuTypeId: w.spec.cpu || w.spec.throttled ? null : w.gpuTypeId,
      dataCenterId: w.spec.dataCenterId ?? null,
      startedAt: w.readyAt === undefined ? null : iso(w.readyAt),
    }));
    const count = (s: string) => workers.filter((w) => w.status === s).length;
    return {
      workers,
      summary: {
        running: count("RUNNING"),
        idle: count("IDLE"),
        initializing: count("INITIALIZING"),
        throttled: count("THROTTLED"),
        unhealthy: count("UNHEALTHY"),
        total: workers.length,
      },
      endpointVersion: this.platform.v2State(row).version,
    };
  }

  /**
   * `listEndpointReleases`: release history newest first and the rollout summary. A worker counts as running a
   * release (`workersOnLatest`, `workerCount`) once it started: a worker still starting, or failing to start
   * (`UNHEALTHY`, `listEndpointWorkers` shows it so), runs nothing yet; `workersTotal` counts every allocated worker.
   */
  releases(userId: string, id: string) {
    const row = this.platform.ownedEndpoint(userId, id);
    const v2 = this.platform.v2State(row);
    const allocated = this.core.workers.list(row.id);
    const up = allocated.filter((w) => w.up);
    const onLatest = up.filter((w) => !this.core.workers.isStale(w)).length;
    return {
      endpointVersion: v2.version,
      rollout: {
        inProgress: allocated.some((w) => this.core.workers.isStale(w)),
        workersOnLatest: onLatest,
        workersTotal: allocated.length,
        percentOnLatest: allocated.length === 0 ? 0 : Math.round((onLatest / allocated.length) * 100),
      },
      releases: [...v2.releases].reverse().map((r) => ({
        id: r.id,
        version: r.version,
        source: "MANUAL",
        buildId: null,
        createdByUserId: r.createdByUserId,
        workerCount: up.filter((w) => (w.spec.releaseVersion ?? 1) === r.version).length,
        createdAt: iso(r.createdAt),
        diff: r.diff,
      })),
    };
  }

  list(userId: string) {
    return { endpoints: this.core.store.listEndpoints(userId).map((r) => this.endpoint(r)) };
  }

  get(userId: string, id: string) {
    return this.endpoint(this.platform.ownedEndpoint(userId, id));
  }

  // ---- checks shared by create and update ---------------------------------------------------------------------

  /** A template the caller may copy: own or public (else 404), serverless (else 422). */
  private sourceTemplate(userId: string, id: string): TemplateRow {
    const t = this.core.store.getTemplate(id);
    if (!t || (t.userId !== null && !t.isPublic && t.userId !== userId))
      throw v2Problem(404, `Template "${id}" not found.`, [`templateId: template "${id}" not found`]);
    if (!t.isServerless) throw v2Problem(422, `Template "${id}" is not a serverless template.`, [`templateId: template "${id}" is not a serverless template`]);
    return t;
  }

  /**
   * The document's GPU selection rules: pools are the catalog's pool ids, `excludedTypes` "Rejected with 400 if a value
   * is not a GPU type in one of `pools`", "upstream rejects a selection that leaves none", and "A non-empty set is
   * mutually exclusive with minCudaVersion (400 if both are sent)". Pools may repeat, `count` has only the schema's
   * minimum 1, and any `major.minor` CUDA version is accepted (matching is exact: "a version no machine reports yields
   * a capacity error"): GraphQL's list rules and CUDA value set are GraphQL's own (platform.ts).
   */
  private checkGpu(pools: string[], excluded: string[], allowed: string[], min: string | null): void {
    const known = this.core.catalog.pools().map((p) => p.id as string);
    const unknown = pools.filter((p) => !known.includes(p));
    if (unknown.length > 0)
      throw refused(
        `gpu.pools: unknown pool${unknown.length > 1 ? "s" : ""} ${unknown.map((p) => `"${p}"`).join(", ")}; allowed values are ${known.join(", ")}.`,
      );
    const inPools = pools.flatMap((p) => this.core.catalog.typesOfPool(p).map((t) => t.id));
    for (const t of excluded.map((e) => e.trim())) {
      if (!inPools.includes(t))
        throw refused(`gpu.excludedTypes: "${t}" is not a GPU type in the pools ${pools.join(", ")}; types there are ${inPools.join(", ")}.`);
    }
    if (inPools.every((t) => excluded.map((e) => e.trim()).includes(t)))
      throw refused("gpu.excludedTypes: the exclusions leave no GPU type in the selected pools; keep at least one.");
    if (allowed.length > 0 && min)
      throw refused("gpu.allowedCudaVersions and gpu.minCudaVersion are mutually exclusive: give a non-empty set or a floor, not both.");
  }

  private checkCpu(cpu: { id: string; vcpuCount: number }[]): void {
    for (const c of cpu) {
      const flavor = this.core.catalog.cpuFlavor(c.id);
      if (!flavor)
        throw refused(
          `cpu.id: unknown CPU flavor "${c.id}"; allowed values are ${this.core.catalog
            .cpuFlavors()
            .map((f) => f.id)
            .join(", ")}.`,
        );
      if (!isPowerOfTwo(c.vcpuCount) || c.vcpuCount < flavor.vcpu.min || c.vcpuCount > flavor.vcpu.max) {
        throw refused(`cpu.vcpuCount: ${c.vcpuCount} is not valid for "${c.id}"; it must be a power of two from ${flavor.vcpu.min} to ${flavor.vcpu.max}.`);
      }
    }
  }

  private checkPlacement(userId: string, dataCenterIds: string[], volumes: string[]): void {
    const known = this.core.catalog.dataCenters().map((d) => d.id);
    for (const dc of dataCenterIds)
      if (!known.includes(dc)) throw refused(`dataCenterIds: unknown data center "${dc}"; allowed values are ${known.join(", ")}.`);
    const mine = this.platform.networkVolumes(userId);
    for (const id of volumes) {
      const v = mine.find((x) => x.id === id);
      if (!v) throw refused(`networkVolumes: network volume "${id}" not found.`);
      if (dataCenterIds.length > 0 && !dataCenterIds.includes(v.dataCenter)) {
        throw refused(`networkVolumes: volume "${id}" is in data center ${v.dataCenter}, which is not among dataCenterIds (${dataCenterIds.join(", ")}).`);
      }
    }
  }

  /**
   * Workers are "autoscaled between `workers.min` and `workers.max`", so min may not exceed max. The document bounds
   * `workers.min`/`max` (minimum 0), `timeout` (integer) and the scaling values (minimum 0.5 / 1) only in the schema
   * (schemas.ts): GraphQL's upper bounds (facts.ts) are GraphQL's own.
   */
  private checkScale(row: Pick<EndpointRow, "workersMin" | "workersMax">): void {
    if (row.workersMin > row.workersMax) throw refused(`workers.min (${row.workersMin}) must not exceed workers.max (${row.workersMax}).`);
  }

  /** A template's settings as an endpoint copies them: another owner's credentials stay theirs ("`registry` is always null for templates you don't own"). */
  private static copied(userId: string, t: TemplateRow): Container {
    const c = containerOf(t);
    return t.userId === userId ? c : { ...c, registry: null };
  }

  private static overlay(base: Container, body: Partial<Container>, envMerge: boolean): Container {
    const out = { ...base };
    for (const f of ["image", "args", "disk", "ports", "registry"] as const) if (body[f] !== undefined) (out as Record<string, unknown>)[f] = body[f];
    if (body.env !== undefined) out.env = envMerge ? { ...base.env, ...body.env } : { ...body.env };
    return out;
  }

  private boundTemplate(userId: string, endpointId: string, c: Container, category: TemplateRow["category"]): TemplateRow {
    return {
      id: randomId(),
      userId,
      createdAt: Date.now(),
      version: 1,
      name: `endpoint-${endpointId}`,
      ...templateFields(c),
      volumeInGb: 0,
      volumeMountPath: TEMPLATE_FACTS.volumeMountPath.default,
      isServerless: true,
      startSsh: false,
      isPublic: false,
      readme: "",
      category,
      startJupyter: false,
      allowedCudaVersions: [],
      boundTo: endpointId,
    };
  }

  // ---- operations -----------------------------------------------------------------------------------------------

  /** `createEndpoint`: 201 with the endpoint; 400/404/422 as the document says. */
  create(userId: string, raw: unknown) {
    if (raw === undefined) throw refused("A JSON request body is required.");
    const family = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
    if ((family.gpu === undefined) === (family.cpu === undefined)) throw refused("Give exactly one of gpu or cpu.");
    const body: CreateEndpointBody = parseBody(createEndpointSchema, raw);
    const source = body.templateId === undefined ? undefined : this.sourceTemplate(userId, body.templateId);
    const defaults: Container = { image: "", args: "", disk: TEMPLATE_FACTS.containerDiskInGb.default, ports: [], env: {}, registry: null };
    const container = ServerlessV2.overlay(source ? ServerlessV2.copied(userId, source) : defaults, body, true);
    checkContainer(this.core, userId, container);

    const id = randomId();
    const gpu = body.gpu;
    let allowed = gpu?.allowedCudaVersions;
    // The template's CUDA set seeds a GPU create that gives neither constraint (document: CreateEndpointRequest.templateId).
    if (gpu && allowed === undefined && gpu.minCudaVersion === undefined && source?.allowedCudaVersions?.length) allowed = source.allowedCudaVersions;
    if (gpu) this.checkGpu(gpu.pools, gpu.excludedTypes ?? [], allowed ?? [], gpu.minCudaVersion ?? null);
    if (body.cpu) this.checkCpu(body.cpu);
    this.checkPlacement(userId, body.dataCenterIds ?? [], body.networkVolumes ?? []);
    if (body.type === "QUEUE" && body.scaling.type === "REQUEST_COUNT" && body.workers?.idleTimeout !== undefined) {
      throw refused("workers.idleTimeout does not apply to a QUEUE endpoint scaling on requestCount; leave it out.");
    }
    const scalerValue = body.scaling.type === "QUEUE_DELAY" ? Math.max(1, Math.round(body.scaling.queueDelay)) : body.scaling.requestCount;
    const flashboot = body.flashboot ?? V2_DEFAULTS.flashboot;
    const template = this.boundTemplate(userId, id, container, body.cpu ? "CPU" : (source?.category ?? "NVIDIA"));
    const now = Date.now();
    const row: EndpointRow = {
      id,
      userId,
      createdAt: now,
      name: body.name.trim(),
      templateId: template.id,
      gpuIds: gpu ? gpu.pools.join(",") : "",
      type: TYPE_FROM_V2[body.type],
      idleTimeout: body.workers?.idleTimeout ?? V2_DEFAULTS.idleTimeout,
      locations: null,
      fastBootType: flashboot === "OFF" ? null : "FASTBOOT",
      scalerType: body.scaling.type,
      scalerValue,
      workersMin: body.workers?.min ?? V2_DEFAULTS.workersMin,
      workersMax: body.workers?.max ?? V2_DEFAULTS.workersMax,
      networkVolumeId: body.networkVolumes?.[0] ?? null,
      gpuCount: gpu ? (gpu.count ?? V2_DEFAULTS.gpuCount) : 1,
      allowedCudaVersions: allowed && allowed.length > 0 ? allowed.join(",") : null,
      minCudaVersion: gpu?.minCudaVersion ?? null,
      executionTimeoutMs: body.timeout ?? V2_DEFAULTS.timeout,
      workersStandby: 0,
      version: 0,
      aiKey: `ai_${randomId(24)}`,
      v2: {
        version: 1,
        releases: [{ id: `rel_${randomId(10)}`, version: 1, createdAt: now, createdByUserId: userId, diff: [] }],
        excludedGpuTypes: (gpu?.excludedTypes ?? []).map((t) => t.trim()),
        ...(body.cpu ? { cpu: body.cpu } : {}),
        dataCenterIds: body.dataCenterIds ?? [],
        networkVolumeIds: body.networkVolumes ?? [],
        ...(flashboot === "PRIORITY_FLASHBOOT" ? { flashboot } : {}),
        ...(body.scaling.type === "QUEUE_DELAY" ? { queueDelay: body.scaling.queueDelay } : {}),
      },
    };
    this.checkScale(row);
    this.core.store.putTemplate(template);
    this.platform.putEndpoint(row);
    return this.endpoint(row);
  }

  /** `updateEndpoint` (PATCH): only the fields present change; 400 for `type` or a compute-family change. */
  update(userId: string, id: string, raw: unknown) {
    const row = this.platform.ownedEndpoint(userId, id);
    if (raw === undefined) throw refused("A JSON request body is required.");
    const given = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    if ("type" in given) throw refused(`type is immutable: endpoint "${id}" stays ${TYPE_TO_V2[row.type]}; create a new endpoint to change it.`);
    const isCpu = (row.v2?.cpu?.length ?? 0) > 0;
    if (given.gpu !== undefined && given.cpu !== undefined) throw refused("Give gpu or cpu, not both; the compute family is immutable.");
    if (isCpu && given.gpu !== undefined) throw refused(`The compute family is immutable: endpoint "${id}" is a CPU endpoint; gpu cannot be set on it.`);
    if (!isCpu && given.cpu !== undefined) throw refused(`The compute family is immutable: endpoint "${id}" is a GPU endpoint; cpu cannot be set on it.`);
    const body: UpdateEndpointBody = parseBody(updateEndpointSchema, raw);
    const v2 = structuredClone(this.platform.v2State(row));
    const next: EndpointRow = { ...row, v2 };

    if (body.name !== undefined) next.name = body.name.trim();
    if (body.workers?.min !== undefined) next.workersMin = body.workers.min;
    if (body.workers?.max !== undefined) next.workersMax = body.workers.max;
    if (body.workers?.idleTimeout !== undefined) next.idleTimeout = body.workers.idleTimeout;
    if (body.scaling) {
      next.scalerType = body.scaling.type;
      next.scalerValue = body.scaling.type === "QUEUE_DELAY" ? Math.max(1, Math.round(body.scaling.queueDelay)) : body.scaling.requestCount;
      if (body.scaling.type === "QUEUE_DELAY") v2.queueDelay = body.scaling.queueDelay;
      else delete v2.queueDelay;
    }
    if (TYPE_TO_V2[row.type] === "LOAD_BALANCER" && next.scalerType !== "REQUEST_COUNT")
      throw refused("scaling: a LOAD_BALANCER endpoint scales on REQUEST_COUNT.");
    if (next.type === "QB" && next.scalerType === "REQUEST_COUNT" && body.workers?.idleTimeout !== undefined) {
      throw refused("workers.idleTimeout does not apply to a QUEUE endpoint scaling on requestCount; leave it out.");
    }
    if (body.timeout !== undefined) next.executionTimeoutMs = body.timeout;
    if (body.flashboot !== undefined) {
      next.fastBootType = body.flashboot === "OFF" ? null : "FASTBOOT";
      if (body.flashboot === "PRIORITY_FLASHBOOT") v2.flashboot = "PRIORITY_FLASHBOOT";
      else delete v2.flashboot;
    }
    if (body.dataCenterIds !== undefined) v2.dataCenterIds = body.dataCenterIds;
    if (body.networkVolumes !== undefined) {
      v2.networkVolumeIds = body.networkVolumes;
      next.networkVolumeId = body.networkVolumes[0] ?? null;
    }
    if (body.gpu) {
      const g = body.gpu;
      if (g.pools !== undefined) {
        next.gpuIds = g.pools.join(",");
        // pools and excludedTypes are one selection: pools without excludedTypes clears them (document).
        v2.excludedGpuTypes = (g.excludedTypes ?? []).map((t) => t.trim());
      }
      if (g.count !== undefined) next.gpuCount = g.count;
      if (g.allowedCudaVersions !== undefined) next.allowedCudaVersions = g.allowedCudaVersions.length > 0 ? g.allowedCudaVersions.join(",") : null;
      if (g.minCudaVersion !== undefined) next.minCudaVersion = g.minCudaVersion === "" ? null : g.minCudaVersion;
    }
    if (body.cpu) v2.cpu = body.cpu;
    if (isCpu) this.checkCpu(v2.cpu ?? []);
    else this.checkGpu(csv(next.gpuIds), v2.excludedGpuTypes ?? [], csv(next.allowedCudaVersions), next.minCudaVersion);
    this.checkPlacement(userId, v2.dataCenterIds ?? [], v2.networkVolumeIds ?? (next.networkVolumeId ? [next.networkVolumeId] : []));
    this.checkScale(next);

    // Container settings: a templateId is applied as if its settings were in this body; body fields win.
    const touched = body.templateId !== undefined || (["image", "args", "disk", "ports", "env", "registry"] as const).some((f) => body[f] !== undefined);
    const current = this.core.store.getTemplate(row.templateId);
    let newTemplate: TemplateRow | undefined;
    let changedTemplate: TemplateRow | undefined;
    if (touched && current) {
      const before = containerOf(current);
      let after: Container;
      if (body.templateId !== undefined) {
        const source = ServerlessV2.copied(userId, this.sourceTemplate(userId, body.templateId));
        after = ServerlessV2.overlay({ ...source, env: { ...source.env, ...(body.env ?? {}) } }, { ...body, env: undefined }, false);
      } else {
        after = ServerlessV2.overlay(before, body, false);
      }
      checkContainer(this.core, userId, after);
      const diff = containerDiff(before, after);
      if (diff.length > 0) {
        if (current.boundTo === row.id) changedTemplate = { ...current, ...templateFields(after), version: current.version + 1 };
        else {
          newTemplate = this.boundTemplate(userId, row.id, after, current.category ?? "NVIDIA");
          next.templateId = newTemplate.id;
        }
        this.platform.addRelease(next, diff, userId);
      }
    }
    next.version = (row.version ?? 0) + 1;
    if (changedTemplate) this.core.store.putTemplate(changedTemplate);
    if (newTemplate) this.core.store.putTemplate(newTemplate);
    this.platform.putEndpoint(next);
    if (newTemplate) this.core.templates.release(row.templateId);
    if (row.workersMin !== next.workersMin || row.workersMax !== next.workersMax) {
      this.core.workers.announce(row.id, `scaling updated: workers.min ${next.workersMin}, workers.max ${next.workersMax}`);
    }
    return this.endpoint(next);
  }

  /** `deleteEndpoint`: terminates the workers, cancels queued and in-progress jobs, deletes the bound template. */
  delete(userId: string, id: string): void {
    const row = this.platform.ownedEndpoint(userId, id);
    for (const job of this.core.store.listJobs(row.id)) this.core.jobs.cancel(job);
    this.core.store.deleteEndpoint(row.id);
    this.core.workers.remove(row.id);
    this.core.store.deleteJobsOf(row.id);
    this.core.templates.release(row.templateId);
  }
}
