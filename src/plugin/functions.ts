/**
 * The plugin's functions (invokes) and the provider configuration's docs, for the schema (schema.ts)
 * and `Invoke` (server.ts). Network volumes are read-only: the lookups list the account's volumes
 * (spec: GET {base_url}/v2/network-volumes) and choose with the same rule as the Node.js lookups. The
 * catalog functions (rest-v2-openapi.json › Catalog) check their arguments and read as the Node.js ones
 * do (provider/catalog/queries.ts), on the reads the plugin's preview shares.
 */
import type { NetworkVolume } from "../api/types";
import type { CatalogReads } from "../provider/catalog/queries";
import {
  COMPLIANCE,
  CPU_PRODUCTS,
  DATA_CENTER_INCLUDES,
  GPU_CLOUDS,
  GPU_PRODUCTS,
  REGIONS,
  VOLUME_TYPES,
  cpuTypesQuery,
  dataCentersQuery,
  gpuTypesQuery,
} from "../provider/catalog/queries";
import { checkNetworkVolumeQuery, selectNetworkVolume } from "../provider/networkVolumes";
import { PACKAGE } from "./tokens";

type Property = { type?: string; $ref?: string; description: string; items?: unknown; secret?: boolean };

/** Where a function's answer comes from, each asked at most once per invoke. */
export interface FunctionSources {
  /** The account's network volumes. */
  volumes(): Promise<NetworkVolume[]>;
  /** The catalog reads of the configured session. */
  catalog(): Promise<CatalogReads>;
}

export interface FunctionSpec {
  token: string;
  description: string;
  inputs: Record<string, Property>;
  requiredInputs: string[];
  outputs: Record<string, Property | { type: "array"; items: unknown; description: string }>;
  requiredOutputs: string[];
  /** Answers the invoke. */
  run(args: Record<string, unknown>, sources: FunctionSources): Promise<Record<string, unknown>>;
}

const VOLUME: Record<string, Property> = {
  id: { type: "string", description: "The network volume id." },
  name: { type: "string", description: "The volume's name." },
  size: { type: "integer", description: "Size in GB (as the console shows it; the spec does not state the unit)." },
  dataCenter: { type: "string", description: "Data center the volume lives in; endpoints using it run there." },
  type: { type: "string", description: "Storage type, as the platform reports it." },
};
const VOLUME_FIELDS = Object.keys(VOLUME);

const plain = (v: NetworkVolume) => Object.fromEntries(VOLUME_FIELDS.map((k) => [k, (v as unknown as Record<string, unknown>)[k]]));

type ObjectType = { type: "object"; description: string; properties: Record<string, Property>; required: string[] };

const ref = (name: string, description: string): Property => ({ $ref: `#/types/${PACKAGE}:index:${name}`, description });
const refs = (name: string, description: string): Property => ({ type: "array", items: { $ref: `#/types/${PACKAGE}:index:${name}` }, description });
const strings = (description: string): Property => ({ type: "array", items: { type: "string" }, description });
const LEVEL = "Availability: NONE, LOW, MEDIUM or HIGH.";

