/**
 * What an endpoint asks of the catalog, independent of how its inputs spell it: the GPU selection
 * (pools minus excluded types, or explicit GPU types; GPUs per worker; a CUDA constraint) or the CPU
 * flavors, the data centers, the network volumes, the worker counts. Each part records the input
 * field it comes from, so a failure names the field the user wrote.
 */
export interface GpuSelection {
  /** Serverless pool ids (REST v2 `gpu.pools`; GraphQL `gpuIds` tiers are the same ids). */
  pools: readonly string[];
  /** GPU type ids subtracted from the pools (`gpu.excludedTypes`). */
  excludedTypes: readonly string[];
  /** GPU type ids chosen directly (REST v1 `gpuTypeIds`); their pools count as selected. */
  typeIds: readonly string[];
  /** GPUs per worker. */
  count: number;
  /** Acceptable CUDA versions (exact set; empty = any). */
  allowedCudaVersions: readonly string[];
  /** Lowest acceptable CUDA version (`major.minor`), when given. */
  minCudaVersion?: string;
}

export interface CpuSelection {
  /** Eligible CPU flavors and the vCPUs of each worker on them. */
  flavors: readonly { id: string; vcpuCount: number }[];
}

/** Input field names of each part, for failure messages. */
export interface SelectionFields {
  pools: string;
  excludedTypes: string;
  typeIds: string;
  count: string;
  allowedCudaVersions: string;
  minCudaVersion: string;
  cpu: string;
  /** The vCPU count, when an input of its own holds it (else `cpu` is named). */
  vcpuCount?: string;
  dataCenterIds: string;
  networkVolumes: string;
}

export interface ComputeSelection {
  gpu?: GpuSelection;
  cpu?: CpuSelection;
  /** Data centers the workers may run in; empty = any. */
  dataCenterIds: readonly string[];
  /** Network volume ids mounted by the workers. */
  networkVolumeIds: readonly string[];
  fields: SelectionFields;
}

/** Workers that cost money: all of `max` when busy; `min` + `standby` with no traffic at all. */
export interface WorkerCounts {
  min: number;
  max: number;
  /** Warm workers the platform keeps on standby beyond `min` (GraphQL `workersStandby`; 0 when not reported). */
  standby: number;
}
