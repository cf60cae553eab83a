/**
 * REST v2 pod request bodies as the emulator checks them (docs/spec/rest-v2-openapi.json: CreatePodRequest,
 * UpdatePodRequest, PodActionRequest, Mounts). Written with zod on their own, like schemas.ts; a body these refuse
 * answers 422. Cross-field rules the document enforces "at the handler" (exactly one of gpu / cpu, one mount kind,
 * CUDA exclusivity) answer 400 from pods.ts.
 */
import { z } from "zod";

const cuda = z.string().regex(/^\d+\.\d+$/, "must be major.minor, e.g. 12.8");

const container = {
  image: z.string().optional(),
  args: z.string().optional(),
  disk: z.number().int().min(1).optional(),
  ports: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  registry: z.string().nullable().optional(),
};

export const mountsSchema = z
  .object({
    persistent: z
      .object({ size: z.number().int().min(10), path: z.string() })
      .strict()
      .optional(),
    network: z
      .array(z.object({ volumeId: z.string(), path: z.string() }).strict())
      .max(1)
      .optional(),
  })
  .strict();
export type PodMounts = z.output<typeof mountsSchema>;

export const CLOUDS = ["SECURE", "COMMUNITY"] as const;
export const POD_ACTIONS = ["start", "stop", "restart", "terminate"] as const;
export type PodAction = (typeof POD_ACTIONS)[number];

export const createPodSchema = z
  .object({
    ...container,
    name: z.string().min(1),
    cloud: z.enum(CLOUDS).optional(),
    cpu: z
      .object({ id: z.string().min(1), vcpuCount: z.number().int().min(2) })
      .strict()
      .optional(),
    dataCenterIds: z.array(z.string()).optional(),
    globalNetworking: z.boolean().optional(),
    gpu: z
      .object({ id: z.string(), count: z.number().int().min(1).optional(), allowedCudaVersions: z.array(cuda).optional(), minCudaVersion: cuda.optional() })
      .strict()
      .optional(),
    mounts: mountsSchema.optional(),
    startJupyter: z.boolean().optional(),
    startSsh: z.boolean().optional(),
    templateId: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.templateId === undefined && b.image === undefined) ctx.addIssue({ code: "custom", path: ["image"], message: "required unless templateId is given" });
  });
export type CreatePodBody = z.output<typeof createPodSchema>;

export const updatePodSchema = z
  .object({
    ...container,
    globalNetworking: z.boolean().optional(),
    locked: z.boolean().optional(),
    mounts: mountsSchema.optional(),
    name: z.string().min(1).optional(),
    templateId: z.string().optional(),
  })
  .strict();
export type UpdatePodBody = z.output<typeof updatePodSchema>;

export const podActionSchema = z.object({ action: z.enum(POD_ACTIONS) }).strict();
