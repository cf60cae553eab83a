/** The catalog checks and the cost formula on catalog data from the REST v2 document's examples. */
import { Catalog } from "../../src/provider/catalog/catalog";
import { hourlyCost } from "../../src/provider/catalog/cost";
import { overLimit, StackLedger } from "../../src/provider/catalog/budget";
import { compareCuda, reviewSelection, unknownValue } from "../../src/provider/catalog/review";
import type { ComputeSelection } from "../../src/provider/catalog/selection";
import { exampleCpu, exampleGpu, smallCatalog } from "./catalogFixture";

const FIELDS: ComputeSelection["fields"] = {
  pools: "gpuIds",
  excludedTypes: "excludedGpuTypes",
  typeIds: "gpuTypeIds",
  count: "gpuCount",
  allowedCudaVersions: "allowedCudaVersions",
  minCudaVersion: "minCudaVersion",
  cpu: "cpu",
  dataCenterIds: "dataCenterIds",
  networkVolumes: "networkVolumeIds",
};

function gpuSelection(changes: Partial<NonNullable<ComputeSelection["gpu"]>> = {}, rest: Partial<ComputeSelection> = {}): ComputeSelection {
  return {
    gpu: { pools: ["ADA_24"], excludedTypes: [], typeIds: [], count: 1, allowedCudaVersions: [], ...changes },
    dataCenterIds: [],
    networkVolumeIds: [],
    fields: FIELDS,
    ...rest,
  };
}

const catalog = new Catalog(smallCatalog());
const volumes = [{ id: "vol1", name: "models", size: 50, dataCenter: "EU-RO-1", type: "STANDARD" }];

