import type { RunningEmulator } from "../../emulator";
import { SPEC_TABLES as SPEC } from "../spec/specTables";
import { createEndpoint, gql, SAVE, start, until } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  // Explicit: the default follows RUNPOD_EMULATOR_SAVE_SEMANTICS, and the modify test below asserts replace.
  emu = await start({ saveSemantics: "replace" });
});
afterAll(() => emu.close());

const MYSELF = `{ myself { id email endpoints { id name gpuIds workersMin workersMax pods { desiredStatus } } serverlessDiscount { discountFactor type expirationDate } } }`;

describe("GraphQL queries", () => {
  test("myself returns the caller's id, email, endpoints and discount", async () => {
    const res = await gql(emu, MYSELF);
    expect(res.status).toBe(200);
    expect(res.body.data.myself).toMatchObject({ id: "user_1", email: "demo@example.com", serverlessDiscount: { discountFactor: 0.9, type: "SERVERLESS" } });
    const other = await gql(emu, MYSELF, undefined, emu.otherUserApiKey);
    expect(other.body.data.myself).toMatchObject({ id: "user_2", serverlessDiscount: null });
  });

  test("gpuTypes lists ids with display name and memory", async () => {
    const res = await gql(emu, `{ gpuTypes { id displayName memoryInGb } }`);
    expect(res.body.data.gpuTypes).toEqual(expect.arrayContaining([{ id: "NVIDIA GeForce RTX 4090", displayName: "RTX 4090", memoryInGb: 24 }]));
  });

  test("a read-only key may query", async () => {
    const res = await gql(emu, `{ myself { id } }`, undefined, emu.readOnlyApiKey);
    expect(res.body).toEqual({ data: { myself: { id: "user_1" } } });
  });

  test("unknown fields are validation errors naming the field", async () => {
    const res = await gql(emu, `{ myself { nope } }`);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].message).toMatch(/nope/);
    expect(res.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
  });

  test("syntax errors carry GRAPHQL_PARSE_FAILED", async () => {
    const res = await gql(emu, `{ myself {`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe("GRAPHQL_PARSE_FAILED");
  });
});

