/**
 * The Endpoint provider's readiness wait (`waitForWorkers`, `workersReadyTimeout`; issue #7), the
 * provider-only settings through diff and read, `locations` order across a refresh and `Endpoint.get`'s
 * lookup, against the emulator over real HTTP.
 *
 * Two emulators: in `quick` workers become ready after a short start; in `stuck` they take far longer
 * than any wait of this file, so a wait there can only end by running out of time.
 */
import type { RunningEmulator } from "../../emulator";
import { isWorkerReady } from "../../src/api";
import type { PlatformClient } from "../../src/api/types";
import { EndpointInitError, EndpointProvider } from "../../src/provider/endpoint/provider";
import { LOOKUP_PROPERTY } from "../../src/provider/reserved";
import { checked, emulatorClient, startTestEmulator, uniqueName } from "./harness";
import { PlatformSession } from "../../src/provider/session";

// This file checks the GraphQL path's requests (saveEndpoint, myself, REST v1 create), so it pins
// runpod:api to graphql; the default path (v2) is covered by v2Path.integration.test.ts.
process.env.RUNPOD_API = "graphql";

let quick: RunningEmulator;
let stuck: RunningEmulator;
let quickClient: PlatformClient;
let stuckClient: PlatformClient;

beforeAll(async () => {
  [quick, stuck] = await Promise.all([startTestEmulator({ workerStartMs: 150 }), startTestEmulator({ workerStartMs: 600_000 })]);
  quickClient = emulatorClient(quick);
  stuckClient = emulatorClient(stuck);
});
afterAll(async () => {
  await Promise.all([quick.close(), stuck.close()]);
});

/**
 * A provider of `client` polling the worker listing every 20 ms. Each Pulumi command runs a provider
 * of its own, so a "later" refresh uses a new one (a provider shares its endpoint listing for a burst).
 */
const providerOf = (client: PlatformClient) => new EndpointProvider(new PlatformSession(() => client), { readinessPollMs: 20 });

const readyCount = async (client: PlatformClient, id: string) => (await client.listWorkers(id)).filter(isWorkerReady).length;

describe("readiness wait on create", () => {
  it("waitForWorkers: create returns once workersMin workers are ready, and the listing shows them", async () => {
    const provider = providerOf(quickClient);
    const inputs = await checked(provider, { name: uniqueName("ready"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 2, waitForWorkers: true });
    quick.resetStats();
    const { id, outs } = await provider.create(inputs);
    // Right after create returns (no pause): at least workersMin workers report ready.
    expect(await readyCount(quickClient, id)).toBeGreaterThanOrEqual(2);
    expect(quick.stats().byOperation.listWorkers).toBeGreaterThanOrEqual(1);
    expect(outs).toMatchObject({ endpointId: id, workersMin: 2, waitForWorkers: true, workersReadyTimeout: 600 });
    await provider.delete(id, outs as never);
  });

  it("a readiness timeout keeps the endpoint: EndpointInitError with its id, outputs and the figures", async () => {
    const provider = providerOf(stuckClient);
    const name = uniqueName("stuck");
    const inputs = await checked(provider, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 1, waitForWorkers: true, workersReadyTimeout: 1 });
    const err = await provider.create(inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EndpointInitError);
    const init = err as EndpointInitError;
    const onPlatform = stuck.endpoints(stuck.apiKey).filter((e) => e.name === name);
    expect(onPlatform.map((e) => e.id)).toEqual([init.id]);
    expect(init.properties).toMatchObject({ endpointId: init.id, name, workersMin: 1, waitForWorkers: true, workersReadyTimeout: 1 });
    expect(init.message).toMatch(new RegExp(`Endpoint ${init.id} exists, but 0 of 1 worker was ready after 1 seconds.*workersReadyTimeout.*pulumi up`));
    expect(init.message).not.toContain(stuck.apiKey);
    await provider.delete(init.id, init.properties as never);
    expect(stuck.endpoints(stuck.apiKey).filter((e) => e.name === name)).toEqual([]);
  });

  it("waitForWorkers false (default), or workersMin 0: create does not list workers at all", async () => {
    const provider = providerOf(stuckClient);
    for (const args of [{ workersMin: 1 }, { workersMin: 1, waitForWorkers: false }, { workersMin: 0, waitForWorkers: true }]) {
      const inputs = await checked(provider, { name: uniqueName("nowait"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], ...args });
      stuck.resetStats();
      const { id, outs } = await provider.create(inputs);
      expect({ args, listWorkers: stuck.stats().byOperation.listWorkers ?? 0 }).toEqual({ args, listWorkers: 0 });
      // Workers of this emulator never become ready within the test, so a wait could not have returned.
      expect(await readyCount(stuckClient, id)).toBe(0);
      await provider.delete(id, outs as never);
    }
  });
});

