/**
 * The `Endpoint` dynamic provider's operations (docs/endpoint.md; create/delete guarantees: docs/operations.md) on a
 * {@link PlatformSession}: the shared skeleton (recordProvider.ts) over the path the session uses
 * (`paths/*.ts`), plus what only endpoints have: the create settlement of unknown outcomes
 * (../createOnce.ts), the readiness wait, and the GPU type names the platform does not report. The
 * engine reaches them through the serialized stub and the provider runtime (runtime.ts); tests may
 * construct one directly.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { messageOf } from "../errorKinds";
import type { InputFailure } from "../model/check";
import { isStringArray, joinList } from "../model/state";
import type { EndpointState, TemplateState } from "../paths/records";
import type { KindSession } from "../kindSession";
import { RecordProvider } from "../recordProvider";
import { AUTONAMED_PROPERTY } from "../reserved";
import { isUnknown } from "../unknown";
import { reviewEndpoint } from "./catalogReview";
import { checkEndpointInputs, TEMPLATE_CHANGES, templateChangesOf } from "./check";
import { createOnce, SETTLE_MIN_MS } from "../createOnce";
import { COST_OUTPUTS } from "./costFields";
import { diffEndpoint } from "./diff";
import type { SharedListing } from "../listing";
import { EndpointInitError } from "./initError";
import { ENDPOINT_MODEL, type EndpointInputs, type EndpointOutputs } from "./model";
import { IncompleteCreateError } from "../port";
import { awaitWorkers, notReadyFigures, WorkersNotReadyError } from "./readiness";
import { inputsFromOutputs, outputsFromRecord } from "./state";

type Props = Record<string, unknown>;

/** Set, or not known yet (preview): a CPU selection counts as given. */
const isUnknownOrSet = (v: unknown): boolean => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);

export interface EndpointProviderOptions {
  /** Pause between worker listings of the readiness wait (default readiness.ts `READINESS_POLL_MS`). */
  readinessPollMs?: number;
}

/** Endpoint CRUD on one session. */
export class EndpointProvider extends RecordProvider<EndpointInputs, EndpointOutputs, EndpointState> {
  constructor(
    session: KindSession,
    private readonly options: EndpointProviderOptions = {},
  ) {
    super(session, ENDPOINT_MODEL, { noun: "endpoint" });
  }

  /** The shared endpoint listing (read, create's duplicate check, a refused delete). */
  get directory(): SharedListing<EndpointState> {
    return this.session.listing<EndpointState>(ENDPOINT_MODEL.kind);
  }

  /**
   * The shared check (recordProvider.ts), then the catalog review and the cost estimate
   * (catalogReview.ts; docs/cost.md): one catalog read per session, none when no input it judges
   * changed; the estimate outputs are written into the checked inputs so `pulumi preview` shows them.
   */
  protected override readonly estimates = COST_OUTPUTS;

  protected override readonly mounts = { label: "endpoint", fields: ["networkVolumeId", "networkVolumeIds"] };

  /**
   * The catalog review and estimates; then, where endpoints copy templates, the fields of its template this
   * deployment changes that reach the endpoint, as `templateChanges` (check.ts `templateChangesOf`): a
   * Node.js preview's row names the re-apply. The diff never compares it, so the next check, without it,
   * is no change.
   */
  protected override async review(olds: Props | undefined, inputs: Props, failures: InputFailure[], key?: string): Promise<void> {
    await reviewEndpoint(this.session, olds, inputs, failures, key);
    const changes = this.port.capabilities.copiesTemplates ? templateChangesOf(olds, inputs, (id) => this.session.templateChanges(id)) : [];
    if (changes.length > 0) inputs[TEMPLATE_CHANGES] = changes;
  }

  /** The shared check, of the program's inputs: a `templateChanges` handed back is check's own result, not the user's. */
  override check(olds: Props | undefined, news: Props): Promise<dynamic.CheckResult> {
    const { [TEMPLATE_CHANGES]: _carried, ...given } = news;
    return super.check(olds, given);
  }

  /** Stored as the shared skeleton does, without `templateChanges`: a refresh gives back the program's inputs. */
  protected override stored(outs: EndpointOutputs, news: Props): EndpointOutputs {
    const { [TEMPLATE_CHANGES]: _shown, ...inputs } = news;
    return super.stored(outs, inputs);
  }

  /** The model's rules plus exactly one GPU selection and `workersMin` ≤ `workersMax` (check.ts). */
  protected override validate(news: Props): { inputs: Props; failures: InputFailure[] } {
    return checkEndpointInputs(news, this.session.api);
  }

