/**
 * zod schemas of every response the client reads, mirroring the spec's tables
 * (spec: Resources and their fields; Errors; Events). Objects use `.passthrough()` so fields the
 * spec marks "not shown" are accepted and kept, but the client relies only on the listed ones.
 */
import { z } from "zod";
import { ENDPOINT_TYPES, FAST_BOOT_TYPES, LOG_SOURCES, SCALER_TYPES } from "./spec";
import { ResponseValidationError } from "./errors";
import type { EndpointRecord, GpuType, Job, LogEvent, Myself, NetworkVolume, Worker } from "./types";

const int = z.number().int();
/** GraphQL returns null for an unset field; REST may omit it. Both become null. */
const nullish = <T extends z.ZodTypeAny>(t: T) => t.nullish().transform((v) => (v ?? null) as z.output<T> | null);

/** spec: Resources › Error response. */
export const problemDetailsSchema = z
  .object({ title: z.string(), status: int, detail: z.string(), errors: z.array(z.string()).optional() })
  .passthrough();

/** spec: Resources › Serverless endpoint (GraphQL record; also the REST v1 answer, whose shape is "not shown"). */
export const endpointRecordSchema = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    templateId: z.string(),
    gpuIds: z.string(),
    type: z.enum(ENDPOINT_TYPES),
    idleTimeout: nullish(int),
    locations: nullish(z.string()),
    fastBootType: nullish(z.enum(FAST_BOOT_TYPES)),
    scalerType: nullish(z.enum(SCALER_TYPES)),
    scalerValue: nullish(int),
    workersMin: int.nonnegative(),
    workersMax: int.nonnegative(),
    networkVolumeId: nullish(z.string()),
    pods: z.array(z.object({ desiredStatus: z.string() }).passthrough()).nullish().transform((v) => v ?? undefined),
  })
  .passthrough();

/** `serverlessDiscount` of `myself`; null when no discount applies. */
export const serverlessDiscountSchema = z
  .object({ discountFactor: z.number(), type: z.string(), expirationDate: z.string() })
  .passthrough();

/** GraphQL `myself { id email endpoints {...} serverlessDiscount {...} }`. */
export const myselfSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    endpoints: z.array(endpointRecordSchema),
    serverlessDiscount: serverlessDiscountSchema.nullable(),
  })
  .passthrough();

/** GraphQL `gpuTypes`; only `id` is given by the spec. */
export const gpuTypeSchema = z
  .object({ id: z.string(), displayName: z.string().nullish().transform((v) => v ?? undefined), memoryInGb: z.number().nullish().transform((v) => v ?? undefined) })
  .passthrough();

/** spec: Resources › Network volume (unit of `size`, `type` values and required fields: not shown). */
export const networkVolumeSchema = z
  .object({ id: z.string(), name: z.string(), size: int, dataCenter: z.string(), type: z.string() })
  .passthrough();

/** spec: GET /v2/network-volumes → `{ networkVolumes: [...] }`. */
export const networkVolumeListSchema = z.object({ networkVolumes: z.array(networkVolumeSchema) }).passthrough();

/** Worker listing: shape "not shown"; only `id` is relied on. Accepts a bare array or `{ workers: [...] }`. */
export const workerSchema = z.object({ id: z.string(), status: z.string().optional() }).passthrough();
export const workerListSchema = z.union([
  z.array(workerSchema),
  z.object({ workers: z.array(workerSchema) }).passthrough().transform((o) => o.workers),
]);

/** spec: Events, `data:` line of the worker log stream. */
export const logEventDataSchema = z.object({ ts: z.string().min(1), source: z.enum(LOG_SOURCES), line: z.string() }).passthrough();

/** Job interface answer (`/run`, `/runsync`, status polling; polling shape "not shown", as the official SDKs use it). */
export const jobSchema = z
  .object({
    id: z.string().min(1),
    status: z.enum(["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]),
    output: z.unknown().optional(),
    error: z.unknown().optional().transform((e) => (e === undefined || e === null ? undefined : typeof e === "string" ? e : JSON.stringify(e))),
  })
  .passthrough();

/**
 * Parses `data` with `schema`.
 * @param redact applied to each issue text (zod may quote a received value).
 * @throws ResponseValidationError listing each mismatch as `path: message`.
 */
export function parseResponse<S extends z.ZodTypeAny>(schema: S, data: unknown, operation: string, redact: (s: string) => string): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => redact(`${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`));
  throw new ResponseValidationError(`${operation}: unexpected response shape — ${issues.join("; ")}`, issues, { operation });
}

// Compile-time checks that the schemas produce the contract's record types.
type Assignable<T, U extends T> = U;
export type _Checks = [
  Assignable<EndpointRecord, z.output<typeof endpointRecordSchema>>,
  Assignable<Myself, z.output<typeof myselfSchema>>,
  Assignable<GpuType, z.output<typeof gpuTypeSchema>>,
  Assignable<NetworkVolume, z.output<typeof networkVolumeSchema>>,
  Assignable<Worker[], z.output<typeof workerListSchema>>,
  Assignable<Omit<LogEvent, "id">, z.output<typeof logEventDataSchema>>,
  Assignable<Job, z.output<typeof jobSchema>>,
];
