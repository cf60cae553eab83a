/**
 * REST v2 pods (docs/spec/rest-v2-openapi.json, tag Pods: listPods, createPod, getPod, updatePod, deletePod,
 * podAction; getPodLogs in podLogs.ts). The rules are the document's: exactly one of `gpu` / `cpu`; `image` unless
 * `templateId` (resolved once at create, never linked: `template` stays null); one mount kind, fixed at create;
 * placement on the catalog's stock (catalog.ts) in the wanted data centers, the network volume's included; actions
 * by status as the document lists them (409 otherwise). A pod is PROVISIONING (or STARTING after a start) until its
 * boot instant, RUNNING after; billing meters it from each start to the next stop (billing.ts).
 */
import { createHash, randomBytes } from "crypto";
import type { Core } from "../core";
import { randomId } from "../ids";
import type { PodRow, TemplateRow } from "../store";
import { Catalog, compareCuda } from "../catalog";
import { checkContainer, containerOf } from "./container";
import { createPodSchema, podActionSchema, updatePodSchema, type CreatePodBody, type PodAction, type PodMounts, type UpdatePodBody } from "./podSchemas";
import { refused, v2Problem } from "./problems";
import { parseBody } from "./schemas";

type Status = PodRow["status"];

/** `actions` by status (document: podAction). */
const ACTIONS: Record<Status, PodAction[]> = {
  RUNNING: ["stop", "restart", "terminate"],
  EXITED: ["start", "terminate"],
  ERROR: ["start", "terminate"],
  PROVISIONING: ["stop", "terminate"],
  STARTING: ["stop", "terminate"],
};

/** Container disk when neither the body nor a template gives one (the document's examples use 50). */
export const POD_DEFAULT_DISK_GB = 50;
/** How long a pod provisions or starts before it runs; the emulator boots at once (the create still answers PROVISIONING). */
const BOOT_MS = 0;
const SSH_PROXY_HOST = "ssh.runpod.io";

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const hash = (text: string) => createHash("sha256").update(text).digest();
const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/** The pod's public address and the public port of a private one: stable per pod, from its id. */
const publicIp = (id: string) => `203.0.113.${(hash(id)[0] % 254) + 1}`;
const publicPort = (id: string, port: number) => 10_000 + (hash(`${id}/${port}`).readUInt32BE(0) % 50_000);

export class PodsV2 {
  constructor(private core: Core) {}

  /** A PROVISIONING or STARTING pod whose boot instant passed is RUNNING (stored on read). */
  private settle(row: PodRow): PodRow {
    if ((row.status === "PROVISIONING" || row.status === "STARTING") && Date.now() >= row.bootAt) {
      const next: PodRow = { ...row, status: "RUNNING", startedAt: Date.now() };
      this.log(next, "system", "Container is running");
      this.log(next, "container", `Starting ${next.image}${next.args ? ` ${next.args}` : ""}`);
      this.core.store.putPod(next);
      return next;
    }
    return row;
  }

  /** Appends a log line; its `ts` is its event id (document: getPodLogs), so each line gets a later millisecond than the last. */
  private log(row: PodRow, source: "container" | "system", line: string): void {
    const tsMs = Math.max(Date.now(), (row.log.at(-1)?.tsMs ?? 0) + 1);
    row.log.push({ ts: new Date(tsMs).toISOString(), tsMs, seq: row.log.length + 1, source, line });
  }

  private owned(userId: string, id: string): PodRow {
    const row = this.core.store.getPod(id);
    if (!row || row.userId !== userId) throw v2Problem(404, `Pod "${id}" not found.`);
    return this.settle(row);
  }

