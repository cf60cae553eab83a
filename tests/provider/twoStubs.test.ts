/**
 * One provider runtime for every stub of a dynamic-provider process (issue #13), through Pulumi's own
 * dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`) driven over gRPC as the engine drives
 * it, against the emulator. The host keeps one provider per distinct serialized provider text and calls
 * `configure` on each the first time it is used. Here two different stubs share one host: the
 * `Endpoint` stub as this version registers it, and the stub an earlier version serialized into
 * existing stacks (`require("pulumi-runpod/provider").endpoint.…`), as during the first `pulumi up`
 * after an upgrade (the old state's stub for deletes and reads, the program's for creates).
 *
 * `configure` runs for each stub, and the create-once guarantee holds across them: the second stub's
 * create, whose answer is lost, adopts the endpoint it made — not the first stub's endpoint of the same
 * name and template — with the process's one "what existed before" listing.
 *
 * Needs dist/ (`npx tsc -p tsconfig.json`; `npm test` builds first).
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { RunningEmulator } from "../../emulator";
import { emulatorConfig, startTestEmulator, uniqueName } from "./harness";

/* eslint-disable @typescript-eslint/no-require-imports */
const grpc = require("@grpc/grpc-js");
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = require("google-protobuf/google/protobuf/struct_pb");
const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure");

const ROOT = path.resolve(__dirname, "../..");
const DIST_PROVIDER = path.join(ROOT, "dist/src/provider/index.js");
const HOST = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js");
const URN = "urn:pulumi:test::proj::pulumi-nodejs:dynamic/runpod:Endpoint::e";
const TEMPLATE_URN = "urn:pulumi:test::proj::pulumi-nodejs:dynamic/runpod:Template::t";

/** The stub earlier versions of the package serialized into every endpoint's state. */
const earlierStub = {
  async configure(req: unknown) {
    return require("pulumi-runpod/provider").configure(req);
  },
  async check(olds: unknown, news: unknown) {
    return require("pulumi-runpod/provider").endpoint.check(olds, news);
  },
  async diff(id: string, olds: unknown, news: unknown) {
    return require("pulumi-runpod/provider").endpoint.diff(id, olds, news);
  },
  async create(inputs: unknown) {
    return require("pulumi-runpod/provider").endpoint.create(inputs);
  },
  async read(id: string, props: unknown) {
    return require("pulumi-runpod/provider").endpoint.read(id, props);
  },
  async update(id: string, olds: unknown, news: unknown) {
    return require("pulumi-runpod/provider").endpoint.update(id, olds, news);
  },
  async delete(id: string, props: unknown) {
    return require("pulumi-runpod/provider").endpoint.delete(id, props);
  },
};

let emu: RunningEmulator;
let host: ChildProcess;
let stderr = "";
let projectDir: string;
let rpc: Record<string, (req: unknown, cb: (err: Error | null, resp: any) => void) => void>;
let current: string;
let templateStub: string;
let earlier: string;

const call = <T = any>(method: string, req: unknown): Promise<T> =>
  new Promise((resolve, reject) => rpc[method](req, (err, resp) => (err ? reject(err) : resolve(resp))));
const struct = (obj: Record<string, unknown>) => structproto.Struct.fromJavaScript(obj);
/** The `configure` calls that reached the package's provider module in the host. */
const configureCalls = () => stderr.split("\n").filter((l) => l === "[pulumi-runpod configure]").length;

