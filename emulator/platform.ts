/**
 * The emulated platform's endpoint rules, shared by GraphQL (`saveEndpoint`, `deleteEndpoint`, `updateEndpointTemplate`,
 * `myself`) and REST v1 (`POST /v1/endpoints`): validation against the spec's value sets, defaults, ownership, the
 * deletion precondition, and keeping simulated workers in step with `workersMin` and the template version.
 */
import { isDeepStrictEqual } from "util";
import type { WorkerRate } from "./billing";
import type { Catalog } from "./catalog";
import { DomainError } from "./domainError";
import { ENDPOINT_FACTS as F } from "./facts";
import { randomId } from "./ids";
import type { EndpointMeta, EndpointRecord, NetworkVolume, SaveEndpointInput } from "./records";
import type { Seed, SeedGpuType } from "./seed";
import type { EndpointRow, EndpointV2State, Store } from "./store";
import type { DiffEntry, Templates } from "./templates";
import type { Scaling } from "./scaler";
import type { SaveSemantics } from "./types";
import type { SimWorker, WorkerPool, WorkerSpec } from "./workers";

/** Fields that fall back to their default (facts.ts) when omitted or null. */
type Defaulted = { [K in keyof typeof F]: (typeof F)[K] extends { default: unknown } ? K : never }[keyof typeof F];

function splitList(value: string): string[] {
  return value.split(",").map((s) => s.trim());
}

function checkList(field: string, value: string, allowed: readonly string[]): string {
  const items = splitList(value);
  const bad = items.filter((i) => !allowed.includes(i));
  if (items.length === 0 || bad.length > 0) {
    const what = bad.length > 0 ? `unknown value${bad.length > 1 ? "s" : ""} ${bad.map((b) => `"${b}"`).join(", ")}` : "no value";
    throw new DomainError(
      "BAD_USER_INPUT",
      `Invalid ${field} "${value}": ${what}; allowed values are ${allowed.join(", ")} (comma separated).`,
      field,
      allowed,
    );
  }
  if (new Set(items).size !== items.length) {
    throw new DomainError("BAD_USER_INPUT", `Invalid ${field} "${value}": values must not repeat.`, field, allowed);
  }
  return items.join(",");
}

function checkOne(field: string, value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value)) {
    throw new DomainError("BAD_USER_INPUT", `Invalid ${field} "${value}": allowed values are ${allowed.join(", ")}.`, field, allowed);
  }
  return value;
}

/** The integer fields with bounds in the facts. */
type Bounded = { [K in keyof typeof F]: (typeof F)[K] extends { min: number; max: number } ? K : never }[keyof typeof F];
const BOUNDED = (Object.keys(F) as (keyof typeof F)[]).filter((k): k is Bounded => "min" in F[k] && "max" in F[k]);

function checkBounded(field: Bounded, value: number): number {
  const { min, max } = F[field];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new DomainError("BAD_USER_INPUT", `Invalid ${field} ${value}: must be an integer from ${min} to ${max}.`, field);
  }
  return value;
}

/**
 * The official clients write `flashBootType: FLASHBOOT` (platform-clients.md); the spec names it `fastBootType:
 * FASTBOOT`. Both map to the one stored field; giving both with different meanings is refused.
 */
function withFastBootAlias(input: SaveEndpointInput): SaveEndpointInput {
  const { flashBootType, ...rest } = input;
  if (flashBootType === undefined) return rest;
  if (flashBootType !== null && flashBootType !== "FLASHBOOT") {
    throw new DomainError("BAD_USER_INPUT", `Invalid flashBootType "${flashBootType}": allowed values are FLASHBOOT.`, "flashBootType", ["FLASHBOOT"]);
  }
  const mapped = flashBootType === null ? null : "FASTBOOT";
  if (rest.fastBootType !== undefined && rest.fastBootType !== mapped) {
    throw new DomainError(
      "BAD_USER_INPUT",
      "fastBootType and flashBootType name the same setting; give one of them, or both with the same meaning.",
      "flashBootType",
    );
  }
  return { ...rest, fastBootType: mapped };
}

export class Platform {
  constructor(
    private seed: Seed,
    private store: Store,
    private workers: WorkerPool,
    private templates: Templates,
    private catalog: Catalog,
    private saveSemantics: SaveSemantics = "replace",
    /** Called once per modify whose outcome depends on the save semantics (see {@link RunningEmulator.saveSemantics}). */
    private onDependentSave: () => void = () => {},
  ) {}

  /** The REST v2 state of a row, with the initial release synthesized for rows no v2 call has touched. */
  v2State(row: EndpointRow): EndpointV2State {
    return row.v2 ?? { version: 1, releases: [{ id: `rel_${row.id}_1`, version: 1, createdAt: row.createdAt, createdByUserId: row.userId, diff: [] }] };
  }

