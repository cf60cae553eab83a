/**
 * The Endpoint's catalog review and cost estimate at `check`, against the emulator's REST v2 catalog
 * over real HTTP (docs/cost.md): the estimate outputs, one catalog read per session whatever the
 * number of endpoints and none for an unchanged one, availability warnings and requireAvailability,
 * the per-endpoint limit and the stack budget.
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api/types";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { NAME_PREFIX_PROPERTY } from "../../src/provider/reserved";
import { PlatformSession } from "../../src/provider/session";
import { emulatorPerFile, uniqueName } from "./harness";

let emu: RunningEmulator;
let client: PlatformClient;
emulatorPerFile((e, c) => ([emu, client] = [e, c]));
beforeEach(() => {
  emu.setFaults({});
});

/** A provider on a session of its own, as one deployment's provider process has; warnings collected. */
function deployment(catalogSettings: Record<string, string> = {}, api?: "v2" | "graphql") {
  const warnings: string[] = [];
  const session = new PlatformSession(() => client, { catalogSettings, warn: (m) => warnings.push(m), api });
  return { provider: new EndpointProvider(session), session, warnings };
}

const catalogReads = () => {
  const ops = emu.stats().byOperation;
  return { gpus: ops.listGpuTypes ?? 0, cpus: ops.listCpuTypes ?? 0, dataCenters: ops.listDataCenters ?? 0 };
};

/** The emulator's serverless price of `pool`, read from its own catalog answer (not restated here). */
async function poolPrice(pool: string): Promise<number> {
  const gpus = await client.v2.listGpuTypes({ include: ["AVAILABILITY"], product: ["SERVERLESS"] });
  return Math.max(...gpus.filter((g) => g.pool === pool).map((g) => g.price.serverless!));
}

/** Dollars to 1/10000, as the estimate keeps them. */
const usd = (n: number) => Math.round(n * 1e4) / 1e4;

const args = (resource: string, extra: Record<string, unknown> = {}) => ({
  [NAME_PREFIX_PROPERTY]: resource,
  templateId: "tpl_vllm",
  gpuIds: ["ADA_24"],
  ...extra,
});

describe("cost at preview", () => {
  it("a new endpoint gets maxHourlyCost and idleHourlyCost from the catalog's pool prices", async () => {
    const { provider } = deployment();
    const ada24 = await poolPrice("ADA_24");
    const ada80 = await poolPrice("ADA_80_PRO");
    const r = await provider.check(undefined, args("llm", { gpuIds: ["ADA_24", "ADA_80_PRO"], gpuCount: 2, workersMin: 1, workersMax: 4 }));
    expect(r.failures).toEqual([]);
    const worker = Math.max(ada24, ada80) * 2;
    expect(r.inputs).toMatchObject({ workerHourlyCost: usd(worker), maxHourlyCost: usd(worker * 4), idleHourlyCost: usd(worker) });
  });

  it("a workersMax change re-estimates; an unchanged endpoint carries its estimate without reading the catalog", async () => {
    const { provider } = deployment();
    const name = uniqueName("cost");
    const first = await provider.check(undefined, args("change", { name }));
    expect(first.failures).toEqual([]);
    const olds = first.inputs; // what the engine stores as the endpoint's inputs
    const created = await provider.create(olds);
    const outs = created.outs!;
    const price = await poolPrice("ADA_24");
    expect(olds).toMatchObject({ maxHourlyCost: usd(3 * price), idleHourlyCost: 0 });
    expect(outs).toMatchObject({ maxHourlyCost: usd(3 * price), idleHourlyCost: 0, workerHourlyCost: price });

    // A new deployment (process): nothing changed → no catalog read at all.
    const next = deployment();
    const before = catalogReads();
    const same = await next.provider.check(olds, args("change", { name }));
    expect(same.failures).toEqual([]);
    expect(same.inputs).toMatchObject({ maxHourlyCost: usd(3 * price), idleHourlyCost: 0 });
    expect((await next.provider.diff(created.id, outs as never, same.inputs)).changes).toBe(false);
    expect(catalogReads()).toEqual(before);

    // workersMax 3 → 7: a new estimate.
    const changed = await next.provider.check(olds, args("change", { name, workersMax: 7 }));
    expect(changed.inputs).toMatchObject({ maxHourlyCost: usd(7 * price) });
    expect(catalogReads()).toEqual({ gpus: before.gpus + 1, cpus: before.cpus + 1, dataCenters: before.dataCenters + 1 });
    await provider.delete(created.id, outs as never);
  });

  it("reads the catalog once per session for any number of endpoints checked at once", async () => {
    const { provider } = deployment();
    const before = catalogReads();
    const checks = await Promise.all(Array.from({ length: 25 }, (_, i) => provider.check(undefined, args(`many-${i}`, { workersMax: (i % 5) + 1 }))));
    expect(checks.every((c) => c.failures?.length === 0 && typeof c.inputs.maxHourlyCost === "number")).toBe(true);
    expect(catalogReads()).toEqual({ gpus: before.gpus + 1, cpus: before.cpus + 1, dataCenters: before.dataCenters + 1 });
  });
});

