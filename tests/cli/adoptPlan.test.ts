/**
 * `adopt`'s plan (src/cli/adopt/plan.ts) and program text (emit/typescript.ts) against the emulator: an
 * account made through REST v2 alone, listed through REST v2; what is held is left out, `--kinds` and
 * `--name` narrow, references are references, secrets go to config, names are valid and unique, and an
 * object the model cannot express is refused naming it.
 */
import { emitPython } from "../../src/cli/adopt/emit/python";
import { emitNode } from "../../src/cli/adopt/emit/typescript";
import { emitYaml } from "../../src/cli/adopt/emit/yaml";
import { camelName, uniqueNames } from "../../src/cli/adopt/names";
import { ADOPT_KINDS, heldKey, leftOutOf, listAccount, parseKinds, planAdoption, type AdoptedObject } from "../../src/cli/adopt/plan";
import { startHarness, type Harness } from "./harness";

const SECRET = "tok-plan-9f8e7d-never-in-text";

let h: Harness;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  const v2 = h.client.v2;
  ids.registry = (await v2.createRegistry({ name: "ghcr-bot", username: "bot", password: "pw-plan-1" })).id;
  ids.volume = (await v2.createNetworkVolume({ name: "model-cache", size: 50, dataCenter: "EU-RO-1" })).id;
  ids.template = (
    await v2.createTemplate({
      name: "llm-worker",
      image: "ghcr.io/acme/llm:1.2",
      serverless: true,
      disk: 20,
      env: { HF_TOKEN: SECRET },
      registry: ids.registry,
      startSsh: false,
      startJupyter: false,
    } as never)
  ).id;
  ids.endpoint = (
    await v2.createEndpoint({
      name: "llm-api",
      type: "QUEUE",
      templateId: ids.template,
      gpu: { pools: ["ADA_24"] },
      workers: { min: 0, max: 2, idleTimeout: 10 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      networkVolumes: [ids.volume],
    })
  ).id;
  ids.pod = (
    await v2.createPod({
      name: "notebook",
      image: "runpod/pytorch:2.4.0",
      gpu: { id: "NVIDIA GeForce RTX 4090" },
      mounts: { network: [{ volumeId: ids.volume, path: "/workspace" }] },
    })
  ).id;
});
afterAll(async () => {
  await h.close();
});

const plan = async (opts: Partial<Parameters<typeof planAdoption>[1]> = {}) =>
  planAdoption(await listAccount(h.client), { kinds: [...ADOPT_KINDS], held: new Set(), takenNames: new Set(), api: "v2", ...opts });
const byName = (objects: AdoptedObject[], name: string) => objects.find((o) => o.platformName === name)!;
const args = (o: AdoptedObject) => Object.fromEntries(o.args);

test("every kind, referenced objects first; references are references, env goes to a config secret", async () => {
  // The emulator's account holds seeded objects too: --name keeps to the ones made here.
  const objects = await plan({ name: /^(ghcr-bot|model-cache|llm-worker|llm-api|notebook)$/ });
  expect(objects.map((o) => [o.kind, o.resourceName])).toEqual([
    ["registryAuth", "ghcrBot"],
    ["networkVolume", "modelCache"],
    ["template", "llmWorker"],
    ["endpoint", "llmApi"],
    ["pod", "notebook"],
  ]);
  const template = byName(objects, "llm-worker");
  expect(args(template)).toMatchObject({
    name: { literal: "llm-worker" },
    imageName: { literal: "ghcr.io/acme/llm:1.2" },
    containerDiskInGb: { literal: 20 },
    containerRegistryAuthId: { ref: "ghcrBot" },
    env: { config: "llmWorkerEnv", secret: true, object: true },
  });
  expect(template.config).toEqual([{ key: "llmWorkerEnv", value: { HF_TOKEN: SECRET }, secret: true }]);
  // The endpoint's template found from the copy it runs (REST v2 keeps no link), carried into the state.
  const endpoint = byName(objects, "llm-api");
  expect(args(endpoint)).toMatchObject({ templateId: { ref: "llmWorker" }, networkVolumeId: { ref: "modelCache" }, gpuIds: { literal: ["ADA_24"] } });
  expect(endpoint.carried).toEqual({ templateId: ids.template });
  // Its container is the template's: none of its fields written (the template's env stays the template's secret).
  expect(args(endpoint)).not.toHaveProperty("imageName");
  expect(args(endpoint)).not.toHaveProperty("env");
  expect(args(byName(objects, "notebook"))).toMatchObject({ networkVolumeId: { ref: "modelCache" }, gpuTypeIds: { literal: ["NVIDIA GeForce RTX 4090"] } });
  // Credentials: read from config, placeholders carried (secret) until the user sets them.
  const registry = byName(objects, "ghcr-bot");
  expect(args(registry)).toMatchObject({ username: { config: "ghcrBotUsername", secret: false }, password: { config: "ghcrBotPassword", secret: true } });
  expect(registry.carriedSecrets).toEqual(["password"]);

  const text = emitNode(objects, true);
  expect(text).not.toContain(SECRET);
  expect(text).toContain("templateId: llmWorker.id,");
  expect(text).toContain('env: config.requireSecretObject<Record<string, string>>("llmWorkerEnv"),');
  expect(emitNode(objects, false)).toContain("module.exports = { ghcrBot, modelCache, llmWorker, llmApi, notebook };");
  const python = emitPython(objects);
  expect(python).not.toContain(SECRET);
  expect(python).toContain('llm_api = runpod.Endpoint(\n    "llmApi",\n    name="llm-api",\n    template_id=llm_worker.id,\n');
  expect(python).toContain('    env=config.require_secret_object("llmWorkerEnv"),\n');
  const yaml = emitYaml(objects);
  expect(yaml).not.toContain(SECRET);
  expect(yaml).toContain("  llmApi:\n    type: runpod:index:Endpoint\n    properties:\n      name: llm-api\n      templateId: ${llmWorker.id}\n");
  expect(yaml).toContain("      env:\n        HF_TOKEN: ${llmWorkerEnvHF_TOKEN}\n");
  expect(yaml).toContain("  llmWorkerEnvHF_TOKEN:\n    type: string\n    secret: true\n");
});

