/**
 * One read of the serverless catalog: GPU types with their serverless availability and prices, CPU
 * flavors likewise, data centers — three requests, in parallel (rest-v2-openapi.json › Catalog).
 */
import { Catalog, type CpuType, type DataCenter, type GpuType } from "./catalog";

/** The client operations a catalog read needs (REST v2). */
export interface CatalogSource {
  listGpuTypes(query: { include: ["AVAILABILITY"]; product: ["SERVERLESS"] }): Promise<GpuType[]>;
  listCpuTypes(query: { include: ["AVAILABILITY"]; product: ["SERVERLESS"] }): Promise<CpuType[]>;
  listDataCenters(query?: object): Promise<DataCenter[]>;
}

/** Availability is product-specific: the serverless context, stated as the document requires. */
const SERVERLESS_AVAILABILITY = { include: ["AVAILABILITY"], product: ["SERVERLESS"] } as { include: ["AVAILABILITY"]; product: ["SERVERLESS"] };

export async function fetchCatalog(source: CatalogSource): Promise<Catalog> {
  const [gpus, cpus, dataCenters] = await Promise.all([
    source.listGpuTypes(SERVERLESS_AVAILABILITY),
    source.listCpuTypes(SERVERLESS_AVAILABILITY),
    source.listDataCenters(),
  ]);
  return new Catalog({ gpus, cpus, dataCenters });
}
