/**
 * The `Endpoint` resource, declared once (spec: Resources › Serverless endpoint; REST v1 creation body).
 * Validation (check.ts), diff (diff.ts), the state mapping (state.ts), the README's argument and
 * change-policy tables and the benchmark's no-op resource are derived from this table. The spec gives
 * no bounds and few defaults; those below are the platform's, so the inputs `check` completes equal
 * what the platform reports and a field the user never set shows no perpetual diff.
 */
import { CUDA_VERSION_PATTERN, ENDPOINT_TYPES, FAST_BOOT_TYPES, FLASHBOOT_MODES, GPU_TIERS, LOCATIONS, SCALER_TYPES } from "../../api/spec";
import {
  argumentNames,
  defaultsOf,
  defineModel,
  input,
  inputNames,
  output,
  outputNames,
  secretOutputNames,
  setting,
  settingNames,
  type InputName,
  type InputsOf,
  type OutputsOf,
  type SettingName,
} from "../model/fields";
import { bool, envMap, integer, listOf, matching, number, oneOf, platformId, portSpec, text, type Rule } from "../model/rules";
import { COST_FIELDS } from "./costFields";
import { ROLLOUT_FIELDS, SMOKE_FIELDS } from "../rollout/fields";

/** Largest worker count of `workersMin` / `workersMax` on GraphQL (REST v2's document states none). */
const WORKERS_LIMIT = 100;
const GRAPHQL_ONLY = "on `runpod:api graphql`";
const SAVE_FIELD = "saveEndpoint field";
/** Fields the spec's table does not show; the platform's official clients and REST v1 document do (docs/spec/platform-clients.md). */
const BEYOND_SPEC = "; not shown in the spec: from the official clients / REST v1 document";
const PLATFORM_FIELD = "saveEndpoint field of the official clients; unset keeps the platform's value";
/**
 * CUDA versions GraphQL's endpoints accept, as the official clients write them. The spec lists none; this
 * is the set the emulator accepts (emulator/facts.ts), kept as its own copy so a test comparing them can fail.
 * REST v2 takes any `major.minor` (the document's pattern).
 */
export const CUDA_VERSIONS = ["11.8", "12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.7", "12.8"] as const;
/** A CUDA version as `major.minor` (e.g. `"12.9"`). */
export type CudaVersion = `${number}.${number}`;
/** Most GPUs one worker may have on GraphQL (the platform's `maxGpuCount` of a GPU type); REST v2's document states no maximum. */
const GPU_COUNT_MAX = 8;
/** GraphQL's job timeout range (5 s to 7 days); REST v2's `timeout` is an integer with no bounds. */
const TIMEOUT_MS = { min: 5000, max: 604_800_000 } as const;

/** Why the container inputs need `runpod:api v2` (the failure on graphql says it). */
const NO_CONTAINER = "saveEndpoint carries no container: a GraphQL endpoint runs its template's; set them on a Template";
const NO_CPU = "saveEndpoint has no CPU selection";
const RELEASE = "PATCH field: a release, followed to health and rolled back on failure";
const FROM_TEMPLATE = "unset = the template's";
/**
 * vCPUs of a worker: a power of two of at least 2, the document's only bounds; the catalog's flavors bound
 * it from above (checked at preview), so no maximum of our own.
 */
function powerOfTwo(): Rule<number> {
  // Exact for every safe integer (bitwise tests wrap at 2^32).
  const isPower = (n: number) => Number.isSafeInteger(n) && n >= 2 && /^10*$/.test(n.toString(2));
  return {
    type: "integer",
    min: 2,
    schema: (z) => z.number().int().refine(isPower),
    expects: ({ orUnset } = {}) => `a power of two of at least 2 (2, 4, 8, …)${orUnset ? ", or unset" : ""}`,
    accepts: () => "a power of two, ≥ 2",
  };
}