  /** Record a release (a new configuration version) on the row; the caller stores the row and syncs its workers. */
  addRelease(row: EndpointRow, diff: DiffEntry[], userId: string | null): void {
    const state = this.v2State(row);
    state.version++;
    state.releases.push({ id: `rel_${randomId(10)}`, version: state.version, createdAt: Date.now(), createdByUserId: userId, diff });
    row.v2 = state;
  }

  /** Store a row changed outside saveEndpoint (REST v2) and bring its workers in step. */
  putEndpoint(row: EndpointRow): void {
    this.store.putEndpoint(row);
    this.syncWorkers(row);
  }

  /** USD per hour a worker costs (billing.ts): per-GPU pool price × GPUs, or per-vCPU flavor price × vCPUs. */
  rateOf(worker: SimWorker): WorkerRate {
    const row = this.store.getEndpoint(worker.endpointId);
    if (worker.spec.cpu) {
      const flavor = this.catalog.cpuFlavor(worker.gpuTypeId);
      const vcpus = row?.v2?.cpu?.find((c) => c.id === worker.gpuTypeId)?.vcpuCount ?? flavor?.vcpu.min ?? 0;
      return { gpuPerHour: 0, cpuPerHour: (flavor?.price.serverlessPerVcpu ?? 0) * vcpus };
    }
    const pool = this.catalog.pool(this.catalog.gpuType(worker.gpuTypeId)?.tier ?? "");
    return { gpuPerHour: (pool?.serverlessPricePerGpuHour ?? 0) * (worker.spec.gpuCount ?? 1), cpuPerHour: 0 };
  }

  /** The platform record of a stored endpoint; `pods` mirrors its running workers. Rows from older data files get defaults. */
  record(row: EndpointRow): EndpointRecord {
    const { userId: _u, createdAt: _c, version: _v, aiKey: _a, ...rest } = row;
    return {
      ...rest,
      gpuCount: row.gpuCount ?? F.gpuCount.default,
      allowedCudaVersions: row.allowedCudaVersions ?? F.allowedCudaVersions.default,
      minCudaVersion: row.minCudaVersion ?? F.minCudaVersion.default,
      executionTimeoutMs: row.executionTimeoutMs ?? F.executionTimeoutMs.default,
      workersStandby: row.workersStandby ?? F.workersStandby.default,
      pods: this.workers.list(row.id).map(() => ({ desiredStatus: "RUNNING" })),
    };
  }

  /** Read-only fields of a stored endpoint that the official clients select. */
  meta(endpointId: string): EndpointMeta {
    const row = this.store.getEndpoint(endpointId)!;
    return { userId: row.userId, createdAt: new Date(row.createdAt).toISOString(), version: row.version ?? 0, aiKey: row.aiKey ?? `ai_${row.id}` };
  }

  /** The stored endpoint's current workers' ids (the clients' `instanceIds`). */
  workerIds(endpointId: string): string[] {
    return this.workers.list(endpointId).map((w) => w.id);
  }

  listEndpoints(userId?: string): EndpointRecord[] {
    return this.store.listEndpoints(userId).map((r) => this.record(r));
  }

  /** The caller's endpoint, or NOT_FOUND (another user's endpoint is indistinguishable from a missing one). */
  ownedEndpoint(userId: string, id: string): EndpointRow {
    const row = this.store.getEndpoint(id);
    if (!row || row.userId !== userId) throw new DomainError("NOT_FOUND", `Endpoint "${id}" not found.`, "id");
    return row;
  }

  gpuTypes(): SeedGpuType[] {
    return this.seed.gpuTypes;
  }

  /** The user's SSH public key(s) (runpod-python's `myself { pubKey }`); "" until set. */
  pubKey(userId: string): string {
    return this.store.getSetting(`pubKey:${userId}`) ?? "";
  }

  /** `updateUserSettings(input: { pubKey })`: BAD_USER_INPUT unless a string of at most 16 384 characters. */
  setPubKey(userId: string, pubKey: unknown): void {
    if (typeof pubKey !== "string" || pubKey.length > 16_384) {
      throw new DomainError(
        "BAD_USER_INPUT",
        'Field "pubKey" is required and must be a string of at most 16384 characters (SSH public keys, one per line).',
        "pubKey",
      );
    }
    this.store.putSetting(`pubKey:${userId}`, pubKey);
  }

  /** The caller's network volumes (seeded ones are copied into the store once: emulator/v2/networkVolumes.ts). */
  networkVolumes(userId: string): NetworkVolume[] {
    return this.store.listNetworkVolumes(userId).map(({ userId: _u, createdAt: _c, ...v }) => v);
  }

