/**
 * REST v2 clusters (docs/spec/rest-v2-openapi.json, tag Clusters: listClusters, createCluster, getCluster,
 * updateCluster, deleteCluster, listClusterPods). A cluster is `podCount` identical GPU pods of one type in one data
 * center (the catalog's stock decides which, catalog.ts), on a private overlay network; rank 0 is the primary (the
 * SLURM controller or RAY head). Its member pods are ordinary pods with a `cluster` block (pods.ts hides them from
 * `listPods` unless asked and refuses to change or delete them). Only the name changes after create; a delete
 * terminates the members. Billing meters the cluster as a whole (billing.ts, `listClusterBilling`).
 */
import { createHash, randomBytes } from "crypto";
import { z } from "zod";
import { Catalog, compareCuda } from "../catalog";
import type { Core } from "../core";
import { randomId } from "../ids";
import type { ClusterRow, PodRow } from "../store";
import { mountsSchema } from "./podSchemas";
import { PodsV2, POD_DEFAULT_DISK_GB } from "./pods";
import { refused, v2Problem } from "./problems";
import { parseBody } from "./schemas";

const CLUSTER_TYPES = ["APPLICATION", "TRAINING", "SLURM", "RAY"] as const;
const ROLES: Partial<Record<ClusterRow["type"], [NonNullable<PodRow["cluster"]>["role"], NonNullable<PodRow["cluster"]>["role"]]>> = {
  SLURM: ["SLURM_CONTROLLER", "SLURM_COMPUTE"],
  RAY: ["RAY_HEAD", "RAY_WORKER"],
};
/** The overlay network every cluster gets (the document's example values). */
const OVERLAY_CIDR = "10.65.0.0/16";
const VXLAN_PORT = 4789;

/** CreateClusterRequest: BaseContainerConfig (no `registry`: "Private registries are not yet supported for clusters") + the cluster's fields. */
const createClusterSchema = z
  .object({
    image: z.string().optional(),
    args: z.string().optional(),
    disk: z.number().int().min(1).optional(),
    ports: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    name: z.string().min(1),
    type: z.enum(CLUSTER_TYPES),
    compute: z.object({ gpuTypeId: z.string().min(1), gpuCountPerPod: z.number().int().min(1), podCount: z.number().int().min(2).max(250) }).strict(),
    dataCenterIds: z.array(z.string()).optional(),
    mounts: mountsSchema.optional(),
    startJupyter: z.boolean().optional(),
    startSsh: z.boolean().optional(),
  })
  .strict();

