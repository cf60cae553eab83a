import type { RunningEmulator } from "../../emulator";
import {
  ApiHttpError,
  AuthenticationError,
  InvalidArgumentError,
  NotFoundError,
  PermissionError,
  RATE_LIMIT_WINDOWS,
  type PlatformClient,
} from "../../src/api";
import { ENDPOINT_INPUT, clientFor, eventually, startFastEmulator, thrown } from "./helpers";

let emu: RunningEmulator;
let client: PlatformClient;

beforeAll(async () => {
  emu = await startFastEmulator();
  client = clientFor(emu);
});
afterAll(() => emu.close());

describe("REST v1: POST /v1/endpoints", () => {
  it("creates an endpoint, mapping gpuTypeIds in priority order to tiers", async () => {
    const ep = await client.createEndpointRest({
      name: "rest-create",
      templateId: "tpl_comfy",
      gpuTypeIds: ["NVIDIA A100 80GB PCIe", "NVIDIA GeForce RTX 4090"],
      workersMin: 0,
      workersMax: 2,
      idleTimeout: 7,
    });
    expect(ep).toMatchObject({ name: "rest-create", templateId: "tpl_comfy", gpuIds: "AMPERE_80,ADA_24", workersMin: 0, workersMax: 2, idleTimeout: 7 });
    expect((await client.findEndpoint(ep.id))?.name).toBe("rest-create");
  });

  it("shows the whole problem details of a validation failure", async () => {
    const err = await thrown(() =>
      client.createEndpointRest({ name: "rest-bad", templateId: "tpl_comfy", gpuTypeIds: ["NVIDIA Imaginary 9000"], workersMin: 3, workersMax: 1 }),
    );
    expect(err).toBeInstanceOf(ApiHttpError);
    const e = err as ApiHttpError;
    expect(e.status).toBe(400);
    expect(e.problem).toBeDefined();
    // Summary first (the detail, then each error line once), then status and operation.
    expect(e.message.startsWith(e.problem!.detail.replace(/\.$/, ""))).toBe(true);
    for (const line of e.problem!.errors ?? []) expect(e.message.split(line.replace(/\.$/, "")).length).toBe(2);
    expect(e.message).toMatch(/ \(HTTP 400, createEndpointRest\)$/);
    expect(e.message).not.toMatch(/\.\.|status 400/);
    expect(e.message).toContain("NVIDIA Imaginary 9000");
    expect(e.outcomeUnknown).toBe(false);
  });

  it("rejects an empty gpuTypeIds list before sending", async () => {
    emu.resetStats();
    const err = await thrown(() => client.createEndpointRest({ name: "x", templateId: "tpl_comfy", gpuTypeIds: [] }));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).argument).toBe("gpuTypeIds");
    expect(emu.stats().requests).toBe(0);
  });

  it("distinguishes a bad key (401) from a read-only key (403)", async () => {
    const input = { name: "rest-auth", templateId: "tpl_comfy", gpuTypeIds: ["NVIDIA GeForce RTX 4090"] };
    expect(await thrown(() => clientFor(emu, { apiKey: "rpa_wrong" }).createEndpointRest(input))).toBeInstanceOf(AuthenticationError);
    expect(await thrown(() => clientFor(emu, { apiKey: emu.readOnlyApiKey }).createEndpointRest(input))).toBeInstanceOf(PermissionError);
    expect(emu.endpoints(emu.apiKey).filter((e) => e.name === "rest-auth")).toEqual([]);
  });
});

describe("REST v2", () => {
  it("lists the caller's network volumes", async () => {
    const volumes = await client.listNetworkVolumes();
    expect(volumes.map((v) => v.id).sort()).toEqual(["nv_cache01", "nv_models01"]);
    const models = volumes.find((v) => v.id === "nv_models01")!;
    expect(models).toMatchObject({ name: "models", size: 100, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" });
    const other = await clientFor(emu, { apiKey: emu.otherUserApiKey }).listNetworkVolumes();
    expect(other.map((v) => v.id)).not.toContain("nv_models01");
  });

  it("exposes the RateLimit figures of successful answers", async () => {
    const fresh = clientFor(emu);
    expect(fresh.rateLimit).toEqual({});
    await fresh.listNetworkVolumes();
    for (const w of RATE_LIMIT_WINDOWS) {
      const s = fresh.rateLimit[w]!;
      expect(s.remaining).toBeGreaterThanOrEqual(0);
      expect(s.quota).toBeGreaterThanOrEqual(s.remaining!);
      expect(s.resetSeconds).toBeGreaterThan(0);
    }
    expect(fresh.rateLimit.minute!.windowSeconds).toBe(60);
    expect(fresh.rateLimit.hour!.windowSeconds).toBe(3600);
    expect(fresh.rateLimit.day!.windowSeconds).toBe(86400);
  });

  it("lists workers of an endpoint once they run", async () => {
    const ep = await client.saveEndpoint({ ...ENDPOINT_INPUT, name: "rest-workers", workersMin: 2, workersMax: 2 });
    const workers = await eventually(async () => {
      const list = await client.listWorkers(ep.id);
      return list.length === 2 ? list : undefined;
    });
    for (const w of workers) expect(typeof w.id).toBe("string");
    expect(new Set(workers.map((w) => w.id)).size).toBe(2);
  });

  it("an unknown endpoint's workers are a NotFoundError with problem details", async () => {
    const err = await thrown(() => client.listWorkers("nope0000000000"));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).problem?.status).toBe(404);
    expect(err.message).toBe('Endpoint "nope0000000000" not found (HTTP 404, listWorkers)');
  });

  it("a bad key on REST v2 is an AuthenticationError", async () => {
    expect(await thrown(() => clientFor(emu, { apiKey: "rpa_wrong" }).listNetworkVolumes())).toBeInstanceOf(AuthenticationError);
  });
});
