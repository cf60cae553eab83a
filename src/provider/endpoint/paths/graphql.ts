/**
 * Endpoints on the design's path (spec: GraphQL › Create / Modify / Delete endpoint; POST /v1/endpoints),
 * the whole mapping between the model and this path's shapes: the GraphQL record (lists as one
 * comma-separated string, `fastBootType` for `flashboot`) ↔ {@link EndpointState}; `saveEndpoint`
 * creates with GPU tiers (`gpuIds`); GPU type names (`gpuTypeIds`) go through the REST v1 create,
 * followed by `saveEndpoint` for the settings its body lacks. A modify carries every managed field:
 * the live platform resets a field left out of a modify to its default (platform-clients.md).
 * A delete scales to zero first (the spec's deletion precondition) and lets jobs in progress finish.
 */
import type { EndpointRecord, RestCreateEndpointInput, SaveEndpointInput } from "../../../api";
import { messageOf } from "../../errorKinds";
import { isFailedPrecondition, isGoneOnGraphql } from "../../paths/graphqlErrors";
import { isStringArray, joinList, outputsFromRecord, settingsFrom, splitList } from "../../model/state";
import type { EndpointState, TemplateState } from "../../paths/records";
import { IncompleteCreateError, type Port, type PortContext } from "../../port";
import { diffEndpoint } from "../diff";
import { drain, drainLimitMs, runningJobs } from "../drain";
import { ENDPOINT_MODEL, type EndpointInputs, type EndpointOutputs, type EndpointSettings } from "../model";
import { guardRollout } from "../../rollout/rollout";

/** An endpoint as GraphQL reports it → the model's record. GraphQL's `fastBootType` has no priority mode: FASTBOOT is FLASHBOOT. */
export function endpointStateFromGraphql(e: EndpointRecord): EndpointState {
  return {
    id: e.id,
    name: e.name,
    templateId: e.templateId,
    gpuIds: splitList(e.gpuIds),
    type: e.type,
    idleTimeout: e.idleTimeout,
    locations: splitList(e.locations),
    fastBootType: e.fastBootType,
    flashboot: e.fastBootType ? "FLASHBOOT" : "OFF",
    scalerType: e.scalerType,
    scalerValue: e.scalerValue,
    workersMin: e.workersMin,
    workersMax: e.workersMax,
    networkVolumeId: e.networkVolumeId,
    gpuCount: e.gpuCount,
    allowedCudaVersions: splitList(e.allowedCudaVersions),
    executionTimeoutMs: e.executionTimeoutMs,
    workersStandby: e.workersStandby,
    // GraphQL endpoints run GPUs and their template's container; no request URLs, no releases tracked.
    cpuFlavorIds: [],
    vcpuCount: null,
    requestUrls: null,
  };
}

/** `body` without its undefined members: a field the inputs leave unset is not sent. */
function sent<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as T;
}

const isSet = <T>(v: T): v is NonNullable<T> => v !== undefined && v !== null;

/** A list as `saveEndpoint` takes it: comma-separated, an empty list as null. */
const csv = (values: readonly string[]): string | null => (values.length > 0 ? joinList(values) : null);

/**
 * The full `saveEndpoint` input for complete inputs: every field this path manages, so the platform
 * ends up exactly as declared; `gpuIds` is the comma-separated tier list (spec: GraphQL › saveEndpoint).
 * @param carried for a modify, the outputs last read: fields left unset whose unset means the
 *   platform's default (`gpuCount`, `allowedCudaVersions`, `executionTimeoutMs`) and the unmanaged
 *   `workersStandby` are sent with these values, so a modify that replaces the settings keeps them; a
 *   create passes none (the platform's defaults).
 */
