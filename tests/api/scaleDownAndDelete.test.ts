/**
 * `scaleDownAndDeleteEndpoint`: the scale-to-zero `saveEndpoint` and `deleteEndpoint` as two fields of
 * one mutation document, against the emulator over HTTP; each field's outcome read on its own.
 */
import type { RunningEmulator } from "../../emulator";
import { GraphQLRequestError, NotFoundError, type PlatformClient } from "../../src/api";
import { ENDPOINT_INPUT, clientFor, startFastEmulator, thrown } from "./helpers";

let emu: RunningEmulator;
let client: PlatformClient;

beforeAll(async () => {
  emu = await startFastEmulator();
  client = clientFor(emu);
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

async function endpointWith(name: string, workersMin: number, workersMax: number) {
  const rec = await client.saveEndpoint({ ...ENDPOINT_INPUT, name, workersMin, workersMax });
  return { id: rec.id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds };
}

const onPlatform = (id: string) => emu.endpoints(emu.apiKey).find((e) => e.id === id);

describe("scaleDownAndDeleteEndpoint", () => {
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
    expect(err.message).toMatch(/^deleteEndpoint failed/);
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
