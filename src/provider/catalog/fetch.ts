/**
 * One read of the serverless catalog: GPU types with their serverless availability and prices, CPU
 * flavors likewise, data centers — three requests, in parallel (rest-v2-openapi.json › Catalog).
 */
import type { PlatformClient, V2 } from "../../api";
import { Catalog } from "./catalog";

/** The client operations a catalog read needs (REST v2, `client.v2`). */
export type CatalogSource = Pick<PlatformClient["v2"], "listGpuTypes" | "listCpuTypes" | "listDataCenters">;

/** Availability is product-specific: the serverless context, stated as the document requires. */
export const SERVERLESS_GPU_AVAILABILITY: V2.ListGpuTypesQuery = { include: ["AVAILABILITY"], product: ["SERVERLESS"] };
export const SERVERLESS_CPU_AVAILABILITY: V2.ListCpuTypesQuery = { include: ["AVAILABILITY"], product: ["SERVERLESS"] };

export async function fetchCatalog(source: CatalogSource): Promise<Catalog> {
  // Settled, not Promise.all: a failed read must not leave its siblings retrying after the caller moved on
  // (their requests would land in the next operation).
  const [gpus, cpus, dataCenters] = await Promise.allSettled([
    source.listGpuTypes(SERVERLESS_GPU_AVAILABILITY),
    source.listCpuTypes(SERVERLESS_CPU_AVAILABILITY),
    source.listDataCenters(),
  ]);
  if (gpus.status === "rejected") throw gpus.reason;
  if (cpus.status === "rejected") throw cpus.reason;
  if (dataCenters.status === "rejected") throw dataCenters.reason;
  return new Catalog({ gpus: gpus.value, cpus: cpus.value, dataCenters: dataCenters.value });
}
