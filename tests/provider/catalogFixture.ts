/**
 * Catalog data for unit tests, built from the vendored REST v2 document's own response examples
 * (listGpuTypes, listCpuTypes, listDataCenters, listServerlessBilling): each record is the
 * document's example, varied only in the values a test needs (ids, pools, prices, availability).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogData, CpuType, DataCenter, GpuType } from "../../src/provider/catalog/catalog";

const DOC = JSON.parse(readFileSync(join(__dirname, "../../docs/spec/rest-v2-openapi.json"), "utf8")) as {
  paths: Record<string, { get: { responses: { 200: { content: { "application/json": { examples: Record<string, { value: unknown }> } } } } } }>;
};

/** The first example answer of `GET path`. */
export function documentExample<T>(path: string): T {
  const examples = DOC.paths[path].get.responses[200].content["application/json"].examples;
  return structuredClone(Object.values(examples)[0].value) as T;
}

export const exampleGpu = (): GpuType => documentExample<{ gpus: GpuType[] }>("/v2/catalog/gpus").gpus[0];
export const exampleCpu = (): CpuType => documentExample<{ cpus: CpuType[] }>("/v2/catalog/cpus").cpus[0];
export const exampleDataCenter = (): DataCenter => documentExample<{ dataCenters: DataCenter[] }>("/v2/catalog/datacenters").dataCenters[0];

/** The example GPU type with `changes`. */
export function gpu(changes: Partial<GpuType>): GpuType {
  return { ...exampleGpu(), ...changes };
}

/**
 * A small catalog: pool ADA_24 (the document's RTX 4090 at its 1.1/GPU-hour, and an L4 at 0.8),
 * pool ADA_80_PRO (an H100 at 2.72, max 8 GPUs), CPU flavor cpu3c-2-4 (0.03/vCPU-hour), data centers
 * US-KS-2 (the document's) and EU-RO-1.
 */
export function smallCatalog(): CatalogData {
  const dc = exampleDataCenter();
  const at = (id: string, availability: GpuType["availability"] & string) => ({ id, name: id, availability });
  return {
    gpus: [
      gpu({
        cudaVersions: [
          { version: "12.4", available: true },
          { version: "12.8", available: true },
        ],
      }),
      gpu({
        id: "NVIDIA L4",
        name: "L4",
        price: { secure: 0.43, community: 0.3, serverless: 0.8 },
        dataCenters: [at("US-KS-2", "MEDIUM"), at("EU-RO-1", "LOW")],
        cudaVersions: [{ version: "12.4", available: true }],
      }),
      gpu({
        id: "NVIDIA H100 80GB HBM3",
        name: "H100 SXM",
        pool: "ADA_80_PRO",
        memory: 80,
        price: { secure: 2.99, community: 2.69, serverless: 2.72 },
        maxCount: { secure: 8, community: 8 },
        availability: "LOW",
        dataCenters: [at("US-KS-2", "LOW"), at("EU-RO-1", "NONE")],
        cudaVersions: [{ version: "12.8", available: true }],
      }),
      gpu({ id: "NVIDIA RTX A6000", name: "RTX A6000", pool: null, price: { secure: 0.79, community: 0.49 } }),
    ],
    cpus: [exampleCpu()],
    dataCenters: [dc, { ...dc, id: "EU-RO-1", name: "EU Romania 1", region: "EUROPE" }],
  };
}