describe("catalog review at preview", () => {
  it("fails on a GPU type name the catalog does not have, naming the field and the nearest", async () => {
    const { provider } = deployment({}, "graphql"); // gpuTypeIds: the GraphQL path's input
    const r = await provider.check(undefined, { ...args("typo"), gpuIds: undefined, gpuTypeIds: ["NVIDIA GeForce RTX 4091"] });
    expect(r.failures).toEqual([
      {
        property: "gpuTypeIds",
        reason: expect.stringContaining('"NVIDIA GeForce RTX 4091" is not a GPU type of a serverless pool; nearest: "NVIDIA GeForce RTX 4090"'),
      },
    ]);
  });

  it("warns on low availability (the emulator's fault switch), and fails with runpod:requireAvailability", async () => {
    emu.setFaults({ availability: { ADA_80_PRO: { "*": "LOW" } } });
    const lax = deployment();
    const r = await lax.provider.check(undefined, args("scarce", { gpuIds: ["ADA_80_PRO"] }));
    expect(r.failures).toEqual([]);
    expect(lax.warnings).toEqual([expect.stringMatching(/GPU pool ADA_80_PRO has LOW availability in every data center/)]);

    const strict = deployment({ requireAvailability: "true" });
    const s = await strict.provider.check(undefined, args("scarce", { gpuIds: ["ADA_80_PRO"] }));
    expect(s.failures).toEqual([
      { property: "gpuIds", reason: expect.stringMatching(/GPU pool ADA_80_PRO has LOW availability .*runpod:requireAvailability is set/) },
    ]);
    expect(strict.warnings).toEqual([]);
  });

  it("a malformed provider setting fails naming its key", async () => {
    const { provider } = deployment({ maxHourlyCost: "ten" });
    await expect(provider.check(undefined, args("bad"))).rejects.toThrow(/runpod:maxHourlyCost must be a non-negative number/);
  });
});

describe("budget guards at preview", () => {
  it("maxHourlyCostLimit fails the preview when maxHourlyCost would exceed it", async () => {
    const { provider } = deployment();
    const price = await poolPrice("ADA_24");
    const ok = await provider.check(undefined, args("capped", { workersMax: 2, maxHourlyCostLimit: 2 * price }));
    expect(ok.failures).toEqual([]);
    const over = await provider.check(undefined, args("capped", { workersMax: 3, maxHourlyCostLimit: 2 * price }));
    expect(over.failures).toEqual([
      { property: "maxHourlyCostLimit", reason: expect.stringMatching(/^maxHourlyCost \$\d+\.\d\d\/h \(3 workers × \$[\d.]+\/h\) exceeds maxHourlyCostLimit/) },
    ]);
  });

  it("runpod:maxHourlyCost fails the check that takes the stack's sum over it, naming each endpoint's share", async () => {
    const price = await poolPrice("ADA_24");
    const { provider } = deployment({ maxHourlyCost: String(5 * price) });
    expect((await provider.check(undefined, args("a", { name: "a", workersMax: 2 }))).failures).toEqual([]);
    expect((await provider.check(undefined, args("b", { name: "b", workersMax: 3 }))).failures).toEqual([]);
    // Re-checking "a" (a replacement's second check) replaces its share rather than adding to it.
    expect((await provider.check(undefined, args("a", { name: "a", workersMax: 2 }))).failures).toEqual([]);
    const over = await provider.check(undefined, args("c", { name: "c", workersMax: 1 }));
    expect(over.failures).toEqual([{ property: "", reason: expect.stringContaining("over runpod:maxHourlyCost") }]);
    expect(over.failures![0].reason).toMatch(/b \$\d+\.\d\d\/h = 50%, a \$\d+\.\d\d\/h = 33%, c \$\d+\.\d\d\/h = 17%/);
  });

  it("an unreadable catalog fails a runpod:maxHourlyCost stack's check as the endpoint's own problem, on no property", async () => {
    const { provider } = deployment({ maxHourlyCost: "100" });
    emu.setFaults({ errorRate: 1, match: ["listGpuTypes", "listCpuTypes", "listDataCenters"] });
    const blind = await provider.check(undefined, args("blind", { name: "blind" }));
    expect(blind.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^cannot check runpod:maxHourlyCost: the platform's catalog could not be read/) },
    ]);
  });
});
