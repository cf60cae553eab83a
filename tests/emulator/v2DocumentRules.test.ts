/**
 * REST v2 is no stricter than its document (docs/spec/rest-v2-openapi.json): each rule the emulator keeps for
 * GraphQL alone (facts.ts) is accepted on v2 where the document allows the value, and still refused on GraphQL over
 * the same state; the bounds the document does state are kept with its numbers; `listPublicTemplates` answers as
 * the document specifies it.
 */
import { DEFAULT_SEED, type RunningEmulator } from "../../emulator";
import { V2Validator } from "../conformance/v2Validator";
import { createEndpoint, createTemplate, firstError, gql, rest, SAVE, saveTemplate, start, type HttpResult } from "./harness";

const validator = new V2Validator();
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start({
    // A long GraphQL release window: v2's deleteTemplate must not wait for it.
    templateReleaseMs: 3_600_000,
    seed: {
      ...DEFAULT_SEED,
      templates: [...(DEFAULT_SEED.templates ?? []), { id: "tpl_verified", userId: "user_2", name: "sd-verified", imageName: "acme/sd:1", verified: true }],
    },
  });
});
afterAll(() => emu.close());

/** A v2 call whose exchange must conform to the document (request as sent, answer against the closed schemas). */
async function v2(method: string, path: string, body?: unknown, key = emu.apiKey): Promise<HttpResult> {
  const res = await rest(method, `${emu.urls.restV2}/v2${path}`, key, body);
  const [p, query = ""] = path.split("?");
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  const problems = validator.exchangeProblems({
    method,
    path: `/v2${p}`,
    query,
    status: res.status,
    contentType: res.headers.get("content-type"),
    authenticated: key !== "" && res.status !== 401,
    requestBody: body,
    responseBody: res.body,
    headers,
  });
  expect(problems).toEqual([]);
  return res;
}

const GPU_BODY = { name: "doc-rules", image: "me/worker:1", type: "QUEUE", gpu: { pools: ["ADA_24"] }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 } };

async function created(res: HttpResult): Promise<any> {
  expect(res.status).toBe(201);
  return res.body;
}

/** GraphQL's refusal of an endpoint save, naming `field`. */
async function graphqlRefuses(input: Record<string, unknown>, field: string): Promise<void> {
  const res = await gql(emu, SAVE, { input: { name: "gql-rules", templateId: "tpl_vllm", gpuIds: "AMPERE_24", ...input } });
  const err = firstError(res);
  expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field });
}

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