describe("saveEndpoint", () => {
  test("create applies defaults and returns a 14-character id", async () => {
    const ep = await createEndpoint(emu, { name: "defaults" });
    expect(ep.id).toMatch(/^[a-z0-9]{14}$/);
    expect(ep).toMatchObject({
      name: "defaults",
      templateId: "tpl_vllm",
      gpuIds: "AMPERE_24",
      type: "QB",
      idleTimeout: 5,
      locations: null,
      fastBootType: null,
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
      workersMin: 0,
      workersMax: 3,
      networkVolumeId: null,
      pods: [],
    });
  });

  test("create accepts every field, fastBootType as an enum literal", async () => {
    const res = await gql(
      emu,
      `mutation { saveEndpoint(input: { name: "full", templateId: "tpl_comfy", gpuIds: "ADA_24,AMPERE_80", type: "LB", idleTimeout: 30,
        locations: "US,RO", fastBootType: FASTBOOT, scalerType: "REQUEST_COUNT", scalerValue: 2, workersMin: 0, workersMax: 5, networkVolumeId: "nv_models01" })
        { id gpuIds type idleTimeout locations fastBootType scalerType scalerValue workersMax networkVolumeId } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.saveEndpoint).toMatchObject({
      gpuIds: "ADA_24,AMPERE_80",
      type: "LB",
      idleTimeout: 30,
      locations: "US,RO",
      fastBootType: "FASTBOOT",
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      workersMax: 5,
      networkVolumeId: "nv_models01",
    });
  });

  test("modify resets omitted fields (replace save semantics, the default) and explicit nulls, and shows up in myself", async () => {
    const ep = await createEndpoint(emu, { name: "before", idleTimeout: 20, networkVolumeId: "nv_cache01" });
    const res = await gql(emu, SAVE, { input: { id: ep.id, name: "after", templateId: "tpl_vllm", gpuIds: "AMPERE_48", networkVolumeId: null } });
    expect(res.body.data.saveEndpoint).toMatchObject({ id: ep.id, name: "after", gpuIds: "AMPERE_48", idleTimeout: 5, networkVolumeId: null });
    const mine = await gql(emu, MYSELF);
    expect(mine.body.data.myself.endpoints).toEqual(expect.arrayContaining([expect.objectContaining({ id: ep.id, name: "after" })]));
  });

  test("workersMin starts simulated workers, reported as pods", async () => {
    const ep = await createEndpoint(emu, { workersMin: 2 });
    expect(ep.pods).toEqual([{ desiredStatus: "RUNNING" }, { desiredStatus: "RUNNING" }]);
    const down = await gql(emu, SAVE, { input: { id: ep.id, name: "ep", templateId: "tpl_vllm", gpuIds: "AMPERE_24", workersMin: 0 } });
    expect(down.body.data.saveEndpoint.pods).toEqual([]);
  });

  test.each([
    ["gpuIds", { gpuIds: "AMPERE_24,H100" }, SPEC.gpuTiers],
    ["gpuIds", { gpuIds: "" }, SPEC.gpuTiers],
    ["locations", { locations: "US,MARS" }, SPEC.locations],
    ["type", { type: "SERVERLESS" }, SPEC.endpointTypes],
    ["scalerType", { scalerType: "CPU" }, SPEC.scalerTypes],
  ])("invalid %s is BAD_USER_INPUT naming the field and allowed values", async (field, bad, allowed) => {
    const res = await gql(emu, SAVE, { input: { name: "bad", templateId: "tpl_vllm", gpuIds: "AMPERE_24", ...bad } });
    const [error] = res.body.errors;
    expect(error.extensions).toMatchObject({ code: "BAD_USER_INPUT", field, allowed: [...allowed] });
    expect(error.message).toContain(field);
    for (const value of allowed) expect(error.message).toContain(value);
    expect(res.body.data.saveEndpoint).toBeNull();
  });

  test("an unknown fastBootType is rejected by the schema with the allowed values", async () => {
    const res = await gql(emu, `mutation { saveEndpoint(input: { name: "x", templateId: "tpl_vllm", gpuIds: "AMPERE_24", fastBootType: TURBO }) { id } }`);
    expect(res.body.errors[0].message).toMatch(/TURBO.*FastBootType.*Allowed values: FASTBOOT/);
    expect(res.body.errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", allowed: ["FASTBOOT"] });
  });

  test("missing required fields are named", async () => {
    const res = await gql(emu, SAVE, { input: { name: "x", templateId: "tpl_vllm" } });
    expect(res.body.errors[0].message).toMatch(/gpuIds/);
    expect(res.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
  });

  test.each([
    ["an unknown template", { templateId: "tpl_missing" }, "templateId"],
    ["another user's template", { templateId: "tpl_other" }, "templateId"],
    ["a pod-only template", { templateId: "tpl_pod_only" }, "templateId"],
    ["another user's network volume", { networkVolumeId: "nv_other01" }, "networkVolumeId"],
    ["workersMin above workersMax", { workersMin: 4, workersMax: 2 }, "workersMin"],
    ["a negative idleTimeout", { idleTimeout: -1 }, "idleTimeout"],
  ])("%s is rejected", async (_what, bad, field) => {
    const res = await gql(emu, SAVE, { input: { name: "bad", templateId: "tpl_vllm", gpuIds: "AMPERE_24", ...bad } });
    expect(res.body.errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", field });
  });

  test("modifying another user's endpoint is NOT_FOUND and leaves it unchanged", async () => {
    const ep = await createEndpoint(emu, { name: "mine" });
    const res = await gql(emu, SAVE, { input: { id: ep.id, name: "stolen", templateId: "tpl_other", gpuIds: "AMPERE_16" } }, emu.otherUserApiKey);
    expect(res.body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect(emu.endpoints(emu.apiKey).find((e) => e.id === ep.id)?.name).toBe("mine");
    const theirs = await gql(emu, MYSELF, undefined, emu.otherUserApiKey);
    expect(theirs.body.data.myself.endpoints.map((e: any) => e.id)).not.toContain(ep.id);
  });
});

describe("deleteEndpoint", () => {
  const DELETE = `mutation Del($id: String!) { deleteEndpoint(id: $id) }`;

  test("is refused with FAILED_PRECONDITION while workersMin or workersMax is nonzero", async () => {
    const ep = await createEndpoint(emu, { workersMin: 0, workersMax: 2 });
    const res = await gql(emu, DELETE, { id: ep.id });
    expect(res.status).toBe(200);
    expect(res.body.errors[0].extensions.code).toBe("FAILED_PRECONDITION");
    expect(res.body.errors[0].message).toMatch(/workersMax/);
    expect(emu.endpoints().some((e) => e.id === ep.id)).toBe(true);
  });

  test("succeeds with null once both counts are 0, and the endpoint is gone", async () => {
    const ep = await createEndpoint(emu, { workersMin: 0, workersMax: 0 });
    const res = await gql(emu, DELETE, { id: ep.id });
    expect(res.body).toEqual({ data: { deleteEndpoint: null } });
    expect(emu.endpoints().some((e) => e.id === ep.id)).toBe(false);
    const again = await gql(emu, DELETE, { id: ep.id });
    expect(again.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });

  test("another user's endpoint is NOT_FOUND", async () => {
    const ep = await createEndpoint(emu, { workersMax: 0 });
    const res = await gql(emu, DELETE, { id: ep.id }, emu.otherUserApiKey);
    expect(res.body.errors[0].extensions.code).toBe("NOT_FOUND");
    expect(emu.endpoints().some((e) => e.id === ep.id)).toBe(true);
  });

  test("deleting stops the endpoint's workers", async () => {
    const ep = await createEndpoint(emu, { workersMin: 1, workersMax: 1 });
    await gql(emu, SAVE, { input: { id: ep.id, name: "ep", templateId: "tpl_vllm", gpuIds: "AMPERE_24", workersMin: 0, workersMax: 0 } });
    const res = await gql(emu, DELETE, { id: ep.id });
    expect(res.body.data).toEqual({ deleteEndpoint: null });
    await until(() => !emu.endpoints().some((e) => e.id === ep.id));
  });
});

describe("GraphQL auth", () => {
  test("a missing key is 401 UNAUTHENTICATED in the GraphQL errors shape", async () => {
    const res = await fetch(emu.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ myself { id } }" }),
    });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  test("an invalid or expired key is 401", async () => {
    expect((await gql(emu, `{ myself { id } }`, undefined, "rpa_wrong_key_123")).status).toBe(401);
    expect((await gql(emu, `{ myself { id } }`, undefined, "rpa_emulator_user1_expired")).status).toBe(401);
  });

  test("a read-only key on a mutation is 403 FORBIDDEN and nothing changes", async () => {
    const before = emu.endpoints().length;
    const res = await gql(emu, SAVE, { input: { name: "ro", templateId: "tpl_vllm", gpuIds: "AMPERE_24" } }, emu.readOnlyApiKey);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions.code).toBe("FORBIDDEN");
    expect(emu.endpoints().length).toBe(before);
  });

  test("the error never echoes the key", async () => {
    const res = await gql(emu, `{ myself { id } }`, undefined, "rpa_secret_value_abc");
    expect(JSON.stringify(res.body)).not.toContain("rpa_secret_value_abc");
  });
});

describe("GraphQL transport", () => {
  test("a body that is not JSON is 400 with a GraphQL error", async () => {
    const res = await fetch(`${emu.urls.graphql}?api_key=${emu.apiKey}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].extensions.code).toBe("BAD_REQUEST");
  });

  test("a body without query is 400", async () => {
    const res = await fetch(`${emu.urls.graphql}?api_key=${emu.apiKey}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
  });

  test("GET is 405 problem+json with Allow", async () => {
    const res = await fetch(`${emu.urls.graphql}?api_key=${emu.apiKey}`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  test("each top-level field counts as an operation", async () => {
    emu.resetStats();
    await gql(emu, `{ myself { id } gpuTypes { id } }`);
    await gql(emu, `query Named { ...F } fragment F on Query { gpuTypes { id } }`);
    expect(emu.stats()).toMatchObject({ requests: 2, byOperation: { myself: 1, gpuTypes: 2 } });
  });
});
