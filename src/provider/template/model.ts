/**
 * The `Template` resource, declared once: a serverless template — the image, its disk, start arguments,
 * ports, environment and registry credentials an endpoint runs (spec: "Common GraphQL input fields
 * (pods and templates)"; operations from docs/spec/platform-clients.md, Templates). Validation, diff,
 * the state mapping and the README's tables derive from this table. Bounds and defaults are the
 * platform's, so a field the user never set shows no perpetual diff.
 */
import {
  argumentNames,
  defaultsOf,
  defineModel,
  input,
  inputNames,
  outputNames,
  secretNames,
  type InputName,
  type InputsOf,
  type OutputsOf,
} from "../model/fields";
import { TEMPLATE_CATEGORIES } from "../../api/spec";
import { ROLLOUT_FIELDS, SMOKE_FIELDS } from "../rollout/fields";
import { bool, envMap, integer, listOf, matching, oneOf, platformId, portSpec, text, zeroOr } from "../model/rules";

const ROLLS = "saveTemplate modify; every endpoint using the template rolls its workers onto the new version";
const IN_PLACE = "saveTemplate modify carries every field";
/** GraphQL's disk bounds (the emulator's choice: the spec shows none); REST v2's document states minimums only. */
const DISK_MAX_GB = 1024;
const VOLUME_MAX_GB = 4096;

/** Why a Template's smoke job means nothing on v2. */
const SMOKE_OFF_PATH = "there endpoints hold copies of the template and no worker runs it: set smokeInput on each Endpoint instead";

