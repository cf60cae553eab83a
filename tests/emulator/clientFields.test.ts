/**
 * What the official clients send and select beyond the spec (issue 15 §2; docs/spec/platform-clients.md):
 * GraphQL auth by bearer header, `flashBootType` as an alias of `fastBootType`, the extra endpoint fields,
 * `myself { pubKey networkVolumes }` with `updateUserSettings`, and `gpuTypes(input: { id })` with prices.
 */
import type { RunningEmulator } from "../../emulator";
import { createEndpoint, createTemplate, firstError, gql, rest, SAVE, start, until } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const EXTRA =
  "id fastBootType flashBootType gpuCount allowedCudaVersions minCudaVersion executionTimeoutMs workersStandby networkVolumeIds instanceIds createdAt userId version aiKey env { key value } networkVolume { id dataCenterId } networkVolumeId locations";

async function bearerGql(query: string, key?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const res = await fetch(emu.urls.graphql, { method: "POST", headers, body: JSON.stringify({ query }) });
  return { status: res.status, body: await res.json() };
}

describe("GraphQL auth", () => {
  test("Authorization: Bearer works without ?api_key (as runpod-python sends it)", async () => {
    expect(await bearerGql("{ myself { id } }", emu.apiKey)).toEqual({ status: 200, body: { data: { myself: { id: "user_1" } } } });
    expect((await bearerGql("{ myself { id } }", "rpa_wrong_key_123")).status).toBe(401);
    expect((await bearerGql("{ myself { id } }")).status).toBe(401);
    const ro = await bearerGql(`mutation { saveTemplate(input: { name: "x", imageName: "a/b:1" }) { id } }`, emu.readOnlyApiKey);
    expect(ro.status).toBe(403);
  });
});

describe("flashBootType", () => {
  test("FLASHBOOT is stored as the spec's FASTBOOT and both names read it", async () => {
    const res = await gql(
      emu,
      `mutation { saveEndpoint(input: { name: "flash", templateId: "tpl_vllm", gpuIds: "AMPERE_16", flashBootType: FLASHBOOT }) { id fastBootType flashBootType } }`,
    );
    expect(res.body.data.saveEndpoint).toMatchObject({ fastBootType: "FASTBOOT", flashBootType: "FLASHBOOT" });
    const spec = await createEndpoint(emu, { fastBootType: "FASTBOOT" });
    const read = await gql(emu, `{ myself { endpoints { id flashBootType } } }`);
    expect(read.body.data.myself.endpoints.find((e: any) => e.id === spec.id).flashBootType).toBe("FLASHBOOT");
    const none = await createEndpoint(emu);
    expect(read.body.data.myself.endpoints.find((e: any) => e.id === none.id)).toBeUndefined();
    const noneRead = await gql(emu, `{ myself { endpoints { id fastBootType flashBootType } } }`);
    expect(noneRead.body.data.myself.endpoints.find((e: any) => e.id === none.id)).toEqual({ id: none.id, fastBootType: null, flashBootType: null });
  });

  test("giving both with different meanings is refused; unknown values list the allowed one", async () => {
    const both = await gql(emu, SAVE, { input: { name: "both", templateId: "tpl_vllm", gpuIds: "AMPERE_16", flashBootType: "FLASHBOOT", fastBootType: null } });
    expect(firstError(both).extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "flashBootType" });
    const bad = await gql(emu, `mutation { saveEndpoint(input: { name: "x", templateId: "tpl_vllm", gpuIds: "AMPERE_16", flashBootType: TURBO }) { id } }`);
    expect(firstError(bad).extensions.allowed).toEqual(["FLASHBOOT"]);
  });
});

