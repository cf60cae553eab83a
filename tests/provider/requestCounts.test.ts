/**
 * Requests the Endpoint provider spends per engine operation (issue #8), driven the way the engine
 * drives it — N resources, 8 operations in flight — against the emulator over HTTP: auto-named creates,
 * updates and deletes spend exactly the spec's minimum (1, 1 and 2 calls each; a delete's two calls
 * travel in one request), reads share one
 * listing, creates of chosen names share one "what existed before" listing; and none of it costs the
 * create-once guarantee (issue #6).
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api/types";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { forEachLimited } from "../../bench/pool";
import { checked, emulatorClient, emulatorPerFile, uniqueName } from "./harness";
import { PlatformSession } from "../../src/provider/session";

// This file checks the GraphQL path's requests (saveEndpoint, myself, REST v1 create), so it pins
// runpod:api to graphql; the default path (v2) is covered by v2Path.integration.test.ts.
process.env.RUNPOD_API = "graphql";

const N = 12;
const PARALLEL = 8;

let emu: RunningEmulator;
let client: PlatformClient;
let outside: PlatformClient;
emulatorPerFile((e, c) => ([emu, client, outside] = [e, c, emulatorClient(e)]));
beforeEach(() => emu.setFaults({}));

const indexes = [...Array(N).keys()];
/** Outputs as the engine hands them back to the provider. */
const props = (outs: unknown) => outs as Record<string, unknown>;

/** Runs `op` over every index with the engine's parallelism and returns the emulator's counts for it: HTTP requests, and calls by operation. */
async function counted(op: (i: number) => Promise<void>): Promise<{ requests: number; calls: Record<string, number> }> {
  emu.resetStats();
  await forEachLimited(indexes, PARALLEL, op);
  return { requests: emu.stats().requests, calls: emu.stats().byOperation };
}

