import type { RunningEmulator } from "../../emulator";
import {
  AuthenticationError,
  explainError,
  GraphQLRequestError,
  InvalidArgumentError,
  NotFoundError,
  PermissionError,
  type PlatformClient,
} from "../../src/api";
import { ENDPOINT_INPUT, clientFor, startFastEmulator, thrown } from "./helpers";

let emu: RunningEmulator;
let client: PlatformClient;

beforeAll(async () => {
  emu = await startFastEmulator();
  client = clientFor(emu);
});
afterAll(() => emu.close());

describe("GraphQL operations", () => {
  it("myself returns the account, its endpoints and the serverless discount", async () => {
    const me = await client.myself();
    expect(me.id).toBe("user_1");
    expect(me.email).toBe("demo@example.com");
    expect(Array.isArray(me.endpoints)).toBe(true);
    expect(me.serverlessDiscount === null || typeof me.serverlessDiscount.discountFactor === "number").toBe(true);
  });

  it("gpuTypes lists the GPU type identifiers", async () => {
    const types = await client.gpuTypes();
    expect(types.length).toBeGreaterThan(0);
    expect(types.map((t) => t.id)).toContain("NVIDIA GeForce RTX 4090");
    for (const t of types) expect(typeof t.id).toBe("string");
  });

  it("saveEndpoint creates, modifies; list/find see it; deleteEndpoint removes it", async () => {
    const created = await client.saveEndpoint({
      ...ENDPOINT_INPUT,
      name: "gql-lifecycle",
      gpuIds: "AMPERE_24,ADA_24",
      locations: "US,RO",
      fastBootType: "FASTBOOT",
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      idleTimeout: 9,
      workersMax: 2,
    });
    expect(created.id).toMatch(/\S/);
    expect(created).toMatchObject({
      name: "gql-lifecycle",
      templateId: "tpl_vllm",
      gpuIds: "AMPERE_24,ADA_24",
      locations: "US,RO",
      fastBootType: "FASTBOOT",
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      idleTimeout: 9,
      workersMin: 0,
      workersMax: 2,
      type: "QB",
      networkVolumeId: null,
    });
    expect(emu.endpoints(emu.apiKey).map((e) => e.id)).toContain(created.id);

    const modified = await client.saveEndpoint({
      id: created.id,
      name: "gql-renamed",
      templateId: "tpl_vllm",
      gpuIds: "AMPERE_80",
      workersMax: 4,
      networkVolumeId: "nv_models01",
    });
    expect(modified).toMatchObject({ id: created.id, name: "gql-renamed", gpuIds: "AMPERE_80", workersMax: 4, networkVolumeId: "nv_models01" });

    expect((await client.listEndpoints()).find((e) => e.id === created.id)?.name).toBe("gql-renamed");
    expect((await client.findEndpoint(created.id))?.gpuIds).toBe("AMPERE_80");
    expect((await client.findEndpointsByName("gql-renamed", "tpl_vllm")).map((e) => e.id)).toEqual([created.id]);
    expect(await client.findEndpointsByName("gql-renamed", "tpl_comfy")).toEqual([]);

    await client.saveEndpoint({ id: created.id, name: "gql-renamed", templateId: "tpl_vllm", gpuIds: "AMPERE_80", workersMin: 0, workersMax: 0 });
    await client.deleteEndpoint(created.id);
    expect(await client.findEndpoint(created.id)).toBeUndefined();
    expect(emu.endpoints(emu.apiKey).map((e) => e.id)).not.toContain(created.id);
  });

  it("deleteEndpoint with nonzero workers is refused with the platform's message", async () => {
    const ep = await client.saveEndpoint({ ...ENDPOINT_INPUT, name: "gql-busy", workersMax: 1 });
    const err = await thrown(() => client.deleteEndpoint(ep.id));
    expect(err).toBeInstanceOf(GraphQLRequestError);
    const g = err as GraphQLRequestError;
    expect(g.codes).toContain("FAILED_PRECONDITION");
    expect(g.messages.join(" ")).toMatch(/workersMax|workers/);
    expect(g.message).toContain(g.messages[0].replace(/\.$/, ""));
    expect(g.message).toMatch(/\[FAILED_PRECONDITION\] \(HTTP 200, deleteEndpoint\)$/);
    expect(await client.findEndpoint(ep.id)).toBeDefined();
  });

  it("a validation error becomes GraphQLRequestError carrying every message", async () => {
    const before = emu.endpoints(emu.apiKey).length;
    const err = await thrown(() => client.saveEndpoint({ name: "gql-bad", templateId: "tpl_vllm", gpuIds: "NOT_A_TIER", type: "XX" as never }));
    expect(err).toBeInstanceOf(GraphQLRequestError);
    const g = err as GraphQLRequestError;
    expect(g.messages.length).toBeGreaterThan(0);
    expect(g.message).toMatch(/NOT_A_TIER|gpuIds/);
    for (const m of g.messages) expect(g.message).toContain(m.replace(/\.$/, ""));
    expect(g.message).not.toMatch(/\.\./);
    expect(g.httpStatus).toBe(200);
    expect(emu.endpoints(emu.apiKey).length).toBe(before);
  });

  it("a document-level error (unknown enum value) is a GraphQLRequestError too", async () => {
    const err = await thrown(() => client.saveEndpoint({ ...ENDPOINT_INPUT, name: "gql-enum", fastBootType: "SLOWBOOT" as never }));
    expect(err).toBeInstanceOf(GraphQLRequestError);
    expect(err.message).toContain("SLOWBOOT");
  });

  it("an unknown id is a NotFoundError for modify and delete", async () => {
    const del = await thrown(() => client.deleteEndpoint("doesnotexist00"));
    expect(del).toBeInstanceOf(NotFoundError);
    expect((del as NotFoundError).status).toBe(404);
    const mod = await thrown(() => client.saveEndpoint({ ...ENDPOINT_INPUT, id: "doesnotexist00" }));
    expect(mod).toBeInstanceOf(NotFoundError);
    expect(await client.findEndpoint("doesnotexist00")).toBeUndefined();
  });

  it("another user's endpoint is not found", async () => {
    const ep = await client.saveEndpoint({ ...ENDPOINT_INPUT, name: "gql-private" });
    const other = clientFor(emu, { apiKey: emu.otherUserApiKey });
    expect(await other.findEndpoint(ep.id)).toBeUndefined();
    expect(await thrown(() => other.deleteEndpoint(ep.id))).toBeInstanceOf(NotFoundError);
  });

  it("a bad key is an AuthenticationError; what to fix is each front end's hint, the api layer names no config key", async () => {
    const bad = clientFor(emu, { apiKey: "rpa_not_a_real_key_123" });
    for (const [call, operation] of [
      [() => bad.myself(), "myself"],
      [() => bad.saveEndpoint({ ...ENDPOINT_INPUT }), "saveEndpoint"],
    ] as const) {
      const err = await thrown(call);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as AuthenticationError).status).toBe(401);
      expect(err.message).toMatch(new RegExp(`^The API key is invalid.* \\(HTTP 401, ${operation}\\)$`));
      expect(err.message).not.toMatch(/runpod:|config|\.\./);
      const hinted = explainError(err, { doing: "doing X", hints: { authentication: "Set THE_KEY." } });
      expect(hinted).toMatch(/^The API key is invalid.* \(HTTP 401, doing X\)\. Set THE_KEY$/);
    }
  });

  it("a read-only key can read but a mutation is a PermissionError, and nothing is created", async () => {
    const ro = clientFor(emu, { apiKey: emu.readOnlyApiKey });
    expect((await ro.myself()).id).toBe("user_1");
    const before = emu.endpoints(emu.apiKey).length;
    const err = await thrown(() => ro.saveEndpoint({ ...ENDPOINT_INPUT, name: "gql-ro" }));
    expect(err).toBeInstanceOf(PermissionError);
    expect((err as PermissionError).status).toBe(403);
    expect(err.message).toMatch(/permission/i);
    expect(emu.endpoints(emu.apiKey).length).toBe(before);
  });

  it("rejects an empty id before sending", async () => {
    emu.resetStats();
    expect(await thrown(() => client.deleteEndpoint(""))).toBeInstanceOf(InvalidArgumentError);
    expect(await thrown(() => client.saveEndpoint({ ...ENDPOINT_INPUT, id: " " }))).toBeInstanceOf(InvalidArgumentError);
    expect(emu.stats().requests).toBe(0);
  });

  it("user values travel as variables: a name with GraphQL syntax is stored verbatim", async () => {
    const name = 'x") { id } mutation evil { deleteEndpoint(id: "y';
    const ep = await client.saveEndpoint({ ...ENDPOINT_INPUT, name });
    expect(ep.name).toBe(name);
  });
});