  /** The document's `Pod`. */
  pod(row: PodRow): Record<string, unknown> {
    const running = row.status === "RUNNING";
    const ip = publicIp(row.id);
    const proxyUser = `${row.id}-${hash(`ssh/${row.id}`).toString("hex").slice(0, 8)}`;
    const direct = running && row.ports.includes("22/tcp") ? { host: ip, port: publicPort(row.id, 22), username: "root" } : undefined;
    const gn = row.globalNetworking;
    return {
      id: row.id,
      name: row.name,
      image: row.image,
      args: row.args,
      disk: row.disk,
      ports: [...row.ports],
      env: { ...row.env },
      registry: row.registry,
      status: row.status,
      actions: ACTIONS[row.status],
      mounts: row.mounts,
      ...(row.gpu ? { gpu: { ...row.gpu } } : {}),
      ...(row.cpu ? { cpu: { ...row.cpu } } : {}),
      cloud: row.cloud,
      dataCenterId: row.dataCenterId,
      cudaVersion: row.cudaVersion,
      ssh: {
        proxy: { host: SSH_PROXY_HOST, port: 22, username: proxyUser, command: `ssh ${proxyUser}@${SSH_PROXY_HOST}` },
        direct: direct ? { ...direct, command: `ssh root@${direct.host} -p ${direct.port}` } : null,
      },
      template: null,
      cost: running || row.status === "PROVISIONING" || row.status === "STARTING" ? round(row.rate.gpuPerHour + row.rate.cpuPerHour) : 0,
      locked: row.locked,
      globalNetworking: gn
        ? { enabled: true, ip: `10.64.${hash(row.id)[1]}.${hash(row.id)[2]}`, internalDns: `${row.id}.runpod.internal` }
        : { enabled: false },
      runtime: running
        ? {
            uptime: Math.max(0, Math.floor((Date.now() - (row.startedAt ?? Date.now())) / 1000)),
            ports: row.ports.map((p) => {
              const [port, type] = p.split("/");
              const tcp = type === "tcp";
              return { private: Number(port), public: tcp ? publicPort(row.id, Number(port)) : null, type, ip: tcp ? ip : null };
            }),
          }
        : null,
      ...(row.cluster ? { cluster: { ...row.cluster } } : {}),
      createdAt: iso(row.createdAt),
      startedAt: row.startedAt === null ? null : iso(row.startedAt),
    };
  }

  /** Cluster members only with `includeClusterPods=true` (document: listPods). */
  list(userId: string, q: URLSearchParams) {
    const include = q.get("includeClusterPods") ?? "false";
    if (include !== "true" && include !== "false") {
      throw v2Problem(422, "Request validation failed.", [`includeClusterPods: must be true or false; got "${include}"`]);
    }
    return {
      pods: this.core.store
        .listPods(userId)
        .filter((r) => include === "true" || r.cluster === undefined)
        .map((r) => this.pod(this.settle(r))),
    };
  }

  /** A cluster's member pods, by rank (clusters.ts). */
  members(userId: string, clusterId: string): Record<string, unknown>[] {
    return this.core.store
      .listPods(userId)
      .filter((r) => r.cluster?.id === clusterId)
      .sort((a, b) => a.cluster!.rank - b.cluster!.rank)
      .map((r) => this.pod(this.settle(r)));
  }

  /** A pod the pod operations may change: cluster members "cannot be modified or deleted via the pod endpoints". */
  private standalone(userId: string, id: string): PodRow {
    const row = this.owned(userId, id);
    // The document's 409: "Pod belongs to a cluster and cannot be modified via the pod endpoints."
    if (row.cluster) throw refused(`Pod "${id}" belongs to cluster "${row.cluster.id}": manage it through /v2/clusters/${row.cluster.id}.`, 409);
    return row;
  }

  get(userId: string, id: string) {
    return this.pod(this.owned(userId, id));
  }

  /** The caller's own or a public template for a pod (document: 404 unknown or inaccessible, 422 serverless). */
  private template(userId: string, id: string): TemplateRow {
    const t = this.core.templates.get(id);
    if (!t || t.boundTo !== undefined || (t.userId !== userId && t.userId !== null && !t.isPublic)) throw v2Problem(404, `Template "${id}" not found.`);
    if (t.isServerless) throw v2Problem(422, "Request validation failed.", [`templateId: template "${id}" is a serverless template; pods need a pod template`]);
    return t;
  }

  private volume(userId: string, id: string): { id: string; dataCenterId: string } {
    const v = this.core.platform.networkVolumes(userId).find((x) => x.id === id);
    if (!v) throw refused(`mounts.network: network volume "${id}" not found.`);
    return { id: v.id, dataCenterId: v.dataCenter };
  }

  private checkMounts(m: PodMounts | undefined): void {
    if (m?.persistent && m.network) throw refused("mounts: set at most one of persistent or network.");
    if (m?.network && m.network.length === 0) throw refused("mounts.network: an empty list is not accepted (clearing mounts is not supported).");
  }

