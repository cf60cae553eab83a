/**
 * The `ResourceProvider` gRPC service of `pulumi-resource-runpod`, on the SDK's generated stubs. Every
 * operation goes to the same provider module the dynamic stubs use (`configure`, `resources.<kind>`
 * of src/provider/index.ts): the models, rules and operations exist once.
 *
 * What it adds over the dynamic provider host: the stack configuration reaches `configure` (secrets
 * unwrapped); `Diff` answers with a detailed diff from the model's own diff; `Read` without stored
 * properties adopts a resource (`pulumi import`); `GetSchema` answers the package schema; `Invoke`
 * serves the network-volume lookups.
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import type { PlatformClient } from "../api";
import { withOperationDeadline } from "../api/deadline";
import { placeholderFailures, withoutSecretValues, withPlaceholdersResolved } from "./importSecrets";
import {
  catalogReads,
  clientInputFromConfig,
  CHECKED_PROPERTY,
  checkedInputs,
  configure,
  NAME_PREFIX_PROPERTY,
  RESOURCE_KINDS,
  resources,
  secretNames,
  secretOutputNames,
  type ResourceKindName,
  type ResourceModel,
  type ResourceOperations,
} from "../provider";
import type { EngineLog } from "./engineLog";
import { FUNCTIONS } from "./functions";
import { packageSchema } from "./schema";
import { kindOf, nameOf } from "./tokens";
import { fromStruct, toStruct, withSecrets, type Record_ } from "./values";

type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Callback<Res> = (err: grpc.ServiceError | Partial<grpc.StatusObject> | null, res?: Res | null, trailer?: grpc.Metadata) => void;

/** An error the provider throws for a resource that exists but did not finish (e.g. EndpointInitError). */
interface InitError {
  message: string;
  id?: string;
  properties?: Record_;
  reasons?: string[];
}

/**
 * The gRPC error of a failed operation. One that carries the resource's id becomes the engine's
 * "initialization failed" detail, so the engine records the resource instead of losing it.
 */
