/**
 * The `NetworkVolume` resource, declared once: persistent network storage that endpoints (and pods) mount
 * (docs/spec/rest-v2-openapi.json, tag Network Volumes: createNetworkVolume, getNetworkVolume,
 * updateNetworkVolume, deleteNetworkVolume). The kind speaks REST v2 whatever `runpod:api` says: the
 * contract has no GraphQL operations for volumes. Bounds are the document's (`size` 10–4096 GB, grows only).
 */
import { argumentNames, defineModel, input, inputNames, output, outputNames, type InputName, type InputsOf, type OutputsOf } from "../model/fields";
import { integer, oneOf, text } from "../model/rules";

/** Storage tiers (document: VolumeType). */
export const VOLUME_TYPES = ["STANDARD", "HIGH_PERFORMANCE"] as const;
export type VolumeTypeName = (typeof VOLUME_TYPES)[number];
/** Size bounds in GB (document: CreateNetworkVolumeRequest.size). */
export const VOLUME_SIZE_MIN_GB = 10;
export const VOLUME_SIZE_MAX_GB = 4096;

export const NETWORK_VOLUME_MODEL = defineModel({
  kind: "networkVolume",
  module: "runpod",
  type: "NetworkVolume",
  fields: {
    networkVolumeId: output<string>("string", "The volume id (same as `id`); what an endpoint's `networkVolumeId` takes."),
    name: input({
      doc: "Volume name (not unique).",
      rule: text(255, { trimmed: true }),
      required: true,
      autoName: true,
      change: { policy: "update", compare: "value", why: "updateNetworkVolume renames in place" },
    }),
    size: input({
      doc: "Allocated storage.",
      rule: integer(VOLUME_SIZE_MIN_GB, VOLUME_SIZE_MAX_GB),
      unit: "GB",
      note: "; grows only (a smaller value fails at preview)",
      required: true,
      change: {
        policy: "update",
        compare: "value",
        why: "updateNetworkVolume grows the volume in place; the platform cannot shrink storage, so a smaller size fails at preview",
      },
    }),
    dataCenterId: input({
      doc: "Data center that holds the volume (a catalog data center id, e.g. `EU-RO-1`); mount it only from endpoints placed there.",
      rule: text(64, { trimmed: true }),
      required: true,
      change: { policy: "replace", compare: "value", why: "a volume's data center is fixed at creation (a new, empty volume is created)" },
    }),
    type: input({
      doc: "Storage tier; unset = the data center's primary tier.",
      rule: oneOf(VOLUME_TYPES, { STANDARD: "standard storage", HIGH_PERFORMANCE: "high-performance storage" }),
      unset: "platform",
      defaultText: "the data center's primary tier",
      change: { policy: "replace", compare: "value", why: "a volume's tier is fixed at creation (a new, empty volume is created)" },
    }),
    monthlyCost: output<number | null>(
      "number",
      "USD per month for the volume's storage: `size` × its tier's list price per GB and month (docs/networkVolume.md). Known at preview; null when the tier is unknown.",
    ),
  },
});

type NetworkVolumeFields = (typeof NETWORK_VOLUME_MODEL)["fields"];

export type NetworkVolumeInputs = InputsOf<NetworkVolumeFields>;
export type NetworkVolumeOutputs = OutputsOf<NetworkVolumeFields>;
export type NetworkVolumeInputField = InputName<NetworkVolumeFields>;

export const NETWORK_VOLUME_INPUT_FIELDS = inputNames(NETWORK_VOLUME_MODEL);
export const NETWORK_VOLUME_ARG_FIELDS = argumentNames(NETWORK_VOLUME_MODEL);
export const NETWORK_VOLUME_OUTPUT_FIELDS = outputNames(NETWORK_VOLUME_MODEL);