  create(userId: string, raw: unknown) {
    const body: CreatePodBody = parseBody(createPodSchema, raw);
    if ((body.gpu === undefined) === (body.cpu === undefined)) throw refused("Set exactly one of gpu or cpu.");
    this.checkMounts(body.mounts);
    if (body.cpu && body.mounts?.persistent) throw refused("mounts.persistent: CPU pods support container disk and network volumes only.");
    const t = body.templateId === undefined ? undefined : this.template(userId, body.templateId);
    const fromT = t ? containerOf(t) : undefined;
    const env = { ...(fromT?.env ?? {}), ...(body.env ?? {}) };
    const startSsh = body.startSsh ?? t?.startSsh ?? false;
    const startJupyter = body.startJupyter ?? t?.startJupyter ?? false;
    const pubKey = this.core.platform.pubKey(userId);
    if (startSsh && pubKey !== "" && env.PUBLIC_KEY === undefined) env.PUBLIC_KEY = pubKey;
    if (startJupyter && env.JUPYTER_PASSWORD === undefined) env.JUPYTER_PASSWORD = randomBytes(12).toString("base64url");
    const ports = body.ports ?? fromT?.ports ?? [];
    const registry = body.registry !== undefined ? body.registry : (fromT?.registry ?? null);
    checkContainer(this.core, userId, { ports, registry });

    let mounts: PodRow["mounts"] = {};
    if (body.mounts?.persistent) mounts = { persistent: { ...body.mounts.persistent } };
    else if (body.mounts?.network) mounts = { network: body.mounts.network.map((n) => ({ ...n })) };
    else if (t && t.volumeInGb > 0 && body.gpu && !body.mounts?.network) mounts = { persistent: { size: t.volumeInGb, path: t.volumeMountPath } };
    const volume = mounts.network ? this.volume(userId, mounts.network[0].volumeId) : undefined;

    const cloud = body.cloud ?? "SECURE";
    const wanted = (dc: string) => (body.dataCenterIds ?? []).length === 0 || body.dataCenterIds!.includes(dc);
    const inVolumeDc = (dc: string) => volume === undefined || volume.dataCenterId === dc;
    const where = [
      body.dataCenterIds?.length ? `data centers ${body.dataCenterIds.join(", ")}` : "",
      volume ? `the volume's data center ${volume.dataCenterId}` : "",
    ]
      .filter(Boolean)
      .join(" and ");
    const placed = body.gpu
      ? this.placeGpu(body.gpu, t, cloud, body.globalNetworking === true, wanted, inVolumeDc, where)
      : this.placeCpu(body.cpu!, body.globalNetworking === true, wanted, inVolumeDc, where);

    const now = Date.now();
    const row: PodRow = {
      id: randomId(),
      userId,
      createdAt: now,
      name: body.name,
      image: body.image ?? fromT?.image ?? "",
      args: body.args ?? fromT?.args ?? "",
      disk: body.disk ?? fromT?.disk ?? POD_DEFAULT_DISK_GB,
      ports,
      env,
      registry,
      status: "PROVISIONING",
      bootAt: now + BOOT_MS,
      mounts,
      ...placed,
      cloud,
      locked: false,
      globalNetworking: body.globalNetworking === true,
      startedAt: null,
      log: [],
    };
    this.log(
      row,
      "system",
      `Pod placed in ${row.dataCenterId}${row.gpu ? ` on ${row.gpu.count} x ${row.gpu.id}` : ` on ${row.cpu!.vcpuCount} vCPU ${row.cpu!.id}`}`,
    );
    this.log(row, "system", `Pulling image ${row.image}`);
    this.core.store.putPod(row);
    this.core.billing.podStarted(userId, row.id, row.rate);
    return this.pod(row);
  }

