/**
 * The shipped package as the engine runs it (issue #4 "Serialization"): an `Endpoint` registered by a
 * program is serialized by @pulumi/pulumi's own closure serialization; that text is then executed by
 * Pulumi's real dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`, the process the engine
 * starts), driven over gRPC like the engine does, against the emulator. No hand-built provider object.
 *
 * Needs dist/ (`npx tsc -p tsconfig.json`; `npm test` builds first).
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator";
import { emulatorClient, emulatorConfig, startTestEmulator } from "./harness";

/* eslint-disable @typescript-eslint/no-require-imports */
const grpc = require("@grpc/grpc-js");
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = require("google-protobuf/google/protobuf/struct_pb");

const ROOT = path.resolve(__dirname, "../..");
const DIST_INDEX = path.join(ROOT, "dist/src/index.js");
const HOST = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js");
const URN = "urn:pulumi:test::proj::pulumi-nodejs:dynamic/runpod:Endpoint::e";
/** Upper bound for the serialized provider: it is a stub of seven one-line methods. */
const MAX_PROVIDER_BYTES = 4096;

let emu: RunningEmulator;
/** What the program registered: inputs including `__provider`, serialized by Pulumi. */
let registered: Record<string, unknown>;

beforeAll(async () => {
  if (!fs.existsSync(DIST_INDEX)) throw new Error("dist/ is missing: run `npx tsc -p tsconfig.json` first");
  emu = await startTestEmulator();

  // The program side, with the key present in config and environment the way a user would have it.
  process.env.RUNPOD_API_KEY = emu.apiKey;
  pulumi.runtime.setConfig("runpod:apiKey", emu.apiKey);
  const seen = new Promise<Record<string, unknown>>((resolve) => {
    void pulumi.runtime.setMocks(
      {
        newResource: async (args: pulumi.runtime.MockResourceArgs) => {
          resolve(args.inputs);
          return { id: "mock-id", state: args.inputs };
        },
        call: async (args: pulumi.runtime.MockCallArgs) => args.inputs,
      },
      "proj",
      "test",
      false,
    );
  });
  const { Endpoint } = require(DIST_INDEX);
  new Endpoint("e", { name: "serialized-ep", templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 1 });
  registered = await seen;
  delete process.env.RUNPOD_API_KEY;
});

afterAll(async () => {
  await emu?.close();
});

describe("the serialized provider", () => {
  it("is what Pulumi registers, small, and holds no key", () => {
    const text = registered.__provider;
    expect(typeof text).toBe("string");
    expect((text as string).length).toBeLessThan(MAX_PROVIDER_BYTES);
    expect(text).toContain('require("pulumi-runpod/provider")');
    expect(text).not.toContain(emu.apiKey);
    expect(JSON.stringify(registered)).not.toContain(emu.apiKey);
  });

  it("captures no code or configuration of the package (only the stub's methods)", () => {
    const text = registered.__provider as string;
    expect(text).not.toMatch(/EndpointProvider|createClient|graphql|zod/i);
    expect(text).not.toContain(emu.urls.graphql);
  });
});

