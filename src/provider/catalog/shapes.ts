/**
 * The catalog's records as the REST v2 document declares them (components.schemas GpuType, CpuType,
 * DataCenter, AvailabilityLevel). Only the fields the catalog checks and the cost
 * formula read; the generated types of src/api satisfy these (tests/provider/catalogShapes.test.ts).
 */
export type AvailabilityLevel = "NONE" | "LOW" | "MEDIUM" | "HIGH";

export interface DataCenterAvailability {
  id: string;
  name: string;
  availability: AvailabilityLevel;
}

export interface GpuType {
  id: string;
  name: string;
  pool: string | null;
  memory: number;
  price: { secure: number; community: number; serverless?: number };
  maxCount: { secure: number; community: number };
  availability?: AvailabilityLevel;
  dataCenters?: DataCenterAvailability[];
  cudaVersions?: { version: string; available: boolean }[];
}

export interface CpuType {
  id: string;
  name: string;
  vcpu: { min: number; max: number };
  price: { securePerVcpu: number; serverlessPerVcpu: number };
  availability?: AvailabilityLevel;
  dataCenters?: DataCenterAvailability[];
}

export interface DataCenter {
  id: string;
  name: string;
  region: string;
  networkVolumeTypes: string[];
}
