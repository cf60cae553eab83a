/**
 * What `adopt` brings into the stack: the account's objects (REST v2 listings, whatever `runpod:api`
 * says), less those a stack already holds, each as a resource of this package with its current settings
 * as arguments — read from the provider models (`src/provider/<kind>/model.ts`), references between the
 * adopted objects kept as references, and every secret (env values, registry credentials) routed to the
 * stack's configuration rather than the program text.
 */
import type { PlatformClient } from "../../api";
import type { ApiPath } from "../../provider/apiPath";
import { ENDPOINT_CONTAINER_FIELDS, ENDPOINT_MODEL } from "../../provider/endpoint/model";
import type { InputField, ResourceModel } from "../../provider/model/fields";
import { inputNames } from "../../provider/model/fields";
import { isUnsetValue, outputsFromRecord } from "../../provider/model/state";
import { NETWORK_VOLUME_MODEL } from "../../provider/networkVolume/model";
import type { EndpointState, NetworkVolumeState, PodState, RegistryAuthState, TemplateState } from "../../provider/paths/records";
import { POD_MODEL } from "../../provider/pod/model";
import { REGISTRY_AUTH_MODEL } from "../../provider/registryAuth/model";
import { PlatformSession } from "../../provider/session";
import { runsTemplate } from "../../provider/template/container";
import { INJECTED_ENV, TEMPLATE_MODEL } from "../../provider/template/model";
import { UsageError } from "../errors";
import { uniqueNames } from "./names";

/** The kinds `adopt` knows, in the order a program declares them (what is referenced comes first). */
export const ADOPT_KINDS = ["registryAuth", "networkVolume", "template", "endpoint", "pod"] as const;
export type AdoptKind = (typeof ADOPT_KINDS)[number];

export const MODEL_OF: Record<AdoptKind, ResourceModel> = {
  registryAuth: REGISTRY_AUTH_MODEL,
  networkVolume: NETWORK_VOLUME_MODEL,
  template: TEMPLATE_MODEL,
  endpoint: ENDPOINT_MODEL,
  pod: POD_MODEL,
};

/** How `--kinds` spells each kind (the resource type, lower case) and how messages name it. */
export const KIND_WORDS: Record<AdoptKind, { flag: string; noun: string }> = {
  registryAuth: { flag: "containerregistryauth", noun: "registry credentials" },
  networkVolume: { flag: "networkvolume", noun: "network volume" },
  template: { flag: "template", noun: "template" },
  endpoint: { flag: "endpoint", noun: "endpoint" },
  pod: { flag: "pod", noun: "pod" },
};

/** One argument's value in the written program. */
export type ArgValue =
  | { literal: unknown }
  /** The `id` of another adopted resource (by its resource name). */
  | { ref: string }
  /** A stack configuration value the program reads; `object`: a map (env). */
  | { config: string; secret: boolean; object?: boolean };

/** A configuration value `adopt` sets: env values as secrets, the credentials' placeholders. */
export interface ConfigValue {
  key: string;
  value: string | Record<string, string>;
  secret: boolean;
}

export interface AdoptedObject {
  kind: AdoptKind;
  id: string;
  platformName: string;
  /** The Pulumi resource name (also the program's variable, in each language's spelling). */
  resourceName: string;
  args: [string, ArgValue][];
  config: ConfigValue[];
  /**
   * Values the platform does not report that the state must carry so the first refresh gives back
   * what the program declares (an endpoint's template on REST v2, the credentials' placeholders).
   */
  carried: Record<string, unknown>;
  /** Secret among {@link carried}. */
  carriedSecrets: string[];
  /** One-line comment above the resource (why an argument comes from config). */
  note?: string;
}

/** What the account holds, per kind, as the REST v2 listings report it. */
export interface Account {
  registryAuth: RegistryAuthState[];
  networkVolume: NetworkVolumeState[];
  template: TemplateState[];
  endpoint: EndpointState[];
  pod: PodState[];
}

/** Lists the account through REST v2 (what the platform makes itself, an endpoint's bound template, is not listed there). */
export async function listAccount(client: PlatformClient): Promise<Account> {
  const v2 = new PlatformSession(() => client, { api: "v2" });
  const [registryAuth, networkVolume, template, endpoint, pod] = await Promise.all([
    v2.listing<RegistryAuthState>("registryAuth").list(),
    v2.listing<NetworkVolumeState>("networkVolume").list(),
    v2.listing<TemplateState>("template").list(),
    v2.listing<EndpointState>("endpoint").list(),
    v2.listing<PodState>("pod").list(),
  ]);
  return { registryAuth, networkVolume, template, endpoint, pod };
}

