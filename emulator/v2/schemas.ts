/**
 * REST v2 request bodies as the emulator checks them (docs/spec/rest-v2-openapi.json: CreateEndpointRequest,
 * UpdateEndpointRequest, CreateTemplateRequest, UpdateTemplateRequest, CreateRegistryRequest). Written on their own
 * with zod, not generated from the document, so the conformance tier (tests/conformance/v2*.test.ts) can catch a
 * difference. A body these refuse answers 422 with one `errors[]` entry per failure.
 */
import { z } from "zod";
import { v2Problem } from "./problems";

const cuda = z.string().regex(/^\d+\.\d+$/, "must be major.minor, e.g. 12.8");
const envMap = z.record(z.string(), z.string());

/** ContainerConfig: image, args, disk, ports, env, registry. */
const container = {
  image: z.string().optional(),
  args: z.string().optional(),
  disk: z.number().int().min(1).optional(),
  ports: z.array(z.string()).optional(),
  env: envMap.optional(),
  registry: z.string().nullable().optional(),
};

const flashboot = z.enum(["OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"]);
const excludedTypes = z.array(z.string().regex(/^\s*[^-\s]/, "must name a GPU type id")).refine((a) => new Set(a).size === a.length, "items must be unique");

export const scalingSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("QUEUE_DELAY"), queueDelay: z.number().min(0.5) }).strict(),
  z.object({ type: z.literal("REQUEST_COUNT"), requestCount: z.number().int().min(1) }).strict(),
]);

const workers = z
  .object({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional(), idleTimeout: z.number().int().min(1).max(3600).optional() })
  .strict();

const cpuList = z
  .array(z.object({ id: z.string().min(1), vcpuCount: z.number().int().min(2) }).strict())
  .min(1)
  .refine((a) => new Set(a.map((c) => `${c.id}/${c.vcpuCount}`)).size === a.length, "exact duplicate configurations are not allowed");

export const createEndpointSchema = z
  .object({
    ...container,
    name: z.string().min(1),
    type: z.enum(["QUEUE", "LOAD_BALANCER"]),
    scaling: scalingSchema,
    gpu: z
      .object({
        pools: z.array(z.string()).min(1),
        excludedTypes: excludedTypes.optional(),
        count: z.number().int().min(1).optional(),
        allowedCudaVersions: z.array(cuda).optional(),
        minCudaVersion: cuda.optional(),
      })
      .strict()
      .optional(),
    cpu: cpuList.optional(),
    dataCenterIds: z.array(z.string()).optional(),
    flashboot: flashboot.optional(),
    networkVolumes: z.array(z.string()).optional(),
    templateId: z.string().min(1).optional(),
    timeout: z.number().int().optional(),
    workers: workers.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.templateId === undefined && b.image === undefined) ctx.addIssue({ code: "custom", path: ["image"], message: "required unless templateId is given" });
    if (b.type === "LOAD_BALANCER" && b.scaling.type !== "REQUEST_COUNT") {
      ctx.addIssue({ code: "custom", path: ["scaling", "type"], message: "a LOAD_BALANCER endpoint scales on REQUEST_COUNT" });
    }
  });
export type CreateEndpointBody = z.output<typeof createEndpointSchema>;

export const updateEndpointSchema = z
  .object({
    ...container,
    name: z.string().min(1).optional(),
    scaling: scalingSchema.optional(),
    gpu: z
      .object({
        pools: z.array(z.string()).min(1).optional(),
        excludedTypes: excludedTypes.optional(),
        count: z.number().int().min(1).optional(),
        allowedCudaVersions: z.array(cuda).optional(),
        minCudaVersion: z
          .string()
          .regex(/^$|^\d+\.\d+$/, 'must be major.minor, or "" to clear')
          .optional(),
      })
      .strict()
      .refine((g) => g.excludedTypes === undefined || g.pools !== undefined, { message: "excludedTypes requires pools", path: ["excludedTypes"] })
      .optional(),
    cpu: cpuList.optional(),
    dataCenterIds: z.array(z.string()).optional(),
    flashboot: flashboot.optional(),
    networkVolumes: z.array(z.string()).optional(),
    templateId: z.string().optional(),
    timeout: z.number().int().optional(),
    workers: workers.optional(),
  })
  .strict();
export type UpdateEndpointBody = z.output<typeof updateEndpointSchema>;

const mounts = z
  .object({
    persistent: z
      .object({ size: z.number().int().min(10), path: z.string() })
      .strict()
      .optional(),
  })
  .strict();
const category = z.enum(["NVIDIA", "AMD", "CPU"]);

const templateFields = {
  ...container,
  allowedCudaVersions: z.array(cuda).optional(),
  category: category.optional(),
  mounts: mounts.optional(),
  public: z.boolean().optional(),
  serverless: z.boolean().optional(),
  startJupyter: z.boolean().optional(),
  startSsh: z.boolean().optional(),
};

export const createTemplateSchema = z.object({ ...templateFields, name: z.string().min(1), image: z.string() }).strict();
export type CreateTemplateBody = z.output<typeof createTemplateSchema>;

export const updateTemplateSchema = z.object({ ...templateFields, name: z.string().min(1).optional() }).strict();
export type UpdateTemplateBody = z.output<typeof updateTemplateSchema>;

export const createRegistrySchema = z.object({ name: z.string().min(1), username: z.string().min(1), password: z.string().min(1) }).strict();

/** zod issues as the document's `errors[]` strings: `$.path: message`. */
export function schemaErrors(error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const path = ["$", ...i.path].join(".");
    if (i.code === "unrecognized_keys") return `${path}: additional properties ${i.keys.map((k) => `'${k}'`).join(", ")} not allowed`;
    return `${path}: ${i.message}`;
  });
}

/** Parse or throw the 422 the document gives for a body that fails validation. */
export function parseBody<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  // Every v2 request body is `required: true` in the document: an empty one is refused, not read as `{}`.
  if (body === undefined) throw v2Problem(422, "Request validation failed.", ["$: the request body is required (a JSON object)"]);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw v2Problem(422, "Request validation failed.", schemaErrors(parsed.error));
  return parsed.data;
}