describe("GraphQL's endpoint rules are GraphQL's only", () => {
  test("timeout: any integer (the document: `type: integer`, no bounds); GraphQL keeps 5000–604800000", async () => {
    const short = await created(await v2("POST", "/serverless", { ...GPU_BODY, timeout: 1000 }));
    expect(short.timeout).toBe(1000);
    const long = await v2("PATCH", `/serverless/${short.id}`, { timeout: 10 * 86_400_000 });
    expect(long.status).toBe(200);
    expect(long.body.timeout).toBe(10 * 86_400_000);
    await graphqlRefuses({ executionTimeoutMs: 1000 }, "executionTimeoutMs");
    await graphqlRefuses({ executionTimeoutMs: 10 * 86_400_000 }, "executionTimeoutMs");
  });

  test("workers: no upper bound (the document: `minimum: 0`); GraphQL keeps 0–100; the simulator runs at most 100", async () => {
    const ep = await created(await v2("POST", "/serverless", { ...GPU_BODY, workers: { min: 0, max: 500 } }));
    expect(ep.workers).toMatchObject({ min: 0, max: 500 });
    const raised = await v2("PATCH", `/serverless/${ep.id}`, { workers: { min: 150 } });
    expect(raised.status).toBe(200);
    expect(raised.body.workers).toMatchObject({ min: 150, max: 500 });
    expect((await v2("GET", `/serverless/${ep.id}/workers`)).body.workers).toHaveLength(100);
    await v2("PATCH", `/serverless/${ep.id}`, { workers: { min: 0 } });
    await graphqlRefuses({ workersMax: 500 }, "workersMax");
  });

  test("gpu.count: no upper bound (the document: `minimum: 1`); GraphQL keeps 1–8", async () => {
    const ep = await created(await v2("POST", "/serverless", { ...GPU_BODY, gpu: { pools: ["ADA_24"], count: 16 } }));
    expect(ep.gpu.count).toBe(16);
    expect((await v2("PATCH", `/serverless/${ep.id}`, { gpu: { count: 12 } })).body.gpu.count).toBe(12);
    await graphqlRefuses({ gpuCount: 16 }, "gpuCount");
  });

  test("scaling values: no upper bound (the document: queueDelay `minimum: 0.5`, requestCount `minimum: 1`); GraphQL's scalerValue keeps 1–3600", async () => {
    const ep = await created(await v2("POST", "/serverless", { ...GPU_BODY, scaling: { type: "QUEUE_DELAY", queueDelay: 5000 } }));
    expect(ep.scaling).toEqual({ type: "QUEUE_DELAY", queueDelay: 5000 });
    const patched = await v2("PATCH", `/serverless/${ep.id}`, { scaling: { type: "REQUEST_COUNT", requestCount: 10_000 } });
    expect(patched.body.scaling).toEqual({ type: "REQUEST_COUNT", requestCount: 10_000 });
    await graphqlRefuses({ scalerValue: 5000 }, "scalerValue");
  });

  test("pools may repeat (the document: `minItems: 1`, no `uniqueItems`); GraphQL's gpuIds must not", async () => {
    const ep = await created(await v2("POST", "/serverless", { ...GPU_BODY, gpu: { pools: ["ADA_24", "ADA_24"] } }));
    expect(ep.gpu.pools).toEqual(["ADA_24", "ADA_24"]);
    const patched = await v2("PATCH", `/serverless/${ep.id}`, { gpu: { pools: ["AMPERE_24", "ADA_24", "AMPERE_24"] } });
    expect(patched.body.gpu.pools).toEqual(["AMPERE_24", "ADA_24", "AMPERE_24"]);
    const err = firstError(await gql(emu, SAVE, { input: { name: "rep", templateId: "tpl_vllm", gpuIds: "ADA_24,ADA_24" } }));
    expect(err.message).toMatch(/must not repeat/);
  });

  test("CUDA: any major.minor (the document's pattern; 12.9 and 13.0 included); GraphQL keeps its list", async () => {
    const set = await created(await v2("POST", "/serverless", { ...GPU_BODY, gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.9", "13.0"] } }));
    expect(set.gpu).toMatchObject({ allowedCudaVersions: ["12.9", "13.0"], minCudaVersion: null });
    const floor = await v2("PATCH", `/serverless/${set.id}`, { gpu: { allowedCudaVersions: [], minCudaVersion: "13.0" } });
    expect(floor.body.gpu).toMatchObject({ allowedCudaVersions: [], minCudaVersion: "13.0" });
    await graphqlRefuses({ allowedCudaVersions: "13.0" }, "allowedCudaVersions");
    await graphqlRefuses({ minCudaVersion: "12.9" }, "minCudaVersion");
  });

  test("container settings: disk without upper bound, any image string, env keys and port protocols the document leaves open", async () => {
    const ep = await created(
      await v2("POST", "/serverless", { ...GPU_BODY, image: "", disk: 2048, env: { "1-not-a-shell-name": "x" }, ports: ["5353/udp", "5353/udp"] }),
    );
    expect(ep).toMatchObject({ image: "", disk: 2048, env: { "1-not-a-shell-name": "x" }, ports: ["5353/udp", "5353/udp"] });
  });
});

describe("GraphQL's template and registry rules are GraphQL's only", () => {
  test("template names need not be unique; GraphQL still refuses a second template of a taken name", async () => {
    const name = unique("same");
    const first = await created(await v2("POST", "/templates", { name, image: "me/a:1" }));
    const second = await created(await v2("POST", "/templates", { name, image: "me/b:1" }));
    expect(second.id).not.toBe(first.id);
    const other = await created(await v2("POST", "/templates", { name: unique("other"), image: "me/c:1" }));
    expect((await v2("PATCH", `/templates/${other.id}`, { name })).body.name).toBe(name);
    const listed = (await v2("GET", "/templates")).body.templates.filter((t: any) => t.name === name);
    expect(listed.map((t: any) => t.id).sort()).toEqual([first.id, second.id, other.id].sort());
    const err = firstError(await saveTemplate(emu, { name, imageName: "me/d:1" }));
    expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "name" });
  });

  test("template bounds are the document's: disk `minimum: 1`, persistent size `minimum: 10`, no upper bound; any mount path, env key, port protocol", async () => {
    const body = {
      name: unique("big"),
      image: "me/big:1",
      disk: 2048,
      mounts: { persistent: { size: 8192, path: "data" } },
      env: { "my-var": "1" },
      ports: ["8888/udp", "8888/udp"],
    };
    const tpl = await created(await v2("POST", "/templates", body));
    expect(tpl).toMatchObject({ disk: 2048, mounts: { persistent: { size: 8192, path: "data" } }, ports: ["8888/udp", "8888/udp"] });
    expect(tpl.env["my-var"]).toBe("1");
    for (const [input, field] of [
      [{ containerDiskInGb: 2048 }, "containerDiskInGb"],
      [{ volumeInGb: 8192 }, "volumeInGb"],
      [{ volumeMountPath: "data" }, "volumeMountPath"],
      [{ env: [{ key: "my-var", value: "1" }] }, "env"],
      [{ ports: "8888/udp" }, "ports"],
    ] as const) {
      const err = firstError(await saveTemplate(emu, { name: unique("gql"), imageName: "me/big:1", ...input }));
      expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field });
    }
  });

  test("registry names need not be unique nor short; GraphQL keeps both rules", async () => {
    const name = unique("reg");
    const first = await created(await v2("POST", "/registries", { name, username: "u", password: "p" }));
    const second = await created(await v2("POST", "/registries", { name, username: "u2", password: "p2" }));
    expect(second.id).not.toBe(first.id);
    const long = "r".repeat(300);
    expect((await created(await v2("POST", "/registries", { name: long, username: "u", password: "p" }))).name).toBe(long);
    const save = (n: string) =>
      gql(emu, `mutation($input: SaveRegistryAuthInput!) { saveRegistryAuth(input: $input) { id } }`, { input: { name: n, username: "u", password: "p" } });
    expect(firstError(await save(name)).extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "name" });
    expect(firstError(await save("s".repeat(300))).extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "name" });
  });

  test("deleteTemplate has no waiting period after the last use; GraphQL's deleteTemplate keeps it", async () => {
    const viaV2 = await createTemplate(emu);
    const viaGraphql = await createTemplate(emu);
    for (const tpl of [viaV2, viaGraphql]) {
      const ep = await createEndpoint(emu, { templateId: tpl.id, workersMax: 0 });
      const deleted = await gql(emu, `mutation { deleteEndpoint(id: "${ep.id}") }`);
      expect(deleted.body.errors).toBeUndefined();
    }
    expect((await v2("DELETE", `/templates/${viaV2.id}`)).status).toBe(204);
    const err = firstError(await gql(emu, `mutation { deleteTemplate(templateName: "${viaGraphql.name}") }`));
    expect(err.extensions.code).toBe("FAILED_PRECONDITION");
    expect(err.message).toMatch(/after its last use/);
    // In use is still refused, as the document says ("Rejected if … bound to a serverless endpoint").
    const used = await createTemplate(emu);
    await createEndpoint(emu, { templateId: used.id });
    const refused = await v2("DELETE", `/templates/${used.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/in use/);
  });
});

describe("the bounds the document states are kept, with its numbers", () => {
  test.each([
    ["workers.idleTimeout 0 (minimum: 1)", { workers: { idleTimeout: 0 } }, "$.workers.idleTimeout"],
    ["workers.idleTimeout 3601 (maximum: 3600)", { workers: { idleTimeout: 3601 } }, "$.workers.idleTimeout"],
    ["workers.min -1 (minimum: 0)", { workers: { min: -1 } }, "$.workers.min"],
    ["gpu.count 0 (minimum: 1)", { gpu: { pools: ["ADA_24"], count: 0 } }, "$.gpu.count"],
    ["gpu.pools [] (minItems: 1)", { gpu: { pools: [] } }, "$.gpu.pools"],
    ["queueDelay 0.4 (minimum: 0.5)", { scaling: { type: "QUEUE_DELAY", queueDelay: 0.4 } }, "$.scaling"],
    ["requestCount 0 (minimum: 1)", { scaling: { type: "REQUEST_COUNT", requestCount: 0 } }, "$.scaling"],
    ["disk 0 (minimum: 1)", { disk: 0 }, "$.disk"],
    ["timeout 1.5 (type: integer)", { timeout: 1.5 }, "$.timeout"],
    ["minCudaVersion 13 (pattern ^\\d+\\.\\d+$)", { gpu: { pools: ["ADA_24"], minCudaVersion: "13" } }, "$.gpu.minCudaVersion"],
  ])("createEndpoint refuses %s with 422 naming the field", async (_name, extra, field) => {
    const res = await v2("POST", "/serverless", { ...GPU_BODY, ...extra });
    expect(res.status).toBe(422);
    expect(res.body.errors.join("\n")).toContain(field);
  });

  test("template persistent size 9 (minimum: 10) and disk 0 (minimum: 1) are 422", async () => {
    for (const [extra, field] of [
      [{ mounts: { persistent: { size: 9, path: "/data" } } }, "$.mounts.persistent.size"],
      [{ disk: 0 }, "$.disk"],
    ] as const) {
      const res = await v2("POST", "/templates", { name: unique("small"), image: "me/t:1", ...extra });
      expect(res.status).toBe(422);
      expect(res.body.errors.join("\n")).toContain(field);
    }
  });

  test('ports must be port/protocol (the document: "formatted as port/protocol"): 400 naming ports', async () => {
    for (const res of [
      await v2("POST", "/serverless", { ...GPU_BODY, ports: ["8888"] }),
      await v2("POST", "/templates", { name: unique("p"), image: "me/t:1", ports: ["http/8888"] }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatch(/^ports: /);
    }
  });

  test('workers.min above workers.max is 400 (workers are "autoscaled between workers.min and workers.max")', async () => {
    const res = await v2("POST", "/serverless", { ...GPU_BODY, workers: { min: 4, max: 2 } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/workers\.min \(4\) must not exceed workers\.max \(2\)/);
  });
});

describe("listPublicTemplates", () => {
  const ids = (res: HttpResult) => res.body.templates.map((t: any) => t.id).sort();

  test("official (the default): Runpod's templates, pod and serverless alike, with `registry` null", async () => {
    const res = await v2("GET", "/catalog/templates");
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(["tpl_official_pytorch", "tpl_official_vllm"]);
    expect(ids(await v2("GET", "/catalog/templates?source=official"))).toEqual(ids(res));
    const byId = Object.fromEntries(res.body.templates.map((t: any) => [t.id, t]));
    expect(byId.tpl_official_vllm).toMatchObject({ serverless: true, public: true, registry: null });
    expect(byId.tpl_official_pytorch).toMatchObject({ serverless: false, public: true, registry: null });
  });

  test("verified: the templates Runpod verified; community: what other users share publicly, not the caller's own", async () => {
    expect(ids(await v2("GET", "/catalog/templates?source=verified"))).toEqual(["tpl_verified"]);
    const reg = await created(await v2("POST", "/registries", { name: unique("shared-reg"), username: "u", password: "p" }, emu.otherUserApiKey));
    const theirs = await created(
      await v2("POST", "/templates", { name: unique("shared"), image: "them/x:1", public: true, serverless: true, registry: reg.id }, emu.otherUserApiKey),
    );
    const mine = await created(await v2("POST", "/templates", { name: unique("mine"), image: "me/x:1", public: true }));
    await created(await v2("POST", "/templates", { name: unique("private"), image: "them/y:1" }, emu.otherUserApiKey));

    const community = await v2("GET", "/catalog/templates?source=community");
    expect(ids(community)).toEqual([theirs.id]);
    expect(community.body.templates[0]).toMatchObject({ public: true, registry: null });
    // The owner sees the registry, and another user's community list holds the caller's public template.
    expect((await v2("GET", `/templates/${theirs.id}`, undefined, emu.otherUserApiKey)).body.registry).toBe(reg.id);
    expect(ids(await v2("GET", "/catalog/templates?source=community", undefined, emu.otherUserApiKey))).toEqual([mine.id]);

    // Readable by everyone through getTemplate, and usable as an endpoint's templateId; still not patchable.
    expect((await v2("GET", `/templates/${theirs.id}`)).body).toMatchObject({ id: theirs.id, registry: null });
    const ep = await created(await v2("POST", "/serverless", { ...GPU_BODY, image: undefined, templateId: theirs.id }));
    expect(ep.image).toBe("them/x:1");
    expect((await v2("PATCH", `/templates/${theirs.id}`, { name: "taken-over" })).status).toBe(404);
    expect((await v2("DELETE", `/templates/tpl_official_vllm`)).status).toBe(404);
  });

  test("a source outside the document's enum is 422 naming it; no key is 401", async () => {
    const res = await v2("GET", "/catalog/templates?source=everything");
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/^source: allowed values are official, verified, community/);
    expect((await v2("GET", "/catalog/templates", undefined, "")).status).toBe(401);
  });
});