/** Placeholders the credentials keep in config until the user sets the real values (the platform never shows them). */
export const USERNAME_PLACEHOLDER = "set-me";
export const PASSWORD_PLACEHOLDER = "set-me";

export interface PlanOptions {
  kinds: readonly AdoptKind[];
  name?: RegExp;
  /** `kind:id` of what a stack of the backend already holds. */
  held: ReadonlySet<string>;
  /** Resource names the stack already uses (the new ones must differ). */
  takenNames: ReadonlySet<string>;
  /** The stack's API path: an argument it cannot express fails the plan. */
  api: ApiPath;
}

export const heldKey = (kind: AdoptKind, id: string) => `${kind}:${id}`;

type Record_ = { id: string; name: string };

/** An object `adopt` leaves out although no stack holds it, and why (shown with the plan). */
export interface LeftOut {
  kind: AdoptKind;
  id: string;
  name: string;
  why: string;
}

/**
 * Objects of the account no resource of this package makes: pod templates (the Template resource makes
 * serverless ones; a pod's `templateId` may still name them).
 */
export function leftOutOf(account: Account): LeftOut[] {
  return account.template
    .filter((t) => !t.isServerless)
    .map((t) => ({ kind: "template", id: t.id, name: t.name, why: "a pod template (the Template resource makes serverless templates)" }));
}

/**
 * The objects to adopt with their arguments.
 * @throws UsageError naming the object and field when the model cannot express an object (nothing is written then).
 */
export function planAdoption(account: Account, opts: PlanOptions): AdoptedObject[] {
  const skipped = new Set(leftOutOf(account).map((l) => heldKey(l.kind, l.id)));
  const chosen = ADOPT_KINDS.flatMap((kind) =>
    opts.kinds.includes(kind)
      ? (account[kind] as Record_[])
          .filter((r) => !opts.held.has(heldKey(kind, r.id)) && !skipped.has(heldKey(kind, r.id)) && (!opts.name || opts.name.test(r.name)))
          .map((record) => ({ kind, record }))
      : [],
  );
  const names = uniqueNames(
    chosen.map((c) => ({ base: c.record.name, fallback: c.kind })),
    opts.takenNames,
  );
  const byId = new Map<string, string>(chosen.map((c, i) => [heldKey(c.kind, c.record.id), names[i]]));
  const ref = (kind: AdoptKind, id: unknown): ArgValue => {
    const name = typeof id === "string" ? byId.get(heldKey(kind, id)) : undefined;
    return name ? { ref: name } : { literal: id };
  };
  return chosen.map(({ kind, record }, i) => {
    const resourceName = names[i];
    const object: AdoptedObject = { kind, id: record.id, platformName: record.name, resourceName, args: [], config: [], carried: {}, carriedSecrets: [] };
    const values = valuesOf(kind, record, account, opts.api, resourceName);
    for (const [field, value] of values) {
      const refKind = REFERENCES[field];
      if (refKind && typeof value === "string") object.args.push([field, ref(refKind, value)]);
      else if (refKind && Array.isArray(value)) object.args.push([field, { literal: value.map((v) => ref(refKind, v)) }]);
      else if (isSecretField(kind, field)) {
        const key = `${resourceName}${field.charAt(0).toUpperCase()}${field.slice(1)}`;
        object.config.push({ key, value: value as Record<string, string>, secret: true });
        object.args.push([field, { config: key, secret: true, object: true }]);
      } else object.args.push([field, { literal: value }]);
    }
    if (kind === "endpoint") {
      const templateId = values.find(([f]) => f === "templateId")?.[1];
      object.carried.templateId = templateId;
    }
    if (kind === "registryAuth") {
      const user = `${resourceName}Username`;
      const password = `${resourceName}Password`;
      object.args.push(["username", { config: user, secret: false }], ["password", { config: password, secret: true }]);
      object.config.push({ key: user, value: USERNAME_PLACEHOLDER, secret: false }, { key: password, value: PASSWORD_PLACEHOLDER, secret: true });
      object.carried = { username: USERNAME_PLACEHOLDER, password: PASSWORD_PLACEHOLDER };
      object.carriedSecrets = ["password"];
      object.note = `The platform never shows registry credentials: set both (\`pulumi config set ${user} …\`, \`pulumi config set --secret ${password} …\`), then \`pulumi up\` updates them in place.`;
    }
    return object;
  });
}

