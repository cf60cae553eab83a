/**
 * The REST v2 operations of `client.v2`, one declaration each, named by the document's operationIds
 * (docs/spec/rest-v2-openapi.json; paths under `{restV2Url}/v2`). They live in their own table,
 * bound as the client's `v2` namespace, because several operationIds (`listEndpoints`,
 * `deleteEndpoint`, `listTemplates`, `deleteTemplate`, `listNetworkVolumes`) already name methods of
 * the GraphQL path or of the earlier v2 reads. Messages and retry lines name them `v2.<operationId>`.
 *
 * Shapes come only from the generated files: answers are parsed with the generated zod schemas, and
 * the bodies and queries are checked against theirs before sending, so a bad field is named before
 * any request. Every answer error is an `ApiHttpError` subclass carrying the RFC 9457 `problem`
 * (`detail`, `errors[]`) and the request id; `RateLimit`, `RateLimit-Policy` and `Retry-After` pace
 * these calls through the one transport and retry policy of the client (http.ts, retry.ts).
 *
 * Errors of every method: AuthenticationError (401), PermissionError (403), RateLimitError (429, after
 * retries), ServerError (5xx; reads, PATCH and DELETE are retried, creates are not and carry
 * `outcomeUnknown`), ApiHttpError (400, 409, 422, …), NetworkError, TimeoutError,
 * ResponseValidationError (an answer the document does not allow). Methods with an id also throw
 * InvalidArgumentError (bad id, before sending) and NotFoundError (404).
 */
import { z } from "zod";
import { idArgument, nonEmptyArgument } from "../arguments";
import * as gen from "../generated/zod.gen";
import { httpOperation, operationTable, type HttpRequestSpec } from "../operation";
import type { QueryParameters } from "../http";
import type * as V2 from "./types";

const V2_BASE = "restV2Url" as const;

/** A request to `{restV2Url}/v2/<segments>`. */
function v2(method: HttpRequestSpec["method"], segments: string[], extra: Pick<HttpRequestSpec, "body" | "query"> = {}): HttpRequestSpec {
  return { method, base: V2_BASE, path: ["v2", ...segments], ...extra };
}

/** An optional query, checked against the document's parameters (`name` is what an error names). */
const queryArgument = <S extends z.ZodTypeAny>(schema: S) => schema.optional().describe("query");
/** A request body, checked against the document's request schema. */
const bodyArgument = <S extends z.ZodTypeAny>(schema: S) => schema.describe("body");
/** The query as sent; the generated query types are plain records of scalars and arrays. */
const sent = (query: object | undefined): QueryParameters | undefined => query as QueryParameters | undefined;
/** 204 No Content. */
const noContent = z.undefined();

const endpointId = idArgument("endpointId");
/** Catalog ids may hold spaces (`NVIDIA GeForce RTX 4090`); the path segment is encoded, and dot-only ids would change the path. */
const catalogId = (name: string) => nonEmptyArgument(name).refine((s) => !/^\.+$/.test(s), "must not be made of dots only");
const templateId = idArgument("templateId");
const registryId = idArgument("registryId");
const networkVolumeId = idArgument("networkVolumeId");
const podId = idArgument("podId");