describe("readiness wait on update", () => {
  it("raising workersMin with waitForWorkers: update returns once the new workersMin are ready", async () => {
    const provider = providerOf(quickClient);
    const args = { name: uniqueName("grow"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], waitForWorkers: true };
    const { id, outs } = await provider.create(await checked(provider, args));
    const next = await checked(provider, { ...args, workersMin: 2 });
    const up = await provider.update(id, outs as never, next);
    expect(await readyCount(quickClient, id)).toBeGreaterThanOrEqual(2);
    expect(up.outs).toMatchObject({ workersMin: 2, waitForWorkers: true });
    await provider.delete(id, up.outs as never);
  });

  it("a readiness timeout on update is a plain error with the figures; the change is applied", async () => {
    const provider = providerOf(stuckClient);
    const args = { name: uniqueName("grow-stuck"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], waitForWorkers: true, workersReadyTimeout: 1 };
    const { id, outs } = await provider.create(await checked(provider, args));
    const next = await checked(provider, { ...args, workersMin: 1 });
    const err = (await provider.update(id, outs as never, next).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(EndpointInitError);
    expect(err.message).toMatch(new RegExp(`Endpoint ${id} was updated, but 0 of 1 worker was ready after 1 seconds`));
    expect(stuck.endpoints(stuck.apiKey).find((e) => e.id === id)).toMatchObject({ workersMin: 1 });
    await provider.delete(id, outs as never);
  });
});

describe("provider-only settings through diff and read", () => {
  it("changing only waitForWorkers / workersReadyTimeout is no diff, also after a refresh; read carries them", async () => {
    const provider = providerOf(quickClient);
    const args = { name: uniqueName("settings"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], waitForWorkers: false };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    for (const change of [{ waitForWorkers: true }, { workersReadyTimeout: 42 }, { waitForWorkers: true, workersReadyTimeout: 3600 }]) {
      const news = await checked(provider, { ...args, ...change }, inputs);
      expect({ change, diff: await provider.diff(id, outs as never, news) }).toMatchObject({ change, diff: { changes: false, replaces: [], changed: [] } });
    }

    // refresh: the platform does not report the settings; they come from the stored outputs
    const stored = { ...outs, waitForWorkers: true, workersReadyTimeout: 42 };
    const read = await provider.read(id, stored as never);
    expect(read.props).toMatchObject({ waitForWorkers: true, workersReadyTimeout: 42 });
    expect(read.inputs).toMatchObject({ waitForWorkers: true, workersReadyTimeout: 42 });
    expect(await provider.diff(id, read.props as never, await checked(provider, args, read.inputs as never))).toMatchObject({ changes: false });
    // an import or Endpoint.get (no stored outputs): the defaults
    const fresh = await provider.read(id, {});
    expect(fresh.props).toMatchObject({ waitForWorkers: false, workersReadyTimeout: 600 });
    expect(fresh.inputs).toMatchObject({ waitForWorkers: false, workersReadyTimeout: 600 });
    await provider.delete(id, outs as never);
  });
});

describe("locations order across a refresh", () => {
  it("the platform reporting the same regions in another order keeps the stored order (outputs and inputs)", async () => {
    const provider = providerOf(quickClient);
    const args = { name: uniqueName("regions"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], locations: ["US", "FR", "RO"] };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect(outs!.locations).toEqual(["US", "FR", "RO"]);

    // Reordered (and workersMax changed, a real drift) behind the provider's back.
    await quickClient.saveEndpoint({ id, name: args.name, templateId: "tpl_vllm", gpuIds: "ADA_24", locations: "RO,FR,US", workersMax: 5 });
    expect(quick.endpoints(quick.apiKey).find((e) => e.id === id)!.locations).toBe("RO,FR,US");
    const read = await providerOf(quickClient).read(id, outs as never);
    expect(read.props).toMatchObject({ locations: ["US", "FR", "RO"], workersMax: 5 });
    expect(read.inputs).toMatchObject({ locations: ["US", "FR", "RO"], workersMax: 5 });
    expect(await provider.diff(id, read.props as never, inputs)).toMatchObject({ changes: true, changed: ["workersMax"] });

    // Other regions: the platform's list, as reported.
    await quickClient.saveEndpoint({ id, name: args.name, templateId: "tpl_vllm", gpuIds: "ADA_24", locations: "NO,US" });
    const read2 = await providerOf(quickClient).read(id, read.props as never);
    expect(read2.props).toMatchObject({ locations: ["NO", "US"] });
    expect(read2.inputs).toMatchObject({ locations: ["NO", "US"] });
    await provider.delete(id, outs as never);
  });

  it("create and update keep the declared order when the platform answers with the same regions", async () => {
    const provider = providerOf(quickClient);
    const args = { name: uniqueName("regions-up"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], locations: ["CZ", "GB"] };
    const { id, outs } = await provider.create(await checked(provider, args));
    const up = await provider.update(id, outs as never, await checked(provider, { ...args, locations: ["GB", "CZ"], idleTimeout: 7 }));
    expect(up.outs).toMatchObject({ locations: ["GB", "CZ"], idleTimeout: 7 });
    await provider.delete(id, up.outs as never);
  });
});

describe("Endpoint.get", () => {
  it("a lookup of an id with no endpoint fails; a refresh or adoption of one drops it from the stack", async () => {
    const provider = providerOf(quickClient);
    await expect(provider.read("nosuchendpoint", { [LOOKUP_PROPERTY]: true })).rejects.toThrow(/Endpoint\.get: no endpoint with id "nosuchendpoint"/);
    await expect(provider.read("nosuchendpoint", {})).resolves.toEqual({});
    const rec = await quickClient.saveEndpoint({ name: uniqueName("lookup"), templateId: "tpl_vllm", gpuIds: "ADA_24" });
    expect(await providerOf(quickClient).read(rec.id, { [LOOKUP_PROPERTY]: true })).toMatchObject({
      id: rec.id,
      props: { endpointId: rec.id, name: rec.name },
    });
    await provider.delete(rec.id, {});
  });
});