  private placeGpu(
    gpu: NonNullable<CreatePodBody["gpu"]>,
    t: TemplateRow | undefined,
    cloud: "SECURE" | "COMMUNITY",
    globalNetworking: boolean,
    wanted: (dc: string) => boolean,
    inVolumeDc: (dc: string) => boolean,
    where: string,
  ): Pick<PodRow, "gpu" | "dataCenterId" | "cudaVersion" | "rate"> {
    const type = this.core.catalog.gpuType(gpu.id);
    if (!type) throw refused(`gpu.id: unknown GPU type "${gpu.id}"; see GET /v2/catalog/gpus.`);
    const count = gpu.count ?? 1;
    const price = cloud === "SECURE" ? type.securePrice : type.communityPrice;
    if (price === null) throw refused(`gpu.id: "${gpu.id}" is not offered on ${cloud} cloud.`);
    const maxCount = cloud === "SECURE" ? type.maxGpuCount : Math.max(1, Math.floor(type.maxGpuCount / 2));
    if (count > maxCount) throw refused(`gpu.count: at most ${maxCount} x "${gpu.id}" per pod on ${cloud} cloud; got ${count}.`);
    const cudaGiven = gpu.allowedCudaVersions !== undefined || gpu.minCudaVersion !== undefined;
    const allowed = cudaGiven ? (gpu.allowedCudaVersions ?? []) : (t?.allowedCudaVersions ?? []);
    const min = cudaGiven ? gpu.minCudaVersion : undefined;
    if (allowed.length > 0 && min !== undefined) throw refused("gpu: allowedCudaVersions (non-empty) and minCudaVersion are mutually exclusive.");
    if (globalNetworking && !/^nvidia$/i.test(type.manufacturer)) throw refused("globalNetworking: requires an NVIDIA GPU.");
    const pool = this.core.catalog.pool(type.tier);
    const versions = (pool?.cudaVersions ?? []).filter((v) => (allowed.length === 0 || allowed.includes(v)) && (min === undefined || compareCuda(v, min) >= 0));
    const spots = this.core.catalog
      .poolDataCenters(type.tier, type.id)
      .filter(({ dc, level }) => level !== "NONE" && wanted(dc.id) && inVolumeDc(dc.id) && (!globalNetworking || dc.globalNetwork));
    const best = Catalog.best(spots.map((s) => s.level));
    const spot = spots.find((s) => s.level === best);
    if (!spot || versions.length === 0) {
      throw refused(
        `No capacity for ${count} x "${gpu.id}" on ${cloud} cloud${where ? ` in ${where}` : ""}${versions.length === 0 ? " with the requested CUDA versions" : ""}; try another GPU type or data center.`,
      );
    }
    return {
      gpu: { id: type.id, count },
      dataCenterId: spot.dc.id,
      cudaVersion: [...versions].sort(compareCuda).at(-1)!,
      rate: { gpuPerHour: price * count, cpuPerHour: 0 },
    };
  }

  private placeCpu(
    cpu: NonNullable<CreatePodBody["cpu"]>,
    globalNetworking: boolean,
    wanted: (dc: string) => boolean,
    inVolumeDc: (dc: string) => boolean,
    where: string,
  ): Pick<PodRow, "cpu" | "dataCenterId" | "cudaVersion" | "rate"> {
    const flavor = this.core.catalog.cpuFlavor(cpu.id);
    if (!flavor) throw refused(`cpu.id: unknown CPU flavor "${cpu.id}"; see GET /v2/catalog/cpus.`);
    if (!isPowerOfTwo(cpu.vcpuCount) || cpu.vcpuCount < flavor.vcpu.min || cpu.vcpuCount > flavor.vcpu.max) {
      throw refused(`cpu.vcpuCount: "${cpu.id}" takes a power of two from ${flavor.vcpu.min} to ${flavor.vcpu.max}; got ${cpu.vcpuCount}.`);
    }
    if (globalNetworking) throw refused("globalNetworking: requires an NVIDIA GPU.");
    const spot = this.core.catalog.cpuDataCenters(flavor.id).find(({ dc, level }) => level !== "NONE" && wanted(dc.id) && inVolumeDc(dc.id));
    if (!spot) throw refused(`No capacity for CPU flavor "${cpu.id}"${where ? ` in ${where}` : ""}; try another flavor or data center.`);
    return {
      cpu: { id: flavor.id, vcpuCount: cpu.vcpuCount, memory: cpu.vcpuCount * flavor.ramGbPerVcpu },
      dataCenterId: spot.dc.id,
      cudaVersion: null,
      rate: { gpuPerHour: 0, cpuPerHour: flavor.price.securePerVcpu * cpu.vcpuCount },
    };
  }

