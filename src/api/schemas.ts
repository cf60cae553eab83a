/**
 * zod schemas of every record the client reads or sends, mirroring the spec's tables (spec: Resources
 * and their fields; Errors; Events). A field is named here only: the record and input types are
 * derived from these schemas (`z.output` / `z.input`), and so are the GraphQL selections
 * (graphql.ts `selectionOf`). Response objects use `.passthrough()` so fields the spec marks
 * "not shown" are accepted and kept, but the client relies only on the listed ones.
 */
import { z } from "zod";
import { nonEmptyArgument } from "./arguments";
import { ResponseValidationError } from "./errors";
import { zErrorResponse } from "./generated/zod.gen";
import { ENDPOINT_TYPES, LOG_SOURCES, SCALER_TYPES } from "./spec";
import { zEndpointFields } from "./specGenerated/graphqlEndpoint";

const int = z.number().int();
/** GraphQL returns null for an unset field; REST may omit it. Both become null. */
const nullish = <T extends z.ZodTypeAny>(t: T) => t.nullish().transform((v) => (v ?? null) as z.output<T> | null);

/** `T` without index signatures, at every depth. */
type Unindexed<T> = T extends readonly (infer E)[]
  ? Unindexed<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Unindexed<T[K]> }
    : T;

/**
 * What a schema parses to, typed with only the fields it lists: without the index signatures
 * `.passthrough()` adds, since the client relies on nothing else. The record types below are
 * interfaces over such derived types, so that signatures show their names.
 */
export type Listed<S extends z.ZodTypeAny> = Unindexed<z.output<S>>;

/** spec: Resources › Error response; the REST v2 document's `ErrorResponse` (RFC 9457), extension members kept. */
export const problemDetailsSchema = zErrorResponse.passthrough();

/** Each field of `shape` as {@link nullish}: null or absent becomes null. */
function nullishFields<S extends z.ZodRawShape>(shape: S): { [K in keyof S]: ReturnType<typeof nullish<S[K]>> } {
  return Object.fromEntries(Object.entries(shape).map(([k, t]) => [k, nullish(t)])) as { [K in keyof S]: ReturnType<typeof nullish<S[K]>> };
}
/** Each field of `shape` optional. */
function optionalFields<S extends z.ZodRawShape>(shape: S): { [K in keyof S]: z.ZodOptional<S[K]> } {
  return Object.fromEntries(Object.entries(shape).map(([k, t]) => [k, t.optional()])) as { [K in keyof S]: z.ZodOptional<S[K]> };
}

// The spec's endpoint table (generated from it: specGenerated/graphqlEndpoint.ts) says each field's type;
// what it leaves open is stated here: which fields a record always has, what null clears, the value sets.
const { pods: podsField, ...endpointFields } = zEndpointFields;
/** The fields the official clients send and select beyond the spec's table (docs/spec/platform-clients.md). */
const endpointFieldsBeyondSpec = {
  /** GPUs per worker. */
  gpuCount: int,
  /** Comma-separated CUDA versions, e.g. `"12.1,12.2"`; null or empty = any. */
  allowedCudaVersions: z.string().nullable(),
  /** Milliseconds a job may run. */
  executionTimeoutMs: int,
  /** Warm workers kept on standby (a hidden server default may keep a scale-to-zero endpoint warm). */
  workersStandby: int,
};

/** spec: Resources › Serverless endpoint (GraphQL record; also the REST v1 answer, whose shape is "not shown"). */
export const endpointRecordSchema = z
  .object({
    // GraphQL returns null for an unset field; REST may omit it.
    ...nullishFields(endpointFields),
    id: endpointFields.id.min(1),
    name: endpointFields.name,
    templateId: endpointFields.templateId,
    /** Comma-separated GPU tiers as the platform stores them, e.g. `"AMPERE_24,ADA_24"`. */
    gpuIds: endpointFields.gpuIds,
    type: z.enum(ENDPOINT_TYPES),
    /** Comma-separated region codes; null or empty = any region. */
    locations: nullish(endpointFields.locations),
    scalerType: nullish(z.enum(SCALER_TYPES)),
    workersMin: endpointFields.workersMin.nonnegative(),
    workersMax: endpointFields.workersMax.nonnegative(),
    // Optional: a platform that does not report one leaves it absent.
    gpuCount: endpointFieldsBeyondSpec.gpuCount.nullish(),
    allowedCudaVersions: endpointFieldsBeyondSpec.allowedCudaVersions.optional(),
    executionTimeoutMs: endpointFieldsBeyondSpec.executionTimeoutMs.nullish(),
    workersStandby: endpointFieldsBeyondSpec.workersStandby.nullish(),
    pods: podsField.nullish().transform((v) => v ?? undefined),
  })
  .passthrough();
