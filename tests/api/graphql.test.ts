import type { RunningEmulator } from "../../emulator";
import {
  AuthenticationError,
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

    const modified = await client.saveEndpoint({ id: created.id, name: "gql-renamed", templateId: "tpl_vllm", gpuIds: "AMPERE_80", workersMax: 4, networkVolumeId: "nv_models01" });
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
    expect(g.message).toContain(g.messages[0]);
    expect(await client.findEndpoint(ep.id)).toBeDefined();
  });

  it("a validation error becomes GraphQLRequestError carrying every message", async () => {
    const before = emu.endpoints(emu.apiKey).length;
    const err = await thrown(() => client.saveEndpoint({ name: "gql-bad", templateId: "tpl_vllm", gpuIds: "NOT_A_TIER", type: "XX" as never }));
    expect(err).toBeInstanceOf(GraphQLRequestError);
    const g = err as GraphQLRequestError;
    expect(g.messages.length).toBeGreaterThan(0);
    expect(g.message).toMatch(/NOT_A_TIER|gpuIds/);
    for (const m of g.messages) expect(g.message).toContain(m);
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

  it("a bad key is an AuthenticationError that says what to fix", async () => {
    const bad = clientFor(emu, { apiKey: "rpa_not_a_real_key_123" });
    for (const call of [() => bad.myself(), () => bad.saveEndpoint({ ...ENDPOINT_INPUT })]) {
      const err = await thrown(call);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as AuthenticationError).status).toBe(401);
      expect(err.message).toContain("RUNPOD_API_KEY");
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