async function endpointWith(name: string, workersMin: number, workersMax: number) {
  const rec = await client.saveEndpoint({ ...ENDPOINT_INPUT, name, workersMin, workersMax });
  return { id: rec.id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds };
}

const onPlatform = (id: string) => emu.endpoints(emu.apiKey).find((e) => e.id === id);

describe("scaleDownAndDeleteEndpoint: the scale-to-zero saveEndpoint and deleteEndpoint as two fields of one document", () => {
  afterEach(() => emu.setFaults({}));

  it("scales down and deletes in one request carrying both calls", async () => {
    const ep = await endpointWith("sdd-one", 2, 3);
    emu.resetStats();
    await client.scaleDownAndDeleteEndpoint(ep);
    expect(onPlatform(ep.id)).toBeUndefined();
    expect(emu.stats().requests).toBe(1);
    expect(emu.stats().byOperation).toEqual({ saveEndpoint: 1, deleteEndpoint: 1 });
  });

  it("an endpoint that does not exist is a NotFoundError", async () => {
    const err = await thrown(() => client.scaleDownAndDeleteEndpoint({ id: "doesnotexist00", name: "x", templateId: "tpl_vllm", gpuIds: "AMPERE_24" }));
    expect(err).toBeInstanceOf(NotFoundError);
  });

  it("a refused scale-down leaves the endpoint as it was, and the error names both refusals", async () => {
    const ep = await endpointWith("sdd-refused", 1, 2);
    const err = await thrown(() => client.scaleDownAndDeleteEndpoint({ ...ep, gpuIds: "NOT_A_GPU" }));
    expect(err).toBeInstanceOf(GraphQLRequestError);
    expect((err as GraphQLRequestError).codes).toEqual(expect.arrayContaining(["FAILED_PRECONDITION", "BAD_USER_INPUT"]));
    expect(err.message).toMatch(/\(HTTP 200, deleteEndpoint\)$/);
    expect(err.message).toMatch(/NOT_A_GPU/);
    expect(onPlatform(ep.id)).toMatchObject({ workersMin: 1, workersMax: 2 });
  });

  it("a refused scale-down does not fail a delete that succeeded (workers were already at zero)", async () => {
    const ep = await endpointWith("sdd-zero", 0, 0);
    await expect(client.scaleDownAndDeleteEndpoint({ ...ep, gpuIds: "NOT_A_GPU" })).resolves.toBeUndefined();
    expect(onPlatform(ep.id)).toBeUndefined();
  });

  it("an answer lost after both took effect: the retry finds the endpoint gone and succeeds", async () => {
    const ep = await endpointWith("sdd-lost", 1, 1);
    emu.resetStats();
    // Seeded so that exactly the first request loses its answer.
    emu.setFaults({ dropAfterRate: 0.5, match: ["deleteEndpoint"], seed: 2 });
    await client.scaleDownAndDeleteEndpoint(ep);
    expect(onPlatform(ep.id)).toBeUndefined();
    expect(emu.stats().faultsByKind).toMatchObject({ dropAfter: 1 });
    expect(emu.stats().requests).toBe(2);
  });

  it("a platform that takes one mutation field per request gets two requests, from the refusal on", async () => {
    const fresh = clientFor(emu);
    const first = await endpointWith("sdd-single-1", 1, 3);
    const second = await endpointWith("sdd-single-2", 0, 2);
    emu.setFaults({ singleMutationField: true });
    emu.resetStats();
    await fresh.scaleDownAndDeleteEndpoint(first);
    expect(onPlatform(first.id)).toBeUndefined();
    // the refused document, then the scale-down and the delete
    expect(emu.stats().requests).toBe(3);
    emu.resetStats();
    await fresh.scaleDownAndDeleteEndpoint(second);
    expect(onPlatform(second.id)).toBeUndefined();
    expect(emu.stats().requests).toBe(2);
    expect(emu.stats().byOperation).toEqual({ saveEndpoint: 1, deleteEndpoint: 1 });
  });
});
