/**
 * The catalog functions in the program process against the emulator (rest-v2-openapi.json › Catalog):
 * prices, availability and the document's filters, one read per distinct query and process (a query
 * without availability shares the serverless availability read), bad arguments refused before any request.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator";
import { CPU_FLAVORS, DATA_CENTERS, POOLS } from "../../emulator/catalog";
import {
  getCpuTypes,
  getCpuTypesOutput,
  getDataCenters,
  getDataCentersOutput,
  getGpuTypes,
  getGpuTypesOutput,
  type GetGpuTypesArgs,
} from "../../src/resources/catalog";
import { emulatorAddresses, startTestEmulator } from "../provider/harness";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
  delete process.env.RUNPOD_API_KEY;
  pulumi.runtime.setConfig("runpod:apiKey", emu.apiKey);
  for (const [k, v] of Object.entries(emulatorAddresses(emu))) pulumi.runtime.setConfig(`runpod:${k}`, v);
});
afterAll(async () => {
  await emu.close();
});

const valueOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply((v) => resolve(v)));
const reads = () => {
  const ops = emu.stats().byOperation;
  return { gpus: ops.listGpuTypes ?? 0, cpus: ops.listCpuTypes ?? 0, dataCenters: ops.listDataCenters ?? 0 };
};
const RTX_4090 = "NVIDIA GeForce RTX 4090";

describe("one read per distinct query and process", () => {
  it("getGpuTypes without and with serverless availability share one request; getCpuTypes likewise; repeats cost none", async () => {
    const before = reads();
    const [plain, serverless, again] = await Promise.all([getGpuTypes(), getGpuTypes({ product: ["SERVERLESS"] }), getGpuTypes({})]);
    const [cpus, cpusServerless] = await Promise.all([getCpuTypes(), getCpuTypes({ product: ["SERVERLESS"] })]);
    await getCpuTypes();
    expect(reads()).toEqual({ gpus: before.gpus + 1, cpus: before.cpus + 1, dataCenters: before.dataCenters });
    // Without `product`: no availability fields; otherwise the same records.
    for (const g of plain) expect(Object.keys(g)).not.toEqual(expect.arrayContaining(["availability"]));
    expect(plain.every((g) => g.availability === undefined && g.dataCenters === undefined && g.cudaVersions === undefined)).toBe(true);
    expect(serverless.every((g) => g.availability !== undefined)).toBe(true);
    expect(again).toEqual(plain);
    expect(serverless.map(({ availability: _a, dataCenters: _d, cudaVersions: _c, ...rest }) => rest)).toEqual(plain);
    expect(cpus.every((c) => c.availability === undefined)).toBe(true);
    expect(cpusServerless.every((c) => c.availability !== undefined)).toBe(true);
  });

  it("a caller changing a returned record does not change the next answer", async () => {
    const first = await getGpuTypes();
    first[0].name = "changed";
    expect((await getGpuTypes())[0].name).not.toBe("changed");
  });

  it("each distinct filter set is one request, whatever the order of its lists", async () => {
    const before = reads();
    await getDataCenters({ regions: ["EUROPE", "ASIA"] });
    await getDataCenters({ regions: ["ASIA", "EUROPE"] });
    await getGpuTypes({ product: ["POD"], countryCodes: ["FR", "DE"] });
    await getGpuTypes({ product: ["POD"], countryCodes: ["DE", "FR"] });
    expect(reads()).toEqual({ gpus: before.gpus + 1, cpus: before.cpus, dataCenters: before.dataCenters + 1 });
  });
});

describe("getGpuTypes", () => {
  it("gives every type with its pool, VRAM and prices (USD per GPU per hour)", async () => {
    const gpus = await getGpuTypes();
    const rtx = gpus.find((g) => g.id === RTX_4090)!;
    expect(rtx).toMatchObject({ name: "RTX 4090", pool: "ADA_24", manufacturer: "NVIDIA", memory: 24, secure: true, community: true });
    expect(rtx.price.serverless).toBe(POOLS.find((p) => p.id === "ADA_24")!.serverlessPricePerGpuHour);
    expect(rtx.price.secure).toBeGreaterThan(rtx.price.community);
    expect(gpus.find((g) => g.id === "NVIDIA L4")).toMatchObject({ community: false });
  });

  it("with product, gives availability overall and per data center, and the CUDA versions", async () => {
    const rtx = (await getGpuTypes({ product: ["SERVERLESS"] })).find((g) => g.id === RTX_4090)!;
    const hosting = DATA_CENTERS.filter((dc) => dc.pools.ADA_24);
    expect(rtx.dataCenters!.map((d) => d.id).sort()).toEqual(hosting.map((dc) => dc.id).sort());
    expect(rtx.availability).toBe("HIGH");
    expect(rtx.cudaVersions!.map((v) => v.version)).toEqual([...POOLS.find((p) => p.id === "ADA_24")!.cudaVersions]);
  });

  it("honours the availability filters: countryCodes, cudaVersions, minCudaVersion, count and cloud", async () => {
    const inRomania = await getGpuTypes({ product: ["POD"], countryCodes: ["RO"] });
    const roPools = Object.keys(DATA_CENTERS.find((dc) => dc.id === "EU-RO-1")!.pools);
    expect(inRomania.length).toBeGreaterThan(0);
    for (const g of inRomania) {
      expect(roPools).toContain(g.pool);
      expect(g.dataCenters!.map((d) => d.id)).toEqual(["EU-RO-1"]);
    }
    const exact = (await getGpuTypes({ product: ["POD"], cudaVersions: ["12.8", "11.8"] })).find((g) => g.id === RTX_4090)!;
    expect(exact.cudaVersions!.map((v) => v.version)).toEqual(["12.8"]);
    const floor = (await getGpuTypes({ product: ["POD"], minCudaVersion: "12.6" })).find((g) => g.id === RTX_4090)!;
    expect(floor.cudaVersions!.map((v) => v.version)).toEqual(["12.6", "12.7", "12.8"]);
    // 8 GPUs fit a secure-cloud machine, not a community one (maxCount.community is 4).
    const eight = (cloud?: "SECURE" | "COMMUNITY") =>
      getGpuTypes({ product: ["POD"], count: 8, ...(cloud ? { cloud } : {}) }).then((gs) => gs.find((g) => g.id === RTX_4090)!);
    const [secure, community, byDefault] = await Promise.all([eight("SECURE"), eight("COMMUNITY"), eight()]);
    expect(community.maxCount.community).toBeLessThan(8);
    expect(secure.availability).toBe("HIGH");
    expect(community.availability).toBe("NONE");
    expect(community.dataCenters).toBeUndefined();
    expect(byDefault.availability).toBe("HIGH");
    // A type not offered on the community cloud has no community availability.
    const l4 = (await getGpuTypes({ product: ["POD"], cloud: "COMMUNITY" })).find((g) => g.id === "NVIDIA L4")!;
    expect(l4.availability).toBe("NONE");
  });

  it("has an Output form taking Outputs", async () => {
    const gpus = await valueOf(getGpuTypesOutput({ product: pulumi.output(["SERVERLESS" as const]) }));
    expect(gpus.find((g) => g.id === RTX_4090)?.availability).toBe("HIGH");
  });

  it.each<[GetGpuTypesArgs | Record<string, unknown>, RegExp]>([
    [{ product: ["SERVERLES"] }, /getGpuTypes: product: "SERVERLES" is not one of POD, CLUSTER, SERVERLESS/],
    [{ count: 2 }, /getGpuTypes: count scopes availability, which needs product \(one or more of POD, CLUSTER, SERVERLESS\)/],
    [{ product: ["POD"], count: 0 }, /count must be an integer of at least 1; got 0/],
    [{ product: ["POD"], cloud: "secure" }, /cloud must be one of SECURE, COMMUNITY; got "secure"/],
    [{ product: ["POD"], countryCodes: ["fr"] }, /countryCodes: "fr" is not an uppercase ISO 3166-1 alpha-2 country code/],
    [{ product: ["POD"], cudaVersions: ["12"] }, /cudaVersions: "12" is not a CUDA version major.minor/],
    [{ product: ["POD"], cudaVersions: ["12.8"], minCudaVersion: "12" }, /cudaVersions .* or minCudaVersion .*, not both/],
    [{ gpuCount: 2 }, /unknown argument gpuCount; the arguments are product, count, cloud, countryCodes, cudaVersions, minCudaVersion/],
  ])("refuses %j before any request, naming the argument", async (args, message) => {
    const before = reads();
    const err = (await getGpuTypes(args as GetGpuTypesArgs).catch((e: unknown) => e)) as Error;
    expect(pulumi.RunError.isInstance(err)).toBe(true);
    expect(err.message).toMatch(message);
    expect(reads()).toEqual(before);
  });
});

describe("getCpuTypes", () => {
  it("gives every flavor with vCPU bounds, RAM and prices per vCPU", async () => {
    const cpus = await getCpuTypes();
    expect(cpus.map((c) => c.id).sort()).toEqual(CPU_FLAVORS.map((c) => c.id).sort());
    const cpu3m = cpus.find((c) => c.id === "cpu3m")!;
    const facts = CPU_FLAVORS.find((c) => c.id === "cpu3m")!;
    expect(cpu3m).toMatchObject({ vcpu: facts.vcpu, ramGbPerVcpu: facts.ramGbPerVcpu, price: facts.price });
  });

  it("honours vcpuCount: a flavor that cannot have that many vCPUs is unavailable", async () => {
    const cpus = await getCpuTypes({ product: ["POD"], vcpuCount: 32 });
    expect(cpus.find((c) => c.id === "cpu3m")!.availability).toBe("NONE");
    expect(cpus.find((c) => c.id === "cpu5c")!.availability).not.toBe("NONE");
    expect((await valueOf(getCpuTypesOutput({ product: ["SERVERLESS"] }))).every((c) => c.availability)).toBe(true);
  });

  it("refuses a vcpuCount that is no power of two, or without product", async () => {
    await expect(getCpuTypes({ product: ["POD"], vcpuCount: 6 })).rejects.toThrow(/getCpuTypes: vcpuCount must be a power of two \(2, 4, 8, …\); got 6/);
    await expect(getCpuTypes({ vcpuCount: 4 })).rejects.toThrow(/vcpuCount scopes availability, which needs product \(one or more of POD, SERVERLESS\)/);
    await expect(getCpuTypes({ product: ["CLUSTER"] } as never)).rejects.toThrow(/product: "CLUSTER" is not one of POD, SERVERLESS/);
  });
});

describe("getDataCenters", () => {
  const ids = (dcs: { id: string }[]) => dcs.map((d) => d.id).sort();
  const facts = (keep: (dc: (typeof DATA_CENTERS)[number]) => boolean) =>
    DATA_CENTERS.filter(keep)
      .map((dc) => dc.id)
      .sort();

  it("lists every data center without filters", async () => {
    expect(ids(await getDataCenters())).toEqual(facts(() => true));
  });

  it("filters: regions (any), networkVolumeTypes and compliance (all), globalNetwork, combined with AND", async () => {
    expect(ids(await getDataCenters({ regions: ["EUROPE"] }))).toEqual(facts((dc) => dc.region === "EUROPE"));
    expect(ids(await getDataCenters({ networkVolumeTypes: ["STANDARD", "HIGH_PERFORMANCE"] }))).toEqual(
      facts((dc) => dc.networkVolumeTypes.includes("HIGH_PERFORMANCE") && dc.networkVolumeTypes.includes("STANDARD")),
    );
    expect(ids(await getDataCenters({ compliance: ["GDPR", "SOC_2_TYPE_2"] }))).toEqual(
      facts((dc) => dc.compliance.includes("GDPR") && dc.compliance.includes("SOC_2_TYPE_2")),
    );
    expect(ids(await getDataCenters({ globalNetwork: false, regions: ["EUROPE"] }))).toEqual(facts((dc) => !dc.globalNetwork && dc.region === "EUROPE"));
    expect(ids(await getDataCenters({ regions: ["EUROPE"] }))).not.toEqual([]);
  });

  it("include adds the GPU and CPU availability of each data center", async () => {
    const [ro] = await valueOf(
      getDataCentersOutput({ regions: ["EUROPE"], include: ["GPU_AVAILABILITY", "CPU_AVAILABILITY"] }).apply((dcs) => dcs.filter((d) => d.id === "EU-RO-1")),
    );
    expect(ro.gpuAvailability!.find((g) => g.id === RTX_4090)?.availability).toBe("HIGH");
    expect(ro.cpuAvailability!.map((c) => c.id).sort()).toEqual(Object.keys(DATA_CENTERS.find((dc) => dc.id === "EU-RO-1")!.cpus).sort());
    expect((await getDataCenters({ regions: ["EUROPE"] })).every((d) => d.gpuAvailability === undefined)).toBe(true);
  });

  it("refuses unknown values naming the allowed ones", async () => {
    await expect(getDataCenters({ regions: ["EU"] } as never)).rejects.toThrow(
      /getDataCenters: regions: "EU" is not one of NORTH_AMERICA, SOUTH_AMERICA, EUROPE/,
    );
    await expect(getDataCenters({ compliance: ["SOC2"] } as never)).rejects.toThrow(/compliance: "SOC2" is not one of GDPR/);
    await expect(getDataCenters({ globalNetwork: "yes" } as never)).rejects.toThrow(/globalNetwork must be true or false; got "yes"/);
    await expect(getDataCenters({ regions: [] })).rejects.toThrow(/regions must be a non-empty list/);
  });
});

describe("configuration", () => {
  it("a bad key is a RunError saying how to set the config key, without the key", async () => {
    pulumi.runtime.setConfig("runpod:apiKey", "rpa_wrong_key");
    try {
      const err = (await getDataCenters({ regions: ["ASIA"] }).catch((e: unknown) => e)) as Error;
      expect(pulumi.RunError.isInstance(err)).toBe(true);
      expect(err.message).toMatch(/runpod getDataCenters failed/);
      expect(err.message).toMatch(/pulumi config set --secret runpod:apiKey/);
      expect(err.message).not.toContain("rpa_wrong_key");
    } finally {
      pulumi.runtime.setConfig("runpod:apiKey", emu.apiKey);
    }
  });
});
