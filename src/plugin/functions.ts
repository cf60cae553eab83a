/**
 * The plugin's functions (invokes) and the provider configuration's docs, for the schema (schema.ts)
 * and `Invoke` (server.ts). Network volumes are read-only: the lookups list the account's volumes
 * (spec: GET {base_url}/v2/network-volumes) and choose with the same rule as the Node.js lookups.
 */
import type { NetworkVolume } from "../api/types";
import { checkNetworkVolumeQuery, selectNetworkVolume } from "../provider/networkVolumes";
import { PACKAGE } from "./tokens";

type Property = { type: string; description: string; items?: unknown; secret?: boolean };

export interface FunctionSpec {
  token: string;
  description: string;
  inputs: Record<string, Property>;
  requiredInputs: string[];
  outputs: Record<string, Property | { type: "array"; items: unknown; description: string }>;
  requiredOutputs: string[];
  /** Answers the invoke from the account's volumes (`list`, called at most once). */
  run(args: Record<string, unknown>, list: () => Promise<NetworkVolume[]>): Promise<Record<string, unknown>>;
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
    async run(args, list) {
      checkNetworkVolumeQuery(args);
      return plain(selectNetworkVolume(await list(), args));
    },
  },
  {
    token: `${PACKAGE}:index:getNetworkVolumes`,
    description: "All network volumes of the configured account.",
    inputs: {},
    requiredInputs: [],
    outputs: {
      networkVolumes: { type: "array", items: { $ref: "#/types/runpod:index:NetworkVolume" }, description: "The volumes." },
    },
    requiredOutputs: ["networkVolumes"],
    async run(_args, list) {
      return { networkVolumes: (await list()).map(plain) };
    },
  },
];

/** The `NetworkVolume` object type the list function returns. */
export const TYPES = {
  [`${PACKAGE}:index:NetworkVolume`]: { type: "object", description: "A network volume.", properties: VOLUME, required: VOLUME_FIELDS },
};

/** Docs and types of the provider configuration keys (api/config.ts `PULUMI_CONFIG_KEYS`). */
export const CONFIG_DOCS: Record<string, { type: string; description: string; secret?: boolean }> = {
  apiKey: { type: "string", secret: true, description: "API key of the platform account. Default: the RUNPOD_API_KEY environment variable." },
  graphqlUrl: { type: "string", description: "GraphQL address. Default: RUNPOD_GRAPHQL_URL, else `https://api.runpod.io/graphql`." },
  restV1Url: { type: "string", description: "REST v1 address, without `/v1`. Default: RUNPOD_API_URL, else `https://rest.runpod.io`." },
  restV2Url: { type: "string", description: "REST v2 address, without `/v2`. Default: RUNPOD_REST_V2_URL, else `https://api.runpod.io`." },
  inferenceUrl: { type: "string", description: "Job (inference) address, without `/v2`. Default: RUNPOD_INVOKE_URL, else `https://api.runpod.ai`." },
  timeoutMs: { type: "integer", description: "Per-request timeout in milliseconds. Default: 30000." },
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