describe("requests per operation, N endpoints at parallelism 8", () => {
  it("auto-named: create N → N creates; refresh → 1 listing; update → N; delete → a look at each one's workers, then 2N calls in N requests", async () => {
    // The engine's provider process lives for one operation: a new provider each time.
    const prefix = uniqueName("counts");
    const inputs = await Promise.all(
      indexes.map((i) =>
        checked(new EndpointProvider(new PlatformSession(() => client)), {
          __namePrefix: `${prefix}-${i}`,
          templateId: "tpl_vllm",
          gpuIds: ["ADA_24"],
          idleTimeout: 30,
        }),
      ),
    );
    const outs: Record<string, unknown>[] = [];
    const ids: string[] = [];

    let provider = new EndpointProvider(new PlatformSession(() => client));
    expect(
      await counted(async (i) => {
        const r = await provider.create(inputs[i]);
        ids[i] = r.id;
        outs[i] = props(r.outs);
      }),
    ).toEqual({ requests: N, calls: { saveEndpoint: N } });
    expect(new Set(ids).size).toBe(N);

    provider = new EndpointProvider(new PlatformSession(() => client));
    expect(
      await counted(async (i) => {
        expect((await provider.read(ids[i], outs[i])).id).toBe(ids[i]);
      }),
    ).toEqual({ requests: 1, calls: { myself: 1 } });

    provider = new EndpointProvider(new PlatformSession(() => client));
    expect(
      await counted(async (i) => {
        const news = (await provider.check(inputs[i], { ...inputs[i], idleTimeout: 60 })).inputs;
        expect((await provider.diff(ids[i], outs[i], news)).changes).toBe(true);
        outs[i] = props((await provider.update(ids[i], outs[i], news)).outs);
      }),
    ).toEqual({ requests: N, calls: { saveEndpoint: N } });

    provider = new EndpointProvider(new PlatformSession(() => client));
    // The worker listing first: a delete would cancel a job in progress (none here, so scale-down and delete go in one request).
    expect(await counted((i) => provider.delete(ids[i], outs[i]))).toEqual({
      requests: 2 * N,
      calls: { listWorkers: N, saveEndpoint: N, deleteEndpoint: N },
    });
    expect(emu.endpoints(emu.apiKey).filter((e) => e.name.startsWith(`${prefix}-`))).toEqual([]);
  });

  it("chosen names: create N → N creates + 1 listing of what existed before", async () => {
    const prefix = uniqueName("chosen");
    const provider = new EndpointProvider(new PlatformSession(() => client));
    const inputs = await Promise.all(indexes.map((i) => checked(provider, { name: `${prefix}-${i}`, templateId: "tpl_vllm", gpuIds: ["ADA_24"] })));
    const made: { id: string; outs?: unknown }[] = [];
    expect(
      await counted(async (i) => {
        made[i] = await provider.create(inputs[i]);
      }),
    ).toEqual({ requests: N + 1, calls: { saveEndpoint: N, myself: 1 } });
    for (const r of made) await provider.delete(r.id, props(r.outs));
  });

  it("a lookup of an endpoint this process changed takes a new listing; lookups of the others share the old one", async () => {
    const provider = new EndpointProvider(new PlatformSession(() => client));
    const aInputs = await checked(provider, { name: uniqueName("fresh-a"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    const a = await provider.create(aInputs);
    const b = await provider.create(await checked(provider, { name: uniqueName("fresh-b"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] }));
    await Promise.all([provider.read(a.id, props(a.outs)), provider.read(b.id, props(b.outs))]);
    const news = (await provider.check(aInputs, { ...aInputs, workersMax: 5 })).inputs;
    await provider.update(a.id, props(a.outs), news);
    emu.resetStats();
    expect((await provider.read(b.id, props(b.outs))).props).toMatchObject({ workersMax: 3 });
    expect(emu.stats().requests).toBe(0);
    expect((await provider.read(a.id, props(a.outs))).props).toMatchObject({ workersMax: 5 });
    expect(emu.stats().byOperation).toEqual({ myself: 1 });
    await provider.delete(a.id, {});
    expect(await provider.read(a.id, props(a.outs))).toEqual({});
    await provider.delete(b.id, props(b.outs));
  });
});

describe("one listing for all creates keeps create-once", () => {
  it("an endpoint this provider created earlier with the same name and template is never taken for a later one", async () => {
    const provider = new EndpointProvider(new PlatformSession(() => client));
    const args = await checked(provider, { name: uniqueName("sibling"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    const first = await provider.create(args);
    emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
    const second = await provider.create(args);
    emu.setFaults({});
    expect(second.id).not.toBe(first.id);
    expect(
      emu
        .endpoints(emu.apiKey)
        .filter((e) => e.name === args.name)
        .map((e) => e.id)
        .sort(),
    ).toEqual([first.id, second.id].sort());
    for (const r of [first, second]) await provider.delete(r.id, props(r.outs));
  });

  it("concurrent creates with one name and template, every answer lost after taking effect: each adopts its own endpoint", async () => {
    const provider = new EndpointProvider(new PlatformSession(() => client));
    const args = await checked(provider, { name: uniqueName("twins"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    await provider.directory.list();
    emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
    const made = await Promise.all([provider.create(args), provider.create(args), provider.create(args)]);
    emu.setFaults({});
    const onPlatform = emu.endpoints(emu.apiKey).filter((e) => e.name === args.name);
    expect(onPlatform).toHaveLength(3);
    expect(made.map((r) => r.id).sort()).toEqual(onPlatform.map((e) => e.id).sort());
    for (const r of made) await provider.delete(r.id, props(r.outs));
  });

  it("a create refused twice never takes an endpoint of that name and template that existed before the provider's listing", async () => {
    const provider = new EndpointProvider(new PlatformSession(() => client));
    const args = await checked(provider, { name: uniqueName("older"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    const older = await outside.saveEndpoint({ name: args.name as string, templateId: "tpl_vllm", gpuIds: "ADA_24" });
    // Another create first: the listing of what existed, shared by later creates, is taken then.
    const other = await provider.create(await checked(provider, { name: uniqueName("first"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] }));
    emu.resetStats();
    emu.setFaults({ errorRate: 1, match: ["saveEndpoint"] });
    const err = (await provider.create(args).catch((e: unknown) => e)) as Error & { outcomeUnknown?: boolean };
    emu.setFaults({});
    expect(err.outcomeUnknown).toBe(true);
    // tried, looked (nothing new), tried once more, looked again
    expect(emu.stats().byOperation).toEqual({ saveEndpoint: 2, myself: 2 });
    expect(
      emu
        .endpoints(emu.apiKey)
        .filter((e) => e.name === args.name)
        .map((e) => e.id),
    ).toEqual([older.id]);
    await provider.delete(other.id, props(other.outs));
    await provider.delete(older.id, {});
  });
});