  /**
   * Create (no `id`) or modify (`id`) an endpoint. On modify, null resets a field to its default, and an
   * absent field is reset too under `replace` save semantics, kept under `merge`. Throws DomainError BAD_USER_INPUT naming the field and allowed values, or NOT_FOUND.
   */
  saveEndpoint(userId: string, given: SaveEndpointInput): EndpointRecord {
    const input = withFastBootAlias(given);
    const existing = input.id != null ? this.ownedEndpoint(userId, input.id) : undefined;
    for (const field of ["name", "templateId", "gpuIds"] as const) {
      if (typeof input[field] !== "string" || (input[field] as string).trim() === "") {
        const allowed = field === "gpuIds" ? F.gpuIds.values : undefined;
        const hint = allowed ? `; allowed values are ${allowed.join(", ")} (comma separated)` : "";
        throw new DomainError("BAD_USER_INPUT", `Field "${field}" is required and must be a non-empty string${hint}.`, field, allowed);
      }
    }
    let dependent = false;
    const pick = <K extends Defaulted>(key: K) => {
      const v = input[key];
      if (v === null) return F[key].default;
      if (v === undefined && existing && !dependent && !isDeepStrictEqual(existing[key], F[key].default)) {
        dependent = true;
        this.onDependentSave();
      }
      if (v === undefined) return existing && this.saveSemantics === "merge" ? existing[key] : F[key].default;
      return v;
    };
    this.templates.usableForEndpoint(userId, input.templateId!);

    const locationsIn = pick("locations") as string | null;
    const volumeIn = pick("networkVolumeId") as string | null;
    if (volumeIn !== null && volumeIn !== "" && !this.networkVolumes(userId).some((v) => v.id === volumeIn)) {
      throw new DomainError("BAD_USER_INPUT", `Network volume "${volumeIn}" not found.`, "networkVolumeId");
    }
    const fastBoot = pick("fastBootType") as string | null;
    const cudaIn = pick("allowedCudaVersions") as string | null;
    const minCuda = pick("minCudaVersion") as string | null;
    const row: EndpointRow = {
      id: existing?.id ?? randomId(),
      userId,
      createdAt: existing?.createdAt ?? Date.now(),
      name: input.name!.trim(),
      templateId: input.templateId!,
      gpuIds: checkList("gpuIds", input.gpuIds!, F.gpuIds.values),
      type: checkOne("type", pick("type") as string, F.type.values) as EndpointRecord["type"],
      ...(Object.fromEntries(BOUNDED.map((f) => [f, checkBounded(f, pick(f) as number)])) as Pick<EndpointRow, Bounded>),
      // The spec: empty or null means any region; the value is kept as sent so a client's diff stays stable.
      locations: locationsIn === null || locationsIn === "" ? locationsIn : checkList("locations", locationsIn, F.locations.values),
      fastBootType: fastBoot === null ? null : (checkOne("fastBootType", fastBoot, F.fastBootType.values) as EndpointRecord["fastBootType"]),
      scalerType: checkOne("scalerType", pick("scalerType") as string, F.scalerType.values) as EndpointRecord["scalerType"],
      networkVolumeId: volumeIn === "" ? null : volumeIn,
      allowedCudaVersions: cudaIn === null || cudaIn === "" ? cudaIn : checkList("allowedCudaVersions", cudaIn, F.allowedCudaVersions.values),
      minCudaVersion: minCuda === null || minCuda === "" ? minCuda : checkOne("minCudaVersion", minCuda, F.allowedCudaVersions.values),
      version: existing ? (existing.version ?? 0) + 1 : 0,
      aiKey: existing?.aiKey ?? `ai_${randomId(24)}`,
    };
    // What only REST v2 shows survives a GraphQL save; a template switch is a release.
    if (existing?.v2) row.v2 = existing.v2;
    if (existing && existing.templateId !== row.templateId)
      this.addRelease(row, [{ field: "templateId", old: existing.templateId, new: row.templateId }], userId);
    if (row.workersMin > row.workersMax) {
      throw new DomainError("BAD_USER_INPUT", `workersMin (${row.workersMin}) must not exceed workersMax (${row.workersMax}).`, "workersMin");
    }
    this.store.putEndpoint(row);
    if (existing) this.workers.announce(row.id, "endpoint configuration updated");
    if (existing && existing.templateId !== row.templateId) this.templates.release(existing.templateId);
    this.syncWorkers(row);
    return this.record(row);
  }

