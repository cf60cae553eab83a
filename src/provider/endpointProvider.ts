/**
 * The `Endpoint` dynamic provider's operations (issue #4; create/delete guarantees of issue #6), on top
 * of a {@link PlatformClient}. The engine reaches them through the serializable stub (serializable.ts)
 * and the package's provider module (index.ts); tests may construct one directly.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { waitForWorkers, WorkersNotReadyError } from "../api";
import type { EndpointRecord, NetworkVolume, PlatformClient } from "../api/types";
import { CoalescedCall } from "./coalesce";
import { diffEndpoint, type EndpointDiff } from "./endpointDiff";
import { checkEndpointInputs, isComplete, type EndpointInputs } from "./endpointInputs";
import { EndpointDirectory, LOOKUP_WINDOW_MS } from "./endpointLookup";
import { KeyedSerial } from "./keyedSerial";
import { settingsFrom, type EndpointSettings } from "./endpointSettings";
import { withEndpointName } from "./endpointName";
import { AUTONAMED_PROPERTY, LOOKUP_PROPERTY, inPreviousOrder, inputsFromOutputs, isStringArray, joinList, outputsFromRecord, saveInputFrom, splitList, type EndpointOutputs } from "./endpointState";
import { isFailedPrecondition, isNotFound, isOutcomeUnknown, isTimeout, messageOf } from "./errorKinds";
import { isUnknown } from "./unknown";

/**
 * Thrown by `create` when the endpoint exists but could not be given all its settings, or its workers
 * did not report ready in time (`waitForWorkers`). The dynamic provider host turns an error with `id`
 * and `properties` into "created, but failed to initialise", so the engine records the endpoint
 * (nothing leaks) and the next `pulumi up` updates it.
 */
export class EndpointInitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: EndpointOutputs,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "EndpointInitError";
  }
}

/** Shortest time a timed-out create is given to land before it is tried again, in milliseconds. */
export const SETTLE_MIN_MS = 5_000;
/** First pause between listings while a timed-out create settles; doubles up to {@link SETTLE_MAX_PAUSE_MS}. */
export const SETTLE_FIRST_PAUSE_MS = 250;
export const SETTLE_MAX_PAUSE_MS = 2_000;
/** Pause between two worker listings of the readiness wait (`waitForWorkers`), in milliseconds. */
export const READINESS_POLL_MS = 2_000;

const NOTHING_BEFORE: ReadonlySet<string> = new Set();

/** Endpoint CRUD for one client. */
export class EndpointProvider {
  private clientInstance?: PlatformClient;
  private directoryInstance?: EndpointDirectory;
  private volumes?: CoalescedCall<NetworkVolume[]>;
  /** Ids of the endpoints that existed before this provider's first create (one listing, shared by every create). */
  private preexisting?: Promise<ReadonlySet<string>>;
  /** Endpoints this provider's creates made or adopted. */
  private readonly claimed = new Set<string>();
  /** Creates of one name and template, one at a time. */
  private readonly createsByIdentity = new KeyedSerial();

  /**
   * @param getClient returns the client (throws ConfigurationError when the key or an address is
   *   missing or invalid); called once, at the first operation that needs it (`check` does).
   * @param options.lookupWindowMs largest gap between lookups that share one endpoint listing (default
   *   {@link LOOKUP_WINDOW_MS}; see endpointLookup.ts).
   * @param options.readinessPollMs pause between worker listings of the readiness wait (default
   *   {@link READINESS_POLL_MS}).
   */
  constructor(
    private readonly getClient: () => PlatformClient,
    private readonly options: { lookupWindowMs?: number; readinessPollMs?: number } = {},
  ) {}

  private get client(): PlatformClient {
    this.clientInstance ??= this.getClient();
    return this.clientInstance;
  }

  /** The shared endpoint listing of this provider (read, create's duplicate check, a refused delete). */
  get directory(): EndpointDirectory {
    this.directoryInstance ??= new EndpointDirectory(this.client, this.options.lookupWindowMs ?? LOOKUP_WINDOW_MS);
    return this.directoryInstance;
  }

  private listVolumes(): Promise<NetworkVolume[]> {
    this.volumes ??= new CoalescedCall(() => this.client.listNetworkVolumes(), this.options.lookupWindowMs ?? LOOKUP_WINDOW_MS);
    return this.volumes.get();
  }