function grpcError(err: unknown): Partial<grpc.StatusObject> {
  const e = (err instanceof Error ? err : new Error(String(err))) as Error & InitError;
  const metadata = new grpc.Metadata();
  if (e.id) {
    const detail = new proto.ErrorResourceInitFailed();
    detail.setId(e.id);
    detail.setProperties(toStruct(e.properties));
    detail.setReasonsList(e.reasons ?? [e.message]);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(e.message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: e.message, metadata };
}

/**
 * The `timeout` of a Create, Update or Delete request (seconds; the resource's `customTimeouts`, 0 when it
 * has none) in milliseconds: the operation's deadline, which bounds its rate-limit waits (api/deadline.ts).
 */
function engineTimeoutMs(seconds: number): number | undefined {
  return seconds > 0 ? seconds * 1000 : undefined;
}

/** detailedDiff kind of one changed property. */
function diffKind(old: unknown, next: unknown, replace: boolean): proto.PropertyDiff.Kind {
  const K = proto.PropertyDiff.Kind;
  const absent = (v: unknown) => v === undefined || v === null;
  if (absent(old)) return replace ? K.ADD_REPLACE : K.ADD;
  if (absent(next)) return replace ? K.DELETE_REPLACE : K.DELETE;
  return replace ? K.UPDATE_REPLACE : K.UPDATE;
}

export interface ServerOptions {
  version: string;
  log: EngineLog;
}

export class ResourceProviderServer {
  private config: Record_ = {};
  private client?: { key: string; client: PlatformClient };
  /** Resources this process read for `pulumi import`: their inputs hold secret placeholders (importSecrets.ts). */
  private readonly imported = new Set<string>();

  constructor(private readonly options: ServerOptions) {}

  /** The service implementation to add to a gRPC server. */
  service(): grpc.UntypedServiceImplementation {
    const u =
      <Req, Res>(name: string, op: (req: Req) => Promise<Res>) =>
      (call: Call<Req>, callback: Callback<Res>) => {
        op.call(this, call.request).then(
          (res) => callback(null, res),
          (err) => {
            void this.options.log.log("debug", `${name} failed: ${err instanceof Error ? err.message : String(err)}`);
            const e = grpcError(err);
            callback(e, null, e.metadata);
          },
        );
      };
    return {
      getPluginInfo: u("GetPluginInfo", this.getPluginInfo),
      getSchema: u("GetSchema", this.getSchema),
      checkConfig: u("CheckConfig", this.checkConfig),
      diffConfig: u("DiffConfig", this.diffConfig),
      configure: u("Configure", this.configure),
      invoke: u("Invoke", this.invoke),
      check: u("Check", this.check),
      diff: u("Diff", this.diff),
      create: u("Create", this.create),
      read: u("Read", this.read),
      update: u("Update", this.update),
      delete: u("Delete", this.delete),
      cancel: u("Cancel", this.cancel),
    };
  }

  private async getPluginInfo(): Promise<PluginInfo> {
    return new PluginInfo().setVersion(this.options.version);
  }

  private async getSchema(req: proto.GetSchemaRequest): Promise<proto.GetSchemaResponse> {
    if (req.getSubpackageName()) throw new Error(`runpod has no subpackage "${req.getSubpackageName()}"`);
    return new proto.GetSchemaResponse().setSchema(JSON.stringify(packageSchema(this.options.version)));
  }

  /** The provider's inputs are passed on as given (secrets stay wrapped); the client validates them at its first use. */
  private async checkConfig(req: proto.CheckRequest): Promise<proto.CheckResponse> {
    return new proto.CheckResponse().setInputs(req.getNews());
  }

  /** A configuration change (another key or address) changes no resource: it is applied in place. */
  private async diffConfig(req: proto.DiffRequest): Promise<proto.DiffResponse> {
    const olds = fromStruct(req.getOlds());
    const news = fromStruct(req.getNews());
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k])).sort();
    const res = new proto.DiffResponse().setChanges(keys.length ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE);
    res.setDiffsList(keys).setHasdetaileddiff(true);
    for (const k of keys) res.getDetaileddiffMap().set(k, new proto.PropertyDiff().setKind(diffKind(olds[k], news[k], false)));
    return res;
  }

  /**
   * The stack configuration `runpod:*` (the provider's inputs, `apiKey` unwrapped from its secret) for
   * the provider runtime; unset keys fall back to the RUNPOD_* environment variables there.
   */
  private async configure(req: proto.ConfigureRequest): Promise<proto.ConfigureResponse> {
    let config: Record_ = fromStruct(req.getArgs());
    if (!req.getArgs()) {
      // Older engines send only `variables`, keyed `runpod:config:<name>`.
      config = {};
      req.getVariablesMap().forEach((v, k) => (config[k.replace(/^runpod:config:/, "")] = v));
    }
    this.config = config;
    await configure({ config: { get: (key) => this.configValue(key) } });
    return new proto.ConfigureResponse().setAcceptsecrets(false).setSupportspreview(false).setAcceptresources(false);
  }

  /** A full key (`runpod:apiKey`) of the configuration; typed values (numbers, booleans) as strings. */
  private configValue(key: string): string | undefined {
    const v = this.config[key.slice(key.indexOf(":") + 1)];
    if (v === undefined || v === null) return undefined;
    return typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
  }

  /** The client of the lookups; the api client loads at the first invoke, not at the plugin's start. */
  private async platformClient(): Promise<PlatformClient> {
    const input = clientInputFromConfig({ get: (key) => this.configValue(key) });
    const key = JSON.stringify(input);
    if (this.client?.key !== key) {
      const { createClient, resolveClientConfig } = await import("../api");
      this.client = { key, client: createClient(resolveClientConfig(input, process.env)) };
    }
    return this.client.client;
  }

  private async invoke(req: proto.InvokeRequest): Promise<proto.InvokeResponse> {
    const fn = FUNCTIONS.find((f) => f.token === req.getTok());
    if (!fn) throw new Error(`runpod has no function "${req.getTok()}"; it has ${FUNCTIONS.map((f) => f.token).join(", ")}`);
    const out = await fn.run(fromStruct(req.getArgs()), {
      volumes: async () => (await this.platformClient()).listNetworkVolumes(),
      // The configured session's reads: preview's catalog and the functions share them.
      catalog: catalogReads,
    });
    return new proto.InvokeResponse().setReturn(toStruct(out));
  }

  private kind(urn: string): ResourceKindName {
    const kind = kindOf(urn);
    if (!kind) throw new Error(`runpod has no resource type in "${urn}"`);
    return kind;
  }

  private operations(urn: string): ResourceOperations {
    return resources[this.kind(urn)];
  }

  /** Properties for the engine, the kind's secret fields wrapped as secrets. */
  private answer(urn: string, record: unknown) {
    const model: ResourceModel = RESOURCE_KINDS[this.kind(urn)].model;
    return toStruct(withSecrets(record as Record_, secretOutputNames(model)));
  }

  /** Validates and completes the inputs; an unset `name` comes from the resource name (`<name>-<7 hex digits>`). */
  private async check(req: proto.CheckRequest): Promise<proto.CheckResponse> {
    const urn = req.getUrn();
    const olds = req.getOlds() ? fromStruct(req.getOlds()) : undefined;
    const news = { ...fromStruct(req.getNews()), [NAME_PREFIX_PROPERTY]: req.getName() || nameOf(urn) };
    const result = await this.operations(urn).check(olds && Object.keys(olds).length ? olds : undefined, news);
    // The import's own check passes its placeholders; a program that still holds one is refused.
    const model: ResourceModel = RESOURCE_KINDS[this.kind(urn)].model;
    const placeholders = this.imported.has(urn) ? [] : placeholderFailures(model, news, secretNames(model));
    const res = new proto.CheckResponse().setInputs(toStruct(result.inputs as Record_));
    res.setFailuresList([...(result.failures ?? []), ...placeholders].map((f) => new proto.CheckFailure().setProperty(f.property).setReason(f.reason)));
    return res;
  }

  /** The model's diff of stored outputs against checked inputs, with one detailedDiff entry per changed input. */
  private async diff(req: proto.DiffRequest): Promise<proto.DiffResponse> {
    const olds = fromStruct(req.getOlds());
    const model: ResourceModel = RESOURCE_KINDS[this.kind(req.getUrn())].model;
    const news = withPlaceholdersResolved(fromStruct(req.getNews()), olds, secretNames(model));
    const d = (await this.operations(req.getUrn()).diff(req.getId(), olds, news)) as {
      changes?: boolean;
      replaces?: string[];
      deleteBeforeReplace?: boolean;
      changed?: string[];
    };
    const changed = d.changed ?? [];
    const replaces = d.replaces ?? [];
    const C = proto.DiffResponse.DiffChanges;
    const res = new proto.DiffResponse().setChanges(d.changes === true ? C.DIFF_SOME : d.changes === false ? C.DIFF_NONE : C.DIFF_UNKNOWN);
    res.setReplacesList(replaces).setDeletebeforereplace(d.deleteBeforeReplace === true);
    res.setDiffsList(changed).setHasdetaileddiff(true);
    for (const f of changed)
      res.getDetaileddiffMap().set(f, new proto.PropertyDiff().setKind(diffKind(olds[f], news[f], replaces.includes(f))).setInputdiff(true));
    return res;
  }

  private async create(req: proto.CreateRequest): Promise<proto.CreateResponse> {
    const urn = req.getUrn();
    const result = await withOperationDeadline(engineTimeoutMs(req.getTimeout()), () => this.operations(urn).create(fromStruct(req.getProperties())));
    void this.options.log.log("debug", `created ${result.id}`, urn);
    return new proto.CreateResponse().setId(result.id).setProperties(this.answer(urn, result.outs));
  }

  /**
   * Refresh, and `pulumi import` (no stored properties: the inputs are rebuilt from the platform's
   * record). A resource that no longer exists answers without an id, so the engine drops it.
   */
  private async read(req: proto.ReadRequest): Promise<proto.ReadResponse> {
    const urn = req.getUrn();
    const props = fromStruct(req.getProperties());
    // State written before outputs held what refresh needs of the checked inputs: the engine's stored inputs give it.
    const stored = req.getInputs() ? fromStruct(req.getInputs()) : {};
    if (Object.keys(props).length > 0 && props[CHECKED_PROPERTY] === undefined && Object.keys(stored).length > 0) {
      props[CHECKED_PROPERTY] = checkedInputs(RESOURCE_KINDS[this.kind(urn)].model, stored);
    }
    const importing = Object.keys(props).length === 0;
    const result = await this.operations(urn).read(req.getId(), props);
    const res = new proto.ReadResponse();
    if (!result.id) return res;
    res.setId(result.id).setProperties(this.answer(urn, result.props));
    if (result.inputs && importing) {
      // The engine writes the generated code from these inputs: secret values stay in the sealed outputs only.
      const { inputs, replaced } = withoutSecretValues(result.inputs, secretNames(RESOURCE_KINDS[this.kind(urn)].model));
      this.imported.add(urn);
      if (replaced.length > 0) {
        const fields = replaced.join(", ");
        void this.options.log.log(
          "warning",
          `the generated code holds a placeholder for ${fields} (secret values are not copied into code): set ${replaced.length === 1 ? "it" : "them"} in the program, e.g. from \`pulumi config set --secret\`, before \`pulumi up\`; until then preview refuses the placeholder`,
          urn,
        );
      }
      res.setInputs(this.answer(urn, inputs));
    } else if (result.inputs) res.setInputs(this.answer(urn, result.inputs));
    return res;
  }

  private async update(req: proto.UpdateRequest): Promise<proto.UpdateResponse> {
    const urn = req.getUrn();
    const result = await withOperationDeadline(engineTimeoutMs(req.getTimeout()), () =>
      this.operations(urn).update(req.getId(), fromStruct(req.getOlds()), fromStruct(req.getNews())),
    );
    return new proto.UpdateResponse().setProperties(this.answer(urn, result?.outs ?? {}));
  }

  private async delete(req: proto.DeleteRequest): Promise<Empty> {
    await withOperationDeadline(engineTimeoutMs(req.getTimeout()), () => this.operations(req.getUrn()).delete(req.getId(), fromStruct(req.getProperties())));
    return new Empty();
  }

  /**
   * The engine is shutting down. Operations under way are left to finish rather than cut off: a create
   * cut off mid-request is what the create-once settlement and `pulumi-runpod recover` exist for, and
   * finishing costs at most one request's timeout.
   */
  private async cancel(): Promise<Empty> {
    void this.options.log.log("debug", "cancel: letting operations under way finish");
    return new Empty();
  }
}