  /** Point the caller's endpoint at another usable template; its workers roll onto it (platform-clients.md). */
  updateEndpointTemplate(userId: string, input: { endpointId?: unknown; templateId?: unknown } | null | undefined): EndpointRecord {
    for (const field of ["endpointId", "templateId"] as const) {
      if (typeof input?.[field] !== "string" || input[field] === "") {
        throw new DomainError("BAD_USER_INPUT", `Field "${field}" is required and must be a non-empty string.`, field);
      }
    }
    const row = this.ownedEndpoint(userId, input!.endpointId as string);
    const template = this.templates.usableForEndpoint(userId, input!.templateId as string);
    const previous = row.templateId;
    row.templateId = template.id;
    if (previous !== row.templateId) this.addRelease(row, [{ field: "templateId", old: previous, new: row.templateId }], userId);
    this.store.putEndpoint(row);
    if (previous !== row.templateId) {
      this.templates.release(previous);
      this.workers.announce(row.id, `endpoint template changed to ${row.templateId}`);
    }
    this.syncWorkers(row);
    return this.record(row);
  }

  /** A template's image or env changed: a release of every endpoint using it, whose workers roll. */
  rollTemplate(templateId: string, diff: DiffEntry[] = []): void {
    for (const row of this.store.listEndpoints()) {
      if (row.templateId !== templateId) continue;
      this.addRelease(row, diff, row.userId);
      this.store.putEndpoint(row);
      this.syncWorkers(row);
    }
  }

  /** Delete the caller's endpoint; FAILED_PRECONDITION while workersMin or workersMax is nonzero (spec: Endpoints). */
  deleteEndpoint(userId: string, id: string): void {
    const row = this.ownedEndpoint(userId, id);
    if (row.workersMin !== 0 || row.workersMax !== 0) {
      throw new DomainError(
        "FAILED_PRECONDITION",
        `Endpoint "${id}" cannot be deleted while workersMin (${row.workersMin}) or workersMax (${row.workersMax}) is nonzero; set both to 0 first.`,
        "id",
      );
    }
    this.store.deleteEndpoint(id);
    this.store.deleteJobsOf(id);
    this.workers.remove(id);
    this.templates.release(row.templateId);
  }

  /** Start the workers of every stored endpoint (after a restart with a data file). */
  restoreWorkers(): void {
    for (const row of this.store.listEndpoints()) this.syncWorkers(row);
  }

  private syncWorkers(row: EndpointRow): void {
    this.workers.reconcile(row.id, this.scaling(row), this.workerSpec(row));
  }

  /** The scaler's settings: GraphQL's fields, with REST v2's exact (fractional) queue delay when one was set. */
  private scaling(row: EndpointRow): Scaling {
    const type = row.scalerType ?? F.scalerType.default;
    const value = row.scalerValue ?? F.scalerValue.default;
    const queueDelay = row.v2?.queueDelay;
    return {
      min: row.workersMin,
      max: row.workersMax,
      type,
      value: type === "QUEUE_DELAY" && queueDelay !== undefined && Math.max(1, Math.round(queueDelay)) === value ? queueDelay : value,
      idleTimeoutMs: (row.idleTimeout ?? F.idleTimeout.default) * 1000,
    };
  }

  /** What new workers run and where they land: the catalog places them by stock (catalog.ts). */
  private workerSpec(row: EndpointRow): WorkerSpec {
    const template = this.store.getTemplate(row.templateId);
    const v2 = this.v2State(row);
    const dataCenterIds = v2.dataCenterIds ?? [];
    const base = { templateId: row.templateId, imageName: template?.imageName ?? "", templateVersion: template?.version ?? 0, releaseVersion: v2.version };
    if (v2.cpu && v2.cpu.length > 0) {
      const spot = this.catalog.placeCpu(
        v2.cpu.map((c) => c.id),
        dataCenterIds,
      );
      return { ...base, gpuTypeId: spot?.flavorId ?? v2.cpu[0].id, cpu: true, gpuCount: 0, dataCenterId: spot?.dataCenterId ?? null, throttled: !spot };
    }
    const spot = this.catalog.placeGpu(splitList(row.gpuIds), v2.excludedGpuTypes ?? [], dataCenterIds);
    return {
      ...base,
      gpuTypeId: spot?.gpuTypeId ?? this.gpuTypeFor(row.gpuIds),
      gpuCount: row.gpuCount ?? F.gpuCount.default,
      dataCenterId: spot?.dataCenterId ?? null,
      throttled: !spot,
    };
  }

  /** The GPU type a worker gets: the first seeded type of the first listed tier that has one. */
  private gpuTypeFor(gpuIds: string): string {
    for (const tier of splitList(gpuIds)) {
      const type = this.seed.gpuTypes.find((g) => g.tier === tier);
      if (type) return type.id;
    }
    return splitList(gpuIds)[0];
  }
}
