/**
 * The package schema and the Python and Go SDKs stay what the models and the code generator make of them:
 * schema.json, sdk/python and sdk/go are regenerated and compared byte for byte (`npm run gen:plugin` writes
 * them). The plugin itself answers GetPluginInfo, GetSchema and Diff over gRPC as the engine calls it.
 */
import * as grpc from "@grpc/grpc-js";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { PROVIDER_SETTING_KEYS, PULUMI_CONFIG_KEYS } from "../../src/provider/providerConfig";
import { CONFIG_DOCS } from "../../src/plugin/functions";
import { packageVersion, serve } from "../../src/plugin/main";
import { fromStruct, toStruct } from "../../src/plugin/values";
import { generateGoSdk, generatePythonSdk, schemaText, sdkgenBinary } from "../../scripts/pluginSdk";
import { repoRoot } from "../../scripts/pulumiCli";

const ROOT = repoRoot();
const schema = JSON.parse(schemaText()) as Record<string, any>;

function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

describe("schema.json", () => {
  test("is current (regenerate with `npm run gen:plugin`)", () => {
    expect(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8")).toBe(schemaText());
  });

  test("has no replaceOnChanges and no defaults: change policy and defaults stay in the provider's check and diff", () => {
    const keys: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          keys.push(k);
          walk(x);
        }
      }
    };
    walk(schema);
    expect(keys).not.toContain("replaceOnChanges");
    expect(keys).not.toContain("default");
  });

  test("marks the secrets, the required inputs and documents every provider setting", () => {
    const r = schema.resources;
    expect(Object.keys(r).sort()).toEqual([
      "runpod:index:ContainerRegistryAuth",
      "runpod:index:Endpoint",
      "runpod:index:NetworkVolume",
      "runpod:index:Pod",
      "runpod:index:Template",
    ]);
    expect(r["runpod:index:Pod"].inputProperties.env.secret).toBe(true);
    expect(r["runpod:index:Pod"].properties.env.secret).toBe(true);
    expect(r["runpod:index:Template"].inputProperties.env.secret).toBe(true);
    expect(r["runpod:index:Template"].properties.env.secret).toBe(true);
    expect(r["runpod:index:ContainerRegistryAuth"].inputProperties.password.secret).toBe(true);
    // REST v2: `image` is required unless `templateId` is set, so neither is required alone (check names both when both are missing).
    expect(r["runpod:index:Endpoint"].requiredInputs ?? []).toEqual([]);
    expect(r["runpod:index:Template"].requiredInputs).toEqual(["imageName"]);
    expect(r["runpod:index:ContainerRegistryAuth"].requiredInputs).toEqual(["username", "password"]);
    expect(r["runpod:index:Endpoint"].inputProperties.idleTimeout.description).toMatch(/seconds, 0–3600.*Default: `5`/);
    expect(r["runpod:index:Endpoint"].inputProperties.type.description).toMatch(/replaces the resource/);
    expect(Object.keys(CONFIG_DOCS).sort()).toEqual(
      [...Object.keys(PULUMI_CONFIG_KEYS), ...PROVIDER_SETTING_KEYS.map((k) => k.slice("runpod:".length))].sort(),
    );
    expect(schema.config.variables.apiKey.secret).toBe(true);
    expect(Object.keys(schema.functions).sort()).toEqual([
      "runpod:index:getCpuTypes",
      "runpod:index:getDataCenters",
      "runpod:index:getGpuTypes",
      "runpod:index:getNetworkVolume",
      "runpod:index:getNetworkVolumes",
    ]);
  });
});