export const restV2ApiOperations = operationTable(
  {
    // ── Serverless endpoints (tag "Serverless") ──────────────────────────────────────────────────
    /**
     * The caller's serverless endpoints: `GET /v2/serverless` (operation `listEndpoints`).
     * @returns the `endpoints` of the answer.
     */
    listEndpoints: httpOperation({
      request: () => v2("GET", ["serverless"]),
      response: gen.zListEndpointsResponse,
      result: (data): V2.Endpoint[] => data.endpoints,
      idempotent: true,
    }),

    /** One endpoint: `GET /v2/serverless/{id}` (operation `getEndpoint`). */
    getEndpoint: httpOperation({
      args: z.tuple([endpointId]),
      request: (id: string) => v2("GET", ["serverless", id]),
      response: gen.zEndpoint,
      result: (data): V2.Endpoint => data,
      idempotent: true,
    }),

    /**
     * Creates an endpoint: `POST /v2/serverless` (operation `createEndpoint`, answer 201). Exactly one
     * of `gpu` or `cpu`; `type` and `scaling` required; `image` required unless `templateId` is set
     * (a snapshot: later template edits do not reach the endpoint). Units: `timeout` ms,
     * `workers.idleTimeout` s, `disk` GB. Not retried after a 5xx or a dropped connection (the
     * endpoint may exist: look it up by name before creating again).
     */
    createEndpoint: httpOperation({
      args: z.tuple([bodyArgument(gen.zCreateEndpointRequest)]),
      request: (body: V2.CreateEndpointRequest) => v2("POST", ["serverless"], { body }),
      response: gen.zEndpoint,
      result: (data): V2.Endpoint => data,
      idempotent: false,
    }),

    /**
     * Changes the fields present in `body`: `PATCH /v2/serverless/{id}` (operation `updateEndpoint`).
     * A change of `image`, `args`, `disk`, `ports`, `env`, `registry` or `templateId` creates a
     * release that rolls out as workers cycle (follow it with `listEndpointReleases`); scaling
     * fields apply at once. `type` and the compute family cannot change (400). Send `gpu` whole:
     * a `gpu` without `excludedTypes` clears the exclusions.
     */
    updateEndpoint: httpOperation({
      args: z.tuple([endpointId, bodyArgument(gen.zUpdateEndpointRequest)]),
      request: (id: string, body: V2.UpdateEndpointRequest) => v2("PATCH", ["serverless", id], { body }),
      response: gen.zEndpoint,
      result: (data): V2.Endpoint => data,
      idempotent: true,
    }),

    /**
     * Deletes an endpoint: `DELETE /v2/serverless/{id}` (operation `deleteEndpoint`, answer 204). The
     * platform terminates its workers, cancels its queued and in-progress jobs and deletes its bound
     * template. A retry that finds it gone counts as done.
     */
    deleteEndpoint: httpOperation({
      args: z.tuple([endpointId]),
      request: (id: string) => v2("DELETE", ["serverless", id]),
      response: noContent,
      result: (): void => undefined,
      idempotent: true,
      goneOnRetryIsDone: true,
    }),

    /**
     * Releases of an endpoint with the rollout summary: `GET /v2/serverless/{id}/releases`
     * (operation `listEndpointReleases`). `rollout.inProgress` is false once every worker runs the
     * latest release (`workersOnLatest`, `workersTotal`, `percentOnLatest` 0–100).
     */
    listEndpointReleases: httpOperation({
      args: z.tuple([endpointId]),
      request: (id: string) => v2("GET", ["serverless", id, "releases"]),
      response: gen.zListEndpointReleasesResponse,
      result: (data): V2.ListEndpointReleasesResponse => data,
      idempotent: true,
    }),

    /**
     * Workers of an endpoint with a summary by status: `GET /v2/serverless/{id}/workers` (operation
     * `listEndpointWorkers`); a worker's `isStale` says it runs an older release.
     */
    listEndpointWorkers: httpOperation({
      args: z.tuple([endpointId]),
      request: (id: string) => v2("GET", ["serverless", id, "workers"]),
      response: gen.zListEndpointWorkersResponse,
      result: (data): V2.ListEndpointWorkersResponse => data,
      idempotent: true,
    }),

    // ── Templates (tag "Templates") ───────────────────────────────────────────────────────────────
    /** The caller's templates: `GET /v2/templates` (operation `listTemplates`); `env` values may be secrets. */
    listTemplates: httpOperation({
      request: () => v2("GET", ["templates"]),
      response: gen.zListTemplatesResponse,
      result: (data): V2.Template[] => data.templates,
      idempotent: true,
    }),

    /** One template: `GET /v2/templates/{id}` (operation `getTemplate`). */
    getTemplate: httpOperation({
      args: z.tuple([templateId]),
      request: (id: string) => v2("GET", ["templates", id]),
      response: gen.zTemplate,
      result: (data): V2.Template => data,
      idempotent: true,
    }),

    /**
     * Creates a template: `POST /v2/templates` (operation `createTemplate`, answer 201). Defaults of
     * the document: `serverless` false, `category` NVIDIA, `startSsh`/`startJupyter` true (they inject
     * `PUBLIC_KEY`/`JUPYTER_PASSWORD` env). Not retried after a 5xx or a dropped connection.
     */
    createTemplate: httpOperation({
      args: z.tuple([bodyArgument(gen.zCreateTemplateRequest)]),
      request: (body: V2.CreateTemplateRequest) => v2("POST", ["templates"], { body }),
      response: gen.zTemplate,
      result: (data): V2.Template => data,
      idempotent: false,
    }),

    /**
     * Changes the fields present in `body`: `PATCH /v2/templates/{id}` (operation `updateTemplate`);
     * a rename is allowed. Endpoints created from the template keep their snapshot.
     */
    updateTemplate: httpOperation({
      args: z.tuple([templateId, bodyArgument(gen.zUpdateTemplateRequest)]),
      request: (id: string, body: V2.UpdateTemplateRequest) => v2("PATCH", ["templates", id], { body }),
      response: gen.zTemplate,
      result: (data): V2.Template => data,
      idempotent: true,
    }),

    /** Deletes a template: `DELETE /v2/templates/{id}` (operation `deleteTemplate`, 204); 400 while an endpoint is bound to it. */
    deleteTemplate: httpOperation({
      args: z.tuple([templateId]),
      request: (id: string) => v2("DELETE", ["templates", id]),
      response: noContent,
      result: (): void => undefined,
      idempotent: true,
      goneOnRetryIsDone: true,
    }),

    // ── Registries (tag "Registries"; no update in v2) ─────────────────────────────────────────────
    /** The caller's registry credentials: `GET /v2/registries` (operation `listRegistries`); id and name only. */
    listRegistries: httpOperation({
      request: () => v2("GET", ["registries"]),
      response: gen.zListRegistriesResponse,
      result: (data): V2.Registry[] => data.registries,
      idempotent: true,
    }),

    /** One registry credential: `GET /v2/registries/{id}` (operation `getRegistry`). */
    getRegistry: httpOperation({
      args: z.tuple([registryId]),
      request: (id: string) => v2("GET", ["registries", id]),
      response: gen.zRegistry,
      result: (data): V2.Registry => data,
      idempotent: true,
    }),

    /**
     * Creates registry credentials: `POST /v2/registries` (operation `createRegistry`, 201).
     * `password` is a secret: it is sent only in this body and never kept on an error.
     */
    createRegistry: httpOperation({
      args: z.tuple([bodyArgument(gen.zCreateRegistryRequest)]),
      request: (body: V2.CreateRegistryRequest) => v2("POST", ["registries"], { body }),
      response: gen.zRegistry,
      result: (data): V2.Registry => data,
      idempotent: false,
    }),

    /** Deletes registry credentials: `DELETE /v2/registries/{id}` (operation `deleteRegistry`, 204). */
    deleteRegistry: httpOperation({
      args: z.tuple([registryId]),
      request: (id: string) => v2("DELETE", ["registries", id]),
      response: noContent,
      result: (): void => undefined,
      idempotent: true,
      goneOnRetryIsDone: true,
    }),

    // ── Network volumes (tag "Network Volumes") ─────────────────────────────────────────────────────
    /** The caller's network volumes: `GET /v2/network-volumes` (operation `listNetworkVolumes`); `size` in GB. */
    listNetworkVolumes: httpOperation({
      request: () => v2("GET", ["network-volumes"]),
      response: gen.zListNetworkVolumesResponse,
      result: (data): V2.NetworkVolume[] => data.networkVolumes,
      idempotent: true,
    }),

    /** One network volume: `GET /v2/network-volumes/{id}` (operation `getNetworkVolume`). */
    getNetworkVolume: httpOperation({
      args: z.tuple([networkVolumeId]),
      request: (id: string) => v2("GET", ["network-volumes", id]),
      response: gen.zNetworkVolume,
      result: (data): V2.NetworkVolume => data,
      idempotent: true,
    }),

    /**
     * Creates a network volume: `POST /v2/network-volumes` (operation `createNetworkVolume`, 201).
     * `size` in GB (10–4096); `type` (STANDARD, HIGH_PERFORMANCE) defaults to the data center's primary
     * tier and, like `dataCenter`, is fixed afterwards. Billed until deleted. Not retried after a 5xx or
     * a dropped connection (the volume may exist: look it up by name before creating again).
     */
    createNetworkVolume: httpOperation({
      args: z.tuple([bodyArgument(gen.zCreateNetworkVolumeRequest)]),
      request: (body: V2.CreateNetworkVolumeRequest) => v2("POST", ["network-volumes"], { body }),
      response: gen.zNetworkVolume,
      result: (data): V2.NetworkVolume => data,
      idempotent: false,
    }),

    /** Renames or grows a network volume: `PATCH /v2/network-volumes/{id}` (operation `updateNetworkVolume`); a smaller `size` is refused (400). */
    updateNetworkVolume: httpOperation({
      args: z.tuple([networkVolumeId, bodyArgument(gen.zUpdateNetworkVolumeRequest)]),
      request: (id: string, body: V2.UpdateNetworkVolumeRequest) => v2("PATCH", ["network-volumes", id], { body }),
      response: gen.zNetworkVolume,
      result: (data): V2.NetworkVolume => data,
      idempotent: true,
    }),

    /** Deletes a network volume and its data: `DELETE /v2/network-volumes/{id}` (operation `deleteNetworkVolume`, 204); refused (400) while mounted. */
    deleteNetworkVolume: httpOperation({
      args: z.tuple([networkVolumeId]),
      request: (id: string) => v2("DELETE", ["network-volumes", id]),
      response: noContent,
      result: (): void => undefined,
      idempotent: true,
      goneOnRetryIsDone: true,
    }),

    // ── Pods (tag "Pods") ─────────────────────────────────────────────────────────────────────────
    /** The caller's pods: `GET /v2/pods` (operation `listPods`); `env` values may be secrets. */
    listPods: httpOperation({
      request: () => v2("GET", ["pods"]),
      response: gen.zListPodsResponse,
      result: (data): V2.Pod[] => data.pods,
      idempotent: true,
    }),

    /** One pod: `GET /v2/pods/{id}` (operation `getPod`). */
    getPod: httpOperation({
      args: z.tuple([podId]),
      request: (id: string) => v2("GET", ["pods", id]),
      response: gen.zPod,
      result: (data): V2.Pod => data,
      idempotent: true,
    }),

    /**
     * Creates a pod: `POST /v2/pods` (operation `createPod`, 201); it starts PROVISIONING. 400 when the
     * GPU type and data centers cannot be placed (or a cross-field rule fails), 422 for a body the
     * document refuses. Not retried: a lost answer is `outcomeUnknown`.
     */
    createPod: httpOperation({
      args: z.tuple([bodyArgument(gen.zCreatePodRequest)]),
      request: (body: V2.CreatePodRequest) => v2("POST", ["pods"], { body }),
      response: gen.zPod,
      result: (data): V2.Pod => data,
      idempotent: false,
    }),

    /** PATCH of a pod: `PATCH /v2/pods/{id}` (operation `updatePod`); only the fields sent change. */
    updatePod: httpOperation({
      args: z.tuple([podId, bodyArgument(gen.zUpdatePodRequest)]),
      request: (id: string, body: V2.UpdatePodRequest) => v2("PATCH", ["pods", id], { body }),
      response: gen.zPod,
      result: (data): V2.Pod => data,
      idempotent: true,
    }),

    /** Terminates a pod: `DELETE /v2/pods/{id}` (operation `deletePod`, 204). */
    deletePod: httpOperation({
      args: z.tuple([podId]),
      request: (id: string) => v2("DELETE", ["pods", id]),
      response: noContent,
      result: (): void => undefined,
      idempotent: true,
      goneOnRetryIsDone: true,
    }),

    /**
     * A pod state transition: `POST /v2/pods/{id}/action` (operation `podAction`): the pod after
     * `start`, `stop`, `restart`; undefined after `terminate` (204). 409 when the pod's status does
     * not allow the action (its `actions` lists those that do).
     */
    podAction: httpOperation({
      args: z.tuple([podId, bodyArgument(gen.zPodActionRequest)]),
      request: (id: string, body: V2.PodActionRequest) => v2("POST", ["pods", id, "action"], { body }),
      response: gen.zPod.or(noContent),
      result: (data): V2.Pod | undefined => data,
      idempotent: false,
    }),

    /** Pod billing per pod per time bucket: `GET /v2/billing/pods` (operation `listPodBilling`); `podId` narrows to one pod. */
    listPodBilling: httpOperation({
      args: z.tuple([queryArgument(gen.zListPodBillingQuery)]),
      request: (query?: V2.ListPodBillingQuery) => v2("GET", ["billing", "pods"], { query: sent(query) }),
      response: gen.zListPodBillingResponse,
      result: (data): V2.ListPodBillingResponse => data,
      idempotent: true,
    }),

    // ── Catalog (tag "Catalog") ────────────────────────────────────────────────────────────────────
    /**
     * GPU types with prices: `GET /v2/catalog/gpus` (operation `listGpuTypes`). With
     * `{ include: ["AVAILABILITY"], product: ["SERVERLESS"] }` each type carries its serverless
     * availability; `product` is required with `include=AVAILABILITY` and valid only with it (400).
     */
    listGpuTypes: httpOperation({
      args: z.tuple([queryArgument(gen.zListGpuTypesQuery)]),
      request: (query?: V2.ListGpuTypesQuery) => v2("GET", ["catalog", "gpus"], { query: sent(query) }),
      response: gen.zListGpuTypesResponse,
      result: (data): V2.GpuType[] => data.gpus,
      idempotent: true,
    }),

    /** One GPU type: `GET /v2/catalog/gpus/{id}` (operation `getGpuType`); ids contain spaces, e.g. `NVIDIA GeForce RTX 4090`. */
    getGpuType: httpOperation({
      args: z.tuple([catalogId("gpuTypeId"), queryArgument(gen.zGetGpuTypeQuery)]),
      request: (id: string, query?: V2.GetGpuTypeQuery) => v2("GET", ["catalog", "gpus", id], { query: sent(query) }),
      response: gen.zGpuType,
      result: (data): V2.GpuType => data,
      idempotent: true,
    }),

    /** CPU types with prices: `GET /v2/catalog/cpus` (operation `listCpuTypes`). */
    listCpuTypes: httpOperation({
      args: z.tuple([queryArgument(gen.zListCpuTypesQuery)]),
      request: (query?: V2.ListCpuTypesQuery) => v2("GET", ["catalog", "cpus"], { query: sent(query) }),
      response: gen.zListCpuTypesResponse,
      result: (data): V2.CpuType[] => data.cpus,
      idempotent: true,
    }),

    /** One CPU type: `GET /v2/catalog/cpus/{id}` (operation `getCpuType`). */
    getCpuType: httpOperation({
      args: z.tuple([catalogId("cpuTypeId"), queryArgument(gen.zGetCpuTypeQuery)]),
      request: (id: string, query?: V2.GetCpuTypeQuery) => v2("GET", ["catalog", "cpus", id], { query: sent(query) }),
      response: gen.zCpuType,
      result: (data): V2.CpuType => data,
      idempotent: true,
    }),

    /** Data centers: `GET /v2/catalog/datacenters` (operation `listDataCenters`), filtered by the query. */
    listDataCenters: httpOperation({
      args: z.tuple([queryArgument(gen.zListDataCentersQuery)]),
      request: (query?: V2.ListDataCentersQuery) => v2("GET", ["catalog", "datacenters"], { query: sent(query) }),
      response: gen.zListDataCentersResponse,
      result: (data): V2.DataCenter[] => data.dataCenters,
      idempotent: true,
    }),

    /** One data center: `GET /v2/catalog/datacenters/{id}` (operation `getDataCenter`). */
    getDataCenter: httpOperation({
      args: z.tuple([catalogId("dataCenterId"), queryArgument(gen.zGetDataCenterQuery)]),
      request: (id: string, query?: V2.GetDataCenterQuery) => v2("GET", ["catalog", "datacenters", id], { query: sent(query) }),
      response: gen.zDataCenter,
      result: (data): V2.DataCenter => data,
      idempotent: true,
    }),

    // ── Billing (tag "Billing") ────────────────────────────────────────────────────────────────────
    /**
     * Serverless billing per endpoint per time bucket: `GET /v2/billing/serverless` (operation
     * `listServerlessBilling`). Amounts in USD; `serverlessId` narrows to one endpoint.
     */
    listServerlessBilling: httpOperation({
      args: z.tuple([queryArgument(gen.zListServerlessBillingQuery)]),
      request: (query?: V2.ListServerlessBillingQuery) => v2("GET", ["billing", "serverless"], { query: sent(query) }),
      response: gen.zListServerlessBillingResponse,
      result: (data): V2.ListServerlessBillingResponse => data,
      idempotent: true,
    }),

    /**
     * Billing of the platform's public model endpoints: `GET /v2/billing/endpoints` (operation
     * `listEndpointBilling`). Not your serverless endpoints (that is `listServerlessBilling`).
     */
    listEndpointBilling: httpOperation({
      args: z.tuple([queryArgument(gen.zListEndpointBillingQuery)]),
      request: (query?: V2.ListEndpointBillingQuery) => v2("GET", ["billing", "endpoints"], { query: sent(query) }),
      response: gen.zListEndpointBillingResponse,
      result: (data): V2.ListEndpointBillingResponse => data,
      idempotent: true,
    }),

    /**
     * Network volume storage billing per volume per time bucket: `GET /v2/billing/network-volumes`
     * (operation `listNetworkVolumeBilling`). Amounts in USD; `networkVolumeId` narrows to one volume.
     */
    listNetworkVolumeBilling: httpOperation({
      args: z.tuple([queryArgument(gen.zListNetworkVolumeBillingQuery)]),
      request: (query?: V2.ListNetworkVolumeBillingQuery) => v2("GET", ["billing", "network-volumes"], { query: sent(query) }),
      response: gen.zListNetworkVolumeBillingResponse,
      result: (data): V2.ListNetworkVolumeBillingResponse => data,
      idempotent: true,
    }),
  },
  "v2.",
);