/** An endpoint as the platform reports it (spec: Resources › Serverless endpoint, GraphQL record). */
export interface EndpointRecord extends Listed<typeof endpointRecordSchema> {}

/**
 * Input of `saveEndpoint` (spec: GraphQL › Create / Modify endpoint). Without `id` it creates; with
 * `id` it modifies (must carry gpuIds, name, templateId). Units as in {@link endpointRecordSchema};
 * `null` clears `locations`, `fastBootType`, `networkVolumeId` and `allowedCudaVersions`.
 */
export const saveEndpointInputSchema = z.object({
  ...optionalFields({ ...endpointFields, ...endpointFieldsBeyondSpec }),
  id: nonEmptyArgument("id").optional(),
  name: endpointFields.name,
  templateId: endpointFields.templateId,
  gpuIds: endpointFields.gpuIds,
  type: z.enum(ENDPOINT_TYPES).optional(),
  locations: endpointFields.locations.nullish(),
  fastBootType: endpointFields.fastBootType.nullish(),
  scalerType: z.enum(SCALER_TYPES).optional(),
  workersMin: endpointFields.workersMin.nonnegative().optional(),
  workersMax: endpointFields.workersMax.nonnegative().optional(),
});
/** Input of `saveEndpoint`. Without `id` it creates; with `id` it modifies (must carry gpuIds, name, templateId). */
export interface SaveEndpointInput extends z.input<typeof saveEndpointInputSchema> {}

/** An endpoint's `id` with the fields every `saveEndpoint` modify carries (spec: GraphQL › Modify endpoint). */
export const endpointIdentitySchema = saveEndpointInputSchema.pick({ id: true, name: true, templateId: true, gpuIds: true }).required();
export interface EndpointIdentity extends z.input<typeof endpointIdentitySchema> {}

/** What the scale-down before a delete sets (spec: States and transitions — deletion needs both at 0). */
export const SCALED_TO_ZERO = { workersMin: 0, workersMax: 0 } as const satisfies Partial<SaveEndpointInput>;
/** The fields the scale-down's answer selects: the id and the two it sets. */
export const scaledDownSchema = endpointRecordSchema.pick({ id: true, workersMin: true, workersMax: true });

const GPU_TYPE_IDS_RULE = "must list at least one GPU type, in priority order";
/** Body of `POST /v1/endpoints` (spec: Resources › REST v1 creation body). */
export const restCreateEndpointInputSchema = z.object({
  name: z.string(),
  templateId: z.string(),
  /** GPU type names in priority order (the first available is allocated). */
  gpuTypeIds: z.array(z.string(), { required_error: GPU_TYPE_IDS_RULE, invalid_type_error: GPU_TYPE_IDS_RULE }).min(1, GPU_TYPE_IDS_RULE),
  workersMin: int.optional(),
  workersMax: int.optional(),
  /** Seconds. */
  idleTimeout: int.optional(),
  // Beyond the spec's body: fields of the published REST v1 document (docs/spec/platform-clients.md).
  /** GPUs per worker. */
  gpuCount: int.optional(),
  /** CUDA versions, e.g. `["12.1", "12.2"]` (an array here; comma-separated in GraphQL). */
  allowedCudaVersions: z.array(z.string()).optional(),
  /** Milliseconds a job may run. */
  executionTimeoutMs: int.optional(),
});
/** Body of `POST /v1/endpoints` (spec: Resources › REST v1 creation body). */
export interface RestCreateEndpointInput extends z.input<typeof restCreateEndpointInputSchema> {}

/** An environment variable of a template: GraphQL `env: [{ key, value }]` (spec: Common GraphQL input fields). */
export const envVarSchema = z.object({ key: z.string(), value: z.string() });

/**
 * A template as the platform reports it: the spec's "Common GraphQL input fields (pods and templates)"
 * plus the fields the official clients send and select (docs/spec/platform-clients.md, Templates).
 * `env` values may be secrets: never log a record.
 */
export const templateRecordSchema = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    /** Container image with repository and tag. */
    imageName: z.string(),
    /** Overrides the image's start command; empty = the image's own. */
    dockerArgs: nullish(z.string()),
    /** GB. */
    containerDiskInGb: nullish(int),
    /** GB; persists across restarts. */
    volumeInGb: nullish(int),
    volumeMountPath: nullish(z.string()),
    /** `port/protocol`, comma-separated, e.g. `"8000/http,22/tcp"`. */
    ports: nullish(z.string()),
    env: z
      .array(envVarSchema)
      .nullish()
      .transform((v) => v ?? []),
    isServerless: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false),
    /** Id of the registry credentials used to pull a private image; null or empty = none. */
    containerRegistryAuthId: nullish(z.string()),
    readme: nullish(z.string()),
  })
  .passthrough();