const updateClusterSchema = z
  .object({ name: z.string().min(1).optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, "at least one property is required");

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
/** A member's overlay address: rank 0 is .0.2 (the document's example), then on up through the /16. */
const memberIp = (rank: number) => `10.65.${Math.floor((rank + 2) / 256)}.${(rank + 2) % 256}`;

export class ClustersV2 {
  private pods: PodsV2;

  constructor(private core: Core) {
    this.pods = new PodsV2(core);
  }

  private owned(userId: string, id: string): ClusterRow {
    const row = this.core.store.getCluster(id);
    if (!row || row.userId !== userId) throw v2Problem(404, `Cluster "${id}" not found.`);
    return row;
  }

  /** The document's `Cluster`: identity, shape, the members' summary and the primary (rank 0). */
  private render(row: ClusterRow): Record<string, unknown> {
    const members = this.pods.members(row.userId, row.id);
    const byStatus: Record<string, number> = {};
    for (const p of members) byStatus[p.status as string] = (byStatus[p.status as string] ?? 0) + 1;
    const primary = members.find((p) => (p.cluster as { rank: number }).rank === 0);
    const direct = (primary?.ssh as { direct: { host: string; port: number } | null } | undefined)?.direct;
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      compute: { ...row.compute },
      dataCenterId: row.dataCenterId,
      pods: { total: members.length, byStatus },
      network: { ...row.network },
      ...(primary
        ? {
            primary: {
              podId: primary.id,
              status: primary.status,
              ...(primary.status === "RUNNING" && direct ? { sshEndpoint: `${direct.host}:${direct.port}` } : {}),
            },
          }
        : {}),
      createdAt: iso(row.createdAt),
    };
  }

  list(userId: string) {
    return { clusters: this.core.store.listClusters(userId).map((r) => this.render(r)) };
  }

  get(userId: string, id: string) {
    return this.render(this.owned(userId, id));
  }

  podsOf(userId: string, id: string) {
    this.owned(userId, id);
    return { pods: this.pods.members(userId, id) };
  }

  create(userId: string, raw: unknown) {
    const body = parseBody(createClusterSchema, raw);
    const { gpuTypeId, gpuCountPerPod, podCount } = body.compute;
    const type = this.core.catalog.gpuType(gpuTypeId);
    if (!type) throw refused(`compute.gpuTypeId: unknown GPU type "${gpuTypeId}"; see GET /v2/catalog/gpus.`);
    if (type.securePrice === null) throw refused(`compute.gpuTypeId: "${gpuTypeId}" is not offered for clusters (SECURE cloud).`);
    if (gpuCountPerPod > type.maxGpuCount)
      throw refused(`compute.gpuCountPerPod: at most ${type.maxGpuCount} x "${gpuTypeId}" per pod; got ${gpuCountPerPod}.`);
    const m = body.mounts;
    if (m?.persistent && m.network) throw refused("mounts: set at most one of persistent or network.");
    if (m?.network && m.network.length === 0) throw refused("mounts.network: an empty list is not accepted.");
    const volumeId = m?.network?.[0]?.volumeId;
    const volume = volumeId === undefined ? undefined : this.core.platform.networkVolumes(userId).find((v) => v.id === volumeId);
    if (volumeId !== undefined && !volume) throw refused(`mounts.network: network volume "${volumeId}" not found.`);
    for (const p of body.ports ?? []) {
      const pm = /^(\d+)\/([A-Za-z]+)$/.exec(p);
      if (!pm || Number(pm[1]) < 1 || Number(pm[1]) > 65535) throw refused(`ports: "${p}" must be port/protocol, e.g. 8888/http, with a port from 1 to 65535.`);
    }

    const wanted = body.dataCenterIds ?? [];
    const spots = this.core.catalog
      .poolDataCenters(type.tier, type.id)
      .filter(({ dc, level }) => level !== "NONE" && (wanted.length === 0 || wanted.includes(dc.id)) && (!volume || volume.dataCenter === dc.id));
    const best = Catalog.best(spots.map((s) => s.level));
    const spot = spots.find((s) => s.level === best);
    if (!spot) {
      const where = [wanted.length ? `data centers ${wanted.join(", ")}` : "", volume ? `the volume's data center ${volume.dataCenter}` : ""]
        .filter(Boolean)
        .join(" and ");
      throw refused(
        `No capacity for ${podCount} pods of ${gpuCountPerPod} x "${gpuTypeId}"${where ? ` in ${where}` : ""}; try another GPU type or data center.`,
      );
    }
    const cudaVersion = [...(this.core.catalog.pool(type.tier)?.cudaVersions ?? [])].sort(compareCuda).at(-1) ?? null;

    const now = Date.now();
    const id = randomId();
    const cluster: ClusterRow = {
      id,
      userId,
      createdAt: now,
      name: body.name,
      type: body.type,
      compute: { gpuTypeId: type.id, gpuCountPerPod, podCount },
      dataCenterId: spot.dc.id,
      network: { cidr: OVERLAY_CIDR, vxlanId: createHash("sha256").update(id).digest().readUInt16BE(0) + 1, vxlanPort: VXLAN_PORT },
    };
    const env = { ...(body.env ?? {}) };
    const pubKey = this.core.platform.pubKey(userId);
    if (body.startSsh && pubKey !== "" && env.PUBLIC_KEY === undefined) env.PUBLIC_KEY = pubKey;
    if (body.startJupyter && env.JUPYTER_PASSWORD === undefined) env.JUPYTER_PASSWORD = randomBytes(12).toString("base64url");
    const mounts: PodRow["mounts"] = m?.persistent ? { persistent: { ...m.persistent } } : m?.network ? { network: m.network.map((n) => ({ ...n })) } : {};
    const roles = ROLES[body.type];
    for (let rank = 0; rank < podCount; rank++) {
      const member: PodRow = {
        id: randomId(),
        userId,
        createdAt: now,
        name: `${body.name}-${rank}`,
        image: body.image ?? "",
        args: body.args ?? "",
        disk: body.disk ?? POD_DEFAULT_DISK_GB,
        ports: [...(body.ports ?? [])],
        env: { ...env },
        registry: null,
        status: "PROVISIONING",
        bootAt: now,
        mounts,
        gpu: { id: type.id, count: gpuCountPerPod },
        cloud: "SECURE",
        dataCenterId: spot.dc.id,
        cudaVersion,
        locked: false,
        globalNetworking: false,
        rate: { gpuPerHour: type.securePrice * gpuCountPerPod, cpuPerHour: 0 },
        startedAt: null,
        log: [],
        cluster: { id, rank, ...(roles ? { role: rank === 0 ? roles[0] : roles[1] } : {}), ip: memberIp(rank) },
      };
      this.core.store.putPod(member);
    }
    this.core.store.putCluster(cluster);
    this.core.billing.clusterStarted(userId, id, type.securePrice * gpuCountPerPod * podCount);
    return this.render(cluster);
  }

  /** "This endpoint only changes the cluster name." */
  update(userId: string, id: string, raw: unknown) {
    const row = this.owned(userId, id);
    const body = parseBody(updateClusterSchema, raw);
    const next: ClusterRow = { ...row, name: body.name ?? row.name };
    this.core.store.putCluster(next);
    return this.render(next);
  }

  /** "Permanently deletes a cluster and terminates all of its member pods." */
  delete(userId: string, id: string): void {
    this.owned(userId, id);
    for (const p of this.core.store.listPods(userId)) if (p.cluster?.id === id) this.core.store.deletePod(p.id);
    this.core.billing.clusterStopped(id);
    this.core.store.deleteCluster(id);
  }
}