/** The catalog's object types (rest-v2-openapi.json schemas GpuType, CpuType, DataCenter and their parts); `required` as the document's. */
const CATALOG_TYPE_SPECS: Record<string, Omit<ObjectType, "type">> = {
  GpuType: {
    description: "A GPU type with its prices and, when `product` was given, its availability (schema GpuType).",
    properties: {
      id: { type: "string", description: "GPU type id, as pods name it (e.g. `NVIDIA GeForce RTX 4090`)." },
      name: { type: "string", description: "Display name (e.g. `RTX 4090`)." },
      pool: { type: "string", description: "Serverless pool id, as endpoints name it in `gpuIds` (e.g. `ADA_24`); empty when the type is in no pool." },
      manufacturer: { type: "string", description: "NVIDIA, AMD or UNKNOWN." },
      memory: { type: "integer", description: "VRAM in GB." },
      secure: { type: "boolean", description: "Offered on the secure cloud." },
      community: { type: "boolean", description: "Offered on the community cloud." },
      price: ref("GpuPrice", "List prices in USD per GPU per hour."),
      maxCount: ref("GpuMaxCount", "The most GPUs of this type one pod can have, per cloud (a ceiling, not stock)."),
      availability: { type: "string", description: `Overall, for the requested products (only with \`product\`). ${LEVEL}` },
      dataCenters: refs("CatalogAvailability", "Per data center offering it (only with `product`; absent when available nowhere)."),
      cudaVersions: refs("CudaVersionAvailability", "CUDA versions its machines offer (only with `product`)."),
    },
    required: ["id", "name", "manufacturer", "memory", "secure", "community", "price", "maxCount"],
  },
  GpuPrice: {
    description: "List prices in USD per GPU per hour (negotiated discounts are not reflected); multiply by the GPU count.",
    properties: {
      secure: { type: "number", description: "Pod on the secure cloud." },
      community: { type: "number", description: "Pod on the community cloud." },
      serverless: { type: "number", description: "Serverless worker, the rate of the type's pool; absent outside a pool." },
    },
    required: ["secure", "community"],
  },
  GpuMaxCount: {
    description: "The most GPUs one pod can have, per cloud.",
    properties: {
      secure: { type: "integer", description: "On the secure cloud." },
      community: { type: "integer", description: "On the community cloud." },
    },
    required: ["secure", "community"],
  },
  CatalogAvailability: {
    description: "The availability of a catalog item in one data center, or of one item in a data center.",
    properties: {
      id: { type: "string", description: "Data center id, or GPU type / CPU flavor id." },
      name: { type: "string", description: "Its display name." },
      availability: { type: "string", description: LEVEL },
    },
    required: ["id", "name", "availability"],
  },
  CudaVersionAvailability: {
    description: "A CUDA version offered for a GPU type.",
    properties: {
      version: { type: "string", description: "`major.minor`, e.g. `12.8`." },
      available: { type: "boolean", description: "Whether a machine on this version has free capacity now." },
    },
    required: ["version", "available"],
  },
  CpuType: {
    description: "A CPU flavor with its prices and, when `product` was given, its availability (schema CpuType).",
    properties: {
      id: { type: "string", description: "CPU flavor id (e.g. `cpu5c`)." },
      name: { type: "string", description: "Display name (e.g. `Compute-Optimized`)." },
      group: { type: "string", description: "Generation group (e.g. `Gen 5`)." },
      vcpu: ref("VcpuRange", "The vCPU counts an instance can have."),
      ramGbPerVcpu: { type: "number", description: "GB of RAM per vCPU: multiply by the vCPU count." },
      price: ref("CpuPrice", "List prices in USD per vCPU per hour."),
      availability: { type: "string", description: `Overall, for the requested products (only with \`product\`). ${LEVEL}` },
      dataCenters: refs("CatalogAvailability", "Per data center offering it (only with `product`; absent when available nowhere)."),
    },
    required: ["id", "name", "group", "vcpu", "ramGbPerVcpu", "price"],
  },
  VcpuRange: {
    description: "vCPU bounds of a CPU flavor.",
    properties: { min: { type: "integer", description: "Fewest vCPUs." }, max: { type: "integer", description: "Most vCPUs." } },
    required: ["min", "max"],
  },
  CpuPrice: {
    description: "List prices in USD per vCPU per hour; multiply by the vCPU count.",
    properties: {
      securePerVcpu: { type: "number", description: "Pod on the secure cloud." },
      serverlessPerVcpu: { type: "number", description: "Serverless worker." },
    },
    required: ["securePerVcpu", "serverlessPerVcpu"],
  },
  DataCenter: {
    description: "A data center (schema DataCenter).",
    properties: {
      id: { type: "string", description: "Data center id (e.g. `EU-RO-1`)." },
      name: { type: "string", description: "Display name." },
      region: { type: "string", description: `Region: ${REGIONS.join(", ")}.` },
      globalNetwork: { type: "boolean", description: "Whether it supports global networking (private pod-to-pod network across data centers)." },
      networkVolumeTypes: strings("Network volume types it offers: STANDARD, HIGH_PERFORMANCE (empty: none)."),
      compliance: strings("Compliance certifications it holds."),
      gpuAvailability: refs("CatalogAvailability", "Availability of each GPU type it offers (only with `include` GPU_AVAILABILITY)."),
      cpuAvailability: refs("CatalogAvailability", "Availability of each CPU flavor it offers (only with `include` CPU_AVAILABILITY)."),
    },
    required: ["id", "name", "region", "globalNetwork", "networkVolumeTypes", "compliance"],
  },
};