describe("catalog review", () => {
  it("accepts a known pool with HIGH availability: no failure, no warning", () => {
    expect(reviewSelection(gpuSelection(), catalog, volumes)).toEqual({ failures: [], warnings: [] });
  });

  it("fails on an unknown pool, naming the field, the nearest pool and the valid ones", () => {
    const { failures } = reviewSelection(gpuSelection({ pools: ["ADA_42"] }), catalog, volumes);
    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe("gpuIds");
    expect(failures[0].reason).toContain('"ADA_42" is not a serverless GPU pool of the catalog; nearest: "ADA_24"; valid: ADA_24, ADA_80_PRO');
    expect(failures[0].reason).toContain("ADA_24 (24 GB: RTX 4090, L4)");
  });

  it("names the id that holds a short name as its nearest value (docs/pod.md: a GPU type by its display name)", () => {
    const { failures } = reviewSelection(gpuSelection({ pools: [], typeIds: ["RTX 4090"] }), catalog, volumes);
    expect(failures).toEqual([
      { property: "gpuTypeIds", reason: expect.stringContaining('"RTX 4090" is not a GPU type of a serverless pool; nearest: "NVIDIA GeForce RTX 4090"') },
    ]);
    const ids = ["NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-80GB", "NVIDIA L4"];
    expect(unknownValue("a100", ids, "a GPU type")).toContain('nearest: "NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-80GB"; valid:');
    // Too short to be a part of a name, and nothing close: no nearest value, only the valid ones.
    expect(unknownValue("L", ids, "a GPU type")).toBe('"L" is not a GPU type; valid: NVIDIA A100 80GB PCIe, NVIDIA A100-SXM4-80GB, NVIDIA L4');
  });

  it("fails on a GPU type outside every serverless pool and on an exclusion outside the pools", () => {
    const types = reviewSelection(gpuSelection({ pools: [], typeIds: ["NVIDIA RTX A6000"] }), catalog, volumes).failures;
    expect(types).toEqual([{ property: "gpuTypeIds", reason: expect.stringContaining('"NVIDIA RTX A6000" is not a GPU type of a serverless pool') }]);
    const excluded = reviewSelection(gpuSelection({ excludedTypes: ["NVIDIA H100 80GB HBM3"] }), catalog, volumes).failures;
    expect(excluded[0]).toMatchObject({ property: "excludedGpuTypes", reason: expect.stringContaining("valid: NVIDIA GeForce RTX 4090, NVIDIA L4") });
    const all = reviewSelection(gpuSelection({ excludedTypes: ["NVIDIA GeForce RTX 4090", "NVIDIA L4"] }), catalog, volumes).failures;
    expect(all[0]).toMatchObject({ property: "excludedGpuTypes", reason: expect.stringContaining("excludes every GPU type of ADA_24") });
  });

  it("fails on more GPUs per worker than the types allow, and on an impossible CUDA constraint", () => {
    const count = reviewSelection(gpuSelection({ count: 9 }), catalog, volumes).failures;
    expect(count).toEqual([{ property: "gpuCount", reason: expect.stringContaining(`valid: 1 to ${exampleGpu().maxCount.secure}`) }]);
    const cuda = reviewSelection(gpuSelection({ allowedCudaVersions: ["11.8"] }), catalog, volumes).failures;
    expect(cuda).toEqual([{ property: "allowedCudaVersions", reason: expect.stringContaining("offered: 12.4, 12.8") }]);
    expect(reviewSelection(gpuSelection({ allowedCudaVersions: ["11.8", "12.8"] }), catalog, volumes).failures).toEqual([]);
    const min = reviewSelection(gpuSelection({ minCudaVersion: "12.9" }), catalog, volumes).failures;
    expect(min).toEqual([{ property: "minCudaVersion", reason: expect.stringContaining("highest: 12.8") }]);
    expect(compareCuda("12.11", "12.2")).toBeGreaterThan(0);
  });

  it("fails on an unknown data center and on a network volume outside the endpoint's data centers", () => {
    const dc = reviewSelection(gpuSelection({}, { dataCenterIds: ["US-KS-3"] }), catalog, volumes).failures;
    expect(dc).toEqual([{ property: "dataCenterIds", reason: expect.stringContaining('"US-KS-3" is not a data center of the catalog; nearest: "US-KS-2"') }]);
    const vol = reviewSelection(gpuSelection({}, { dataCenterIds: ["US-KS-2"], networkVolumeIds: ["vol1"] }), catalog, volumes).failures;
    expect(vol).toEqual([
      {
        property: "networkVolumeIds",
        reason: expect.stringContaining("network volume vol1 (models) is in data center EU-RO-1, which is not among the endpoint's dataCenterIds [US-KS-2]"),
      },
    ]);
    expect(reviewSelection(gpuSelection({}, { dataCenterIds: ["US-KS-2", "EU-RO-1"], networkVolumeIds: ["vol1"] }), catalog, volumes).failures).toEqual([]);
  });

  it("warns on scarce availability naming pool and data center; requireAvailability makes it a failure", () => {
    const sel = gpuSelection({ pools: ["ADA_80_PRO"] }, { dataCenterIds: ["US-KS-2", "EU-RO-1"] });
    expect(reviewSelection(sel, catalog, volumes)).toEqual({
      failures: [],
      warnings: ["GPU pool ADA_80_PRO has LOW availability in data center US-KS-2", "GPU pool ADA_80_PRO has NONE availability in data center EU-RO-1"],
    });
    const strict = reviewSelection(sel, catalog, volumes, { requireAvailability: true });
    expect(strict.warnings).toEqual([]);
    expect(strict.failures.map((f) => f.property)).toEqual(["gpuIds", "gpuIds"]);
    expect(strict.failures[0].reason).toContain("LOW availability in data center US-KS-2, and runpod:requireAvailability is set");
    // Without data centers: the pool's best level anywhere.
    expect(reviewSelection(gpuSelection({ pools: ["ADA_80_PRO"] }), catalog, volumes).warnings).toEqual([
      "GPU pool ADA_80_PRO has LOW availability in every data center (best: US-KS-2 LOW)",
    ]);
  });

  it("checks CPU flavors and vCPU counts (powers of two within the flavor's bounds)", () => {
    const cpu = (id: string, vcpuCount: number): ComputeSelection => ({
      cpu: { flavors: [{ id, vcpuCount }] },
      dataCenterIds: [],
      networkVolumeIds: [],
      fields: FIELDS,
    });
    expect(reviewSelection(cpu(exampleCpu().id, 4), catalog, volumes)).toEqual({ failures: [], warnings: [] });
    expect(reviewSelection(cpu(exampleCpu().id, 6), catalog, volumes).failures[0].reason).toContain("valid: 2, 4, 8, 16, 32");
    expect(reviewSelection(cpu("cpu3c-2-8", 4), catalog, volumes).failures[0].reason).toContain('nearest: "cpu3c-2-4"');
  });
});