describe("endpoint fields the clients send and select", () => {
  test('defaults, derived values and what runpod-python\'s create sends (networkVolumeId and locations as "")', async () => {
    const template = await createTemplate(emu, { env: [{ key: "MODEL", value: "m" }] });
    const res = await gql(
      emu,
      `mutation { saveEndpoint(input: { name: "py-create", templateId: "${template.id}", gpuIds: "AMPERE_16", networkVolumeId: "", locations: "", idleTimeout: 5,
        scalerType: "QUEUE_DELAY", scalerValue: 4, workersMin: 1, workersMax: 3, gpuCount: 1 }) { ${EXTRA} } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const ep = res.body.data.saveEndpoint;
    expect(ep).toMatchObject({
      fastBootType: null,
      gpuCount: 1,
      allowedCudaVersions: null,
      minCudaVersion: null,
      executionTimeoutMs: 600000,
      workersStandby: 0,
      networkVolumeIds: [],
      userId: "user_1",
      version: 0,
      env: [{ key: "MODEL", value: "m" }],
      networkVolume: null,
      networkVolumeId: null,
      locations: "",
    });
    expect(new Date(ep.createdAt).toISOString()).toBe(ep.createdAt);
    expect(ep.aiKey).toMatch(/^ai_[a-z0-9]{24}$/);
    const instanceIds = await until(async () => {
      const r = await gql(emu, `{ myself { endpoints { id instanceIds } } }`);
      const ids = r.body.data.myself.endpoints.find((e: any) => e.id === ep.id).instanceIds;
      return ids.length === 1 && ids;
    });
    const workers = await rest("GET", `${emu.urls.restV2}/v2/serverless/${ep.id}/workers`, emu.apiKey);
    expect(instanceIds).toEqual(workers.body.workers.map((w: any) => w.id));
  });

  test("settable fields are stored, read back, and counted by version", async () => {
    const input = {
      name: "all-extra",
      templateId: "tpl_vllm",
      gpuIds: "AMPERE_80",
      gpuCount: 2,
      allowedCudaVersions: "12.1, 12.2",
      minCudaVersion: "12.1",
      executionTimeoutMs: 120000,
      workersStandby: 1,
      networkVolumeId: "nv_models01",
    };
    const created = (await gql(emu, `mutation($input: EndpointInput!) { saveEndpoint(input: $input) { ${EXTRA} } }`, { input })).body.data.saveEndpoint;
    expect(created).toMatchObject({
      gpuCount: 2,
      allowedCudaVersions: "12.1,12.2",
      minCudaVersion: "12.1",
      executionTimeoutMs: 120000,
      workersStandby: 1,
      version: 0,
    });
    expect(created.networkVolumeIds).toEqual(["nv_models01"]);
    expect(created.networkVolume).toEqual({ id: "nv_models01", dataCenterId: "EU-RO-1" });
    const modified = (
      await gql(emu, `mutation($input: EndpointInput!) { saveEndpoint(input: $input) { ${EXTRA} } }`, { input: { ...input, id: created.id, gpuCount: 4 } })
    ).body.data.saveEndpoint;
    expect(modified).toMatchObject({ gpuCount: 4, version: 1, createdAt: created.createdAt, aiKey: created.aiKey });
    const listed = (await gql(emu, `{ myself { endpoints { ${EXTRA} } } }`)).body.data.myself.endpoints.find((e: any) => e.id === created.id);
    expect(listed).toEqual({ ...modified, instanceIds: expect.any(Array) });
  });

  test("the running handle's records carry only settable fields, so they round-trip as a saveEndpoint input", async () => {
    const ep = await createEndpoint(emu, { name: "round-trip", gpuCount: 3 });
    const { pods: _pods, ...record } = emu.endpoints().find((e) => e.id === ep.id)!;
    const res = await gql(emu, SAVE, { input: { ...record, workersMax: 5 } });
    expect(res.body.errors).toBeUndefined();
    expect(emu.endpoints().find((e) => e.id === ep.id)).toMatchObject({ gpuCount: 3, workersMax: 5 });
  });

  test.each([
    ["gpuCount", 0, /gpuCount 0: must be an integer from 1 to 8/],
    ["gpuCount", 9, /from 1 to 8/],
    ["executionTimeoutMs", 10, /executionTimeoutMs 10: must be an integer from 5000 to 604800000/],
    ["workersStandby", -1, /from 0 to 100/],
    ["allowedCudaVersions", "12.1,13.9", /unknown value "13.9"; allowed values are 11.8, 12.0/],
    ["minCudaVersion", "10.2", /allowed values are 11.8/],
  ])("%s %p is refused naming the field", async (field, value, message) => {
    const err = firstError(await gql(emu, SAVE, { input: { name: "bad-extra", templateId: "tpl_vllm", gpuIds: "AMPERE_16", [field]: value } }));
    expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field });
    expect(err.message).toMatch(message);
  });

  test("REST v1 create takes the published document's gpuCount, allowedCudaVersions, executionTimeoutMs and flashboot", async () => {
    const res = await rest("POST", `${emu.urls.restV1}/v1/endpoints`, emu.apiKey, {
      name: "rest-extra",
      templateId: "tpl_vllm",
      gpuTypeIds: ["NVIDIA L4"],
      gpuCount: 2,
      allowedCudaVersions: ["12.4", "12.5"],
      executionTimeoutMs: 30000,
      flashboot: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ gpuCount: 2, allowedCudaVersions: "12.4,12.5", executionTimeoutMs: 30000, fastBootType: "FASTBOOT" });
  });
});

describe("myself and gpuTypes as runpod-python queries them", () => {
  test("pubKey is empty until updateUserSettings sets it; per user", async () => {
    const me = await gql(emu, `{ myself { id pubKey networkVolumes { id name size dataCenterId } } }`);
    expect(me.body.data.myself).toEqual({
      id: "user_1",
      pubKey: "",
      networkVolumes: [
        { id: "nv_models01", name: "models", size: 100, dataCenterId: "EU-RO-1" },
        { id: "nv_cache01", name: "cache", size: 50, dataCenterId: "US-TX-3" },
      ],
    });
    const set = await gql(emu, `mutation { updateUserSettings(input: { pubKey: "ssh-ed25519 AAAA test@host" }) { id pubKey } }`);
    expect(set.body).toEqual({ data: { updateUserSettings: { id: "user_1", pubKey: "ssh-ed25519 AAAA test@host" } } });
    expect((await gql(emu, `{ myself { pubKey } }`)).body.data.myself.pubKey).toBe("ssh-ed25519 AAAA test@host");
    expect((await gql(emu, `{ myself { pubKey } }`, undefined, emu.otherUserApiKey)).body.data.myself.pubKey).toBe("");
    expect(firstError(await gql(emu, `mutation { updateUserSettings(input: {}) { id } }`)).extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      field: "pubKey",
    });
  });

  test("gpuTypes(input: { id }) answers one type with plausible prices; an unknown id answers []", async () => {
    const res = await gql(
      emu,
      `{ gpuTypes(input: { id: "NVIDIA GeForce RTX 4090" }) { maxGpuCount id displayName manufacturer memoryInGb cudaCores secureCloud communityCloud securePrice
        communityPrice oneMonthPrice threeMonthPrice oneWeekPrice communitySpotPrice secureSpotPrice lowestPrice(input: { gpuCount: 2 }) { minimumBidPrice uninterruptablePrice } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const [g] = res.body.data.gpuTypes;
    expect(res.body.data.gpuTypes).toHaveLength(1);
    expect(g).toMatchObject({
      id: "NVIDIA GeForce RTX 4090",
      displayName: "RTX 4090",
      manufacturer: "Nvidia",
      memoryInGb: 24,
      maxGpuCount: 8,
      secureCloud: true,
      communityCloud: true,
    });
    expect(g.securePrice).toBeGreaterThan(g.communityPrice);
    expect(g.oneWeekPrice).toBeLessThan(g.securePrice);
    expect(g.oneMonthPrice).toBeLessThan(g.oneWeekPrice);
    expect(g.threeMonthPrice).toBeLessThan(g.oneMonthPrice);
    expect(g.lowestPrice).toEqual({ minimumBidPrice: Math.min(g.secureSpotPrice, g.communitySpotPrice), uninterruptablePrice: g.communityPrice });
    expect((await gql(emu, `{ gpuTypes(input: { id: "NVIDIA Imaginary" }) { id } }`)).body.data.gpuTypes).toEqual([]);
    expect((await gql(emu, `{ gpuTypes { id } }`)).body.data.gpuTypes.length).toBeGreaterThan(10);
    const tooMany = await gql(emu, `{ gpuTypes(input: { id: "NVIDIA L4" }) { communityCloud lowestPrice(input: { gpuCount: 9 }) { uninterruptablePrice } } }`);
    expect(tooMany.body.data.gpuTypes).toEqual([{ communityCloud: false, lowestPrice: null }]);
  });
});