  /**
   * A `networkVolumeId` that is new or changed is looked up among the caller's volumes
   * (`GET /v2/network-volumes`), so an unknown id fails at preview rather than at create; so is a new
   * or changed `templateId` among the caller's templates (a public template of the platform, which
   * that listing leaves out, fails there). Skipped for a field whose value already fails.
   */
  protected override async checkReferences(olds: Props | undefined, inputs: Props, failures: InputFailure[]): Promise<void> {
    const volume = inputs.networkVolumeId;
    const shapeOk = !failures.some((f) => f.property === "networkVolumeId");
    if (typeof volume === "string" && !isUnknown(volume) && shapeOk && olds?.networkVolumeId !== volume) {
      const volumes = await this.session.networkVolumes();
      if (!volumes.some((v) => v.id === volume)) {
        const known = volumes.map((v) => `${v.id} (${v.name})`).join(", ") || "none";
        failures.push({ property: "networkVolumeId", reason: `networkVolumeId "${volume}" is not one of your network volumes; yours: ${known}` });
      }
    }
    const several = inputs.networkVolumeIds;
    const severalOk = !failures.some((f) => f.property === "networkVolumeIds");
    const added =
      Array.isArray(several) && severalOk
        ? several.filter((v) => typeof v === "string" && !isUnknown(v) && !(olds?.networkVolumeIds as unknown[] | undefined)?.includes(v))
        : [];
    if (added.length > 0) {
      const volumes = await this.session.networkVolumes();
      const unknownIds = added.filter((id) => !volumes.some((v) => v.id === id));
      if (unknownIds.length > 0) {
        const known = volumes.map((v) => `${v.id} (${v.name})`).join(", ") || "none";
        failures.push({
          property: "networkVolumeIds",
          reason: `networkVolumeIds ${JSON.stringify(unknownIds)}: not among your network volumes; yours: ${known}`,
        });
      }
    }
    const template = inputs.templateId;
    const templateOk = !failures.some((f) => f.property === "templateId");
    // Skipped when the inputs already fail: bad input costs no request.
    if (typeof template === "string" && !isUnknown(template) && templateOk && failures.length === 0 && olds?.templateId !== template) {
      const templates = await this.session.listing<TemplateState>("template").list();
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
      } else if (found.category && isUnknownOrSet(inputs.cpuFlavorIds) !== (found.category === "CPU")) {
        const compute = found.category === "CPU" ? "a GPU endpoint (gpuIds)" : "a CPU endpoint (cpuFlavorIds)";
        failures.push({
          property: "templateId",
          reason: `templateId "${template}" (${found.name}) is a ${found.category} template, but this is ${compute}: use a template of category ${found.category === "CPU" ? "NVIDIA or AMD" : "CPU"}, or the other compute`,
        });
      }
    }
  }

  /**
   * The inputs that differ (diff.ts: the compute selection compares the list the inputs use); the
   * skeleton's diff decides replacement, and the port adds what its path sees (a template to re-apply).
   */
  protected override changedInputs(olds: Props, news: Props): string[] {
    return diffEndpoint(olds, news).changed;
  }

  /**
   * Creates the endpoint through the path's port. A create whose outcome is unknown is settled, never
   * blindly repeated (../createOnce.ts): an auto-named create of N endpoints costs exactly N requests,
   * chosen names N requests and one listing.
   * With `waitForWorkers` and `workersMin` > 0, returns only once `workersMin` workers report ready.
   * @returns the endpoint id and its outputs.
   * @throws EndpointInitError when the endpoint exists but a follow-up of its create failed, or its
   *   workers were not ready within `workersReadyTimeout` seconds (the message says how many were).
   */
  async create(news: Props): Promise<dynamic.CreateResult<EndpointOutputs>> {
    const inputs = this.checked(news, "create");
    const port = this.port;
    // Where the path's records say which template an endpoint runs, the template is part of its identity (REST v2: a snapshot, so the name decides).
    const templateReported = !port.capabilities.unreported.includes("templateId");
    const identity = {
      name: inputs.name,
      autonamed: news[AUTONAMED_PROPERTY] === true,
      what: `endpoint "${inputs.name}"`,
      key: JSON.stringify([inputs.name, inputs.templateId]),
      same: (e: EndpointState) => !templateReported || e.templateId === inputs.templateId,
      candidates: "endpoints with that name and template",
      // A timed-out create may land later: look for it for the client's request timeout, at least SETTLE_MIN_MS.
      settleMs: Math.max(this.client.config.timeoutMs, SETTLE_MIN_MS),
    };
    let record = await createOnce(this.directory, identity, () => port.create(inputs));
    try {
      if (port.finishCreate) record = await port.finishCreate(record, inputs);
    } catch (err) {
      if (!(err instanceof IncompleteCreateError)) throw err;
      throw new EndpointInitError(err.message, record.id, this.stored(this.outputs(err.record as EndpointState, news), news), [err.message]);
    }
    const outs = this.stored(this.outputs(record, news), news);
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

  /**
   * Outputs of `record`; `carried` (declared inputs or stored outputs) gives the settings, the GPU type
   * names (the platform does not report them) and the order of `locations`.
   */
  protected outputs(record: EndpointState, carried: Props | undefined): EndpointOutputs {
    const gpuTypeIds = carried?.gpuTypeIds;
    return outputsFromRecord(
      this.withCarried(record, carried),
      isStringArray(gpuTypeIds) || gpuTypeIds === null ? gpuTypeIds : undefined,
      this.jobUrlOf(record),
      carried,
      carried,
    );
  }

  /** `{inferenceUrl}/v2/{id}/`, or a load-balancing endpoint's `requestUrls.base`. */
  private jobUrlOf(record: EndpointState): string {
    return record.type === "LB" && record.requestUrls?.base ? record.requestUrls.base : this.client.jobUrl(record.id);
  }

  /**
   * `record` with the fields the path leaves out (its port's `unreported`) taken from `carried`, and the
   * release last followed to health: the record's when it was just followed, else the one `carried` holds.
   */
  private withCarried(record: EndpointState, carried: Props | undefined): EndpointState {
    const reported: Props = { ...record };
    const missing = this.port.capabilities.unreported.filter((f) => reported[f] === undefined && carried?.[f] !== undefined);
    const out = missing.length === 0 ? { ...record } : { ...record, ...Object.fromEntries(missing.map((f) => [f, carried![f]])) };
    if (out.releaseVersion === undefined && carried && "releaseVersion" in carried) {
      out.releaseVersion = typeof carried.releaseVersion === "number" ? carried.releaseVersion : null;
      out.releasedContainer = typeof carried.releasedContainer === "string" ? carried.releasedContainer : null;
    }
    return out;
  }

  protected inputsOf(outs: EndpointOutputs): Props {
    return inputsFromOutputs(outs);
  }

  /**
   * Reads as the skeleton does (refresh, `Endpoint.get`, adoption: props may be empty, inputs are
   * rebuilt from the record). The stored `gpuTypeIds` are carried unless the platform's tiers changed
   * since they were last seen: then they are cleared, so the next `up` re-creates the endpoint with its
   * GPU type priority. `locations` keep the order of props when the platform reports the same set.
   */
  protected override readOutputs(record: EndpointState, props: Props | undefined): EndpointOutputs {
    const carried = props?.gpuTypeIds;
    let gpuTypeIds: string[] | null | undefined;
    if (isStringArray(carried)) {
      const seenTiers = isStringArray(props?.gpuIds) ? joinList(props.gpuIds) : undefined;
      gpuTypeIds = seenTiers !== undefined && seenTiers !== joinList(record.gpuIds) ? null : carried;
    } else if (carried === null) {
      gpuTypeIds = null;
    }
    return outputsFromRecord(this.withCarried(record, props), gpuTypeIds, this.client.jobUrl(record.id), props, props);
  }

  /**
   * Applies in-place changes through the path's port (GraphQL: `saveEndpoint` with every managed field).
   * With `waitForWorkers` and `workersMin` > 0, returns only once `workersMin` workers report ready.
   * @throws when the endpoint no longer exists (run `pulumi refresh`), the platform refuses a value, or
   *   the workers were not ready within `workersReadyTimeout` seconds (the change is applied then; the
   *   engine keeps the old state, so the next `pulumi up` applies it again and waits again).
   */
  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult<EndpointOutputs>> {
    const inputs = this.checked(news, "update");
    const port = this.port;
    const record = await this.writing(
      id,
      [],
      () => port.update(id, inputs, olds),
      (changed) => this.directory.changed(changed),
    );
    // The release stays the stored one unless this update followed one to health.
    const outs = this.stored(this.outputs(record, { ...pick(olds, ["releaseVersion", "releasedContainer"]), ...news }), news);
    try {
      await awaitWorkers(this.client, id, inputs, this.options.readinessPollMs);
    } catch (err) {
      if (err instanceof WorkersNotReadyError) throw new Error(`Endpoint ${id} was updated, but ${notReadyFigures(err)}`);
      throw err;
    }
    return { outs };
  }

  /**
   * Deletes the endpoint through the path's port, which scales it to zero first (spec: the deletion
   * precondition). Each step is idempotent, so a destroy interrupted between them finishes on the next
   * run; an endpoint already gone counts as deleted at either step.
   */
  async delete(id: string, props?: Props): Promise<void> {
    await this.port.delete(id, props);
  }
}

const pick = (o: Props | undefined, keys: readonly string[]): Props => Object.fromEntries(keys.filter((k) => o !== undefined && k in o).map((k) => [k, o![k]]));

export { EndpointInitError } from "./initError";
