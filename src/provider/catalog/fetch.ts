/**
 * One read of the serverless catalog: GPU types with their serverless availability and prices, CPU
 * flavors likewise, data centers — three requests, in parallel (rest-v2-openapi.json › Catalog).
 */
import type { PlatformClient } from "../../api";
import { Catalog } from "./catalog";

/** The client operations a catalog read needs (REST v2, `client.v2`). */
export type CatalogSource = Pick<PlatformClient["v2"], "listGpuTypes" | "listCpuTypes" | "listDataCenters">;

/** Availability is product-specific: the serverless context, stated as the document requires. */
const SERVERLESS_AVAILABILITY = { include: ["AVAILABILITY" as const], product: ["SERVERLESS" as const] };

export async function fetchCatalog(source: CatalogSource): Promise<Catalog> {
  const [gpus, cpus, dataCenters] = await Promise.all([
    source.listGpuTypes(SERVERLESS_AVAILABILITY),
    source.listCpuTypes({ include: ["AVAILABILITY"], product: ["SERVERLESS"] }),
    source.listDataCenters(),
  ]);
  return new Catalog({ gpus, cpus, dataCenters });
}
