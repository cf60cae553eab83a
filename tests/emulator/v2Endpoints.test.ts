/**
 * REST v2 serverless endpoints, templates and registries against the document's semantics
 * (docs/spec/rest-v2-openapi.json), over the same state GraphQL shows.
 */
import type { RunningEmulator } from "../../emulator";
import { gql, rest, start, type HttpResult } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start({ jobDurationMs: 200 });
});
afterAll(() => emu.close());

const v2 = (path: string) => `${emu.urls.restV2}/v2${path}`;
const call = (method: string, path: string, body?: unknown, key = emu.apiKey) => rest(method, v2(path), key, body);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(check: () => Promise<T | false | undefined> | T | false | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await sleep(15);
  }
}

function expectProblem(res: HttpResult, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
}

const GPU_BODY = { name: "v2-ep", image: "me/worker:1", type: "QUEUE", gpu: { pools: ["ADA_24"] }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 } };

async function create(extra: Record<string, unknown> = {}): Promise<any> {
  const res = await call("POST", "/serverless", { ...GPU_BODY, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

const graphqlEndpoint = async (id: string) =>
  (
    await gql(emu, `{ myself { endpoints { id name templateId gpuIds workersMin workersMax idleTimeout executionTimeoutMs } } }`)
  ).body.data.myself.endpoints.find((e: any) => e.id === id);

describe("create and read", () => {
  test("defaults are the document's: workers.max 3, idleTimeout 10, timeout 300000, flashboot OFF", async () => {
    const ep = await create();
    expect(ep).toMatchObject({
      name: "v2-ep",
      type: "QUEUE",
      image: "me/worker:1",
      workers: { min: 0, max: 3, idleTimeout: 10 },
      timeout: 300000,
      flashboot: "OFF",
      gpu: { pools: ["ADA_24"], excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: null },
      dataCenterIds: [],
      networkVolumes: [],
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    });
    expect(ep.requestUrls.run).toBe(`${emu.urls.inference}/v2/${ep.id}/run`);
    expect((await call("GET", `/serverless/${ep.id}`)).body).toEqual(ep);
    expect((await call("GET", "/serverless")).body.endpoints.map((e: any) => e.id)).toContain(ep.id);
  });

  test("one endpoint, one id: GraphQL shows a v2 endpoint, and v2 shows a GraphQL change", async () => {
    const ep = await create({ workers: { min: 0, max: 2 } });
    expect(await graphqlEndpoint(ep.id)).toMatchObject({ name: "v2-ep", gpuIds: "ADA_24", workersMax: 2, idleTimeout: 10, executionTimeoutMs: 300000 });
    const g = await graphqlEndpoint(ep.id);
    const saved = await gql(emu, `mutation($input: EndpointInput!) { saveEndpoint(input: $input) { id workersMax } }`, {
      input: { id: ep.id, name: "renamed", templateId: g.templateId, gpuIds: "ADA_24,AMPERE_24", workersMax: 4, idleTimeout: 10, executionTimeoutMs: 300000 },
    });
    expect(saved.body.data.saveEndpoint).toEqual({ id: ep.id, workersMax: 4 });
    const after = (await call("GET", `/serverless/${ep.id}`)).body;
    expect(after).toMatchObject({ name: "renamed", gpu: { pools: ["ADA_24", "AMPERE_24"] }, workers: { max: 4 }, image: "me/worker:1" });
  });

  test("a GraphQL endpoint is readable and patchable through v2", async () => {
    const saved = await gql(emu, `mutation($input: EndpointInput!) { saveEndpoint(input: $input) { id } }`, {
      input: { name: "from-graphql", templateId: "tpl_vllm", gpuIds: "AMPERE_24" },
    });
    const id = saved.body.data.saveEndpoint.id;
    const got = (await call("GET", `/serverless/${id}`)).body;
    expect(got).toMatchObject({ id, name: "from-graphql", image: "runpod/worker-v1-vllm:stable-cuda12.1.0", gpu: { pools: ["AMPERE_24"] } });
    const patched = await call("PATCH", `/serverless/${id}`, { workers: { max: 5 } });
    expect(patched.body.workers.max).toBe(5);
    expect((await graphqlEndpoint(id)).workersMax).toBe(5);
  });

  test("a CPU endpoint carries cpu and no gpu; memory comes from the flavor", async () => {
    const res = await call("POST", "/serverless", { ...GPU_BODY, gpu: undefined, cpu: [{ id: "cpu5c", vcpuCount: 4 }] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ gpu: null, cpu: [{ id: "cpu5c", vcpuCount: 4, memory: 8 }] });
  });

  test("neither or both of gpu and cpu is 400; unknown pool 400 naming the allowed ones; unknown field 422", async () => {
    expectProblem(await call("POST", "/serverless", { ...GPU_BODY, gpu: undefined }), 400);
    expectProblem(await call("POST", "/serverless", { ...GPU_BODY, cpu: [{ id: "cpu5c", vcpuCount: 4 }] }), 400);
    const pool = await call("POST", "/serverless", { ...GPU_BODY, gpu: { pools: ["NOPE_99"] } });
    expectProblem(pool, 400);
    expect(pool.body.detail).toMatch(/NOPE_99.*ADA_24/);
    const extra = await call("POST", "/serverless", { ...GPU_BODY, bogus: 1 });
    expectProblem(extra, 422);
    expect(extra.body.errors).toEqual(["$: additional properties 'bogus' not allowed"]);
    expectProblem(await call("POST", "/serverless", { ...GPU_BODY, gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" } }), 400);
    expectProblem(await call("POST", "/serverless", { ...GPU_BODY, gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA A40"] } }), 400);
  });
});

describe("PATCH", () => {
  test("changes only the fields present", async () => {
    const ep = await create({ workers: { min: 0, max: 3, idleTimeout: 20 }, timeout: 600000, env: { A: "1" } });
    const res = await call("PATCH", `/serverless/${ep.id}`, { workers: { max: 6 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...ep, workers: { min: 0, max: 6, idleTimeout: 20 } });
    const renamed = await call("PATCH", `/serverless/${ep.id}`, { name: "new-name" });
    expect(renamed.body).toEqual({ ...ep, name: "new-name", workers: { min: 0, max: 6, idleTimeout: 20 } });
  });

  test("pools without excludedTypes clears the exclusions; a CUDA-only change keeps them", async () => {
    const ep = await create({ gpu: { pools: ["ADA_48_PRO"], excludedTypes: ["NVIDIA L40S"] } });
    const cuda = await call("PATCH", `/serverless/${ep.id}`, { gpu: { minCudaVersion: "12.4" } });
    expect(cuda.body.gpu).toMatchObject({ pools: ["ADA_48_PRO"], excludedTypes: ["NVIDIA L40S"], minCudaVersion: "12.4" });
    const pools = await call("PATCH", `/serverless/${ep.id}`, { gpu: { pools: ["ADA_48_PRO"] } });
    expect(pools.body.gpu.excludedTypes).toEqual([]);
    expectProblem(await call("PATCH", `/serverless/${ep.id}`, { gpu: { excludedTypes: ["NVIDIA L40S"] } }), 422);
  });

  test("type and the compute family are immutable: 400", async () => {
    const gpuEp = await create();
    expectProblem(await call("PATCH", `/serverless/${gpuEp.id}`, { type: "LOAD_BALANCER" }), 400);
    expectProblem(await call("PATCH", `/serverless/${gpuEp.id}`, { cpu: [{ id: "cpu5c", vcpuCount: 4 }] }), 400);
    const cpuEp = (await call("POST", "/serverless", { ...GPU_BODY, gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 2 }] })).body;
    expectProblem(await call("PATCH", `/serverless/${cpuEp.id}`, { gpu: { pools: ["ADA_24"] } }), 400);
    const other = await call("PATCH", `/serverless/${cpuEp.id}`, { cpu: [{ id: "cpu3g", vcpuCount: 8 }] });
    expect(other.body.cpu).toEqual([{ id: "cpu3g", vcpuCount: 8, memory: 32 }]);
    expect((await call("GET", `/serverless/${gpuEp.id}`)).body.type).toBe("QUEUE");
    // The document requires a body.
    expectProblem(await rest("PATCH", `${emu.urls.restV2}/v2/serverless/${gpuEp.id}`, emu.apiKey), 400);
  });

  test("scaling fields apply at once: workers.min starts workers without a release", async () => {
    const ep = await create();
    await call("PATCH", `/serverless/${ep.id}`, { workers: { min: 2 } });
    const listing = (await call("GET", `/serverless/${ep.id}/workers`)).body;
    expect(listing.workers).toHaveLength(2);
    expect(listing.endpointVersion).toBe(1);
    expect((await call("GET", `/serverless/${ep.id}/releases`)).body.releases).toHaveLength(1);
  });

  test("a container-affecting PATCH is a release that rolls out surge-first: no job lost, READY never below workers.min", async () => {
    // Slow enough to see the rollout: workers take 2 s to start (the snapshots below must land while the
    // replacements start, even on a loaded machine: 300 ms was not), jobs run 400 ms.
    const slow = await start({ workerStartMs: 2000, jobDurationMs: 400 });
    try {
      const at = (path: string, body?: unknown, method = "GET") => rest(method, `${slow.urls.restV2}/v2${path}`, slow.apiKey, body);
      const ep = (await at("/serverless", { ...GPU_BODY, workers: { min: 2, max: 3 }, env: { MODE: "a" } }, "POST")).body;
      const admin = async () => (await rest("GET", `${slow.urls.admin}/workers?endpoint=${ep.id}`, undefined)).body as any[];
      const readyCount = async () => (await admin()).filter((w) => w.status === "READY").length;
      await until(async () => (await readyCount()) === 2);
      const jobs: string[] = [];
      for (let i = 0; i < 4; i++) jobs.push((await rest("POST", `${slow.urls.inference}/v2/${ep.id}/run`, slow.apiKey, { input: { i } })).body.id);
      // Jobs leave the queue after 200 ms and run on the old workers.
      await until(async () => (await admin()).some((w) => w.jobsInProgress > 0));

      let minReady = Infinity;
      let watching = true;
      const watch = (async () => {
        while (watching) {
          minReady = Math.min(minReady, await readyCount());
          await sleep(5);
        }
      })();
      const patched = await at(`/serverless/${ep.id}`, { image: "me/worker:2", env: { MODE: "b" } }, "PATCH");
      expect(patched.body).toMatchObject({ image: "me/worker:2", env: { MODE: "b" } });
      const during = (await at(`/serverless/${ep.id}/workers`)).body;
      expect(during.endpointVersion).toBe(2);
      expect(during.workers.filter((w: any) => w.isStale && w.version === 1)).toHaveLength(2);
      expect(during.workers.filter((w: any) => !w.isStale && w.version === 2 && w.status === "INITIALIZING")).toHaveLength(2);
      const mid = (await at(`/serverless/${ep.id}/releases`)).body;
      // The replacements are still starting: none runs the release yet (issue 40: only ready workers count).
      expect(mid.rollout).toEqual({ inProgress: true, workersOnLatest: 0, workersTotal: 4, percentOnLatest: 0 });
      expect(mid.releases.map((r: any) => [r.version, r.workerCount])).toEqual([
        [2, 0],
        [1, 2],
      ]);

      const done = await until(async () => {
        const r = (await at(`/serverless/${ep.id}/releases`)).body;
        return !r.rollout.inProgress && r.rollout.workersOnLatest === 2 && r;
      });
      watching = false;
      await watch;
      expect(minReady).toBeGreaterThanOrEqual(2);
      expect(done).toMatchObject({ endpointVersion: 2, rollout: { inProgress: false, workersOnLatest: 2, workersTotal: 2, percentOnLatest: 100 } });
      expect(done.releases[0]).toMatchObject({ version: 2, source: "MANUAL", workerCount: 2 });
      expect(done.releases[1]).toMatchObject({ version: 1, workerCount: 0 });
      expect(done.releases[0].diff).toEqual(
        expect.arrayContaining([
          { field: "image", old: "me/worker:1", new: "me/worker:2" },
          { field: "env", old: ["MODE"], new: ["MODE"] },
        ]),
      );
      const after = (await at(`/serverless/${ep.id}/workers`)).body.workers;
      expect(after.every((w: any) => !w.isStale && w.image === "me/worker:2")).toBe(true);
      for (const id of jobs) {
        const status = await until(async () => {
          const s = (await rest("GET", `${slow.urls.inference}/v2/${ep.id}/status/${id}`, slow.apiKey)).body;
          return s.status !== "IN_QUEUE" && s.status !== "IN_PROGRESS" && s;
        });
        expect(status.status).toBe("COMPLETED");
      }
    } finally {
      await slow.close();
    }
  });
});

describe("templateId", () => {
  test("is a snapshot at create (body wins, env merges per key); later template edits do not reach it; PATCH with templateId re-applies", async () => {
    const tpl = await call("POST", "/templates", { name: `snap-${Date.now()}`, image: "me/base:1", serverless: true, env: { A: "tpl", B: "tpl" }, disk: 20 });
    expect(tpl.status).toBe(201);
    const ep = await create({ image: undefined, templateId: tpl.body.id, env: { B: "body" } });
    expect(ep).toMatchObject({ image: "me/base:1", disk: 20, env: { A: "tpl", B: "body" } });
    await call("PATCH", `/templates/${tpl.body.id}`, { image: "me/base:2", env: { A: "tpl2" } });
    expect((await call("GET", `/serverless/${ep.id}`)).body).toMatchObject({ image: "me/base:1", env: { A: "tpl", B: "body" } });
    const again = await call("PATCH", `/serverless/${ep.id}`, { templateId: tpl.body.id, env: { C: "body" } });
    expect(again.body).toMatchObject({ image: "me/base:2", env: { A: "tpl2", C: "body" } });
    expect((await call("GET", `/serverless/${ep.id}/releases`)).body.endpointVersion).toBe(2);
    // The template is free: no endpoint is bound to it.
    expect((await call("DELETE", `/templates/${tpl.body.id}`)).status).toBe(204);
  });

  test("unknown template 404, a pod template 422", async () => {
    expectProblem(await call("POST", "/serverless", { ...GPU_BODY, image: undefined, templateId: "tpl_nope" }), 404);
    expectProblem(await call("POST", "/serverless", { ...GPU_BODY, image: undefined, templateId: "tpl_pod_only" }), 422);
  });
});

describe("DELETE", () => {
  test("terminates the workers, cancels queued and in-progress jobs, deletes the bound template", async () => {
    const ep = await create({ workers: { min: 1, max: 2 } });
    const bound = (await graphqlEndpoint(ep.id)).templateId;
    expect(emu.templates("user_1").find((t) => t.id === bound)?.boundToEndpoint).toBe(ep.id);
    const job = (await rest("POST", `${emu.urls.inference}/v2/${ep.id}/run`, emu.apiKey, { input: {} })).body;
    const res = await call("DELETE", `/serverless/${ep.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expectProblem(await call("GET", `/serverless/${ep.id}`), 404);
    expectProblem(await call("GET", `/serverless/${ep.id}/workers`), 404);
    expect(emu.endpoints("user_1").some((e) => e.id === ep.id)).toBe(false);
    expect(emu.templates("user_1").some((t) => t.id === bound)).toBe(false);
    expectProblem(await rest("GET", `${emu.urls.inference}/v2/${ep.id}/status/${job.id}`, emu.apiKey), 404);
  });

  test("deleting a template still bound to an endpoint is 400", async () => {
    const tpl = await call("POST", "/templates", { name: `bound-${Date.now()}`, image: "me/x:1", serverless: true });
    await gql(emu, `mutation($input: EndpointInput!) { saveEndpoint(input: $input) { id } }`, {
      input: { name: "uses-template", templateId: tpl.body.id, gpuIds: "AMPERE_24" },
    });
    const res = await call("DELETE", `/templates/${tpl.body.id}`);
    expectProblem(res, 400);
    expect(res.body.detail).toMatch(/in use/);
  });
});

describe("templates and registries", () => {
  test("template create fills the document's defaults; PATCH changes only what it names; public ones are readable, not patchable", async () => {
    const res = await call("POST", "/templates", { name: `t-${Date.now()}`, image: "me/t:1", startJupyter: false, startSsh: false });
    expect(res.body).toMatchObject({
      category: "NVIDIA",
      serverless: false,
      public: false,
      ports: [],
      env: {},
      registry: null,
      mounts: {},
      allowedCudaVersions: [],
    });
    const patched = await call("PATCH", `/templates/${res.body.id}`, { category: "CPU" });
    expect(patched.body).toEqual({ ...res.body, category: "CPU" });
    expect((await call("GET", "/templates")).body.templates.map((t: any) => t.id)).toContain(res.body.id);
    expectProblem(await call("GET", `/templates/tpl_other`), 404);
  });

  test("one template, one registry: v2 creations show in GraphQL and GraphQL creations in v2, with the same ids", async () => {
    const tpl = (await call("POST", "/templates", { name: `shared-${Date.now()}`, image: "me/shared:1", serverless: true, startJupyter: false })).body;
    const mine = (await gql(emu, `{ myself { podTemplates { id name imageName isServerless } } }`)).body.data.myself.podTemplates;
    expect(mine).toContainEqual({ id: tpl.id, name: tpl.name, imageName: "me/shared:1", isServerless: true });
    const saved = await gql(emu, `mutation($input: SaveRegistryAuthInput) { saveRegistryAuth(input: $input) { id name } }`, {
      input: { name: `gql-reg-${Date.now()}`, username: "u", password: "p" },
    });
    const reg = saved.body.data.saveRegistryAuth;
    expect((await call("GET", `/registries/${reg.id}`)).body).toEqual(reg);
    // A GraphQL template change is visible through v2 at once.
    await gql(emu, `mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { id } }`, {
      input: { id: tpl.id, name: tpl.name, imageName: "me/shared:2", isServerless: true, containerRegistryAuthId: reg.id, env: [] },
    });
    expect((await call("GET", `/templates/${tpl.id}`)).body).toMatchObject({ image: "me/shared:2", registry: reg.id });
  });

  test("startJupyter injects JUPYTER_PASSWORD unless env sets one", async () => {
    const res = await call("POST", "/templates", { name: `j-${Date.now()}`, image: "me/t:1" });
    expect(res.body.env.JUPYTER_PASSWORD).toEqual(expect.any(String));
    const own = await call("POST", "/templates", { name: `j2-${Date.now()}`, image: "me/t:1", env: { JUPYTER_PASSWORD: "mine" } });
    expect(own.body.env.JUPYTER_PASSWORD).toBe("mine");
  });

  test("registries: create, get, list, delete; no update (405); answers never carry username or password", async () => {
    const created = await call("POST", "/registries", { name: `reg-${Date.now()}`, username: "u", password: "p" });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["id", "name"]);
    expect((await call("GET", `/registries/${created.body.id}`)).body).toEqual(created.body);
    expect((await call("GET", "/registries")).body.registries).toContainEqual(created.body);
    const patch = await call("PATCH", `/registries/${created.body.id}`, { password: "x" });
    expectProblem(patch, 405);
    expect(patch.headers.get("allow")).toMatch(/GET/);
    const tpl = await call("POST", "/templates", { name: `uses-reg-${Date.now()}`, image: "me/t:1", registry: created.body.id });
    expect((await call("DELETE", `/registries/${created.body.id}`)).status).toBe(204);
    expect((await call("GET", `/templates/${tpl.body.id}`)).body.registry).toBeNull();
    expectProblem(await call("GET", `/registries/${created.body.id}`), 404);
  });

  test("network volumes: list and get; type takes the document's values", async () => {
    const list = (await call("GET", "/network-volumes")).body.networkVolumes;
    for (const v of list) expect(["STANDARD", "HIGH_PERFORMANCE"]).toContain(v.type);
    expect((await call("GET", "/network-volumes/nv_models01")).body).toEqual(list.find((v: any) => v.id === "nv_models01"));
    expectProblem(await call("GET", "/network-volumes/nv_other01"), 404);
  });
});

describe("errors and headers", () => {
  test("401 without a key, 403 for a read-only key's write, both problem+json", async () => {
    expectProblem(await call("GET", "/serverless", undefined, ""), 401);
    expectProblem(await call("POST", "/serverless", GPU_BODY, emu.readOnlyApiKey), 403);
    expectProblem(await call("DELETE", "/templates/x", undefined, emu.readOnlyApiKey), 403);
  });

  test("authenticated answers carry RateLimit and RateLimit-Policy; a 429 carries Retry-After", async () => {
    const ok = await call("GET", "/catalog/datacenters");
    expect(ok.headers.get("ratelimit")).toMatch(/minute;r=\d+;t=\d+/);
    expect(ok.headers.get("ratelimit-policy")).toMatch(/minute;q=\d+;w=60/);
    const missing = await call("GET", "/serverless/nope");
    expectProblem(missing, 404);
    expect(missing.headers.get("ratelimit")).not.toBeNull();
    emu.setFaults({ force429: 1, match: ["listEndpoints"] });
    const limited = await call("GET", "/serverless");
    emu.setFaults({});
    expectProblem(limited, 429);
    expect(limited.headers.get("retry-after")).toBe("1");
  });
});
