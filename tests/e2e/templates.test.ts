/**
 * End to end through the real Pulumi CLI (issue #14): registry credentials → template → endpoint, on
 * one stack whose life the tests walk in order (each builds on the state the previous one left). The
 * program (tests/e2e/templatesFixture/index.js) declares what the stack config holds. The emulator is
 * the witness. Needs `npm run setup` (Pulumi CLI) and a build (dist/).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClientFromEnv, type PlatformClient } from "../../src/api";
import { LocalStack, copyProgram, tempDir, upPhases, type RunOptions } from "../../scripts/exampleStack";
import type { RunPulumiResult } from "../../scripts/pulumiCli";

jest.setTimeout(300_000);

const FIXTURE = path.join(__dirname, "templatesFixture");
const TEMPLATE_TYPE = "pulumi-nodejs:dynamic/runpod:Template";
const REGISTRY_TYPE = "pulumi-nodejs:dynamic/runpod:ContainerRegistryAuth";
const ENV_SECRET = "hf_e2e-env-secret-3141592653";
const ENV_SECRET_2 = "hf_e2e-env-secret-2718281828";
const PLAIN_ENV_VALUE = "plain-env-value-1618033";
const PASSWORD = "ghp_e2e-registry-password-42";

let emu: RunningEmulator;
let client: PlatformClient;
let work: string;
let stack: LocalStack;
const transcript: string[] = [];

type Spec = Record<string, unknown>;
interface Declared {
  registries: Record<string, Spec>;
  templates: Record<string, Spec>;
  endpoints: Record<string, Spec>;
}
let declared: Declared;

const REGISTRY: Spec = { name: "e2e-ghcr", username: "deploy-bot" };
const TEMPLATE: Spec = {
  name: "e2e-llm",
  imageName: "ghcr.io/acme/llm-worker:1.4.3",
  containerDiskInGb: 20,
  ports: ["8000/http"],
  env: { MODEL: PLAIN_ENV_VALUE },
  secretEnv: ["HF_TOKEN"],
  registry: "ghcr",
};
const ENDPOINT: Spec = { name: "e2e-llm-ep", template: "llm", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 3 };

async function declare(next: Declared): Promise<void> {
  declared = next;
  await stack.setConfigs(Object.fromEntries((["registries", "templates", "endpoints"] as const).map((key) => [key, JSON.stringify(next[key])])));
}

async function pulumi(args: string[], options: RunOptions = {}): Promise<RunPulumiResult> {
  const r = await stack.run(args, options);
  transcript.push(r.stdout, r.stderr);
  return r;
}

async function pulumiFails(args: string[]): Promise<RunPulumiResult> {
  const r = await stack.run(args, { expectFailure: true });
  transcript.push(r.stdout, r.stderr);
  return r;
}

const userTemplates = () => emu.templates("user_1").filter((t) => t.name.startsWith("e2e-"));
const mutations = () => {
  const ops = emu.stats().byOperation;
  const names = [
    "saveTemplate",
    "deleteTemplate",
    "saveRegistryAuth",
    "updateRegistryAuth",
    "deleteRegistryAuth",
    "saveEndpoint",
    "deleteEndpoint",
    "updateEndpointTemplate",
  ];
  return Object.fromEntries(names.filter((n) => ops[n]).map((n) => [n, ops[n]]));
};
const outputs = async () => (await stack.outputs()) as Record<string, { id: string; templateId?: string; name?: string; imageName?: string }>;

async function eventually<T>(check: () => Promise<T | undefined>, limitMs = 20_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  client = createClientFromEnv(
    { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
    {},
  );
  work = tempDir("pulumi-runpod-e2e-tpl-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs, but where a step reads the
  // plan off the up's own preview.
  stack = await LocalStack.create({ programDir, stackName: "e2e-tpl", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  await stack.setConfig("runpod:api", "graphql"); // the counts name the GraphQL path's mutations (saveTemplate, saveEndpoint, deleteTemplate)
  await stack.setConfig("registryPassword", PASSWORD, { secret: true });
  await stack.setConfig("envSecret", ENV_SECRET, { secret: true });
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("bad template inputs fail at preview, naming each field and its range, with nothing created", async () => {
  await declare({
    registries: { ghcr: REGISTRY },
    templates: { llm: { ...TEMPLATE, containerDiskInGb: 5000, ports: ["99999/udp"], env: { "1BAD": "x" } } },
    endpoints: {},
  });
  emu.resetStats();
  const r = await pulumiFails(["preview"]);
  const out = r.stdout + r.stderr;
  expect(out).toMatch(/containerDiskInGb must be an integer number of GB from 1 to 1024 on API path graphql \(runpod:api\); got 5000/);
  expect(out).toMatch(/ports must be a list of distinct ports as `port\/protocol`/);
  expect(out).toMatch(/env must be a map of environment variable names/);
  expect(mutations()).toEqual({});
  expect(userTemplates()).toEqual([]);
  expect(emu.registryAuths("user_1")).toEqual([]);
});

test("up creates registry credentials → template → endpoint, wired by id", async () => {
  await declare({ registries: { ghcr: REGISTRY }, templates: { llm: TEMPLATE }, endpoints: { llm: ENDPOINT } });
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+ 4 created/);
  const out = await outputs();
  const auth = emu.registryAuths("user_1").find((a) => a.id === out.reg_ghcr.id)!;
  expect(auth).toMatchObject({ name: "e2e-ghcr", username: "deploy-bot" });
  expect(emu.registryAuthPasswordMatches(auth.id, PASSWORD)).toBe(true);
  const [template] = await stack.resources(TEMPLATE_TYPE);
  expect(out.tpl_llm).toEqual({ id: template.id, name: "e2e-llm", imageName: "ghcr.io/acme/llm-worker:1.4.3" });
  const t = userTemplates().find((x) => x.id === template.id)!;
  expect(t).toMatchObject({
    name: "e2e-llm",
    imageName: "ghcr.io/acme/llm-worker:1.4.3",
    containerDiskInGb: 20,
    ports: "8000/http",
    isServerless: true,
    containerRegistryAuthId: auth.id,
    templateVersion: 1,
  });
  expect(t.env).toEqual(
    expect.arrayContaining([
      { key: "MODEL", value: PLAIN_ENV_VALUE },
      { key: "HF_TOKEN", value: ENV_SECRET },
    ]),
  );
  expect(out.ep_llm.templateId).toBe(template.id);
  expect(emu.endpoints().find((e) => e.id === out.ep_llm.id)).toMatchObject({ templateId: template.id, workersMin: 1 });
});

test("a second up changes nothing and sends no mutation", async () => {
  emu.resetStats();
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/4 unchanged/);
  expect(mutations()).toEqual({});
});

test("the env and the password are absent from plain `pulumi stack export`, and stored as secrets", async () => {
  const plain = await stack.exportText();
  for (const secret of [ENV_SECRET, PASSWORD]) expect({ secret, leaks: plain.includes(secret) }).toEqual({ secret, leaks: false });
  // A value the program took from plain stack config is in that config (the engine keeps it with the
  // provider's configuration), but in no resource: the Template stores each env value as a secret.
  const resources = (JSON.parse(plain) as { deployment: { resources: { type: string }[] } }).deployment.resources;
  const holders = resources.filter((r) => JSON.stringify(r).includes(PLAIN_ENV_VALUE)).map((r) => r.type);
  expect(holders).toEqual(["pulumi:providers:pulumi-nodejs"]);
  const [template] = await stack.resources(TEMPLATE_TYPE);
  expect(JSON.stringify(template.outputs!.env)).toContain("4dabf18193072939515e22adb298388d"); // Pulumi's secret signature
  expect(JSON.stringify(template.inputs!.env)).not.toContain(PLAIN_ENV_VALUE);
  const [registry] = await stack.resources(REGISTRY_TYPE);
  expect(JSON.stringify(registry.outputs!.password)).toContain("4dabf18193072939515e22adb298388d");
  const shown = await stack.exportText({ showSecrets: true });
  expect(shown).toContain(ENV_SECRET); // really in the state, encrypted
});

test("the preview (--diff) of an env change shows the update with the env names, never a value; -v=8 logs of the up carry no secret", async () => {
  await stack.setConfig("envSecret", ENV_SECRET_2, { secret: true });
  const flags = ["--verbose=8", "--logtostderr", "--logflow", "--debug"];
  // With its preview, whose plan comes first in the output: the scan covers the verbose logs of both phases of the up.
  const up = await pulumi(["up", "--yes", "--diff", ...flags], { preview: true });
  const [preview] = upPhases(up.stdout);
  expect(preview).toMatch(/~ pulumi-nodejs:dynamic\/runpod:Template: \(update\)/);
  expect(preview).toMatch(/HF_TOKEN: \[secret\]/);
  expect(preview).toMatch(/MODEL\s*: \[secret\]/);
  expect(preview).toMatch(/~ 1 to update/);
  const everything = up.stdout + up.stderr;
  expect((up.stdout + up.stderr).split("\n").length).toBeGreaterThan(1000); // the logs really are verbose
  expect(up.stdout + up.stderr).toMatch(/updated/);
  for (const secret of [ENV_SECRET, ENV_SECRET_2, PASSWORD]) expect({ secret, leaks: everything.includes(secret) }).toEqual({ secret, leaks: false });
  const [template] = await stack.resources(TEMPLATE_TYPE);
  expect(userTemplates().find((t) => t.id === template.id)!.env).toContainEqual({ key: "HF_TOKEN", value: ENV_SECRET_2 });
});

test("an image rollout updates the template in place; the endpoint keeps its id and its workers end on the new image", async () => {
  const before = await outputs();
  const [template] = await stack.resources(TEMPLATE_TYPE);
  await declare({ ...declared, templates: { llm: { ...TEMPLATE, imageName: "ghcr.io/acme/llm-worker:1.4.4" } } });
  emu.resetStats();
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/~ 1 updated/);
  expect(mutations()).toEqual({ saveTemplate: 1 });
  const [after] = await stack.resources(TEMPLATE_TYPE);
  expect(after.id).toBe(template.id);
  expect((await outputs()).ep_llm.id).toBe(before.ep_llm.id);
  const t = userTemplates().find((x) => x.id === template.id)!;
  expect(t.imageName).toBe("ghcr.io/acme/llm-worker:1.4.4");
  const workers = await eventually(async () => {
    const ws = await client.listWorkers(before.ep_llm.id);
    // REST v2 Worker: `image`, and IDLE/RUNNING once ready.
    return ws.length > 0 &&
      ws.every((w) => (w as { image?: string }).image === "ghcr.io/acme/llm-worker:1.4.4" && (w.status === "IDLE" || w.status === "RUNNING"))
      ? ws
      : undefined;
  });
  expect(workers.length).toBeGreaterThanOrEqual(1);
});

test("drift on a template made outside Pulumi is caught by refresh and reverted by up", async () => {
  const [template] = await stack.resources(TEMPLATE_TYPE);
  const t = userTemplates().find((x) => x.id === template.id)!;
  await client.saveTemplate({
    id: t.id,
    name: t.name,
    imageName: t.imageName,
    containerDiskInGb: 99,
    ports: t.ports ?? "",
    env: t.env,
    containerRegistryAuthId: t.containerRegistryAuthId,
    // Carried as stored, so the outside edit changes the disk alone under either save semantics.
    startSsh: t.startSsh,
    isServerless: true,
  });
  const refresh = await pulumi(["refresh", "--yes"]);
  expect(refresh.stdout).toMatch(/~ 1 updated/);
  // The update's diff shows the drift the refresh recorded, going back to the declared value.
  const up = await pulumi(["up", "--yes", "--diff"]);
  expect(up.stdout).toMatch(/containerDiskInGb\s*:\s*99\s*=>\s*20/);
  expect(userTemplates().find((x) => x.id === template.id)!.containerDiskInGb).toBe(20);
});

test("renaming the template replaces it: the new one first, the endpoint moves in place, the old one deleted last", async () => {
  const before = await outputs();
  const [old] = await stack.resources(TEMPLATE_TYPE);
  await declare({ ...declared, templates: { llm: { ...(declared.templates.llm as Spec), name: "e2e-llm-v2" } } });
  emu.resetStats();
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+-\s*1 replaced/);
  expect(r.stdout).toMatch(/~ 1 updated/);
  const [now] = await stack.resources(TEMPLATE_TYPE);
  expect(now.id).not.toBe(old.id);
  expect((await outputs()).ep_llm.id).toBe(before.ep_llm.id); // the endpoint was updated, not replaced
  expect(emu.endpoints().find((e) => e.id === before.ep_llm.id)!.templateId).toBe(now.id);
  expect(userTemplates().map((t) => t.id)).toEqual([now.id]);
  // One delete, never refused: the endpoint had moved to the new template before it.
  expect(mutations()).toMatchObject({ saveTemplate: 1, saveEndpoint: 1, deleteTemplate: 1 });
});

test("renaming the registry credentials with a new password: new ones first, the template moves in place, the old ones deleted", async () => {
  const [oldAuth] = await stack.resources(REGISTRY_TYPE);
  const [template] = await stack.resources(TEMPLATE_TYPE);
  await stack.setConfig("registryPassword", `${PASSWORD}-rotated`, { secret: true });
  await declare({ ...declared, registries: { ghcr: { ...REGISTRY, name: "e2e-ghcr-2" } } });
  emu.resetStats();
  const r = await pulumi(["up", "--yes"]);
  expect(r.stdout).toMatch(/\+-\s*1 replaced/);
  const [newAuth] = await stack.resources(REGISTRY_TYPE);
  expect(newAuth.id).not.toBe(oldAuth.id);
  expect(emu.registryAuths("user_1").map((a) => a.id)).toEqual([newAuth.id]);
  expect(emu.registryAuthPasswordMatches(newAuth.id!, `${PASSWORD}-rotated`)).toBe(true);
  expect(userTemplates().find((t) => t.id === template.id)!.containerRegistryAuthId).toBe(newAuth.id);
  expect(mutations()).toMatchObject({ saveRegistryAuth: 1, saveTemplate: 1, deleteRegistryAuth: 1 });
  expect(await stack.exportText()).not.toContain(`${PASSWORD}-rotated`);
  expect(await stack.exportText({ showSecrets: true })).toContain(`${PASSWORD}-rotated`);
});

test("destroy deletes endpoint, template and registry credentials in dependency order and leaves nothing", async () => {
  emu.resetStats();
  const r = await pulumi(["destroy", "--yes"]);
  expect(r.stdout).toMatch(/- 4 deleted/);
  expect(emu.endpoints()).toEqual([]);
  expect(userTemplates()).toEqual([]);
  expect(emu.registryAuths("user_1")).toEqual([]);
  expect(mutations()).toMatchObject({ deleteTemplate: 1, deleteRegistryAuth: 1 });
  expect(await stack.resources()).toEqual([]);
});

test("no CLI output of this file contains an env value or the password", () => {
  expect(transcript.length).toBeGreaterThan(10);
  const all = transcript.join("\n");
  for (const secret of [ENV_SECRET, ENV_SECRET_2, PASSWORD]) expect({ secret, leaks: all.includes(secret) }).toEqual({ secret, leaks: false });
});