export function saveInputFrom(inputs: EndpointInputs, gpuIds: readonly string[], id?: string, carried?: Partial<EndpointOutputs>): SaveEndpointInput {
  const platform = <K extends "gpuCount" | "allowedCudaVersions" | "executionTimeoutMs">(k: K) => (inputs[k] === undefined ? carried?.[k] : inputs[k]);
  const save: SaveEndpointInput = sent({
    name: inputs.name,
    templateId: inputs.templateId!,
    gpuIds: joinList(gpuIds),
    type: inputs.type,
    idleTimeout: inputs.idleTimeout,
    locations: csv(inputs.locations),
    fastBootType: inputs.fastBootType,
    scalerType: inputs.scalerType,
    scalerValue: inputs.scalerValue,
    workersMin: inputs.workersMin,
    workersMax: inputs.workersMax,
    networkVolumeId: inputs.networkVolumeId,
  } as SaveEndpointInput);
  const gpuCount = platform("gpuCount");
  if (isSet(gpuCount)) save.gpuCount = gpuCount;
  const cuda = platform("allowedCudaVersions");
  if (isSet(cuda)) save.allowedCudaVersions = csv(cuda);
  const timeout = platform("executionTimeoutMs");
  if (isSet(timeout)) save.executionTimeoutMs = timeout;
  // Not managed, so a modify keeps what the platform (or its console) set rather than resetting it.
  const standby = carried?.workersStandby;
  if (isSet(standby)) save.workersStandby = standby;
  if (id !== undefined) save.id = id;
  return save;
}

/** The REST v1 create body for complete inputs with GPU type names (spec: POST /v1/endpoints; plus the REST v1 document's `gpuCount`, `allowedCudaVersions`, `executionTimeoutMs`). */
export function restCreateInputFrom(inputs: EndpointInputs): RestCreateEndpointInput {
  return sent({
    name: inputs.name,
    templateId: inputs.templateId!,
    gpuTypeIds: inputs.gpuTypeIds,
    idleTimeout: inputs.idleTimeout,
    workersMin: inputs.workersMin,
    workersMax: inputs.workersMax,
    gpuCount: inputs.gpuCount ?? undefined,
    allowedCudaVersions: inputs.allowedCudaVersions ?? undefined,
    executionTimeoutMs: inputs.executionTimeoutMs ?? undefined,
  } as RestCreateEndpointInput);
}

