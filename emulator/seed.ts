/**
 * Seed data: users, API keys and their scopes, network volumes, templates, GPU types, public model endpoints
 * and rate-limit quotas. The seed is configuration (re-read on every start); mutable state lives in the store.
 */
import { readFileSync } from "fs";
import { z } from "zod";
import { ENDPOINT_FACTS, VOLUME_TYPES } from "./facts";
import { issueList } from "./problem";

const quotasSchema = z.object({
  minute: z.number().int().positive(),
  hour: z.number().int().positive(),
  day: z.number().int().positive(),
});

const discountSchema = z.object({
  discountFactor: z.number(),
  type: z.string(),
  expirationDate: z.string(),
});

const seedSchema = z
  .object({
    users: z
      .array(
        z.object({
          id: z.string().min(1),
          email: z.string().min(1),
          serverlessDiscount: discountSchema.nullable().default(null),
          /** Per-user quotas; override the seed-wide `rateLimits`. */
          rateLimits: quotasSchema.partial().optional(),
        }),
      )
      .min(1),
    apiKeys: z.array(
      z.object({
        key: z.string().min(8),
        userId: z.string(),
        /** `read` allows queries and GETs; `write` is needed for mutations and POSTs. */
        scopes: z.array(z.enum(["read", "write"])).min(1),
        /** RFC 3339; a key past this instant is rejected with 401. */
        expiresAt: z.string().datetime({ offset: true }).optional(),
        label: z.string().optional(),
      }),
    ),
    networkVolumes: z
      .array(
        z.object({
          id: z.string().min(1),
          userId: z.string(),
          name: z.string(),
          /** GB. */
          size: z.number().int().positive(),
          dataCenter: z.string(),
          /** Storage tier (REST v2 VolumeType). */
          type: z.enum(VOLUME_TYPES).default("STANDARD"),
        }),
      )
      .default([]),
    templates: z
      .array(
        z.object({
          id: z.string().min(1),
          /** Owner; null or omitted = usable by every user (public template). */
          userId: z.string().nullable().default(null),
          name: z.string(),
          imageName: z.string(),
          isServerless: z.boolean().default(true),
          /** A public template Runpod has verified (REST v2 listPublicTemplates `source=verified`); implies public. */
          verified: z.boolean().default(false),
        }),
      )
      .default([]),
    gpuTypes: z
      .array(
        z.object({
          id: z.string().min(1),
          displayName: z.string(),
          memoryInGb: z.number().int().positive(),
          tier: z.enum(ENDPOINT_FACTS.gpuIds.values),
          manufacturer: z.string().default("Nvidia"),
          cudaCores: z.number().int().nonnegative().nullable().default(null),
          maxGpuCount: z.number().int().positive().default(8),
          /** USD per GPU-hour on secure cloud; null = not offered there. */
          securePrice: z.number().nonnegative().nullable().default(null),
          /** USD per GPU-hour on community cloud; null = not offered there. */
          communityPrice: z.number().nonnegative().nullable().default(null),
        }),
      )
      .min(1),
    publicEndpoints: z
      .array(
        z.object({
          id: z.string().min(1),
          kind: z.literal("image"),
          /** USD per megapixel of output. */
          pricePerMegapixel: z.number().nonnegative(),
        }),
      )
      .default([]),
    /** Per-user quotas applied to every user unless overridden. */
    rateLimits: quotasSchema.default({ minute: 6000, hour: 100000, day: 1000000 }),
  })
  .superRefine((seed, ctx) => {
    const users = new Set(seed.users.map((u) => u.id));
    const check = (ids: (string | null)[], path: string) =>
      ids.forEach((id, i) => {
        if (id !== null && !users.has(id)) ctx.addIssue({ code: "custom", path: [path, i, "userId"], message: `unknown user "${id}"` });
      });
    check(
      seed.apiKeys.map((k) => k.userId),
      "apiKeys",
    );
    check(
      seed.networkVolumes.map((v) => v.userId),
      "networkVolumes",
    );
    check(
      seed.templates.map((t) => t.userId),
      "templates",
    );
    const dup = (ids: string[], path: string) => {
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        if (seen.has(id)) ctx.addIssue({ code: "custom", path: [path, i], message: `duplicate id "${id}"` });
        seen.add(id);
      });
    };
    dup(
      seed.users.map((u) => u.id),
      "users",
    );
    dup(
      seed.apiKeys.map((k) => k.key),
      "apiKeys",
    );
    dup(
      seed.gpuTypes.map((g) => g.id),
      "gpuTypes",
    );
    dup(
      seed.templates.map((t) => t.id),
      "templates",
    );
    dup(
      seed.networkVolumes.map((v) => v.id),
      "networkVolumes",
    );
  });

