/**
 * The `Endpoint` dynamic provider's operations (issue #4; create/delete guarantees of issue #6) on a
 * {@link PlatformSession}. The engine reaches them through the serialized stub and the provider
 * runtime (runtime.ts); tests may construct one directly.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { EndpointRecord, PlatformClient } from "../../api";
import { isFailedPrecondition, isNotFound, messageOf } from "../errorKinds";
import { isStringArray, joinList, splitList } from "../model/state";
import { withAutoName } from "../naming";
import { AUTONAMED_PROPERTY, LOOKUP_PROPERTY, NAME_PREFIX_PROPERTY } from "../reserved";
import { PlatformSession } from "../session";
import { isUnknown } from "../unknown";
import { reviewEndpoint } from "./catalogReview";
import { checkEndpointInputs, isComplete } from "./check";
import { CreateOnce } from "./createOnce";
import { diffEndpoint, type EndpointDiff } from "./diff";
import type { EndpointDirectory } from "./directory";
import { EndpointInitError } from "./initError";
import type { EndpointInputs, EndpointOutputs } from "./model";
import { awaitWorkers, notReadyFigures, WorkersNotReadyError } from "./readiness";
import { inputsFromOutputs, outputsFromRecord, restCreateInputFrom, saveInputFrom } from "./state";

export interface EndpointProviderOptions {
  /** Largest gap between lookups that share one endpoint listing (only for a provider given a client). */
  lookupWindowMs?: number;
  /** Pause between worker listings of the readiness wait (default readiness.ts `READINESS_POLL_MS`). */
  readinessPollMs?: number;
}

/** Endpoint CRUD on one session. */
export class EndpointProvider {
  private readonly session: PlatformSession;
  private readonly creates: CreateOnce;

  /**
   * @param source the process's session (shared listings), or a function returning the client (throws
   *   ConfigurationError when the key or an address is missing or invalid; called once, at the first
   *   operation that needs it — `check` does), for a provider with a session of its own.
   */
  constructor(
    source: PlatformSession | (() => PlatformClient),
    private readonly options: EndpointProviderOptions = {},
  ) {
    this.session = source instanceof PlatformSession ? source : new PlatformSession(source, { lookupWindowMs: options.lookupWindowMs });
    this.creates = new CreateOnce(this.session);
  }

  private get client(): PlatformClient {
    return this.session.client;
  }

  /** The shared endpoint listing (read, create's duplicate check, a refused delete). */
  get directory(): EndpointDirectory {
    return this.session.endpoints;
  }

  /**
   * Validates and completes inputs (check.ts); an unset `name` is generated from the resource name or
   * kept from `olds` (naming.ts). A `networkVolumeId` that is new or changed is also looked up among
   * the caller's volumes (`GET /v2/network-volumes`), so an unknown id fails at preview rather than at
   * create; so is a new or changed `templateId` among the caller's templates (`myself { podTemplates }`;
   * a public template of the platform, which that listing leaves out, fails there). The client configuration is resolved here too (no request), so a missing API key or a
   * malformed address stops `pulumi preview` instead of the first create. Then the catalog review and
   * the cost estimate (catalogReview.ts; docs/cost.md): one catalog read per session, none when no
   * input it judges changed.
   * @throws ConfigurationError (names `runpod:apiKey` / RUNPOD_API_KEY or the bad setting), or the
   *   volume lookup's error (e.g. 401 for an invalid key; the message says what to fix).
   */
  async check(olds: Record<string, unknown> | undefined, news: Record<string, unknown>): Promise<dynamic.CheckResult> {
    void this.client;
    const named = withAutoName(olds, news ?? {});
    const { inputs, failures } = checkEndpointInputs(named.news);
    if (named.autonamed) inputs[AUTONAMED_PROPERTY] = true;
    const volume = inputs.networkVolumeId;
    const shapeOk = !failures.some((f) => f.property === "networkVolumeId");
    if (typeof volume === "string" && !isUnknown(volume) && shapeOk && olds?.networkVolumeId !== volume) {
      const volumes = await this.session.networkVolumes();
      if (!volumes.some((v) => v.id === volume)) {
        const known = volumes.map((v) => `${v.id} (${v.name})`).join(", ") || "none";
        failures.push({ property: "networkVolumeId", reason: `networkVolumeId "${volume}" is not one of your network volumes; yours: ${known}` });
      }
    }
    const template = inputs.templateId;
    const templateOk = !failures.some((f) => f.property === "templateId");
    // Skipped when the inputs already fail: bad input costs no request.
    if (typeof template === "string" && !isUnknown(template) && templateOk && failures.length === 0 && olds?.templateId !== template) {
      const templates = await this.session.templates.list();
      const found = templates.find((t) => t.id === template);
      if (!found) {
        const known =
          templates
            .filter((t) => t.isServerless)
            .map((t) => `${t.id} (${t.name})`)
            .join(", ") || "none";
        failures.push({ property: "templateId", reason: `templateId "${template}" is not one of your templates; your serverless templates: ${known}` });
      } else if (!found.isServerless) {
        failures.push({
          property: "templateId",
          reason: `templateId "${template}" (${found.name}) is a pod template; an endpoint needs a serverless template`,
        });
      }
    }
    const prefix = news?.[NAME_PREFIX_PROPERTY];
    await reviewEndpoint(this.session, olds, inputs, failures, typeof prefix === "string" ? prefix : String(inputs.name));
    return { inputs, failures };
  }