export const ENDPOINT_MODEL = defineModel({
  kind: "endpoint",
  module: "runpod",
  type: "Endpoint",
  fields: {
    endpointId: output<string>("string", "The endpoint id (same as `id`)."),
    name: input({
      doc: "Endpoint name.",
      rule: text(191, { trimmed: true }),
      required: true,
      autoName: true,
      change: { policy: "update", compare: "value", why: "saveEndpoint modify carries name" },
    }),
    templateId: input({
      doc: "Serverless template to run; on REST v2 the endpoint runs a copy of its container, its own container inputs winning.",
      rule: platformId("template"),
      note: "; `templateId` or `imageName` is required (`templateId` on `runpod:api graphql`)",
      defaultText: "unset = none: the endpoint's own `imageName`",
      change: {
        policy: "update",
        compare: "value",
        why: "saveEndpoint modify carries templateId; a REST v2 PATCH `templateId` re-applies the template (a release)",
      },
    }),
    imageName: input({
      doc: "Container image the endpoint runs, with repository and tag (REST v2 `image`); with `templateId`, overrides the template's.",
      rule: text(1000, { trimmed: true }),
      note: "; `imageName` or `templateId` is required; `runpod:api v2` only",
      paths: ["v2"],
      offPath: NO_CONTAINER,
      unset: "platform",
      defaultText: FROM_TEMPLATE,
      change: { policy: "update", compare: "value", why: `${RELEASE} (\`image\`)` },
    }),
    dockerArgs: input({
      doc: "Start command overriding the image's own (REST v2 `args`).",
      rule: text(4096),
      note: "; `runpod:api v2` only",
      paths: ["v2"],
      offPath: NO_CONTAINER,
      unset: "platform",
      defaultText: `${FROM_TEMPLATE}; none without a template`,
      change: { policy: "update", compare: "value", why: `${RELEASE} (\`args\`)` },
    }),
    containerDiskInGb: input({
      doc: "Container disk of each worker (REST v2 `disk`).",
      rule: integer(1),
      unit: "GB",
      note: "; `runpod:api v2` only",
      paths: ["v2"],
      offPath: NO_CONTAINER,
      unset: "platform",
      defaultText: `${FROM_TEMPLATE}, else the platform's`,
      change: { policy: "update", compare: "value", why: `${RELEASE} (\`disk\`)` },
    }),
    ports: input({
      doc: "Exposed ports as `port/protocol` (REST v2 `ports`).",
      rule: listOf(portSpec(), { what: "ports as `port/protocol` (port 1–65535, protocol http or tcp)", example: "8000/http", empty: "none" }),
      note: "; `runpod:api v2` only",
      paths: ["v2"],
      offPath: NO_CONTAINER,
      unset: "platform",
      defaultText: `${FROM_TEMPLATE}; none without a template`,
      change: { policy: "update", compare: "set", why: `${RELEASE} (\`ports\`); order carries no meaning` },
    }),
    env: input({
      doc: "Environment variables, name → value (secret; REST v2 `env`); with `templateId`, merged over the template's per key.",
      rule: envMap(32_768),
      note: "; `runpod:api v2` only",
      paths: ["v2"],
      offPath: NO_CONTAINER,
      unset: "platform",
      secret: true,
      defaultText: `${FROM_TEMPLATE}; none without a template`,
      change: { policy: "update", compare: "map", why: `${RELEASE} (\`env\`); shown per key without values` },
    }),
    containerRegistryAuthId: input({
      doc: "Registry credentials to pull a private image (a `ContainerRegistryAuth` id; REST v2 `registry`).",
      rule: platformId("registry credentials"),
      note: "; `runpod:api v2` only",
      paths: ["v2"],
      offPath: NO_CONTAINER,
      unset: "platform",
      defaultText: `${FROM_TEMPLATE}; none without a template`,
      change: { policy: "update", compare: "value", why: `${RELEASE} (\`registry\`)` },
    }),
    gpuIds: input({
      doc: "GPU tiers in priority order.",
      rule: listOf(
        oneOf(GPU_TIERS, {
          AMPERE_16: "16 GB",
          AMPERE_24: "24 GB",
          ADA_24: "24 GB Ada",
          AMPERE_48: "48 GB",
          ADA_48_PRO: "48 GB Ada Pro",
          AMPERE_80: "80 GB",
          ADA_80_PRO: "80 GB Ada Pro",
        }),
        { what: "GPU tiers", ordered: true, nonEmpty: true },
      ),
      defaultText: "one of `gpuIds` / `gpuTypeIds` / `cpuFlavorIds`",
      change: {
        policy: "update",
        compare: "ordered list",
        why: "tiers are a priority list sent as one comma-separated string; reordering is a change. Switching from gpuTypeIds to gpuIds is also in place",
      },
    }),
    gpuTypeIds: input({
      doc: "GPU type names in priority order (the first available is allocated).",
      rule: listOf(text(100), { what: "GPU type names", ordered: true, nonEmpty: true, example: "NVIDIA GeForce RTX 4090" }),
      defaultText: "one of `gpuIds` / `gpuTypeIds` / `cpuFlavorIds`",
      note: "; created through REST v1 (`runpod:api graphql` only)",
      paths: ["graphql"],
      reported: false,
      change: {
        policy: "replace",
        compare: "ordered list",
        why: "GPU type names are only accepted by the REST v1 create call; saveEndpoint takes tiers only. Switching from gpuIds to gpuTypeIds replaces too",
      },
    }),
    cpuFlavorIds: input({
      doc: "CPU flavors in priority order (catalog ids, e.g. `cpu5c`): a CPU endpoint (REST v2 `cpu`).",
      rule: listOf(matching(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 64, "a CPU flavor id", "cpu5c"), {
        what: "CPU flavor ids",
        ordered: true,
        nonEmpty: true,
        example: "cpu5c",
      }),
      note: "; each a CPU flavor of the catalog (checked at preview); `runpod:api v2` only",
      defaultText: "one of `gpuIds` / `gpuTypeIds` / `cpuFlavorIds`",
      paths: ["v2"],
      offPath: NO_CPU,
      change: {
        policy: "update",
        compare: "ordered list",
        why: "PATCH `cpu` carries the whole list; GPU ↔ CPU replaces (the document makes the compute family immutable)",
        note: "from or to GPUs: deleted and re-created",
        replacesOnSetOrUnset: true,
      },
    }),
    vcpuCount: input({
      doc: "vCPUs of each worker of a CPU endpoint (REST v2 `cpu[].vcpuCount`, the same on every listed flavor).",
      rule: powerOfTwo(),
      unit: "vCPUs",
      note: "; every flavor of `cpuFlavorIds` must offer it (checked at preview); only with `cpuFlavorIds`; `runpod:api v2` only",
      defaultText: "`2` with `cpuFlavorIds`, else unset",
      paths: ["v2"],
      offPath: NO_CPU,
      change: { policy: "update", compare: "value", why: "PATCH `cpu` carries the whole list with the vCPU count" },
    }),
    excludedGpuTypes: input({
      doc: "GPU type names left out of the `gpuIds` tiers (REST v2 `gpu.excludedTypes`).",
      rule: listOf(matching(/^\s*[^-\s]/, 100, "a GPU type name, not starting with '-'"), { what: "GPU type names", example: "NVIDIA L40", empty: "none" }),
      note: "; each a type of one of the tiers; `runpod:api v2` only",
      default: [],
      paths: ["v2"],
      change: { policy: "update", compare: "set", why: "PATCH carries the whole GPU selection: the tiers with their exclusions" },
    }),
    dataCenterIds: input({
      doc: "Data centers the workers may run in (REST v2 placement).",
      rule: listOf(text(64), { what: "data center ids", example: "EU-RO-1", empty: "any data center" }),
      note: "; `runpod:api v2` only",
      default: [],
      paths: ["v2"],
      change: { policy: "update", compare: "set", why: "PATCH field; a set of data centers, order carries no meaning" },
    }),
    type: input({
      doc: "Queue-based or load-balancing endpoint.",
      rule: oneOf(ENDPOINT_TYPES, { QB: "queue-based", LB: "load balancing" }),
      note: "; `LB` needs `scalerType: REQUEST_COUNT` on `runpod:api v2`",
      default: "QB",
      // Document: CreateEndpointRequest, a LOAD_BALANCER endpoint's scaling is RequestCountScaling.
      onPath: { v2: { requires: { LB: { scalerType: "REQUEST_COUNT" } } } },
      change: { policy: "replace", compare: "value", why: "queue-based and load-balancing endpoints serve different interfaces at the job URL" },
    }),
    idleTimeout: input({
      doc: "Time before idle workers shut down.",
      rule: integer(0, 3600),
      unit: "seconds",
      note: "; at least `1` on `runpod:api v2`",
      default: 5,
      // Document: EndpointWorkers.idleTimeout minimum 1.
      onPath: { v2: { rule: integer(1, 3600) } },
      change: { policy: "update", compare: "value", why: SAVE_FIELD },
    }),
    locations: input({
      doc: "Regions the workers may run in.",
      rule: listOf(oneOf(LOCATIONS), { what: "regions", empty: "any region" }),
      note: "; `runpod:api graphql` only",
      default: [],
      paths: ["graphql"],
      change: { policy: "update", compare: "set", why: "a set of allowed regions; order carries no meaning" },
    }),
    flashboot: input({
      doc: "FlashBoot cold-start acceleration (REST v2 `flashboot`).",
      rule: oneOf(FLASHBOOT_MODES, { OFF: "disabled", FLASHBOOT: "enabled", PRIORITY_FLASHBOOT: "enabled with priority capacity" }),
      note: "; `PRIORITY_FLASHBOOT` on `runpod:api v2` only (GraphQL's `fastBootType` has no priority mode); replaces the deprecated `fastBoot` / `fastBootType`",
      default: "OFF",
      valuePaths: { PRIORITY_FLASHBOOT: ["v2"] },
      change: { policy: "update", compare: "value", why: "PATCH field `flashboot`; on GraphQL the saveEndpoint field `fastBootType`" },
    }),
    fastBoot: input({
      doc: "Deprecated: use `flashboot`. Faster cold starts; the boolean spelling of `fastBootType`.",
      rule: bool('deprecated: `flashboot: "FLASHBOOT"` (`false` = `"OFF"`)'),
      default: false,
      alias: { of: "fastBootType", whenTrue: "FASTBOOT" },
      deprecated: 'Endpoint.fastBoot is deprecated: use flashboot ("OFF", "FLASHBOOT" or "PRIORITY_FLASHBOOT"); fastBoot: true is flashboot: "FLASHBOOT"',
    }),
    fastBootType: input({
      doc: "Deprecated: use `flashboot`. Fast boot mode for faster cold starts (GraphQL's spelling of `flashboot`).",
      rule: oneOf(FAST_BOOT_TYPES),
      note: '; deprecated: `FASTBOOT` = `flashboot: "FLASHBOOT"`',
      deprecated: 'Endpoint.fastBootType is deprecated: use flashboot ("OFF", "FLASHBOOT" or "PRIORITY_FLASHBOOT"); FASTBOOT is flashboot: "FLASHBOOT"',
      default: null,
      change: { policy: "update", compare: "value", why: "saveEndpoint field (fastBoot: true is the same as fastBootType: FASTBOOT)" },
    }),
    scalerType: input({
      doc: "Autoscaling strategy.",
      rule: oneOf(SCALER_TYPES),
      default: "QUEUE_DELAY",
      change: { policy: "update", compare: "value", why: SAVE_FIELD },
    }),
    scalerValue: input({
      doc: "Scaler target: queue delay in seconds, or requests per worker (an integer) with `REQUEST_COUNT`.",
      rule: number(0.5),
      note: ": scaler target (queue delay in seconds, fractions allowed on `runpod:api v2`; an integer with `REQUEST_COUNT`); on `runpod:api graphql` an integer 1–3600",
      default: 4,
      // Document: QueueDelayScaling.queueDelay a float, minimum 0.5; RequestCountScaling.requestCount an integer, minimum 1.
      onPath: { graphql: { rule: integer(1, 3600) } },
      when: [{ field: "scalerType", is: "REQUEST_COUNT", rule: integer(1), expects: "an integer number of requests per worker (at least 1)" }],
      change: { policy: "update", compare: "value", why: SAVE_FIELD },
    }),
    workersMin: input({
      doc: "Minimum active workers (0 = scale to zero).",
      rule: integer(0),
      note: ` workers, ≤ \`workersMax\`; \`0\` = scale to zero; at most ${WORKERS_LIMIT} ${GRAPHQL_ONLY}`,
      default: 0,
      // Document: EndpointWorkers.min has a minimum only.
      onPath: { graphql: { rule: integer(0, WORKERS_LIMIT) } },
      change: { policy: "update", compare: "value", why: "saveEndpoint field (may restart active workers)" },
    }),
    workersMax: input({
      doc: "Maximum concurrent workers.",
      rule: integer(0),
      note: ` workers; at most ${WORKERS_LIMIT} ${GRAPHQL_ONLY}`,
      default: 3,
      // Document: EndpointWorkers.max has a minimum only.
      onPath: { graphql: { rule: integer(0, WORKERS_LIMIT) } },
      defaultNote: ", or `workersMin` when larger",
      change: { policy: "update", compare: "value", why: "saveEndpoint field (may restart active workers)" },
    }),
    networkVolumeId: input({
      doc: "Network volume to mount.",
      rule: platformId("network volume"),
      note: "; one of yours (checked at preview); unset = none",
      default: null,
      change: { policy: "update", compare: "value", why: "saveEndpoint field; unset detaches the volume", note: "unset detaches" },
    }),
    networkVolumeIds: input({
      doc: "Network volumes to mount, when more than one (REST v2 `networkVolumes`).",
      rule: listOf(platformId("network volume"), { what: "network volume ids", empty: "none" }),
      note: "; each one of yours (checked at preview); not with `networkVolumeId`; a single id is kept as `networkVolumeId`, two or more need `runpod:api v2`",
      default: [],
      paths: ["v2"],
      change: { policy: "update", compare: "set", why: "PATCH field `networkVolumes` (the whole list); order carries no meaning", note: "empty detaches" },
    }),
    gpuCount: input({
      doc: "GPUs per worker.",
      rule: integer(1),
      unit: "GPUs per worker",
      note: `; at most ${GPU_COUNT_MAX} ${GRAPHQL_ONLY}${BEYOND_SPEC}`,
      // Document: BaseEndpointGpuConfig.count has a minimum only; the catalog review still checks the chosen types' own maximum.
      onPath: { graphql: { rule: integer(1, GPU_COUNT_MAX) } },
      unset: "platform",
      defaultText: "unset = the platform's (`1`)",
      change: { policy: "update", compare: "value", why: PLATFORM_FIELD, note: "unset: no diff" },
    }),
    allowedCudaVersions: input({
      doc: "CUDA versions a worker's host may run.",
      rule: listOf(matching(CUDA_VERSION_PATTERN, 16, "CUDA versions as `major.minor`"), {
        what: "CUDA versions as `major.minor`",
        example: "12.9",
        empty: "any",
      }),
      note: `; on \`runpod:api graphql\` one of ${CUDA_VERSIONS.map((v) => `\`${v}\``).join(", ")}${BEYOND_SPEC}`,
      // The document's pattern on v2 (^\d+\.\d+$); GraphQL knows a fixed set.
      onPath: { graphql: { rule: listOf(oneOf(CUDA_VERSIONS), { what: "CUDA versions", empty: "any" }) } },
      unset: "platform",
      defaultText: "unset = the platform's (any)",
      change: { policy: "update", compare: "set", why: `${PLATFORM_FIELD}; a set of allowed versions, order carries no meaning`, note: "unset: no diff" },
    }),
    minCudaVersion: input({
      doc: "Lowest CUDA version a worker's host may run (REST v2 `gpu.minCudaVersion`): an open-ended floor.",
      rule: matching(CUDA_VERSION_PATTERN, 16, "a CUDA version as `major.minor` (compared numerically: 12.11 is above 12.2)", "12.4"),
      note: "; not with a non-empty `allowedCudaVersions` (the document makes them mutually exclusive); `runpod:api v2` only",
      default: null,
      paths: ["v2"],
      change: { policy: "update", compare: "value", why: "PATCH carries the whole GPU selection; unset clears the floor", note: "unset clears" },
    }),
    executionTimeoutMs: input({
      doc: "Longest time a job may run.",
      rule: integer(1),
      unit: "milliseconds",
      note: `; ${TIMEOUT_MS.min}–${TIMEOUT_MS.max} (5 s to 7 days) ${GRAPHQL_ONLY}${BEYOND_SPEC}`,
      // Document: `timeout` is an integer with no bounds (a positive one is the only meaningful timeout).
      onPath: { graphql: { rule: integer(TIMEOUT_MS.min, TIMEOUT_MS.max) } },
      unset: "platform",
      defaultText: "unset = the platform's (emulator: `600000`)",
      change: { policy: "update", compare: "value", why: PLATFORM_FIELD, note: "unset: no diff" },
    }),
    waitForWorkers: setting({
      doc: "After create and update, wait until `workersMin` workers report ready.",
      rule: bool("after create and update, wait until `workersMin` workers report ready (when `workersMin` > 0)"),
      default: false,
      why: "provider setting, never sent to the platform; applies from the next create or update",
    }),
    workersReadyTimeout: setting({
      doc: "Longest readiness wait.",
      rule: integer(1, 3600),
      unit: "seconds",
      note: ": longest readiness wait",
      default: 600,
      why: "provider setting, never sent to the platform; applies from the next create or update",
    }),
    ...ROLLOUT_FIELDS,
    ...SMOKE_FIELDS,
    workersStandby: output<number | null>(
      "integer",
      "Warm workers the platform keeps on standby, as it reports them (null when it does not): nonzero keeps a `workersMin: 0` endpoint warm, and billed; not shown in the spec: from the official clients.",
    ),
    jobUrl: output<string>(
      "string",
      "Where jobs are sent: `{inferenceUrl}/v2/{endpointId}/` (spec: Job interface); a load-balancing endpoint's `requestUrls.base`.",
    ),
    requestUrls: output<Record<string, string>>(
      "map(string)",
      "Where to send requests, as the platform gives them for the endpoint's type (REST v2 `requestUrls`): `run`, `runSync`, `status`, `stream`, `cancel`, `retry`, `purgeQueue`, `health` for a queue-based endpoint, `base` and `health` for a load-balancing one; empty on `runpod:api graphql`.",
    ),
    releaseVersion: output<number | null>(
      "integer",
      "The version of the endpoint's release last followed to health (REST v2 `listEndpointReleases`); a newer one on the platform shows in preview and the next `up` follows it. Null on `runpod:api graphql`.",
    ),
    releasedContainer: output<string | null>(
      "string",
      "The container settings of that release as JSON text (a secret: it holds the env values): what a failed rollout is rolled back to. Null on `runpod:api graphql`.",
      { secret: true },
    ),
    templateCurrent: output<boolean>(
      "boolean",
      "Whether the endpoint runs its template's current container settings. On `runpod:api v2` an endpoint holds a copy of them, taken at create and at each re-apply: false after a refresh that found the template changed since (outside Pulumi, by another stack, or by an interrupted `up`), and the next `up` re-applies it; always true on `runpod:api graphql`, where endpoints follow their template.",
    ),
    ...COST_FIELDS,
  },
});

type EndpointFields = (typeof ENDPOINT_MODEL)["fields"];

/** Inputs after `check`: every default filled in, exactly one of `gpuIds` / `gpuTypeIds` / `cpuFlavorIds`, the provider settings. */
export type EndpointInputs = InputsOf<EndpointFields>;
/** Outputs: the platform's record with lists parsed, plus the id, the job URL and the provider settings as last applied. */
export type EndpointOutputs = OutputsOf<EndpointFields>;
export type EndpointInputField = InputName<EndpointFields>;
export type EndpointSettingField = SettingName<EndpointFields>;
export type EndpointSettings = Pick<EndpointInputs, EndpointSettingField>;

/** The canonical inputs (compared by `diff`), in display order. */
export const ENDPOINT_INPUT_FIELDS = inputNames(ENDPOINT_MODEL);
/** Settings of the provider rather than of the endpoint: never sent, never compared. */
export const ENDPOINT_SETTING_FIELDS = settingNames(ENDPOINT_MODEL);
/** Fields users may write: the inputs, `fastBoot`, the settings. */
export const ENDPOINT_ARG_FIELDS = argumentNames(ENDPOINT_MODEL);
/** Outputs registered as Pulumi secrets: `env`, `releasedContainer`. */
export const ENDPOINT_SECRET_FIELDS = secretOutputNames(ENDPOINT_MODEL);
/** The endpoint's own container inputs (REST v2 ContainerConfig), in the Template's names. */
export const ENDPOINT_CONTAINER_FIELDS = [
  "imageName",
  "dockerArgs",
  "containerDiskInGb",
  "ports",
  "env",
  "containerRegistryAuthId",
] as const satisfies readonly EndpointInputField[];
/** Inputs a CPU endpoint cannot have (the document has no place for them there). */
export const GPU_ONLY_FIELDS = ["gpuCount", "allowedCudaVersions", "minCudaVersion", "excludedGpuTypes"] as const satisfies readonly EndpointInputField[];
/** Every property of {@link EndpointOutputs}. */
export const ENDPOINT_OUTPUT_FIELDS = outputNames(ENDPOINT_MODEL);
/** The platform's defaults for the inputs users leave unset. */
export const ENDPOINT_DEFAULTS = Object.freeze(defaultsOf(ENDPOINT_MODEL, "input"));
/** The settings' defaults: no readiness wait; up to 10 minutes when waiting. */
export const ENDPOINT_SETTING_DEFAULTS = Object.freeze(defaultsOf(ENDPOINT_MODEL, "setting"));