/** Fields that hold the id of another kind: written as a reference when that object is adopted too. */
const REFERENCES: Record<string, AdoptKind> = {
  templateId: "template",
  networkVolumeId: "networkVolume",
  networkVolumeIds: "networkVolume",
  containerRegistryAuthId: "registryAuth",
};

const isSecretField = (kind: AdoptKind, field: string) => (MODEL_OF[kind].fields[field] as InputField | undefined)?.secret === true;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The arguments of one object, in the model's field order: every input the record holds that differs
 * from the model's default (a field left to the platform: every value it holds), with what the model
 * does not read back from the record filled in per kind.
 */
function valuesOf(kind: AdoptKind, record: object, account: Account, api: ApiPath, resourceName: string): [string, unknown][] {
  const model = MODEL_OF[kind];
  const outs = outputsFromRecord(model, record, undefined);
  const extra = extrasOf(kind, record, account, resourceName);
  const out: [string, unknown][] = [];
  for (const name of inputNames(model)) {
    const field = model.fields[name] as InputField;
    if (field.deprecated || (field.reported === false && !(name in extra))) continue;
    const value = name in extra ? extra[name] : outs[name];
    if (value === undefined || value === null) continue;
    // An empty list the model has no default for is the record's way of saying unset (a GPU endpoint's cpuFlavorIds).
    if (field.default === undefined && Array.isArray(value) && value.length === 0) continue;
    if (field.unset === "platform" ? isUnsetValue(value) : field.default !== undefined && same(value, field.default)) continue;
    if (field.paths && !field.paths.includes(api)) {
      throw new UsageError(
        `${KIND_WORDS[kind].noun} ${(record as Record_).id} (${(record as Record_).name}) has ${name} ${JSON.stringify(value)}, ` +
          `which the stack's runpod:api ${api} cannot express (only ${field.paths.join(", ")}); leave it out with --name or --kinds, or set runpod:api`,
      );
    }
    out.push([name, value]);
  }
  return out;
}

/** Per kind: what the record holds under another shape than the model's, or not at all. */
function extrasOf(kind: AdoptKind, record: object, account: Account, resourceName: string): Record<string, unknown> {
  const cannot = (why: string) => {
    const r = record as Record_;
    return new UsageError(`${KIND_WORDS[kind].noun} ${r.id} (${r.name}) ${why}; leave it out with --name or --kinds (resource ${resourceName})`);
  };
  if (kind === "template") {
    const t = record as TemplateState;
    const injected: string[] = Object.entries(INJECTED_ENV).flatMap(([flag, key]) => (t[flag as keyof typeof INJECTED_ENV] ? [key] : []));
    return { env: Object.fromEntries(Object.entries(t.env).filter(([k]) => !injected.includes(k))) };
  }
  if (kind === "endpoint") {
    const e = record as EndpointState;
    if (e.templateId) return { templateId: e.templateId };
    // REST v2 endpoints hold a copy of their template: the template whose settings the copy holds is theirs,
    // and the container is the template's (none of its fields written). Else the container is the endpoint's own.
    const matches = e.container ? account.template.filter((t) => t.isServerless && runsTemplate(t, e.container!)) : [];
    if (matches.length > 0) {
      const own = Object.fromEntries(ENDPOINT_CONTAINER_FIELDS.map((f) => [f, undefined]));
      return { ...own, templateId: [...matches].sort((a, b) => a.id.localeCompare(b.id))[0].id };
    }
    if (!e.imageName) throw cannot("runs neither a template of the account nor an image of its own");
    return {};
  }
  if (kind === "pod") {
    const p = record as PodState;
    const extras: Record<string, unknown> = {};
    if (p.gpuTypeId) extras.gpuTypeIds = [p.gpuTypeId];
    // A pod mounts one kind of volume: its network volume's path is the mount path, no local volume.
    if (p.networkVolumeId) extras.volumeInGb = 0;
    return extras;
  }
  return {};
}

/** Parses `--kinds` (comma-separated resource types, any case). @throws UsageError naming the allowed values. */
export function parseKinds(text: string | undefined): AdoptKind[] {
  if (!text) return [...ADOPT_KINDS];
  const allowed = ADOPT_KINDS.map((k) => KIND_WORDS[k].flag);
  return text.split(",").map((word) => {
    const w = word.trim().toLowerCase();
    const kind = ADOPT_KINDS.find((k) => KIND_WORDS[k].flag === w || k.toLowerCase() === w);
    if (!kind) throw new UsageError(`--kinds: "${word.trim()}" is no kind adopt knows; allowed: ${allowed.join(", ")}`);
    return kind;
  });
}