export const TEMPLATE_MODEL = defineModel({
  kind: "template",
  module: "runpod",
  type: "Template",
  fields: {
    name: input({
      doc: "Template name (unique per account on `runpod:api graphql`).",
      rule: text(255, { trimmed: true }),
      required: true,
      autoName: true,
      change: {
        policy: "replace",
        compare: "value",
        why: "GraphQL deletes templates by name: the new template is created under the new name first, endpoints move to it, then the old one is deleted",
        note: "in place on `runpod:api v2` (PATCH renames)",
      },
    }),
    imageName: input({
      doc: "Container image with repository and tag.",
      rule: text(1000, { trimmed: true }),
      required: true,
      change: { policy: "update", compare: "value", why: ROLLS },
    }),
    dockerArgs: input({
      doc: "Start command overriding the image's own; unset = the image's.",
      rule: text(4096),
      default: "",
      defaultText: "unset (the image's command)",
      note: "",
      change: { policy: "update", compare: "value", why: IN_PLACE },
    }),
    containerDiskInGb: input({
      doc: "Container disk size.",
      rule: integer(1),
      unit: "GB",
      note: `; at most ${DISK_MAX_GB} on \`runpod:api graphql\``,
      default: 10,
      // Document: BaseContainerConfig.disk has a minimum only.
      onPath: { graphql: { rule: integer(1, DISK_MAX_GB) } },
      change: { policy: "update", compare: "value", why: IN_PLACE },
    }),
    volumeInGb: input({
      doc: "Persistent volume size (kept across restarts); 0 = none.",
      rule: integer(0),
      unit: "GB",
      note: `; \`0\` or at least \`10\` on \`runpod:api v2\`; at most ${VOLUME_MAX_GB} on \`runpod:api graphql\``,
      default: 0,
      // Document: PersistentMount.size minimum 10, no maximum.
      onPath: { v2: { rule: zeroOr(10) }, graphql: { rule: integer(0, VOLUME_MAX_GB) } },
      change: {
        policy: "update",
        compare: "value",
        why: `${IN_PLACE}; REST v2's PATCH cannot remove a mount (omitting \`mounts\` keeps it)`,
        note: "to `0` replaces on `runpod:api v2`",
      },
    }),
    volumeMountPath: input({
      doc: "Where the volume is mounted.",
      rule: matching(/^\/[^\s]*$/, 255, "an absolute path", "/workspace"),
      default: "/workspace",
      change: { policy: "update", compare: "value", why: IN_PLACE },
    }),
    ports: input({
      doc: "Exposed ports as `port/protocol`.",
      rule: listOf(portSpec(), { what: "ports as `port/protocol` (port 1–65535, protocol http or tcp)", example: "8000/http", empty: "none" }),
      default: [],
      defaultText: "`[]` (none)",
      change: { policy: "update", compare: "set", why: `${IN_PLACE}; sent as one comma-separated string, order carries no meaning` },
    }),
    env: input({
      doc: "Environment variables, name → value (secret).",
      rule: envMap(32_768),
      default: {},
      defaultText: "`{}`",
      secret: true,
      change: { policy: "update", compare: "map", why: `${ROLLS}; sent as \`[{ key, value }]\`, shown per key without values` },
    }),
    containerRegistryAuthId: input({
      doc: "Registry credentials to pull a private image (a `ContainerRegistryAuth` id); unset = public image.",
      rule: platformId("registry credentials"),
      note: "; unset = public image",
      default: null,
      change: { policy: "update", compare: "value", why: `${IN_PLACE}; unset detaches the credentials`, note: "unset detaches" },
    }),
    category: input({
      doc: "Hardware the template's image is built for (REST v2 `category`).",
      rule: oneOf(TEMPLATE_CATEGORIES, { NVIDIA: "NVIDIA GPUs", AMD: "AMD GPUs", CPU: "CPU workers" }),
      note: "; other than `NVIDIA`: `runpod:api v2` only (GraphQL templates have no category)",
      default: "NVIDIA",
      paths: ["v2"],
      change: { policy: "update", compare: "value", why: "PATCH field `category`" },
    }),
    startSsh: input({
      doc: "Provision SSH access at container start (REST v2 and GraphQL `startSsh`): the platform injects `PUBLIC_KEY` into the env.",
      rule: bool("the platform injects `PUBLIC_KEY` (your SSH key) into the env; the outputs leave it out, so it shows no drift"),
      note: "; `env` then must not set `PUBLIC_KEY`",
      default: false,
      change: { policy: "update", compare: "value", why: "PATCH field `startSsh`, or saveTemplate's `startSsh` (true injects the key into the env)" },
    }),
    startJupyter: input({
      doc: "Start JupyterLab at container start (REST v2 `startJupyter`): the platform injects `JUPYTER_PASSWORD` into the env.",
      rule: bool("the platform injects a generated `JUPYTER_PASSWORD` into the env; the outputs leave it out, so it shows no drift"),
      note: "; `env` then must not set `JUPYTER_PASSWORD`; `runpod:api v2` only",
      default: false,
      paths: ["v2"],
      change: { policy: "update", compare: "value", why: "PATCH field `startJupyter` (true injects a password into the env)" },
    }),
    isPublic: input({
      doc: "Visible to other users of the platform (REST v2 `public`): they can find the template and run endpoints from it.",
      rule: bool("other users can find and use the template"),
      note: "; `runpod:api v2` only (GraphQL reports no such field)",
      default: false,
      paths: ["v2"],
      change: { policy: "update", compare: "value", why: "PATCH field `public`" },
    }),
    readme: input({
      doc: "Description shown with the template.",
      rule: text(65_536),
      default: "",
      defaultText: "unset",
      note: "; `runpod:api graphql` only (REST v2 templates have none)",
      paths: ["graphql"],
      change: { policy: "update", compare: "value", why: IN_PLACE },
    }),
    // Where endpoints follow their template (GraphQL), a template save is a rollout of each of them.
    ...ROLLOUT_FIELDS,
    smokeInput: {
      ...SMOKE_FIELDS.smokeInput,
      doc: "A smoke job's `input` (JSON object text, as `pulumi-runpod run --input` takes it): sent to each endpoint using the template once its workers run the template's new settings; the rollout is healthy only when each job ends in `smokeStatus`.",
      note: "; unset = no smoke job; `runpod:api graphql` only (on v2 endpoints hold copies: set it on each Endpoint)",
      paths: ["graphql"],
      offPath: SMOKE_OFF_PATH,
    },
    smokeStatus: { ...SMOKE_FIELDS.smokeStatus, paths: ["graphql"], offPath: SMOKE_OFF_PATH, note: "; `runpod:api graphql` only" },
  },
});

type TemplateFields = (typeof TEMPLATE_MODEL)["fields"];

/** Inputs after `check`: every default filled in. */
export type TemplateInputs = InputsOf<TemplateFields>;
/** Outputs: the platform's record, `ports` as a list and `env` as a map. */
export type TemplateOutputs = OutputsOf<TemplateFields>;
export type TemplateInputField = InputName<TemplateFields>;

export const TEMPLATE_INPUT_FIELDS = inputNames(TEMPLATE_MODEL);
export const TEMPLATE_ARG_FIELDS = argumentNames(TEMPLATE_MODEL);
export const TEMPLATE_OUTPUT_FIELDS = outputNames(TEMPLATE_MODEL);
/** Outputs registered as Pulumi secrets: `env`. */
export const TEMPLATE_SECRET_FIELDS = secretNames(TEMPLATE_MODEL);
export const TEMPLATE_DEFAULTS: Readonly<Partial<TemplateInputs>> = Object.freeze(defaultsOf(TEMPLATE_MODEL, "input"));

/** Env keys each start flag makes the platform inject (document: CreateTemplateRequest.startSsh / startJupyter). */
export const INJECTED_ENV = { startSsh: "PUBLIC_KEY", startJupyter: "JUPYTER_PASSWORD" } as const;
