/**
 * The `Pod` resource, declared once: a GPU or CPU pod on REST v2 (docs/spec/rest-v2-openapi.json, tag Pods:
 * CreatePodRequest, UpdatePodRequest, podAction). What updates in place is what UpdatePodRequest carries (name,
 * container settings, the mount's size and path) plus `desiredStatus` (podAction stop / start); the compute, the
 * placement, the cloud, the network volume and the create-time flags replace. Container settings a template may
 * give (`templateId`) mean "the template's or the platform's" while unset: compared only while declared.
 */
import {
  argumentNames,
  defaultsOf,
  defineModel,
  input,
  inputNames,
  output,
  outputNames,
  secretNames,
  type InputName,
  type InputsOf,
  type OutputsOf,
} from "../model/fields";
import { bool, envMap, integer, listOf, matching, oneOf, platformId, portSpec, text, zeroOr } from "../model/rules";

export const CLOUD_TYPES = ["SECURE", "COMMUNITY"] as const;
export const DESIRED_STATUSES = ["RUNNING", "EXITED"] as const;
export type CloudType = (typeof CLOUD_TYPES)[number];
export type DesiredStatus = (typeof DESIRED_STATUSES)[number];
/** Pod statuses as the document lists them (PodStatus). */
export const POD_STATUSES = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"] as const;
export type PodStatus = (typeof POD_STATUSES)[number];

const PATCH = "updatePod (PATCH) carries it";
const CONTAINER = `${PATCH}; a running pod restarts its container`;
const CREATE_ONLY = "UpdatePodRequest has no such field: the pod is created again";
const FROM_TEMPLATE = "unset = the template's (`templateId`), else the platform's";

