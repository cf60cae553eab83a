import type { RunningEmulator } from "../../emulator";
import { createEndpoint, rest, start, until } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

function expectProblem(res: { status: number; headers: Headers; body: any }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  expect(res.body.title.length).toBeGreaterThan(0);
}

describe("REST v1 POST /v1/endpoints", () => {
  const url = () => `${emu.urls.restV1}/v1/endpoints`;

  test("creates an endpoint, mapping gpuTypeIds to tiers in order without duplicates", async () => {
    const res = await rest("POST", url(), emu.apiKey, {
      name: "rest-made",
      templateId: "tpl_vllm",
      gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA L4", "NVIDIA RTX A5000", "NVIDIA H100 PCIe"],
      workersMin: 0,
      workersMax: 2,
      idleTimeout: 9,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "rest-made", gpuIds: "ADA_24,AMPERE_24,ADA_80_PRO", workersMax: 2, idleTimeout: 9, type: "QB" });
    expect(res.body.id).toMatch(/^[a-z0-9]{14}$/);
    expect(emu.endpoints(emu.apiKey).map((e) => e.id)).toContain(res.body.id);
  });

  test("an unknown GPU type is 400 with errors naming the allowed values", async () => {
    const res = await rest("POST", url(), emu.apiKey, { name: "x", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA Imaginary 9000"] });
    expectProblem(res, 400);
    expect(res.body.errors[0]).toMatch(/gpuTypeIds.*NVIDIA Imaginary 9000.*NVIDIA GeForce RTX 4090/);
  });

  test("a body missing fields is 400 listing each failure", async () => {
    const res = await rest("POST", url(), emu.apiKey, { workersMin: -1 });
    expectProblem(res, 400);
    const joined = res.body.errors.join("\n");
    for (const field of ["name", "templateId", "gpuTypeIds", "workersMin"]) expect(joined).toContain(field);
  });

  test("an unknown template is 400", async () => {
    const res = await rest("POST", url(), emu.apiKey, { name: "x", templateId: "tpl_other", gpuTypeIds: ["NVIDIA L4"] });
    expectProblem(res, 400);
    expect(res.body.detail).toMatch(/tpl_other/);
  });

  test("invalid JSON is 400 problem+json", async () => {
    const res = await rest("POST", url(), emu.apiKey, "{not json");
    expectProblem(res, 400);
  });

  test("a read-only key is 403 and creates nothing", async () => {
    const before = emu.endpoints().length;
    const res = await rest("POST", url(), emu.readOnlyApiKey, { name: "ro", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"] });
    expectProblem(res, 403);
    expect(emu.endpoints().length).toBe(before);
  });
});

describe("REST v2 GET /v2/network-volumes", () => {
  test("returns the caller's volumes in networkVolumes", async () => {
    const res = await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      networkVolumes: [
        { id: "nv_models01", name: "models", size: 100, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" },
        { id: "nv_cache01", name: "cache", size: 50, dataCenter: "US-TX-3", type: "STANDARD" },
      ],
    });
  });

  test("another user sees only their own", async () => {
    const res = await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.otherUserApiKey);
    expect(res.body.networkVolumes.map((v: any) => v.id)).toEqual(["nv_other01"]);
  });

  test("a read-only key may list", async () => {
    expect((await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.readOnlyApiKey)).status).toBe(200);
  });

  test.each([
    ["missing", undefined, {}],
    ["malformed", undefined, { authorization: "Token abc" }],
    ["unknown", "rpa_not_a_key_000", {}],
    ["expired", "rpa_emulator_user1_expired", {}],
  ])("a %s key is 401 problem+json", async (_what, key, headers) => {
    const res = await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, key, undefined, headers as Record<string, string>);
    expectProblem(res, 401);
  });
});

describe("REST v2 GET /v2/serverless/{id}/workers", () => {
  test("lists one entry per running worker; they become IDLE (ready, no job)", async () => {
    const ep = await createEndpoint(emu, { workersMin: 2 });
    const url = `${emu.urls.restV2}/v2/serverless/${ep.id}/workers`;
    const res = await rest("GET", url, emu.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.workers).toHaveLength(2);
    expect(res.body.summary.total).toBe(2);
    for (const w of res.body.workers) {
      expect(w).toMatchObject({
        id: expect.stringMatching(/^[a-z0-9]{14}$/),
        status: expect.stringMatching(/^(INITIALIZING|IDLE)$/),
        isStale: false,
        gpuCount: 1,
      });
      expect(w.gpuTypeId).toBe("NVIDIA RTX A5000");
    }
    await until(async () => (await rest("GET", url, emu.apiKey)).body.workers.every((w: any) => w.status === "IDLE" && !Number.isNaN(Date.parse(w.startedAt))));
  });

  test("an endpoint without workersMin has none", async () => {
    const ep = await createEndpoint(emu);
    expect((await rest("GET", `${emu.urls.restV2}/v2/serverless/${ep.id}/workers`, emu.apiKey)).body).toMatchObject({ workers: [], summary: { total: 0 } });
  });

  test("another user's endpoint is 404", async () => {
    const ep = await createEndpoint(emu, { workersMin: 1 });
    const res = await rest("GET", `${emu.urls.restV2}/v2/serverless/${ep.id}/workers`, emu.otherUserApiKey);
    expectProblem(res, 404);
  });

  test("an unknown endpoint is 404", async () => {
    expectProblem(await rest("GET", `${emu.urls.restV2}/v2/serverless/nosuchendpoint/workers`, emu.apiKey), 404);
  });
});

describe("routing", () => {
  test("unknown routes are 404 problem+json", async () => {
    expectProblem(await rest("GET", `${emu.urls.restV2}/v2/no-such-collection`, emu.apiKey), 404);
    expectProblem(await rest("GET", `${emu.urls.restV1}/v1/endpoints/abc`, emu.apiKey), 404);
    expectProblem(await rest("GET", `${new URL(emu.urls.graphql).origin}/`, undefined), 404);
  });

  test("a wrong method on a known path is 405 with Allow", async () => {
    const res = await rest("GET", `${emu.urls.restV1}/v1/endpoints`, emu.apiKey);
    expectProblem(res, 405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  test("the admin state route shows endpoints per user", async () => {
    const ep = await createEndpoint(emu, { name: "peek" });
    const res = await rest("GET", `${emu.urls.admin}/state?user=user_1`, undefined);
    expect(res.body.endpoints.map((e: any) => e.id)).toContain(ep.id);
    const other = await rest("GET", `${emu.urls.admin}/state?user=user_2`, undefined);
    expect(other.body.endpoints.map((e: any) => e.id)).not.toContain(ep.id);
    expectProblem(await rest("GET", `${emu.urls.admin}/state?user=nobody`, undefined), 404);
  });
});