  /**
   * Validates and completes inputs (endpointInputs.ts); an unset `name` is generated from the resource
   * name or kept from `olds` (endpointName.ts). A `networkVolumeId` that is new or changed is
   * also looked up among the caller's volumes (`GET /v2/network-volumes`), so an unknown id fails at
   * preview rather than at create.
   * The client configuration is resolved here too (no request), so a missing API key or a malformed
   * address stops `pulumi preview` instead of the first create.
   * @throws ConfigurationError (names `runpod:apiKey` / RUNPOD_API_KEY or the bad setting), or the
   *   volume lookup's error (e.g. 401 for an invalid key; the message says what to fix).
   */
  async check(olds: Record<string, unknown> | undefined, news: Record<string, unknown>): Promise<dynamic.CheckResult> {
    void this.client;
    const named = withEndpointName(olds, news ?? {});
    const { inputs, failures } = checkEndpointInputs(named.news);
    if (named.autonamed) inputs[AUTONAMED_PROPERTY] = true;
    const volume = inputs.networkVolumeId;
    const shapeOk = !failures.some((f) => f.property === "networkVolumeId");
    if (typeof volume === "string" && !isUnknown(volume) && shapeOk && olds?.networkVolumeId !== volume) {
      const volumes = await this.listVolumes();
      if (!volumes.some((v) => v.id === volume)) {
        const known = volumes.map((v) => `${v.id} (${v.name})`).join(", ") || "none";
        failures.push({ property: "networkVolumeId", reason: `networkVolumeId "${volume}" is not one of your network volumes; yours: ${known}` });
      }
    }
    return { inputs, failures };
  }