/** A template as the platform reports it. */
export interface TemplateRecord extends Listed<typeof templateRecordSchema> {}

/** Input of `saveTemplate`: without `id` it creates, with `id` it modifies (platform-clients.md, Templates). */
export const saveTemplateInputSchema = z.object({
  id: nonEmptyArgument("id").optional(),
  name: z.string(),
  imageName: z.string(),
  dockerArgs: z.string().optional(),
  containerDiskInGb: int.optional(),
  volumeInGb: int.optional(),
  volumeMountPath: z.string().nullish(),
  ports: z.string().optional(),
  env: z.array(envVarSchema).optional(),
  isServerless: z.boolean().optional(),
  containerRegistryAuthId: z.string().nullish(),
  readme: z.string().optional(),
  /** Provision SSH access at container start (platform-clients.md, saveTemplate; the platform's default is true). */
  startSsh: z.boolean().optional(),
});
export interface SaveTemplateInput extends z.input<typeof saveTemplateInputSchema> {}

/** Registry credentials as the platform reports them; the password is write-only (platform-clients.md, Registry credentials). */
export const registryAuthRecordSchema = z.object({ id: z.string().min(1), name: z.string() }).passthrough();
export interface RegistryAuthRecord extends Listed<typeof registryAuthRecordSchema> {}

/** Input of `saveRegistryAuth` (create). `password` is a secret. */
export const saveRegistryAuthInputSchema = z.object({ name: z.string(), username: z.string(), password: z.string() });
export interface SaveRegistryAuthInput extends z.input<typeof saveRegistryAuthInputSchema> {}

/** Input of `updateRegistryAuth` (the name cannot change). `password` is a secret. */
export const updateRegistryAuthInputSchema = z.object({ id: nonEmptyArgument("id"), username: z.string(), password: z.string() });
export interface UpdateRegistryAuthInput extends z.input<typeof updateRegistryAuthInputSchema> {}

/** Input and answer of `updateEndpointTemplate` (platform-clients.md). */
export const endpointTemplateSchema = z.object({ endpointId: nonEmptyArgument("endpointId"), templateId: nonEmptyArgument("templateId") });
export interface EndpointTemplateInput extends z.input<typeof endpointTemplateSchema> {}

/** `serverlessDiscount` of `myself`; null when no discount applies. */
export const serverlessDiscountSchema = z.object({ discountFactor: z.number(), type: z.string(), expirationDate: z.string() }).passthrough();
export interface ServerlessDiscount extends Listed<typeof serverlessDiscountSchema> {}

/** GraphQL `myself { id email endpoints {...} serverlessDiscount {...} }`. */
export const myselfSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    endpoints: z.array(endpointRecordSchema),
    serverlessDiscount: serverlessDiscountSchema.nullable(),
  })
  .passthrough();
export interface Myself extends Listed<typeof myselfSchema> {}

/** GraphQL `gpuTypes`; only `id` is given by the spec. */
export const gpuTypeSchema = z
  .object({
    id: z.string(),
    displayName: z
      .string()
      .nullish()
      .transform((v) => v ?? undefined),
    /** GB. */
    memoryInGb: z
      .number()
      .nullish()
      .transform((v) => v ?? undefined),
  })
  .passthrough();
export interface GpuType extends Listed<typeof gpuTypeSchema> {}

/** spec: Events, `data:` line of the worker log stream. */
export const logEventDataSchema = z.object({ ts: z.string().min(1), source: z.enum(LOG_SOURCES), line: z.string() }).passthrough();

const jobStatusSchema = z.enum(["IN_QUEUE", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
export type JobStatus = z.output<typeof jobStatusSchema>;

/** Job interface answer (`/run`, `/runsync`, status polling; polling shape "not shown", as the official SDKs use it). */
export const jobSchema = z
  .object({
    id: z.string().min(1),
    status: jobStatusSchema,
    output: z.unknown().optional(),
    /** A failed job's error; an object error is kept as its JSON text. */
    error: z
      .unknown()
      .optional()
      .transform((e) => (e === undefined || e === null ? undefined : typeof e === "string" ? e : JSON.stringify(e))),
  })
  .passthrough();
export interface Job extends z.output<typeof jobSchema> {}

/** The fields `schema` lists, taken from `value` in the schema's order (e.g. an endpoint's identity out of its record). */
export function fieldsOf<S extends z.AnyZodObject>(schema: S, value: z.input<S>): z.input<S> {
  const source = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(schema.shape).map((key) => [key, source[key]])) as z.input<S>;
}

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