test("held objects, --kinds and --name narrow the list; a reference to an object not adopted is its id", async () => {
  const objects = await plan({ held: new Set([heldKey("template", ids.template)]), kinds: parseKinds("Endpoint,pod"), name: /^llm/ });
  expect(objects.map((o) => o.platformName)).toEqual(["llm-api"]);
  expect(args(objects[0])).toMatchObject({ templateId: { literal: ids.template }, networkVolumeId: { literal: ids.volume } });
});

test("pod templates are left out with the reason; an endpoint with its own container (CPU) is adopted with it, env to a config secret; --kinds names the allowed values", async () => {
  const account = await listAccount(h.client);
  const podTemplates = account.template.filter((t) => !t.isServerless);
  expect(podTemplates.length).toBeGreaterThan(0);
  expect(leftOutOf(account).map((l) => l.id)).toEqual(podTemplates.map((t) => t.id));
  expect((await plan()).some((o) => podTemplates.some((t) => t.id === o.id))).toBe(false);

  const own = await h.client.v2.createEndpoint({
    name: "own-cpu",
    type: "QUEUE",
    image: "ghcr.io/acme/own:1",
    env: { TOKEN: SECRET },
    cpu: [{ id: "cpu5c", vcpuCount: 4 }],
    workers: { min: 0, max: 1 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  });
  const [object] = await plan({ name: /^own-cpu$/ });
  expect(args(object)).toMatchObject({
    imageName: { literal: "ghcr.io/acme/own:1" },
    env: { config: "ownCpuEnv", secret: true, object: true },
    cpuFlavorIds: { literal: ["cpu5c"] },
    vcpuCount: { literal: 4 },
  });
  expect(args(object)).not.toHaveProperty("templateId");
  expect(args(object)).not.toHaveProperty("gpuIds");
  expect(object.config).toEqual([{ key: "ownCpuEnv", value: { TOKEN: SECRET }, secret: true }]);
  expect(emitNode([object], true)).not.toContain(SECRET);
  // GraphQL cannot express the endpoint's own container: refused naming the object, the field and the path.
  await expect(plan({ name: /^own-cpu$/, api: "graphql" })).rejects.toThrow(
    new RegExp(`endpoint ${own.id} \\(own-cpu\\) has imageName "ghcr.io/acme/own:1", which the stack's runpod:api graphql cannot express`),
  );
  await h.client.v2.deleteEndpoint(own.id);
  expect(() => parseKinds("endpoint,gadget")).toThrow(
    /"gadget" is no kind adopt knows; allowed: containerregistryauth, networkvolume, template, endpoint, pod/,
  );
});

test("names: camel case, valid identifiers, unique among themselves and the stack's", () => {
  expect(camelName("my-model_v2 (prod)")).toBe("myModelV2Prod");
  expect(
    uniqueNames(
      [
        { base: "llm", fallback: "endpoint" },
        { base: "LLM", fallback: "template" },
        { base: "9b", fallback: "pod" },
        { base: "class", fallback: "template" },
        { base: "--", fallback: "pod" },
      ],
      new Set(["llm"]),
    ),
  ).toEqual(["llm2", "llm3", "pod9b", "templateClass", "pod"]);
});