describe("hourly cost", () => {
  it("prices every busy worker at the highest-priced pool it may land on, idle at min + standby", () => {
    const price = exampleGpu().price.serverless!;
    const one = hourlyCost(gpuSelection(), { min: 0, max: 3, standby: 0 }, catalog)!;
    expect(one).toMatchObject({ workerHourlyCost: price, maxHourlyCost: 3.3, idleHourlyCost: 0 });
    expect(price).toBe(1.1);
    const both = hourlyCost(gpuSelection({ pools: ["ADA_24", "ADA_80_PRO"], count: 2 }), { min: 1, max: 4, standby: 1 }, catalog)!;
    expect(both).toMatchObject({ workerHourlyCost: 5.44, maxHourlyCost: 21.76, idleHourlyCost: 10.88 });
    expect(both.priceSource).toContain("ADA_80_PRO (NVIDIA H100 80GB HBM3) 2.72/GPU × 2 GPUs");
    // Excluding the pricier type changes nothing within a pool (one rate per pool), types do.
    expect(hourlyCost(gpuSelection({ pools: [], typeIds: ["NVIDIA L4"] }), { min: 0, max: 5, standby: 0 }, catalog)!.maxHourlyCost).toBe(4);
  });

  it("prices CPU workers per vCPU, and prices nothing it cannot find", () => {
    const perVcpu = exampleCpu().price.serverlessPerVcpu;
    const cpu: ComputeSelection = { cpu: { flavors: [{ id: exampleCpu().id, vcpuCount: 4 }] }, dataCenterIds: [], networkVolumeIds: [], fields: FIELDS };
    expect(hourlyCost(cpu, { min: 2, max: 10, standby: 0 }, catalog)).toMatchObject({ maxHourlyCost: 1.2, idleHourlyCost: 0.24 });
    expect(perVcpu).toBe(0.03);
    expect(hourlyCost(gpuSelection({ pools: ["NOPE"] }), { min: 0, max: 1, standby: 0 }, catalog)).toBeUndefined();
  });
});

describe("budget guards", () => {
  it("the per-endpoint limit", () => {
    expect(overLimit(3.3, 5, "x")).toBeUndefined();
    expect(overLimit(3.3, null, "x")).toBeUndefined();
    expect(overLimit(3.3, 3, "ADA_24 1.1/GPU × 1 GPU")).toBe(
      "maxHourlyCost $3.30/h (ADA_24 1.1/GPU × 1 GPU) exceeds maxHourlyCostLimit $3.00/h; lower workersMax or choose cheaper pools, or raise the limit",
    );
  });

  it("the stack budget names each endpoint and its share; a re-check replaces an endpoint's entry", () => {
    const ledger = new StackLedger();
    ledger.record({ key: "llm", name: "llm-1a2b3c4", maxHourlyCost: 6 });
    ledger.record({ key: "embed", name: "embed", maxHourlyCost: 2 });
    expect(ledger.overBudget(10)).toBeUndefined();
    ledger.record({ key: "llm", name: "llm-1a2b3c4", maxHourlyCost: 10 });
    expect(ledger.total).toBe(12);
    expect(ledger.overBudget(10)).toBe(
      "the stack would cost up to $12.00/h (its endpoints with all workers busy, its pods running), over runpod:maxHourlyCost $10.00/h: llm (llm-1a2b3c4) $10.00/h = 83%, embed $2.00/h = 17%",
    );
  });

  it("declared members not checked yet count in the refusal's total, never in the decision", () => {
    const ledger = new StackLedger();
    ledger.expect([
      { kind: "endpoint", key: "big", args: {} },
      { kind: "endpoint", key: "llm", args: { workersMax: 1 } },
      { kind: "pod", key: "nb" },
    ]);
    ledger.record({ key: "big", name: "big-1a2b3c4", maxHourlyCost: 6 });
    expect(ledger.unchecked().map((m) => m.key)).toEqual(["llm", "nb"]);
    const llm = { key: "llm", name: "llm", maxHourlyCost: 2 };
    // Under the budget by what was checked: no refusal, whatever the unchecked ones would add.
    expect(ledger.overBudget(7, [llm], ["nb"])).toBeUndefined();
    expect(ledger.overBudget(5, [llm], ["nb"])).toBe(
      "the stack would cost up to $8.00/h (its endpoints with all workers busy, its pods running), over runpod:maxHourlyCost $5.00/h: big (big-1a2b3c4) $6.00/h = 75%, llm $2.00/h = 25%; not counted, their cost inputs unknown before their own check: nb",
    );
  });
});
