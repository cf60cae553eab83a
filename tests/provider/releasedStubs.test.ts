/**
 * The serialized-stub contract (README › Reference; src/provider/index.ts): every stack written by a
 * released version holds that version's stub text in each resource's state, and the dynamic provider
 * host runs it against whatever package version is installed. The texts below are 0.1.0's, kept
 * byte for byte; each must still drive the current provider module (`configure`, then
 * `resources.<kind>` check / create / read / delete) against the emulator.
 *
 * Needs dist/ (`npx tsc -p tsconfig.json`): the stubs `require("pulumi-runpod/provider")`, which
 * resolves to dist/ through package.json `exports`, as in a user's project.
 */
import * as fs from "fs";
import Module from "module";
import * as path from "path";
import type { RunningEmulator } from "../../emulator";
import { emulatorConfig, startTestEmulator, uniqueName } from "./harness";

const ROOT = path.resolve(__dirname, "../..");
const FIXTURES = path.join(__dirname, "fixtures", "stubs-0.1.0");

type Stub = {
  configure(req: unknown): Promise<void>;
  check(olds: unknown, news: unknown): Promise<{ inputs: Record<string, unknown>; failures?: unknown[] }>;
  create(inputs: unknown): Promise<{ id: string; outs: Record<string, unknown> }>;
  read(id: string, props: unknown): Promise<{ id?: string; props?: Record<string, unknown> }>;
  delete(id: string, props: unknown): Promise<void>;
};

/** Loads a stub text as the dynamic provider host does (a module exporting `handler`), from the package's directory. */
function loadStub(kind: string): Stub {
  const text = fs.readFileSync(path.join(FIXTURES, `${kind}.txt`), "utf8");
  const filename = path.join(ROOT, `released-stub-${kind}.js`);
  const m = new Module(filename) as Module & { _compile(code: string, file: string): void; paths: string[] };
  m.filename = filename;
  m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(ROOT);
  m._compile(text, filename);
  return (m.exports as { handler: () => Stub }).handler();
}

let emu: RunningEmulator;
let config: Record<string, string>;
beforeAll(async () => {
  if (!fs.existsSync(path.join(ROOT, "dist", "src", "provider", "index.js"))) throw new Error("dist/ is missing: run `npx tsc -p tsconfig.json` first");
  emu = await startTestEmulator();
  config = emulatorConfig(emu);
});
afterAll(() => emu?.close());

const configured = async (kind: string) => {
  const stub = loadStub(kind);
  await stub.configure({ config: { get: (key: string) => config[key] } });
  return stub;
};

test("the fixtures are 0.1.0's stubs: tiny, one kind each, calling only configure and resources.<kind>", () => {
  for (const kind of ["endpoint", "template", "registryAuth"]) {
    const text = fs.readFileSync(path.join(FIXTURES, `${kind}.txt`), "utf8");
    expect(text.length).toBeLessThan(4096);
    expect(text).toContain(`with({ kind: "${kind}",`);
    const calls = [...text.matchAll(/require\("pulumi-runpod\/provider"\)\.([\w.[\]]+)\(/g)].map((m) => m[1]);
    expect(new Set(calls)).toEqual(new Set(["configure", ...["check", "diff", "create", "read", "update", "delete"].map((op) => `resources[kind].${op}`)]));
  }
});

test("0.1.0's endpoint stub: check, create, read and delete an endpoint with the current provider", async () => {
  const stub = await configured("endpoint");
  const { inputs, failures } = await stub.check({}, { name: uniqueName("stub010"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMax: 1 });
  expect(failures ?? []).toEqual([]);
  const { id, outs } = await stub.create(inputs);
  expect(emu.endpoints().some((e) => e.id === id)).toBe(true);
  expect((await stub.read(id, outs)).props).toMatchObject({ name: inputs.name, workersMax: 1 });
  await stub.delete(id, outs);
  expect(emu.endpoints().some((e) => e.id === id)).toBe(false);
});

test("0.1.0's template and registry-credentials stubs: check, create and delete with the current provider", async () => {
  const auths = await configured("registryAuth");
  const auth = await auths.create((await auths.check({}, { name: uniqueName("stub010-reg"), username: "u", password: "p4ss" })).inputs);
  const templates = await configured("template");
  const checked = await templates.check({}, { name: uniqueName("stub010-tpl"), imageName: "ghcr.io/acme/w:1", containerRegistryAuthId: auth.id });
  expect(checked.failures ?? []).toEqual([]);
  const tpl = await templates.create(checked.inputs);
  expect(emu.templates("user_1").some((t) => t.id === tpl.id)).toBe(true);
  await templates.delete(tpl.id, tpl.outs);
  await auths.delete(auth.id, auth.outs);
  expect(emu.templates("user_1").some((t) => t.id === tpl.id)).toBe(false);
  expect(emu.registryAuths("user_1").some((a) => a.id === auth.id)).toBe(false);
});