export function graphqlEndpointPort(context: PortContext): Port<EndpointInputs, EndpointState> {
  const client = () => context.client;
  return {
    // The platform rolls every endpoint of a changed template itself (saveTemplate modify).
    capabilities: { unreported: [], replaces: [], copiesTemplates: false },
    refusedInUse: isFailedPrecondition,
    create: async (inputs) =>
      endpointStateFromGraphql(
        inputs.gpuTypeIds
          ? await client().createEndpointRest(restCreateInputFrom(inputs))
          : await client().saveEndpoint(saveInputFrom(inputs, inputs.gpuIds ?? [])),
      ),

    /** After a REST v1 create: `saveEndpoint` with the whole desired state when the answer differs from the inputs. */
    async finishCreate(record, inputs) {
      if (!inputs.gpuTypeIds) return record;
      const answered = {
        ...outputsFromRecord(ENDPOINT_MODEL, record, undefined),
        gpuTypeIds: inputs.gpuTypeIds,
        workersStandby: record.workersStandby ?? null,
      };
      const missing = diffEndpoint(answered, { ...inputs }).changed.filter((f) => f !== "gpuTypeIds");
      if (missing.length === 0) return record;
      // The whole desired state, not only `missing`: a modify may reset omitted fields (full-state modify).
      const save = saveInputFrom(inputs, record.gpuIds, record.id, answered);
      try {
        return endpointStateFromGraphql(await client().saveEndpoint(save));
      } catch (err) {
        throw new IncompleteCreateError(
          `Endpoint ${record.id} was created but setting ${missing.join(", ")} failed: ${messageOf(err)}. Run \`pulumi up\` again to finish`,
          record,
        );
      } finally {
        context.listing<EndpointState>("endpoint").changed(record.id);
      }
    },

    read: (id) => context.listing<EndpointState>("endpoint").find(id),

    /**
     * Fields left unset whose unset means the platform's default, and the unmanaged `workersStandby`, carry
     * their value from `olds`. A switch to another template is a release of the endpoint: followed to
     * health, and a failed one saves the previous `templateId` back (rollout.ts).
     */
    async update(id, inputs, olds) {
      const tiers = inputs.gpuIds ?? splitList(olds.gpuIds as string[] | string | null);
      const saved = endpointStateFromGraphql(await client().saveEndpoint(saveInputFrom(inputs, tiers, id, olds)));
      const previous = olds.templateId;
      if (typeof previous === "string" && previous !== inputs.templateId) {
        const settings: EndpointSettings = settingsFrom(ENDPOINT_MODEL, inputs);
        const templates = await Promise.all([previous, inputs.templateId!].map((t) => context.listing<TemplateState>("template").find(t)));
        const secrets = templates.flatMap((t) => Object.values(t?.env ?? {})).filter((v) => v.length > 0);
        const image = templates[0]?.imageName;
        await guardRollout(context.client, { id, label: `${inputs.name} (${id})` }, settings, secrets, {
          what: "the previous template",
          detail: `(${previous}${image ? `, image ${image}` : ""})`,
          put: async () => {
            context.listing<EndpointState>("endpoint").changed(id);
            await client().saveEndpoint(saveInputFrom({ ...inputs, templateId: previous }, tiers, id, olds));
          },
        });
      }
      return saved;
    },

    /**
     * A delete cancels jobs in progress, so the worker listing is read first. Idle: scale to
     * `workersMin = 0`, `workersMax = 0` (skipped when already there) and `deleteEndpoint` in one
     * request (`scaleDownAndDeleteEndpoint`), written from the stored outputs, so a failed delete
     * changes nothing. A job running: scale to zero, wait until no worker runs one (up to the stored
     * `workersReadyTimeout`), then delete. Only without stored outputs, or when the platform refuses
     * the delete because workers are not at zero, is the live record listed and the scale-down repeated once.
     */
    async delete(id, props) {
      let record = recordFromOutputs(id, props) ?? (await context.listing<EndpointState>("endpoint").find(id));
      for (let attempt = 1; record; attempt++) {
        // Before the writes: a lookup after them must not be answered from a listing taken before.
        context.listing<EndpointState>("endpoint").changed(id);
        try {
          const atZero = record.workersMin === 0 && record.workersMax === 0;
          const identity = { id, name: record.name, templateId: record.templateId ?? "", gpuIds: joinList(record.gpuIds) };
          if ((await runningJobs(context, id)) > 0) {
            if (!atZero) await client().saveEndpoint({ ...identity, workersMin: 0, workersMax: 0 });
            await drain(context, id, drainLimitMs(props));
            await client().deleteEndpoint(id);
          } else if (!atZero) {
            await client().scaleDownAndDeleteEndpoint(identity);
          } else {
            await client().deleteEndpoint(id);
          }
          return;
        } catch (err) {
          if (isGoneOnGraphql(err)) return;
          if (!isFailedPrecondition(err) || attempt >= 2) throw err;
        }
        record = await context.listing<EndpointState>("endpoint").find(id);
      }
    },
  };
}

/**
 * What the delete needs of the endpoint, from its stored outputs: undefined when they lack a field (an
 * older state, or a caller that has none), so the live record is listed instead.
 */
function recordFromOutputs(
  id: string,
  props: Partial<EndpointOutputs> | undefined,
): Pick<EndpointState, "name" | "templateId" | "gpuIds" | "workersMin" | "workersMax"> | undefined {
  const { name, templateId, gpuIds, workersMin, workersMax } = props ?? {};
  if (typeof name !== "string" || typeof templateId !== "string" || typeof workersMin !== "number" || typeof workersMax !== "number") return undefined;
  if (!isStringArray(gpuIds) || gpuIds.length === 0 || props?.endpointId !== id) return undefined;
  return { name, templateId, gpuIds: [...gpuIds], workersMin, workersMax };
}