describe("Pulumi's dynamic provider host running the serialized provider", () => {
  let host: ChildProcess;
  let rpc: Record<string, (req: unknown, cb: (err: Error | null, resp: any) => void) => void>;
  let projectDir: string;

  const call = <T = any>(method: string, req: unknown): Promise<T> =>
    new Promise((resolve, reject) => rpc[method](req, (err, resp) => (err ? reject(err) : resolve(resp))));
  const struct = (obj: Record<string, unknown>) => structproto.Struct.fromJavaScript(obj);

  beforeAll(async () => {
    // A Pulumi project directory with the package installed, as in a user's program.
    projectDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-host-"));
    fs.mkdirSync(path.join(projectDir, "node_modules"));
    fs.symlinkSync(ROOT, path.join(projectDir, "node_modules", "pulumi-runpod"), "dir");

    // The key reaches the host only through Configure, never through its environment.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("RUNPOD_") && !k.startsWith("PULUMI_")));
    host = spawn(process.execPath, [HOST, "127.0.0.1:1"], { cwd: projectDir, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    host.stderr!.on("data", (d) => (stderr += d));
    const port = await new Promise<string>((resolve, reject) => {
      host.stdout!.once("data", (d) => resolve(String(d).trim()));
      host.once("exit", (code) => reject(new Error(`dynamic provider host exited (${code}): ${stderr}`)));
    });
    rpc = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

    const configure = new provproto.ConfigureRequest();
    configure.setArgs(struct({ ...emulatorConfig(emu), "runpod:api": "graphql" }));
    await call("configure", configure);
  });

  afterAll(() => {
    (rpc as unknown as { close(): void })?.close();
    if (host?.pid) process.kill(host.pid);
    fs.rmSync(projectDir, { recursive: true, force: true });
  });

  async function check(news: Record<string, unknown>) {
    const req = new provproto.CheckRequest();
    req.setUrn(URN);
    req.setOlds(struct({}));
    req.setNews(struct({ ...news, __provider: registered.__provider }));
    const resp = await call("check", req);
    return {
      inputs: resp.getInputs().toJavaScript() as Record<string, unknown>,
      failures: resp.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  it("check reports bad inputs at preview, one failure per field", async () => {
    const { failures } = await check({ name: "x", templateId: "tpl_vllm", gpuIds: ["NOPE"], workersMin: -1 });
    expect(failures.map((f: { property: string }) => f.property).sort()).toEqual(["gpuIds", "workersMin"]);
  });

  it("check skips values unknown during preview", async () => {
    const { failures, inputs } = await check({
      name: "x",
      templateId: pulumi.runtime.unknownValue,
      gpuIds: ["ADA_24"],
      workersMin: pulumi.runtime.unknownValue,
    });
    expect(failures).toEqual([]);
    expect(inputs.templateId).toBe(pulumi.runtime.unknownValue);
  });

  // For a read resource the engine hands the program's registered properties over as the read's state
  // (`properties`), with no stored outputs and no inputs — as Pulumi 3.259's ReadStep does.
  it("Endpoint.get: a read carrying only the program's properties (no stored outputs) finds the endpoint", async () => {
    const rec = await emulatorClient(emu).saveEndpoint({ name: "got-by-id", templateId: "tpl_comfy", gpuIds: "AMPERE_16" });
    const read = new provproto.ReadRequest();
    read.setId(rec.id);
    read.setUrn(URN);
    read.setProperties(struct({ __provider: registered.__provider }));
    const resp = await call("read", read);
    expect(resp.getId()).toBe(rec.id);
    expect(resp.getProperties().toJavaScript()).toMatchObject({ endpointId: rec.id, name: "got-by-id", gpuIds: ["AMPERE_16"] });
    expect(resp.getInputs().toJavaScript()).toMatchObject({ name: "got-by-id", templateId: "tpl_comfy", gpuIds: ["AMPERE_16"] });
  });

  it("create → read → diff → update → delete, configured only through Configure", async () => {
    const registeredArgs = Object.fromEntries(Object.entries(registered).filter(([k]) => k !== "__provider"));
    const checked = await check(registeredArgs);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.__provider).toBe(registered.__provider);

    const create = new provproto.CreateRequest();
    create.setUrn(URN);
    create.setProperties(struct(checked.inputs));
    const created = await call("create", create);
    const id: string = created.getId();
    const outs = created.getProperties().toJavaScript();
    expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toMatchObject({ name: "serialized-ep", workersMin: 1 });
    expect(outs).toMatchObject({ endpointId: id, jobUrl: `${emu.urls.inference}/v2/${id}/` });
    expect(JSON.stringify(outs)).not.toContain(emu.apiKey);

    const read = new provproto.ReadRequest();
    read.setId(id);
    read.setUrn(URN);
    read.setProperties(struct(outs));
    const readResp = await call("read", read);
    expect(readResp.getId()).toBe(id);
    const refreshed = readResp.getProperties().toJavaScript();
    expect(refreshed).toEqual(outs);

    const diff = new provproto.DiffRequest();
    diff.setId(id);
    diff.setUrn(URN);
    diff.setOlds(struct(refreshed));
    diff.setNews(struct({ ...checked.inputs, workersMax: 7 }));
    const diffResp = await call("diff", diff);
    expect(diffResp.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(diffResp.getReplacesList()).toEqual([]);

    const update = new provproto.UpdateRequest();
    update.setId(id);
    update.setUrn(URN);
    update.setOlds(struct(refreshed));
    update.setNews(struct({ ...checked.inputs, workersMax: 7 }));
    const updated = (await call("update", update)).getProperties().toJavaScript();
    expect(updated).toMatchObject({ workersMax: 7 });
    expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toMatchObject({ workersMax: 7 });

    const del = new provproto.DeleteRequest();
    del.setId(id);
    del.setUrn(URN);
    del.setProperties(struct(updated));
    await call("delete", del);
    expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toBeUndefined();
  });
});