beforeAll(async () => {
  if (!fs.existsSync(DIST_PROVIDER)) throw new Error("dist/ is missing: run `npx tsc -p tsconfig.json` first");
  emu = await startTestEmulator();
  const { endpointProviderStub, templateProviderStub } = require(DIST_PROVIDER);
  current = (await serializeFunction(() => endpointProviderStub, { allowSecrets: true })).text;
  templateStub = (await serializeFunction(() => templateProviderStub, { allowSecrets: true })).text;
  earlier = (await serializeFunction(() => earlierStub, { allowSecrets: true })).text;

  projectDir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-stubs-"));
  fs.mkdirSync(path.join(projectDir, "node_modules"));
  fs.symlinkSync(ROOT, path.join(projectDir, "node_modules", "pulumi-runpod"), "dir");
  // Loaded before the host: reports each call of the provider module's `configure` on stderr.
  const preload = path.join(projectDir, "countConfigure.js");
  fs.writeFileSync(
    preload,
    `const m = require(${JSON.stringify(DIST_PROVIDER)}); const configure = m.configure;
     m.configure = (req) => { process.stderr.write("[pulumi-runpod configure]\\n"); return configure(req); };`,
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("RUNPOD_") && !k.startsWith("PULUMI_")));
  host = spawn(process.execPath, ["-r", preload, HOST, "127.0.0.1:1"], { cwd: projectDir, env, stdio: ["ignore", "pipe", "pipe"] });
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

afterAll(async () => {
  (rpc as unknown as { close(): void })?.close();
  if (host?.pid) process.kill(host.pid);
  fs.rmSync(projectDir, { recursive: true, force: true });
  await emu?.close();
});

async function check(provider: string, news: Record<string, unknown>, urn = URN): Promise<Record<string, unknown>> {
  const req = new provproto.CheckRequest();
  req.setUrn(urn);
  req.setOlds(struct({}));
  req.setNews(struct({ ...news, __provider: provider }));
  const resp = await call("check", req);
  expect(resp.getFailuresList()).toEqual([]);
  return resp.getInputs().toJavaScript();
}

async function create(provider: string, news: Record<string, unknown>, urn = URN): Promise<{ id: string; outs: Record<string, unknown> }> {
  const req = new provproto.CreateRequest();
  req.setUrn(urn);
  req.setProperties(struct(await check(provider, news, urn)));
  const resp = await call("create", req);
  return { id: resp.getId(), outs: resp.getProperties().toJavaScript() };
}

describe("two stubs in one dynamic provider host", () => {
  it("are different texts, both small and secret-free", () => {
    expect(new Set([current, templateStub, earlier]).size).toBe(3);
    for (const text of [current, templateStub, earlier]) {
      expect(text.length).toBeLessThan(4096);
      expect(text).not.toContain(emu.apiKey);
    }
  });

  it("configure runs for each; creates through both keep the create-once guarantee with one pre-create listing", async () => {
    const name = uniqueName("twin");
    const args = { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] };
    emu.resetStats();

    // check's templateId lookup (one listing), the pre-create listing, the create.
    const first = await create(current, args);
    expect(configureCalls()).toBe(1);
    // ... and the one catalog read of check's review (docs/cost.md).
    expect(emu.stats().byOperation).toEqual({ myself: 2, saveEndpoint: 1, listGpuTypes: 1, listCpuTypes: 1, listDataCenters: 1 });

    // The Template stub's first use: the host configures its provider too, in the same process.
    const template = await create(templateStub, { name: uniqueName("twin-tpl"), imageName: "acme/w:1" }, TEMPLATE_URN);
    expect(configureCalls()).toBe(2);
    expect(emu.templates("user_1").find((t) => t.id === template.id)).toMatchObject({ imageName: "acme/w:1", isServerless: true });

    emu.resetStats();
    emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
    const second = await create(current, args);
    emu.setFaults({});

    const twins = emu.endpoints(emu.apiKey).filter((e) => e.name === name);
    expect(twins.map((e) => e.id).sort()).toEqual([first.id, second.id].sort());
    expect(second.id).not.toBe(first.id);
    expect(second.outs).toMatchObject({ endpointId: second.id, jobUrl: `${emu.urls.inference}/v2/${second.id}/` });
    // The template listing (the Template create made the shared one stale) and the listing that settled
    // the lost answer; no new "what existed before" listing: the bookkeeping survived the second configure.
    expect(emu.stats().byOperation).toEqual({ myself: 2, saveEndpoint: 1 });
    expect(emu.stats().faultsByKind.dropAfter).toBe(1);
  });

  it("a resource created through one stub is read and deleted through the other", async () => {
    const made = await create(earlier, { name: uniqueName("cross"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    const read = new provproto.ReadRequest();
    read.setId(made.id);
    read.setUrn(URN);
    read.setProperties(struct({ ...made.outs, __provider: current }));
    expect((await call("read", read)).getId()).toBe(made.id);
    const del = new provproto.DeleteRequest();
    del.setId(made.id);
    del.setUrn(URN);
    del.setProperties(struct({ ...made.outs, __provider: current }));
    await call("delete", del);
    expect(emu.endpoints(emu.apiKey).find((e) => e.id === made.id)).toBeUndefined();
    expect(configureCalls()).toBe(3);
  });
});
