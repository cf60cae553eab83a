/**
 * The provider runtime (src/provider/runtime.ts) against the emulator over HTTP: one session (client,
 * listings, create bookkeeping) per configuration, kept across repeated `configure` calls with the same
 * configuration and replaced, deliberately, when the configuration changes.
 */
import type { RunningEmulator } from "../../emulator";
import { KINDS, RESOURCE_KINDS } from "../../src/provider/kinds";
import { ProviderRuntime } from "../../src/provider/runtime";
import { emulatorConfig, emulatorPerFile, uniqueName } from "./harness";

/** One read of the serverless catalog (check's review and estimate, docs/cost.md). */
const CATALOG_READ = { listGpuTypes: 1, listCpuTypes: 1, listDataCenters: 1 };

let emu: RunningEmulator;
let config: Record<string, string>;
// The bookkeeping is counted in GraphQL listings (myself); the v2 path shares the same runtime code.
emulatorPerFile((e) => ([emu, config] = [e, { ...emulatorConfig(e), "runpod:api": "graphql" }]));

/** Lookups of one test share a listing however slow the machine (the default 1 s window is a burst's, not a test's). */
const LOOKUP_WINDOW_MS = 60_000;

const source = (c: Record<string, string>) => ({ config: { get: (key: string) => c[key] } });

/** check + create of a chosen-name endpoint through the runtime's endpoint provider. */
async function createThrough(runtime: ProviderRuntime): Promise<string> {
  const provider = await runtime.provider("endpoint");
  const { inputs, failures } = await provider.check({}, { name: uniqueName("rt"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
  expect(failures).toEqual([]);
  return (await provider.create(inputs!)).id;
}

describe("ProviderRuntime", () => {
  it("every model's kind is its key in the resource list", () => {
    for (const [kind, entry] of Object.entries(RESOURCE_KINDS)) expect(entry.model.kind).toBe(kind);
  });

  it("the same configuration again keeps the provider and its bookkeeping: one pre-create listing for all creates", async () => {
    const runtime = new ProviderRuntime(KINDS, LOOKUP_WINDOW_MS);
    runtime.configure(source(config));
    const provider = await runtime.provider("endpoint");
    emu.resetStats();
    await createThrough(runtime);
    runtime.configure(source({ ...config }));
    expect(await runtime.provider("endpoint")).toBe(provider);
    await createThrough(runtime);
    // One template listing for check's templateId lookups, one pre-create endpoint listing, one catalog read.
    expect(emu.stats().byOperation).toEqual({ myself: 2, saveEndpoint: 2, ...CATALOG_READ });
    expect(runtime.configurationCount).toBe(1);
  });

  it("a changed configuration gets a new client and fresh bookkeeping (the old ones describe another account or address)", async () => {
    const runtime = new ProviderRuntime(KINDS, LOOKUP_WINDOW_MS);
    runtime.configure(source(config));
    const provider = await runtime.provider("endpoint");
    emu.resetStats();
    await createThrough(runtime);
    runtime.configure(source({ ...config, "runpod:timeoutMs": "20000" }));
    expect(runtime.configurationCount).toBe(2);
    expect(await runtime.provider("endpoint")).not.toBe(provider);
    await createThrough(runtime);
    // Per configuration: one template listing (check), one pre-create endpoint listing, one catalog read.
    expect(emu.stats().byOperation).toEqual({ myself: 4, saveEndpoint: 2, listGpuTypes: 2, listCpuTypes: 2, listDataCenters: 2 });
  });

  it("a configuration without a key fails at the first operation, naming the setting; the next configuration recovers", async () => {
    const runtime = new ProviderRuntime();
    const { "runpod:apiKey": _key, ...keyless } = config;
    runtime.configure(source(keyless));
    const provider = await runtime.provider("endpoint");
    await expect(provider.check({}, { name: "x", templateId: "tpl_vllm", gpuIds: ["ADA_24"] })).rejects.toThrow(/runpod:apiKey/);
    runtime.configure(source(config));
    await expect(createThrough(runtime)).resolves.toMatch(/\w+/);
  });

  it("a host without configuration means nothing set", () => {
    const runtime = new ProviderRuntime();
    runtime.configure({
      config: {
        get: () => {
          throw new Error("no config");
        },
      },
    });
    runtime.configure(undefined);
    expect(runtime.configurationCount).toBe(1);
  });

  it("an unknown resource kind is an error naming the kinds there are", async () => {
    await expect(new ProviderRuntime().provider("nope")).rejects.toThrow(/no resource kind "nope"; it has endpoint/);
  });
});