export const POD_MODEL = defineModel({
  kind: "pod",
  module: "runpod",
  type: "Pod",
  fields: {
    name: input({
      doc: "Pod name.",
      rule: text(191, { trimmed: true }),
      required: true,
      autoName: true,
      change: { policy: "update", compare: "value", why: PATCH },
    }),
    imageName: input({
      doc: "Container image with repository and tag; required unless `templateId` is set.",
      rule: text(1000, { trimmed: true }),
      note: `; ${FROM_TEMPLATE}`,
      unset: "platform",
      change: { policy: "update", compare: "value", why: CONTAINER },
    }),
    templateId: input({
      doc: "Pod template whose container settings (image, args, disk, ports, env, registry; at create also its volume) apply, the pod's own fields winning (a declared `env` is the pod's whole env). Applied once: the pod keeps no link to it.",
      rule: platformId("template"),
      note: "; a pod template (not a serverless one); yours or a public one",
      default: null,
      reported: false,
      change: { policy: "update", compare: "value", why: "updatePod applies a template's container settings once (`templateId`); the pod keeps no link" },
    }),
    dockerArgs: input({
      doc: "Start command overriding the image's own.",
      rule: text(4096),
      note: `; ${FROM_TEMPLATE} (none)`,
      unset: "platform",
      change: { policy: "update", compare: "value", why: CONTAINER },
    }),
    containerDiskInGb: input({
      doc: "Container disk (ephemeral: wiped on restart).",
      rule: integer(1),
      unit: "GB",
      note: `; ${FROM_TEMPLATE} (50)`,
      unset: "platform",
      change: { policy: "update", compare: "value", why: CONTAINER },
    }),
    ports: input({
      doc: "Exposed ports as `port/protocol`; `22/tcp` gives a direct SSH endpoint.",
      rule: listOf(portSpec(), { what: "ports as `port/protocol` (port 1–65535, protocol http or tcp)", example: "8888/http", empty: "none" }),
      note: `; ${FROM_TEMPLATE} (none)`,
      unset: "platform",
      change: { policy: "update", compare: "set", why: CONTAINER },
    }),
    env: input({
      doc: "Environment variables, name → value (secret).",
      rule: envMap(32_768),
      note: `; ${FROM_TEMPLATE} (none)`,
      unset: "platform",
      secret: true,
      change: { policy: "update", compare: "map", why: `${CONTAINER}; shown per key without values` },
    }),
    containerRegistryAuthId: input({
      doc: "Registry credentials to pull a private image (a `ContainerRegistryAuth` id); unset = public image.",
      rule: platformId("registry credentials"),
      default: null,
      change: { policy: "update", compare: "value", why: `${CONTAINER}; unset detaches the credentials`, note: "unset detaches" },
    }),
    volumeInGb: input({
      doc: "Persistent volume on the pod's host (kept across restarts, lost with the pod); GPU pods only.",
      rule: zeroOr(10),
      unit: "GB",
      note: "; `0` = none, else at least `10`; not with `networkVolumeId` or a CPU pod; unset = the template's, else none",
      unset: "platform",
      change: {
        policy: "update",
        compare: "value",
        why: `${PATCH} (\`mounts.persistent\`); the mount kind is fixed at create`,
        note: "from or to `0` replaces",
        replacesOnSetOrUnset: true,
      },
    }),
    volumeMountPath: input({
      doc: "Where the volume (`volumeInGb`) or the network volume (`networkVolumeId`) is mounted.",
      rule: matching(/^\/[^\s]*$/, 255, "an absolute path", "/workspace"),
      note: "; unset = the template's, else `/workspace`",
      unset: "platform",
      change: { policy: "update", compare: "value", why: `${PATCH} (the mount's \`path\`)` },
    }),
    networkVolumeId: input({
      doc: "Network volume to mount (in one of the pod's data centers: the pod is placed in the volume's).",
      rule: platformId("network volume"),
      note: "; not with `volumeInGb`",
      default: null,
      change: { policy: "replace", compare: "value", why: "the mount kind and its volume are fixed at create (UpdatePodRequest refuses another volumeId)" },
    }),
    gpuTypeIds: input({
      doc: "GPU types in order of preference: the pod is created on the first that can be placed.",
      rule: listOf(text(100), { what: "GPU type ids", ordered: true, nonEmpty: true, example: "NVIDIA GeForce RTX 4090" }),
      defaultText: "one of `gpuTypeIds` / `cpuFlavorId`",
      note: "; catalog ids (`getGpuTypes`)",
      reported: false,
      // A preference: a list that still allows the GPU type the pod got (a reorder, an import) is no change.
      change: {
        policy: "replace",
        compare: "ordered list",
        why: `${CREATE_ONLY} (createPod places one GPU type, tried in this order)`,
        satisfiedBy: "gpuTypeId",
      },
    }),
    gpuCount: input({
      doc: "GPUs per pod.",
      rule: integer(1),
      note: "; at most the GPU type's `maxCount` on the cloud",
      default: 1,
      change: { policy: "replace", compare: "value", why: CREATE_ONLY },
    }),
    cpuFlavorId: input({
      doc: "CPU flavor of a CPU pod (REST v2 `cpu.id`), instead of `gpuTypeIds`.",
      rule: text(64),
      note: "; catalog ids (`getCpuTypes`), e.g. `cpu3c`",
      default: null,
      change: { policy: "replace", compare: "value", why: CREATE_ONLY },
    }),
    vcpuCount: input({
      doc: "vCPUs of a CPU pod (REST v2 `cpu.vcpuCount`); its memory follows from the flavor.",
      rule: integer(2),
      note: "; a power of two within the flavor's range; required with `cpuFlavorId`",
      default: null,
      change: { policy: "replace", compare: "value", why: CREATE_ONLY },
    }),
    dataCenterIds: input({
      doc: "Data centers the pod may be placed in.",
      rule: listOf(text(64), { what: "data center ids", example: "US-TX-3", empty: "any data center" }),
      default: [],
      reported: false,
      change: { policy: "replace", compare: "set", why: CREATE_ONLY, satisfiedBy: "dataCenterId" },
    }),
    cloudType: input({
      doc: "Cloud tier (REST v2 `cloud`).",
      rule: oneOf(CLOUD_TYPES, { SECURE: "Runpod data centers", COMMUNITY: "community-hosted hardware" }),
      default: "SECURE",
      change: { policy: "replace", compare: "value", why: CREATE_ONLY },
    }),
    startSsh: input({
      doc: "Set up SSH at create (REST v2 `startSsh`): the platform injects `PUBLIC_KEY` (your account's keys) into the env.",
      rule: bool("the platform injects `PUBLIC_KEY`; the outputs leave it out, so it shows no drift"),
      note: "; `env` then must not set `PUBLIC_KEY`",
      default: false,
      reported: false,
      change: { policy: "replace", compare: "value", why: "a create-time flag (never returned, not changeable by PATCH)" },
    }),
    desiredStatus: input({
      doc: "Whether the pod runs (`RUNNING`) or is stopped with its disk kept (`EXITED`); changed in place by podAction `start` / `stop`.",
      rule: oneOf(DESIRED_STATUSES, { RUNNING: "running (billed)", EXITED: "stopped: compute released, disk kept" }),
      default: "RUNNING",
      change: { policy: "update", compare: "value", why: "podAction `stop` / `start`" },
    }),
    status: output<PodStatus>("string", `Lifecycle status (${POD_STATUSES.join(", ")}).`),
    costPerHour: output<number | null>(
      "number",
      "USD per hour: the platform's while the pod exists (0 when stopped); at preview the catalog's list price of the first GPU type (× `gpuCount`) or the flavor (× `vcpuCount`).",
    ),
    gpuTypeId: output<string | null>("string", "The GPU type the pod was placed on (one of `gpuTypeIds`); null for a CPU pod."),
    dataCenterId: output<string | null>("string", "The data center the pod was placed in."),
    sshCommand: output<string | null>("string", "SSH through the platform's proxy (PodSsh `proxy.command`); an interactive shell only."),
    sshDirectCommand: output<string | null>("string", "SSH straight to the pod (PodSsh `direct.command`): null unless `ports` has `22/tcp` and the pod runs."),
  },
});

type PodFields = (typeof POD_MODEL)["fields"];

/** Inputs after `check`. */
export type PodInputs = InputsOf<PodFields>;
/** Outputs: the pod as read, plus what the platform does not report carried from the inputs. */
export type PodOutputs = OutputsOf<PodFields>;
export type PodInputField = InputName<PodFields>;

export const POD_INPUT_FIELDS = inputNames(POD_MODEL);
export const POD_ARG_FIELDS = argumentNames(POD_MODEL);
export const POD_OUTPUT_FIELDS = outputNames(POD_MODEL);
/** Outputs registered as Pulumi secrets: `env`. */
export const POD_SECRET_FIELDS = secretNames(POD_MODEL);
export const POD_DEFAULTS = Object.freeze(defaultsOf(POD_MODEL, "input"));

/** The env key `startSsh` makes the platform inject (document: CreatePodRequest.startSsh). */
export const INJECTED_SSH_KEY = "PUBLIC_KEY";
/** Mount path when a mount is declared without one (the document's examples). */
export const DEFAULT_MOUNT_PATH = "/workspace";