  /**
   * Field-by-field diff of stored outputs against checked inputs (endpointDiff.ts). The provider-only
   * settings (`waitForWorkers`, `workersReadyTimeout`) are not compared: a change to them alone is no diff.
   */
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.DiffResult & { changed: string[] }> {
    const d: EndpointDiff = diffEndpoint(olds ?? {}, news ?? {});
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace, changed: d.changed };
  }

  /**
   * Creates the endpoint: `saveEndpoint` without `id` for `gpuIds`; for `gpuTypeIds` the REST v1 create,
   * then `saveEndpoint` for settings the REST body lacks when the result differs from the inputs.
   * A create whose outcome is unknown is not repeated blindly: the endpoints with the same name and
   * template that this provider did not create or adopt already, and that did not exist before, are
   * looked up, and one found is adopted; otherwise it is tried once more. For an auto-named endpoint
   * (`name` unset) nothing else can carry the name, so N creates cost exactly N requests. For a name the
   * user chose, "existed before" is one listing taken before this provider's first create of such a name
   * and shared by all of them: N requests and one listing.
   * Spec: GraphQL › Create endpoint; POST /v1/endpoints.
   * With `waitForWorkers` and `workersMin` > 0, returns only once `workersMin` workers report ready
   * (see {@link awaitWorkers}).
   * @returns the endpoint id and its outputs.
   * @throws EndpointInitError when the endpoint exists but the follow-up `saveEndpoint` failed, or its
   *   workers were not ready within `workersReadyTimeout` seconds (the message says how many were).
   */
  async create(news: Record<string, unknown>): Promise<dynamic.CreateResult<EndpointOutputs>> {
    if (!isComplete(news)) throw new Error("Endpoint inputs are not all known; cannot create the endpoint yet");
    const inputs = news as EndpointInputs;
    let record = await this.createOnce(inputs);
    if (inputs.gpuTypeIds) record = await this.completeRestCreate(record, inputs);
    const outs = this.outputs(record, inputs.gpuTypeIds, settingsFrom(inputs), inputs.locations);
    await this.awaitWorkersOfNew(outs, inputs);
    return { id: record.id, outs };
  }

  /**
   * The readiness wait of a create. The endpoint exists by then, so a failure must not lose it: it is
   * an {@link EndpointInitError} carrying the endpoint, which the engine records; the next `pulumi up`
   * runs `update` on it, which waits again.
   */
  private async awaitWorkersOfNew(outs: EndpointOutputs, inputs: EndpointInputs): Promise<void> {
    const id = outs.endpointId;
    try {
      await this.awaitWorkers(id, inputs);
    } catch (err) {
      const message =
        err instanceof WorkersNotReadyError
          ? `Endpoint ${id} exists, but ${notReadyFigures(err)}. It is recorded in the stack; run \`pulumi up\` to wait again`
          : `Endpoint ${id} exists, but waiting for its workers failed: ${messageOf(err)}. It is recorded in the stack; run \`pulumi up\` to wait again`;
      throw new EndpointInitError(message, id, outs, [message]);
    }
  }

  /**
   * With `waitForWorkers` set and `workersMin` > 0: polls the worker listing of endpoint `id` until
   * `workersMin` workers report ready, for at most `workersReadyTimeout` seconds (issue #7; spec:
   * GET {base_url}/v2/serverless/{id}/workers). Otherwise returns at once, without a request.
   * @throws WorkersNotReadyError on timeout; the listing's own errors (401, 404, ...).
   */
  private async awaitWorkers(id: string, inputs: EndpointInputs): Promise<void> {
    const { waitForWorkers: wait, workersReadyTimeout } = settingsFrom(inputs);
    if (!wait || inputs.workersMin <= 0) return;
    await waitForWorkers(this.client, id, {
      count: inputs.workersMin,
      timeoutMs: workersReadyTimeout * 1000,
      pollIntervalMs: this.options.readinessPollMs ?? READINESS_POLL_MS,
    });
  }

  private async createOnce(inputs: EndpointInputs): Promise<EndpointRecord> {
    const send = (): Promise<EndpointRecord> =>
      inputs.gpuTypeIds
        ? this.client.createEndpointRest({
            name: inputs.name,
            templateId: inputs.templateId,
            gpuTypeIds: inputs.gpuTypeIds,
            workersMin: inputs.workersMin,
            workersMax: inputs.workersMax,
            idleTimeout: inputs.idleTimeout,
          })
        : this.client.saveEndpoint(saveInputFrom(inputs, inputs.gpuIds ?? []));
    const sameIdentity = (e: EndpointRecord) => e.name === inputs.name && e.templateId === inputs.templateId;
    // One at a time per name and template: a create settling an unknown outcome then never meets a
    // sibling's endpoint that is not claimed yet.
    return this.createsByIdentity.run(JSON.stringify([inputs.name, inputs.templateId]), async () => {
      // Endpoints that existed before are never taken for the one we create; a generated name is new.
      const before = inputs[AUTONAMED_PROPERTY] === true ? NOTHING_BEFORE : await this.endpointsBeforeCreates();
      for (let attempt = 1; ; attempt++) {
        try {
          return this.claim(await send());
        } catch (err) {
          if (!isOutcomeUnknown(err)) throw err;
          const created = await this.findUnansweredCreate(inputs.name, err, (e) => sameIdentity(e) && !before.has(e.id) && !this.claimed.has(e.id));
          if (created.length === 1) return this.claim(created[0]);
          if (created.length > 1) {
            const ids = created.map((e) => e.id).join(", ");
            throw new Error(
              `Creating endpoint "${inputs.name}" had an unknown outcome and ${created.length} new endpoints with that name and template now exist (${ids}); ` +
                "adopt the right one with the package's import script (README: \"Adopting an existing endpoint (import)\") and delete the others",
            );
          }
          if (attempt >= 2) throw err;
        }
      }
    });
  }

  /** The ids listed before this provider's first create; taken once, retried after a failed listing. */
  private endpointsBeforeCreates(): Promise<ReadonlySet<string>> {
    if (!this.preexisting) {
      const taking = this.directory.list().then((all) => new Set(all.map((e) => e.id)));
      taking.catch(() => {
        if (this.preexisting === taking) this.preexisting = undefined;
      });
      this.preexisting = taking;
    }
    return this.preexisting;
  }

  /** Records an endpoint this provider created or adopted. */
  private claim(record: EndpointRecord): EndpointRecord {
    this.claimed.add(record.id);
    this.directory.changed(record.id);
    return record;
  }

  /**
   * The new endpoints an unanswered create may have made (`matches` picks them from a fresh listing). A
   * create that timed out may still be in flight on the platform and land after a first look, and trying
   * again then would make a second endpoint; so after a timeout the listing is repeated (pauses from
   * {@link SETTLE_FIRST_PAUSE_MS} doubling to {@link SETTLE_MAX_PAUSE_MS}) until one appears or the settle
   * time — the client's request timeout, at least {@link SETTLE_MIN_MS} — has passed. After a dropped
   * connection or a 5xx the platform is done with the request, so one listing decides.
   */
  private async findUnansweredCreate(name: string, createError: unknown, matches: (e: EndpointRecord) => boolean): Promise<EndpointRecord[]> {
    const settleUntil = isTimeout(createError) ? Date.now() + Math.max(this.client.config.timeoutMs, SETTLE_MIN_MS) : 0;
    for (let pause = SETTLE_FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, SETTLE_MAX_PAUSE_MS)) {
      this.directory.invalidate();
      const found = (await this.listAfterUnknownCreate(name, createError)).filter(matches);
      if (found.length > 0 || Date.now() + pause > settleUntil) return found;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** The listing that decides whether an unanswered create took effect; its failure says what is at stake. */
  private async listAfterUnknownCreate(name: string, createError: unknown): Promise<EndpointRecord[]> {
    try {
      return await this.directory.list();
    } catch (err) {
      throw new Error(
        `Creating endpoint "${name}" got no answer (${messageOf(createError)}) and looking for it failed too (${messageOf(err)}); ` +
          "it may exist on the platform without being in the stack: check the endpoint list and adopt it with the package's import script " +
          '(README: "Adopting an existing endpoint (import)")',
      );
    }
  }

  private async completeRestCreate(record: EndpointRecord, inputs: EndpointInputs): Promise<EndpointRecord> {
    const answered = this.outputs(record, inputs.gpuTypeIds) as unknown as Record<string, unknown>;
    const missing = diffEndpoint(answered, inputs as unknown as Record<string, unknown>).changed.filter((f) => f !== "gpuTypeIds");
    if (missing.length === 0) return record;
    // The whole desired state, not only `missing`: a modify may reset omitted fields (full-state modify).
    const save = saveInputFrom(inputs, splitList(record.gpuIds), record.id);
    try {
      return await this.client.saveEndpoint(save);
    } catch (err) {
      const message = `Endpoint ${record.id} was created but setting ${missing.join(", ")} failed: ${messageOf(err)}. Run \`pulumi up\` again to finish`;
      throw new EndpointInitError(message, record.id, this.outputs(record, inputs.gpuTypeIds, settingsFrom(inputs), inputs.locations), [message]);
    } finally {
      this.directory.changed(record.id);
    }
  }

  /**
   * Reads the endpoint's live state with one (shared) listing: refresh (drift shows as a diff on the
   * next `up`), `Endpoint.get` and scripts/importEndpoint.ts, the stand-in for `pulumi import` (props
   * may be empty: inputs are rebuilt from the record). An endpoint that no longer exists returns no id,
   * so it drops from the stack — except for `Endpoint.get` (props hold {@link LOOKUP_PROPERTY}), where
   * that is an error.
   * What the platform does not report is carried from props: `gpuTypeIds` — unless the platform's
   * tiers changed since they were last seen, in which case they are cleared so the next `up` re-creates
   * the endpoint with its GPU type priority — and the provider-only settings (`waitForWorkers`,
   * `workersReadyTimeout`; defaults when props lack them). `locations` keep the order of props when
   * the platform reports the same set, so a refresh never shows a reorder (in outputs and inputs).
   * Inputs are returned too: the engine shows `preview --diff` from them, so after a refresh the
   * drift reads e.g. `workersMax: 9 => 5`. (So an auto-named endpoint renamed outside Pulumi keeps
   * its new name from then on, as with Pulumi's own providers: `check` keeps the name of the old inputs.)
   */
  async read(id: string, props?: Record<string, unknown>): Promise<dynamic.ReadResult<EndpointOutputs>> {
    const record = await this.directory.findEndpoint(id);
    if (!record) {
      if (props?.[LOOKUP_PROPERTY] === true) throw new Error(`Endpoint.get: no endpoint with id "${id}" exists for the configured API key`);
      return {};
    }
    const carried = props?.gpuTypeIds;
    let gpuTypeIds: string[] | null | undefined;
    if (isStringArray(carried)) {
      const seenTiers = isStringArray(props?.gpuIds) ? joinList(props.gpuIds) : undefined;
      gpuTypeIds = seenTiers !== undefined && seenTiers !== joinList(splitList(record.gpuIds)) ? null : carried;
    } else if (carried === null) {
      gpuTypeIds = null;
    }
    const outs = this.outputs(record, gpuTypeIds, settingsFrom(props), props?.locations);
    return { id: record.id, props: outs, inputs: inputsFromOutputs(outs) as unknown as EndpointOutputs };
  }

  /**
   * Applies in-place changes with `saveEndpoint` carrying `id` and every managed field's desired value
   * (spec: GraphQL › Modify endpoint). The live platform resets a field left out of a modify to its
   * default (platform-clients.md), so a modify of only the changed fields could undo other settings. With `waitForWorkers` and `workersMin` > 0,
   * returns only once `workersMin` workers report ready (see {@link awaitWorkers}).
   * @throws when the endpoint no longer exists (run `pulumi refresh`), the platform refuses a value, or
   *   the workers were not ready within `workersReadyTimeout` seconds (the change is applied then; the
   *   engine keeps the old state, so the next `pulumi up` applies it again and waits again).
   */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.UpdateResult<EndpointOutputs>> {
    if (!isComplete(news)) throw new Error("Endpoint inputs are not all known; cannot update the endpoint yet");
    const inputs = news as EndpointInputs;
    const tiers = inputs.gpuIds ?? splitList(olds.gpuIds as string[] | string | null);
    const save = saveInputFrom(inputs, tiers, id);
    let record: EndpointRecord;
    try {
      record = await this.client.saveEndpoint(save);
    } catch (err) {
      if (isNotFound(err)) throw new Error(`Endpoint ${id} no longer exists on the platform; run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` to create it again`);
      throw err;
    } finally {
      this.directory.changed(id);
    }
    const outs = this.outputs(record, inputs.gpuTypeIds, settingsFrom(inputs), inputs.locations);
    try {
      await this.awaitWorkers(id, inputs);
    } catch (err) {
      if (err instanceof WorkersNotReadyError) throw new Error(`Endpoint ${id} was updated, but ${notReadyFigures(err)}`);
      throw err;
    }
    return { outs };
  }

  /**
   * Deletes the endpoint: scale to `workersMin = 0`, `workersMax = 0` (skipped when already there), then
   * `deleteEndpoint` (spec: the deletion precondition), both in one request (the api client's
   * `scaleDownAndDeleteEndpoint`). The scale-down is written from the stored outputs (`props`), so a
   * destroy costs exactly one request per endpoint (two calls of the spec); only without stored
   * outputs, or when the platform refuses the delete because workers are not at zero (raised outside
   * Pulumi, or in between), is the live record listed (shared listing, endpointLookup.ts) and the
   * scale-down repeated once. Each step is idempotent, so a destroy interrupted between them finishes on
   * the next run; an endpoint already gone counts as deleted at either step.
   */
  async delete(id: string, props?: Record<string, unknown>): Promise<void> {
    let record = recordFromOutputs(id, props) ?? (await this.directory.findEndpoint(id));
    for (let attempt = 1; record; attempt++) {
      // Before the writes: a lookup after them must not be answered from a listing taken before.
      this.directory.changed(id);
      try {
        if (record.workersMin !== 0 || record.workersMax !== 0) {
          await this.client.scaleDownAndDeleteEndpoint({ id, name: record.name, templateId: record.templateId, gpuIds: record.gpuIds });
        } else {
          await this.client.deleteEndpoint(id);
        }
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isFailedPrecondition(err) || attempt >= 2) throw err;
      }
      record = await this.directory.findEndpoint(id);
    }
  }

  /**
   * Outputs of `record`. `locationsOrder` (the declared or stored list) gives the order of `locations`
   * when it holds the same regions as the platform reports (see `inPreviousOrder`).
   */
  private outputs(record: EndpointRecord, gpuTypeIds: string[] | null | undefined, settings?: EndpointSettings, locationsOrder?: unknown): EndpointOutputs {
    const outs = outputsFromRecord(record, gpuTypeIds, this.client.jobUrl(record.id), settings);
    outs.locations = inPreviousOrder(outs.locations, locationsOrder);
    return outs;
  }
}

/**
 * What `delete` needs of the endpoint, from its stored outputs: undefined when they lack a field (an
 * older state, or a caller that has none), so the live record is listed instead.
 */
function recordFromOutputs(id: string, props: Record<string, unknown> | undefined): Pick<EndpointRecord, "name" | "templateId" | "gpuIds" | "workersMin" | "workersMax"> | undefined {
  const { name, templateId, gpuIds, workersMin, workersMax } = props ?? {};
  if (typeof name !== "string" || typeof templateId !== "string" || typeof workersMin !== "number" || typeof workersMax !== "number") return undefined;
  if (!isStringArray(gpuIds) || gpuIds.length === 0 || props?.endpointId !== id) return undefined;
  return { name, templateId, gpuIds: joinList(gpuIds), workersMin, workersMax };
}

/** "N of M workers were ready after S seconds (…)", for the readiness wait's failures. */
function notReadyFigures(err: WorkersNotReadyError): string {
  const seconds = Math.round(err.timeoutMs / 100) / 10;
  return (
    `${err.ready} of ${err.expected} worker${err.expected === 1 ? " was" : "s were"} ready after ${seconds} seconds ` +
    "(waitForWorkers; raise workersReadyTimeout to wait longer)"
  );
}