  /** PATCH: only the fields present change (document: updatePod); a changed container restarts a running pod. */
  update(userId: string, id: string, raw: unknown) {
    const row = this.standalone(userId, id);
    const body: UpdatePodBody = parseBody(updatePodSchema, raw);
    this.checkMounts(body.mounts);
    const t = body.templateId !== undefined && body.templateId !== "" ? this.template(userId, body.templateId) : undefined;
    const fromT = t ? containerOf(t) : undefined;
    const next: PodRow = { ...row, mounts: { ...row.mounts } };
    if (body.name !== undefined) next.name = body.name;
    const image = body.image ?? fromT?.image;
    const args = body.args ?? fromT?.args;
    const disk = body.disk ?? fromT?.disk;
    const ports = body.ports ?? fromT?.ports;
    const env = body.env !== undefined || fromT ? { ...(fromT?.env ?? {}), ...(body.env ?? {}) } : undefined;
    const registry = body.registry !== undefined ? body.registry : fromT ? fromT.registry : undefined;
    checkContainer(this.core, userId, { ports, registry });
    if (image !== undefined) next.image = image;
    if (args !== undefined) next.args = args;
    if (disk !== undefined) next.disk = disk;
    if (ports !== undefined) next.ports = ports;
    if (env !== undefined) next.env = env;
    if (registry !== undefined) next.registry = registry;
    if (body.mounts?.persistent) {
      if (!row.mounts.persistent) throw refused("mounts.persistent: the mount kind is fixed at create; this pod has no persistent mount.");
      next.mounts = { persistent: { ...body.mounts.persistent } };
    }
    if (body.mounts?.network) {
      const before = row.mounts.network?.[0];
      if (!before) throw refused("mounts.network: the mount kind is fixed at create; this pod has no network mount.");
      if (body.mounts.network[0].volumeId !== before.volumeId)
        throw refused(`mounts.network: the volume is fixed at create (${before.volumeId}); only its path may change.`);
      next.mounts = { network: [{ ...body.mounts.network[0] }] };
    }
    if (body.locked !== undefined) next.locked = body.locked;
    if (body.globalNetworking !== undefined) {
      const type = row.gpu ? this.core.catalog.gpuType(row.gpu.id) : undefined;
      if (body.globalNetworking && (!type || !/^nvidia$/i.test(type.manufacturer))) throw refused("globalNetworking: requires an NVIDIA GPU.");
      if (body.globalNetworking && !this.core.catalog.dataCenter(row.dataCenterId)?.globalNetwork) {
        throw refused(`globalNetworking: data center ${row.dataCenterId} has no global network.`);
      }
      next.globalNetworking = body.globalNetworking;
    }
    const containerChanged = ["image", "args", "disk", "ports", "env", "registry"].some(
      (k) => JSON.stringify(row[k as keyof PodRow]) !== JSON.stringify(next[k as keyof PodRow]),
    );
    if (containerChanged && row.status === "RUNNING") {
      this.log(next, "system", "Configuration changed; restarting the container");
      next.status = "STARTING";
      next.bootAt = Date.now() + BOOT_MS;
    }
    this.core.store.putPod(next);
    return this.pod(this.settle(next));
  }

  delete(userId: string, id: string): void {
    this.standalone(userId, id);
    this.core.billing.podStopped(id);
    this.core.store.deletePod(id);
  }

  /** `podAction`: the pod after start / stop / restart; undefined after terminate (204). 409 when not valid now. */
  action(userId: string, id: string, raw: unknown): Record<string, unknown> | undefined {
    const { action } = parseBody(podActionSchema, raw);
    const row = this.standalone(userId, id);
    if (!ACTIONS[row.status].includes(action)) {
      throw v2Problem(409, `Action "${action}" is not valid for a ${row.status} pod; valid now: ${ACTIONS[row.status].join(", ")}.`);
    }
    if (row.locked && (action === "stop" || action === "restart"))
      throw v2Problem(409, `Pod "${id}" is locked: it cannot be stopped or restarted; unlock it first.`);
    if (action === "terminate") {
      this.delete(userId, id);
      return undefined;
    }
    const next: PodRow = { ...row };
    if (action === "stop") {
      this.log(next, "system", "Stopping the container");
      next.status = "EXITED";
      this.core.billing.podStopped(id);
    } else {
      this.log(next, "system", action === "start" ? "Starting the pod" : "Restarting the container");
      if (action === "start") this.core.billing.podStarted(userId, id, row.rate);
      next.status = "STARTING";
      next.bootAt = Date.now() + BOOT_MS;
    }
    this.core.store.putPod(next);
    return this.pod(action === "stop" ? next : this.settle(next));
  }

  /** The pod's log lines, oldest first (getPodLogs). */
  logLines(userId: string, id: string): PodRow["log"] {
    return this.owned(userId, id).log;
  }
}

/** Hourly rates keep 6 decimals, free of float noise. */
const round = (v: number) => Math.round(v * 1e6) / 1e6;