const CATALOG_TYPES: Record<string, ObjectType> = Object.fromEntries(
  Object.entries(CATALOG_TYPE_SPECS).map(([name, spec]) => [`${PACKAGE}:index:${name}`, { type: "object", ...spec }]),
);

/** A record cut to its schema type's properties, nested types likewise (the SDKs' output types take only those). */
function shaped(value: unknown, typeName: string): unknown {
  const spec = CATALOG_TYPE_SPECS[typeName];
  if (!spec || value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(spec.properties)) {
    const v = record[key];
    if (v === undefined || v === null) continue;
    const target = (prop.$ref ?? (prop.items as { $ref?: string } | undefined)?.$ref)?.split(":").pop();
    out[key] = target ? (Array.isArray(v) ? v.map((x) => shaped(x, target)) : shaped(v, target)) : v;
  }
  return out;
}

const enumList = (values: readonly string[], what: string): Property => strings(`${what} One or more of ${values.join(", ")}.`);

function CATALOG_FUNCTIONS(): FunctionSpec[] {
  return [
    {
      token: `${PACKAGE}:index:getGpuTypes`,
      description:
        "GPU types with their list prices (USD per GPU per hour) and, when `product` is given, their availability (REST v2 `GET /v2/catalog/gpus`). Each distinct query is read once per process. A bad argument fails naming it and its allowed values.",
      inputs: {
        product: enumList(GPU_PRODUCTS, "Availability for these product contexts (without it, no availability)."),
        count: { type: "integer", description: "GPUs the availability is for (at least 1; default 1). Needs `product`." },
        cloud: { type: "string", description: `Cloud the availability is for: ${GPU_CLOUDS.join(" (the default) or ")}. Needs \`product\`.` },
        countryCodes: strings("Uppercase ISO 3166-1 alpha-2 codes (e.g. FR): only types with a data center there, and availability there. Needs `product`."),
        cudaVersions: strings("CUDA versions `major.minor`, matched exactly. Needs `product`; not with `minCudaVersion`."),
        minCudaVersion: { type: "string", description: "Lowest CUDA version, `major` or `major.minor`. Needs `product`; not with `cudaVersions`." },
      },
      requiredInputs: [],
      outputs: { gpuTypes: refs("GpuType", "The GPU types.") },
      requiredOutputs: ["gpuTypes"],
      async run(args, { catalog }) {
        gpuTypesQuery(args);
        return { gpuTypes: (await (await catalog()).gpuTypes(args)).map((g) => shaped(g, "GpuType")) };
      },
    },
    {
      token: `${PACKAGE}:index:getCpuTypes`,
      description:
        "CPU flavors with their list prices (USD per vCPU per hour) and, when `product` is given, their availability (REST v2 `GET /v2/catalog/cpus`). Each distinct query is read once per process. A bad argument fails naming it and its allowed values.",
      inputs: {
        product: enumList(CPU_PRODUCTS, "Availability for these product contexts (without it, no availability)."),
        vcpuCount: { type: "integer", description: "vCPUs the availability is for: a power of two, at least 2. Needs `product`." },
      },
      requiredInputs: [],
      outputs: { cpuTypes: refs("CpuType", "The CPU flavors.") },
      requiredOutputs: ["cpuTypes"],
      async run(args, { catalog }) {
        cpuTypesQuery(args);
        return { cpuTypes: (await (await catalog()).cpuTypes(args)).map((c) => shaped(c, "CpuType")) };
      },
    },
    {
      token: `${PACKAGE}:index:getDataCenters`,
      description:
        "Data centers, filtered by the platform (REST v2 `GET /v2/catalog/datacenters`); the filters combine with AND. Each distinct query is read once per process. A bad argument fails naming it and its allowed values.",
      inputs: {
        regions: enumList(REGIONS, "Only data centers in one of these regions."),
        networkVolumeTypes: enumList(VOLUME_TYPES, "Only data centers offering every one of these network volume types."),
        compliance: enumList(COMPLIANCE, "Only data centers holding every one of these certifications."),
        globalNetwork: { type: "boolean", description: "Only data centers with (true) or without (false) global networking." },
        include: enumList(DATA_CENTER_INCLUDES, "Add each data center's `gpuAvailability` / `cpuAvailability`."),
      },
      requiredInputs: [],
      outputs: { dataCenters: refs("DataCenter", "The data centers.") },
      requiredOutputs: ["dataCenters"],
      async run(args, { catalog }) {
        dataCentersQuery(args);
        return { dataCenters: (await (await catalog()).dataCenters(args)).map((d) => shaped(d, "DataCenter")) };
      },
    },
  ];
}