/** A seed as written in a JSON file (defaults may be omitted). */
export type SeedInput = z.input<typeof seedSchema>;
/** A validated seed with defaults filled in. */
export type Seed = z.output<typeof seedSchema>;
export type SeedUser = Seed["users"][number];
export type SeedApiKey = Seed["apiKeys"][number];
export type SeedGpuType = Seed["gpuTypes"][number];
export type SeedTemplate = Seed["templates"][number];
export type SeedNetworkVolume = Seed["networkVolumes"][number];
export type SeedPublicEndpoint = Seed["publicEndpoints"][number];
export type Quotas = z.infer<typeof quotasSchema>;

/** Well-known keys of the default seed (handy for demos: `npm run emulator` prints them too). */
export const DEFAULT_KEYS = {
  readWrite: "rpa_emulator_user1_readwrite",
  readOnly: "rpa_emulator_user1_readonly",
  otherUser: "rpa_emulator_user2_readwrite",
  expired: "rpa_emulator_user1_expired",
} as const;

/** The built-in seed: two users, read-write/read-only/expired keys, volumes, templates, GPU types and image models. */
export const DEFAULT_SEED: SeedInput = {
  users: [
    {
      id: "user_1",
      email: "demo@example.com",
      serverlessDiscount: { discountFactor: 0.9, type: "SERVERLESS", expirationDate: "2099-12-31T00:00:00.000Z" },
    },
    { id: "user_2", email: "other@example.com", serverlessDiscount: null },
  ],
  apiKeys: [
    { key: DEFAULT_KEYS.readWrite, userId: "user_1", scopes: ["read", "write"], label: "default read-write" },
    { key: DEFAULT_KEYS.readOnly, userId: "user_1", scopes: ["read"], label: "default read-only" },
    { key: DEFAULT_KEYS.otherUser, userId: "user_2", scopes: ["read", "write"], label: "second user" },
    { key: DEFAULT_KEYS.expired, userId: "user_1", scopes: ["read", "write"], expiresAt: "2020-01-01T00:00:00Z", label: "expired" },
  ],
  networkVolumes: [
    { id: "nv_models01", userId: "user_1", name: "models", size: 100, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" },
    { id: "nv_cache01", userId: "user_1", name: "cache", size: 50, dataCenter: "US-TX-3", type: "STANDARD" },
    { id: "nv_other01", userId: "user_2", name: "other-data", size: 20, dataCenter: "EU-CZ-1", type: "STANDARD" },
  ],
  templates: [
    { id: "tpl_vllm", userId: "user_1", name: "vllm-worker", imageName: "runpod/worker-v1-vllm:stable-cuda12.1.0" },
    { id: "tpl_comfy", userId: "user_1", name: "comfyui-worker", imageName: "runpod/worker-comfyui:latest" },
    { id: "tpl_other", userId: "user_2", name: "other-worker", imageName: "example/other:1.0" },
    { id: "tpl_pod_only", userId: "user_1", name: "jupyter-pod", imageName: "runpod/pytorch:2.4.0", isServerless: false },
    // Runpod's official catalog (REST v2 listPublicTemplates): usable by every user, changeable by none.
    { id: "tpl_official_vllm", userId: null, name: "vLLM Worker", imageName: "runpod/worker-v1-vllm:stable-cuda12.1.0" },
    { id: "tpl_official_pytorch", userId: null, name: "Runpod PyTorch 2.8", imageName: "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", isServerless: false },
  ],
  gpuTypes: [
    // Plausible hourly prices (USD per GPU) in the range the platform publishes; not quotes.
    { id: "NVIDIA RTX A4000", displayName: "RTX A4000", memoryInGb: 16, tier: "AMPERE_16", cudaCores: 6144, securePrice: 0.25, communityPrice: 0.17 },
    { id: "NVIDIA RTX A4500", displayName: "RTX A4500", memoryInGb: 20, tier: "AMPERE_16", cudaCores: 7168, securePrice: 0.27, communityPrice: 0.19 },
    { id: "NVIDIA RTX A5000", displayName: "RTX A5000", memoryInGb: 24, tier: "AMPERE_24", cudaCores: 8192, securePrice: 0.29, communityPrice: 0.22 },
    { id: "NVIDIA GeForce RTX 3090", displayName: "RTX 3090", memoryInGb: 24, tier: "AMPERE_24", cudaCores: 10496, securePrice: 0.46, communityPrice: 0.22 },
    { id: "NVIDIA L4", displayName: "L4", memoryInGb: 24, tier: "AMPERE_24", cudaCores: 7424, securePrice: 0.43, communityPrice: null },
    { id: "NVIDIA GeForce RTX 4090", displayName: "RTX 4090", memoryInGb: 24, tier: "ADA_24", cudaCores: 16384, securePrice: 0.69, communityPrice: 0.34 },
    { id: "NVIDIA RTX A6000", displayName: "RTX A6000", memoryInGb: 48, tier: "AMPERE_48", cudaCores: 10752, securePrice: 0.49, communityPrice: 0.33 },
    { id: "NVIDIA A40", displayName: "A40", memoryInGb: 48, tier: "AMPERE_48", cudaCores: 10752, securePrice: 0.4, communityPrice: null },
    { id: "NVIDIA L40S", displayName: "L40S", memoryInGb: 48, tier: "ADA_48_PRO", cudaCores: 18176, securePrice: 0.86, communityPrice: 0.79 },
    {
      id: "NVIDIA RTX 6000 Ada Generation",
      displayName: "RTX 6000 Ada",
      memoryInGb: 48,
      tier: "ADA_48_PRO",
      cudaCores: 18176,
      securePrice: 0.77,
      communityPrice: 0.74,
    },
    { id: "NVIDIA A100 80GB PCIe", displayName: "A100 PCIe", memoryInGb: 80, tier: "AMPERE_80", cudaCores: 6912, securePrice: 1.64, communityPrice: 1.19 },
    { id: "NVIDIA A100-SXM4-80GB", displayName: "A100 SXM", memoryInGb: 80, tier: "AMPERE_80", cudaCores: 6912, securePrice: 1.74, communityPrice: 1.39 },
    { id: "NVIDIA H100 PCIe", displayName: "H100 PCIe", memoryInGb: 80, tier: "ADA_80_PRO", cudaCores: 14592, securePrice: 2.39, communityPrice: 1.99 },
    { id: "NVIDIA H100 80GB HBM3", displayName: "H100 SXM", memoryInGb: 80, tier: "ADA_80_PRO", cudaCores: 16896, securePrice: 2.69, communityPrice: 2.69 },
  ],
  publicEndpoints: [
    { id: "flux-1-schnell", kind: "image", pricePerMegapixel: 0.0024 },
    { id: "flux-1-dev", kind: "image", pricePerMegapixel: 0.02 },
  ],
  rateLimits: { minute: 6000, hour: 100000, day: 1000000 },
};

/**
 * Validate a seed object or load and validate a JSON seed file.
 * @throws Error naming the file and every invalid path when the seed does not match the schema.
 */
export function loadSeed(seed?: SeedInput | Seed | string): Seed {
  let raw: unknown = seed ?? DEFAULT_SEED;
  let origin = seed === undefined ? "built-in seed" : "seed object";
  if (typeof seed === "string") {
    origin = `seed file ${seed}`;
    try {
      raw = JSON.parse(readFileSync(seed, "utf8"));
    } catch (e) {
      throw new Error(`cannot read ${origin}: ${(e as Error).message}`, { cause: e });
    }
  }
  const parsed = seedSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`invalid ${origin}:\n  ${issueList(parsed.error, "(root)").join("\n  ")}`);
  }
  return parsed.data;
}

/** Effective quotas of one user (seed-wide quotas overridden by the user's own). */
export function quotasOf(seed: Seed, userId: string): Quotas {
  const user = seed.users.find((u) => u.id === userId);
  return { ...seed.rateLimits, ...(user?.rateLimits ?? {}) };
}