describe("sdk/python", () => {
  test("is what the Pulumi code generator makes of schema.json (regenerate with `npm run gen:plugin`)", () => {
    if (!fs.existsSync(sdkgenBinary())) throw new Error(`${sdkgenBinary()} is missing: run \`npm run tools\``);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-sdk-"));
    try {
      generatePythonSdk(path.join(ROOT, "schema.json"), path.join(out, "python"));
      expect(files(path.join(ROOT, "sdk", "python"))).toEqual(files(path.join(out, "python")));
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("sdk/go", () => {
  test("is what the Pulumi code generator makes of schema.json, its go.mod tidied (regenerate with `npm run gen:plugin`)", () => {
    if (!fs.existsSync(sdkgenBinary())) throw new Error(`${sdkgenBinary()} is missing: run \`npm run tools\``);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "runpod-sdk-"));
    try {
      generateGoSdk(path.join(ROOT, "schema.json"), path.join(out, "go"));
      const generated = files(path.join(out, "go"));
      expect(Object.keys(generated)).toEqual(expect.arrayContaining(["runpod/go.mod", "runpod/getGpuTypes.go", "runpod/endpoint.go"]));
      expect(files(path.join(ROOT, "sdk", "go"))).toEqual(generated);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("the plugin over gRPC", () => {
  let server: grpc.Server;
  let client: ResourceProviderClient;
  /** A unary call by method name (the generated client's methods are overloaded, which defeats inference). */
  const call = <Res>(method: string, req: unknown) =>
    new Promise<Res>((resolve, reject) => (client as any)[method](req, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res))));

  beforeAll(async () => {
    const served = await serve([]);
    server = served.server;
    client = new ResourceProviderClient(`127.0.0.1:${served.port}`, grpc.credentials.createInsecure());
  });
  afterAll(() => {
    client?.close();
    server?.forceShutdown();
  });

  test("GetPluginInfo and GetSchema answer the package's version and schema", async () => {
    const info = await call<proto.GetSchemaResponse & { getVersion(): string }>("getPluginInfo", new Empty());
    expect(info.getVersion()).toBe(packageVersion());
    const res = await call<proto.GetSchemaResponse>("getSchema", new proto.GetSchemaRequest());
    expect(JSON.parse(res.getSchema())).toEqual(schema);
  });

  test("Diff answers the model's diff as a detailed diff: changed inputs only, replacements marked", async () => {
    const olds = {
      endpointId: "ep1",
      name: "api-1234567",
      templateId: "tpl_vllm",
      gpuIds: ["ADA_24"],
      type: "QB",
      locations: ["RO", "CZ"],
      workersMax: 3,
    };
    const req = new proto.DiffRequest()
      .setUrn("urn:pulumi:dev::p::runpod:index:Endpoint::api")
      .setId("ep1")
      .setOlds(toStruct(olds))
      .setNews(toStruct({ ...olds, locations: ["CZ", "RO"], workersMax: 5, type: "LB" }));
    const res = await call<proto.DiffResponse>("diff", req);
    expect(res.getChanges()).toBe(proto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(res.getHasdetaileddiff()).toBe(true);
    expect(res.getReplacesList()).toEqual(["type"]);
    expect(res.getDiffsList().sort()).toEqual(["type", "workersMax"]);
    const kinds: Record<string, number> = {};
    res.getDetaileddiffMap().forEach((v, k) => (kinds[k] = v.getKind()));
    expect(kinds).toEqual({ type: proto.PropertyDiff.Kind.UPDATE_REPLACE, workersMax: proto.PropertyDiff.Kind.UPDATE });
  });

  test("an unknown type token fails with the types the plugin serves", async () => {
    const req = new proto.DiffRequest().setUrn("urn:pulumi:dev::p::runpod:index:Cluster::x").setOlds(toStruct({})).setNews(toStruct({}));
    await expect(call<proto.DiffResponse>("diff", req)).rejects.toThrow(/runpod has no resource type in "urn:pulumi:dev::p::runpod:index:Cluster::x"/);
  });
});

describe("the plugin over gRPC, configured for the emulator", () => {
  let emu: RunningEmulator;
  let server: grpc.Server;
  let client: ResourceProviderClient;
  const call = <Res>(method: string, req: unknown) =>
    new Promise<Res>((resolve, reject) => (client as any)[method](req, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res))));
  const secret = (value: string) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, quiet: true });
    const served = await serve([]);
    server = served.server;
    client = new ResourceProviderClient(`127.0.0.1:${served.port}`, grpc.credentials.createInsecure());
    // The stack configuration as the engine sends it: keys without the namespace, the key secret-wrapped.
    const args = {
      apiKey: secret(emu.apiKey),
      graphqlUrl: emu.urls.graphql,
      restV1Url: emu.urls.restV1,
      restV2Url: emu.urls.restV2,
      inferenceUrl: emu.urls.inference,
    };
    const res = await call<proto.ConfigureResponse>("configure", new proto.ConfigureRequest().setArgs(toStruct(args)));
    expect(res.getAcceptsecrets()).toBe(false);
  });
  afterAll(async () => {
    client?.close();
    server?.forceShutdown();
    await emu?.close();
  });

  test("Invoke getNetworkVolume answers from the configured account (the secret key unwrapped) and names the choices on a miss", async () => {
    const invoke = (args: Record<string, unknown>) =>
      call<proto.InvokeResponse>("invoke", new proto.InvokeRequest().setTok("runpod:index:getNetworkVolume").setArgs(toStruct(args)));
    const found = fromStruct((await invoke({ name: "models" })).getReturn());
    expect(found).toMatchObject({ id: "nv_models01", name: "models", dataCenter: "EU-RO-1" });
    await expect(invoke({ name: "nope" })).rejects.toThrow(/No network volume with name "nope"; yours: nv_models01/);
    await expect(invoke({ id: "nv_models01", name: "models" })).rejects.toThrow(/exactly one of `id` and `name`/);
  });

  test("Invoke of the catalog functions: the document's records cut to the schema's types, filters honoured, one read per query", async () => {
    const invoke = async (tok: string, args: Record<string, unknown>) =>
      fromStruct((await call<proto.InvokeResponse>("invoke", new proto.InvokeRequest().setTok(`runpod:index:${tok}`).setArgs(toStruct(args)))).getReturn());
    const before = emu.stats().byOperation.listGpuTypes ?? 0;
    const plain = (await invoke("getGpuTypes", {})).gpuTypes as Record<string, any>[];
    const serverless = (await invoke("getGpuTypes", { product: ["SERVERLESS"] })).gpuTypes as Record<string, any>[];
    expect(emu.stats().byOperation.listGpuTypes).toBe(before + 1);
    const rtx = serverless.find((g) => g.id === "NVIDIA GeForce RTX 4090")!;
    expect(rtx).toMatchObject({ pool: "ADA_24", memory: 24, price: { serverless: expect.any(Number) }, availability: "HIGH" });
    expect(rtx.dataCenters.length).toBeGreaterThan(0);
    expect(plain.find((g) => g.id === rtx.id)).not.toHaveProperty("availability");
    const typeProps = (name: string) => Object.keys(schema.types[`runpod:index:${name}`].properties);
    for (const g of serverless) for (const k of Object.keys(g)) expect(typeProps("GpuType")).toContain(k);
    const dcs = (await invoke("getDataCenters", { compliance: ["GDPR"], include: ["CPU_AVAILABILITY"] })).dataCenters as Record<string, any>[];
    expect(dcs.length).toBeGreaterThan(0);
    expect(dcs.every((d) => d.compliance.includes("GDPR"))).toBe(true);
    expect(dcs.some((d) => d.cpuAvailability?.length > 0)).toBe(true);
    const cpus = (await invoke("getCpuTypes", { product: ["POD"], vcpuCount: 64 })).cpuTypes as Record<string, any>[];
    expect(cpus.filter((c) => c.vcpu.max < 64).every((c) => c.availability === "NONE")).toBe(true);
    await expect(invoke("getGpuTypes", { cloud: "SECURE" })).rejects.toThrow(
      /getGpuTypes: cloud scopes availability, which needs product \(one or more of POD, CLUSTER, SERVERLESS\)/,
    );
    await expect(invoke("getDataCenters", { regions: ["MARS"] })).rejects.toThrow(/regions: "MARS" is not one of NORTH_AMERICA/);
  });

  test("Check names an unnamed resource after its URN and reports bad values by field", async () => {
    const check = (news: Record<string, unknown>) =>
      call<proto.CheckResponse>(
        "check",
        new proto.CheckRequest().setUrn("urn:pulumi:dev::p::runpod:index:Endpoint::api").setName("api").setNews(toStruct(news)),
      );
    const ok = await check({ templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    expect(ok.getFailuresList()).toEqual([]);
    expect(fromStruct(ok.getInputs())).toMatchObject({ name: expect.stringMatching(/^api-[0-9a-f]{7}$/), idleTimeout: 5, workersMax: 3, type: "QB" });
    const bad = await check({ templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMax: -1 });
    expect(bad.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
      ["workersMax", expect.stringMatching(/^workersMax must be an integer at least 0; got -1/)],
    ]);
  });

  test("Create, Read and Delete on the default path (REST v2, no runpod:api set): the endpoint exists, reads back, and is gone", async () => {
    const urn = "urn:pulumi:dev::p::runpod:index:Endpoint::v2api";
    const checked = await call<proto.CheckResponse>(
      "check",
      new proto.CheckRequest()
        .setUrn(urn)
        .setName("v2api")
        .setNews(toStruct({ templateId: "tpl_vllm", gpuIds: ["ADA_24"], dataCenterIds: ["EU-RO-1"], executionTimeoutMs: 120000 })),
    );
    expect(checked.getFailuresList()).toEqual([]);
    emu.resetStats();
    const made = await call<proto.CreateResponse>("create", new proto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()));
    const id = made.getId();
    expect(emu.stats().byOperation).toMatchObject({ createEndpoint: 1 });
    expect(emu.stats().byOperation.saveEndpoint).toBeUndefined();
    expect(fromStruct(made.getProperties())).toMatchObject({ endpointId: id, dataCenterIds: ["EU-RO-1"], gpuIds: ["ADA_24"] });
    const read = await call<proto.ReadResponse>("read", new proto.ReadRequest().setUrn(urn).setId(id).setProperties(made.getProperties()));
    expect(read.getId()).toBe(id);
    expect(fromStruct(read.getInputs())).toMatchObject({ dataCenterIds: ["EU-RO-1"], gpuIds: ["ADA_24"] });
    // A refresh returns exactly the checked inputs (a field the platform defaults when unset, the estimates, the auto-name flag) …
    const checkedInputs = fromStruct(checked.getInputs());
    expect(checkedInputs).toMatchObject({ executionTimeoutMs: 120000, maxHourlyCost: expect.any(Number), __autonamed: true });
    expect(fromStruct(read.getInputs())).toEqual(checkedInputs);
    // … also for state whose outputs predate the recorded keys: the engine's stored inputs give them.
    const { __checked: _checked, ...older } = fromStruct(made.getProperties());
    const readOlder = await call<proto.ReadResponse>(
      "read",
      new proto.ReadRequest().setUrn(urn).setId(id).setProperties(toStruct(older)).setInputs(checked.getInputs()),
    );
    expect(fromStruct(readOlder.getInputs())).toEqual(checkedInputs);
    await call("delete", new proto.DeleteRequest().setUrn(urn).setId(id).setProperties(made.getProperties()));
    expect(emu.endpoints(emu.apiKey).map((e) => e.id)).not.toContain(id);
  }, 60_000);
});