export const FUNCTIONS: readonly FunctionSpec[] = [
  {
    token: `${PACKAGE}:index:getNetworkVolume`,
    description:
      "One network volume of the configured account, by `id` or by `name` (exactly one). Fails when none matches or several share the name; the message lists your volumes.",
    inputs: {
      id: { type: "string", description: "The volume's id." },
      name: { type: "string", description: "The volume's name; must match exactly one volume." },
    },
    requiredInputs: [],
    outputs: VOLUME,
    requiredOutputs: VOLUME_FIELDS,
    async run(args, { volumes }) {
      checkNetworkVolumeQuery(args);
      return plain(selectNetworkVolume(await volumes(), args));
    },
  },
  {
    token: `${PACKAGE}:index:getNetworkVolumes`,
    description: "All network volumes of the configured account.",
    inputs: {},
    requiredInputs: [],
    outputs: {
      networkVolumes: { type: "array", items: { $ref: "#/types/runpod:index:NetworkVolumeRecord" }, description: "The volumes." },
    },
    requiredOutputs: ["networkVolumes"],
    async run(_args, { volumes }) {
      return { networkVolumes: (await volumes()).map(plain) };
    },
  },
  ...CATALOG_FUNCTIONS(),
];

/** The object types the functions return. */
export const TYPES: Record<string, ObjectType> = {
  [`${PACKAGE}:index:NetworkVolumeRecord`]: { type: "object", description: "A network volume.", properties: VOLUME, required: VOLUME_FIELDS },
  ...CATALOG_TYPES,
};

/** Docs and types of the provider configuration keys (api/config.ts `PULUMI_CONFIG_KEYS`). */
export const CONFIG_DOCS: Record<string, { type: string; description: string; secret?: boolean }> = {
  apiKey: { type: "string", secret: true, description: "API key of the platform account. Default: the RUNPOD_API_KEY environment variable." },
  graphqlUrl: { type: "string", description: "GraphQL address. Default: RUNPOD_GRAPHQL_URL, else `https://api.runpod.io/graphql`." },
  restV1Url: { type: "string", description: "REST v1 address, without `/v1`. Default: RUNPOD_API_URL, else `https://rest.runpod.io`." },
  restV2Url: { type: "string", description: "REST v2 address, without `/v2`. Default: RUNPOD_REST_V2_URL, else `https://api.runpod.io`." },
  inferenceUrl: { type: "string", description: "Job (inference) address, without `/v2`. Default: RUNPOD_INVOKE_URL, else `https://api.runpod.ai`." },
  timeoutMs: { type: "integer", description: "Per-request timeout in milliseconds. Default: 30000." },
  rateLimitDeadlineMs: {
    type: "integer",
    description:
      "How long one request may wait out the account's rate limit (429 answers, pacing), in milliseconds; a resource's customTimeouts replace it for its operation. Default: 600000 (10 minutes).",
  },
  api: {
    type: "string",
    description:
      "Which platform interface manages resources: `v2` (REST v2) or `graphql` (the design's GraphQL mapping). Default: RUNPOD_API, else the provider's default path (docs/api-paths.md).",
  },
  requireAvailability: {
    type: "boolean",
    description: "Fail the preview, instead of warning, when a GPU pool or CPU flavor has low or no availability. Default: false.",
  },
  maxHourlyCost: {
    type: "number",
    description: "Stack budget in USD per hour: fail the preview when the endpoints' summed maxHourlyCost would exceed it. Default: none.",
  },
  allowInsecureHttp: {
    type: "boolean",
    description: "Allow `http://` addresses on hosts other than loopback (the key then travels unencrypted). Default: RUNPOD_ALLOW_INSECURE_HTTP, else false.",
  },
};