  /** Field-by-field diff of stored outputs against checked inputs (diff.ts); provider settings alone are no diff. */
  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.DiffResult & { changed: string[] }> {
    const d: EndpointDiff = diffEndpoint(olds ?? {}, news ?? {});
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: d.deleteBeforeReplace, changed: d.changed };
  }

  /**
   * Creates the endpoint: `saveEndpoint` without `id` for `gpuIds`; for `gpuTypeIds` the REST v1 create,
   * then `saveEndpoint` for settings the REST body lacks when the result differs from the inputs. A
   * create whose outcome is unknown is settled, never blindly repeated (createOnce.ts): an auto-named
   * create of N endpoints costs exactly N requests, chosen names N requests and one listing.
   * Spec: GraphQL › Create endpoint; POST /v1/endpoints.
   * With `waitForWorkers` and `workersMin` > 0, returns only once `workersMin` workers report ready.
   * @returns the endpoint id and its outputs.
   * @throws EndpointInitError when the endpoint exists but the follow-up `saveEndpoint` failed, or its
   *   workers were not ready within `workersReadyTimeout` seconds (the message says how many were).
   */
  async create(news: Record<string, unknown>): Promise<dynamic.CreateResult<EndpointOutputs>> {
    if (!isComplete(news)) throw new Error("Endpoint inputs are not all known; cannot create the endpoint yet");
    const inputs = news as EndpointInputs;
    const send = (): Promise<EndpointRecord> =>
      inputs.gpuTypeIds ? this.client.createEndpointRest(restCreateInputFrom(inputs)) : this.client.saveEndpoint(saveInputFrom(inputs, inputs.gpuIds ?? []));
    let record = await this.creates.run({ name: inputs.name, templateId: inputs.templateId, autonamed: news[AUTONAMED_PROPERTY] === true }, send);
    if (inputs.gpuTypeIds) record = await this.completeRestCreate(record, inputs);
    const outs = this.outputs(record, inputs.gpuTypeIds, inputs);
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
      await awaitWorkers(this.client, id, inputs, this.options.readinessPollMs);
    } catch (err) {
      const message =
        err instanceof WorkersNotReadyError
          ? `Endpoint ${id} exists, but ${notReadyFigures(err)}. It is recorded in the stack; run \`pulumi up\` to wait again`
          : `Endpoint ${id} exists, but waiting for its workers failed: ${messageOf(err)}. It is recorded in the stack; run \`pulumi up\` to wait again`;
      throw new EndpointInitError(message, id, outs, [message]);
    }
  }

  private async completeRestCreate(record: EndpointRecord, inputs: EndpointInputs): Promise<EndpointRecord> {
    const answered = this.outputs(record, inputs.gpuTypeIds) as unknown as Record<string, unknown>;
    const missing = diffEndpoint(answered, inputs as unknown as Record<string, unknown>).changed.filter((f) => f !== "gpuTypeIds");
    if (missing.length === 0) return record;
    // The whole desired state, not only `missing`: a modify may reset omitted fields (full-state modify).
    const save = saveInputFrom(inputs, splitList(record.gpuIds), record.id, answered);
    try {
      return await this.client.saveEndpoint(save);
    } catch (err) {
      const message = `Endpoint ${record.id} was created but setting ${missing.join(", ")} failed: ${messageOf(err)}. Run \`pulumi up\` again to finish`;
      throw new EndpointInitError(message, record.id, this.outputs(record, inputs.gpuTypeIds, inputs), [message]);
    } finally {
      this.directory.changed(record.id);
    }
  }

  /**
   * Reads the endpoint's live state with one (shared) listing: refresh (drift shows as a diff on the
   * next `up`), `Endpoint.get` and adoption, the stand-in for `pulumi import` (props may be empty:
   * inputs are rebuilt from the record). An endpoint that no longer exists returns no id, so it drops
   * from the stack — except for `Endpoint.get` (props hold {@link LOOKUP_PROPERTY}), where that is an error.
   * What the platform does not report is carried from props: `gpuTypeIds` — unless the platform's
   * tiers changed since they were last seen, in which case they are cleared so the next `up` re-creates
   * the endpoint with its GPU type priority — and the provider settings (defaults when props lack
   * them). `locations` keep the order of props when the platform reports the same set, so a refresh
   * never shows a reorder (in outputs and inputs).
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
    const outs = this.outputs(record, gpuTypeIds, props);
    return { id: record.id, props: outs, inputs: inputsFromOutputs(outs) as unknown as EndpointOutputs };
  }

  /**
   * Applies in-place changes with `saveEndpoint` carrying `id` and every managed field's desired value
   * (spec: GraphQL › Modify endpoint). The live platform resets a field left out of a modify to its
   * default (platform-clients.md), so a modify of only the changed fields could undo other settings.
   * Fields left unset whose unset means the platform's default (`gpuCount`, `allowedCudaVersions`,
   * `executionTimeoutMs`) and the unmanaged `workersStandby` carry their value from `olds`, as last
   * read from the platform.
   * With `waitForWorkers` and `workersMin` > 0, returns only once `workersMin` workers report ready.
   * @throws when the endpoint no longer exists (run `pulumi refresh`), the platform refuses a value, or
   *   the workers were not ready within `workersReadyTimeout` seconds (the change is applied then; the
   *   engine keeps the old state, so the next `pulumi up` applies it again and waits again).
   */
  async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.UpdateResult<EndpointOutputs>> {
    if (!isComplete(news)) throw new Error("Endpoint inputs are not all known; cannot update the endpoint yet");
    const inputs = news as EndpointInputs;
    const tiers = inputs.gpuIds ?? splitList(olds.gpuIds as string[] | string | null);
    let record: EndpointRecord;
    try {
      record = await this.client.saveEndpoint(saveInputFrom(inputs, tiers, id, olds));
    } catch (err) {
      if (isNotFound(err))
        throw new Error(
          `Endpoint ${id} no longer exists on the platform; run \`pulumi refresh\` to drop it from the stack, then \`pulumi up\` to create it again`,
        );
      throw err;
    } finally {
      this.directory.changed(id);
    }
    const outs = this.outputs(record, inputs.gpuTypeIds, inputs);
    try {
      await awaitWorkers(this.client, id, inputs, this.options.readinessPollMs);
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
   * Pulumi, or in between), is the live record listed (shared listing) and the scale-down repeated
   * once. Each step is idempotent, so a destroy interrupted between them finishes on the next run; an
   * endpoint already gone counts as deleted at either step.
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

  /** Outputs of `record`; `previous` (declared inputs or stored outputs) gives the settings and the order of `locations`. */
  private outputs(record: EndpointRecord, gpuTypeIds: string[] | null | undefined, previous?: Record<string, unknown> | EndpointInputs): EndpointOutputs {
    const prev = previous as Record<string, unknown> | undefined;
    return outputsFromRecord(record, gpuTypeIds, this.client.jobUrl(record.id), prev, prev);
  }
}

/**
 * What `delete` needs of the endpoint, from its stored outputs: undefined when they lack a field (an
 * older state, or a caller that has none), so the live record is listed instead.
 */
function recordFromOutputs(
  id: string,
  props: Record<string, unknown> | undefined,
): Pick<EndpointRecord, "name" | "templateId" | "gpuIds" | "workersMin" | "workersMax"> | undefined {
  const { name, templateId, gpuIds, workersMin, workersMax } = props ?? {};
  if (typeof name !== "string" || typeof templateId !== "string" || typeof workersMin !== "number" || typeof workersMax !== "number") return undefined;
  if (!isStringArray(gpuIds) || gpuIds.length === 0 || props?.endpointId !== id) return undefined;
  return { name, templateId, gpuIds: joinList(gpuIds), workersMin, workersMax };
}
export { EndpointInitError } from "./initError";
