/**
 * Records as the emulated platform answers them (spec: Resources). The emulator's own statement, kept apart
 * from the client's types so that each side is checked against the other, not against itself.
 */
import type { EndpointType, FastBootType, ScalerType } from "./facts";

/** An endpoint as GraphQL `myself.endpoints`, `saveEndpoint` and REST v1 creation return it. */
export interface EndpointRecord {
  id: string;
  name: string;
  templateId: string;
  /** Comma-separated GPU tiers, e.g. `"AMPERE_24,ADA_24"`. */
  gpuIds: string;
  type: EndpointType;
  /** Seconds before idle workers shut down. */
  idleTimeout: number | null;
  /** Comma-separated region codes; null or empty = any region. */
  locations: string | null;
  fastBootType: FastBootType | null;
  scalerType: ScalerType | null;
  scalerValue: number | null;
  workersMin: number;
  workersMax: number;
  networkVolumeId: string | null;
  /** One `{ desiredStatus: "RUNNING" }` per running simulated worker. */
  pods?: { desiredStatus: string }[];
}

/**
 * `saveEndpoint` input as received: without `id` it creates, with `id` it modifies. Any optional field
 * may be absent or null; values are checked by the platform (platform.ts), not trusted by type.
 */
export interface SaveEndpointInput {
  id?: string | null;
  name?: string | null;
  templateId?: string | null;
  gpuIds?: string | null;
  type?: string | null;
  idleTimeout?: number | null;
  locations?: string | null;
  fastBootType?: string | null;
  scalerType?: string | null;
  scalerValue?: number | null;
  workersMin?: number | null;
  workersMax?: number | null;
  networkVolumeId?: string | null;
}

/** A network volume in `GET /v2/network-volumes` (`size` in GB). */
export interface NetworkVolume {
  id: string;
  name: string;
  size: number;
  dataCenter: string;
  type: string;
}

export type JobStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";

/** A job as `/run`, `/runsync`, `/status` and `/cancel` answer it: `{ id, status, delayTime?, executionTime?, output?, error? }`. */
export interface JobView {
  id: string;
  status: JobStatus;
  /** Milliseconds spent queued. */
  delayTime?: number;
  /** Milliseconds spent running. */
  executionTime?: number;
  output?: unknown;
  error?: string;
}
