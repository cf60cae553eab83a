/**
 * Fault injection (contract: FaultConfig). Decisions draw from a seeded PRNG (pure-rand) so a given seed and
 * request sequence always yields the same pattern. Kinds counted in stats: error5xx, dropBefore, dropAfter,
 * force429, dropStream, echoRequest.
 */
import prand from "pure-rand";
import { z } from "zod";
import type { AvailabilityOverrides } from "./catalog";
import { AVAILABILITY_LEVELS } from "./facts";
import type { EchoMode } from "./echo";
import { issueList } from "./problem";
import type { Stats } from "./stats";
import type { FaultConfig } from "./types";
import type { StartFailure } from "./workers";

const rate = z.number().min(0).max(1);
/** One entry of `failingImages`: an image reference alone fails as a crash on boot with exit code 1. */
const failingImage = z.union([
  z.string().trim().min(1),
  z
    .object({
      image: z.string().trim().min(1),
      failure: z.enum(["crash", "pull"]).optional(),
      exitCode: z.number().int().min(1).max(255).optional(),
    })
    .strict(),
]);
/** The fields of a fault configuration (emulator/README.md lists each). */
const faultFields = z
  .object({
    latencyMs: z.number().int().min(0).optional(),
    errorRate: rate.optional(),
    dropBeforeRate: rate.optional(),
    dropAfterRate: rate.optional(),
    force429: z.number().int().min(0).optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
    rateLimitResetSeconds: z.number().int().min(0).optional(),
    omitRateLimitHeaders: z.boolean().optional(),
    echoRequest: z.enum(["json", "text"]).optional(),
    match: z.array(z.string()).optional(),
    singleMutationField: z.boolean().optional(),
    dropStreamAfterEvents: z.number().int().min(0).optional(),
    pauseIdleLogs: z.boolean().optional(),
    failingImages: z.array(failingImage).optional(),
    seed: z.number().int().optional(),
    availability: z.record(z.string().min(1), z.record(z.string().min(1), z.enum(AVAILABILITY_LEVELS))).optional(),
  })
  .strict();

/** Validates fault configurations from options and `POST {admin}/faults`; unknown keys are rejected. */
export const faultConfigSchema = faultFields.refine((c) => !(c.omitRateLimitHeaders && c.rateLimitResetSeconds !== undefined), {
  message: "rateLimitResetSeconds sets the RateLimit header that omitRateLimitHeaders leaves out; give one of them",
  path: ["rateLimitResetSeconds"],
});

/** What to do with a request before it takes effect. */
export type BeforeFault =
  /** `rateLimitReset`: the `t` of the 429's `RateLimit` header; null = no `RateLimit`/`RateLimit-Policy`. */
  { kind: "force429"; retryAfter: number; rateLimitReset: number | null } | { kind: "dropBefore" } | { kind: "error5xx"; status: number } | null;

const ERROR_STATUSES = [500, 502, 503];

export class Faults {
  private config: FaultConfig = {};
  private rng = prand.xoroshiro128plus(1);
  private remaining429 = 0;

  constructor(
    private stats: Stats,
    initial: FaultConfig = {},
  ) {
    this.set(initial);
  }

  /**
   * Replace the configuration and reseed the PRNG.
   * @throws Error listing invalid fields.
   */
  set(config: FaultConfig): void {
    const parsed = faultConfigSchema.safeParse(config ?? {});
    if (!parsed.success) throw new Error(issueList(parsed.error, "").join("; "));
    this.config = parsed.data;
    this.rng = prand.xoroshiro128plus(parsed.data.seed ?? 1);
    this.remaining429 = parsed.data.force429 ?? 0;
    this.onChange?.();
  }

  /** Called after every configuration change (the platform re-places throttled workers when stock changes). */
  onChange?: () => void;

  /** The active configuration, with `force429` showing how many forced 429s are left. */
  get(): FaultConfig {
    return { ...this.config, force429: this.remaining429 };
  }

  /** Catalog stock overrides (`availability`): catalog id → data center id or `*` → level; not limited by `match`. */
  availability(): AvailabilityOverrides {
    return this.config.availability ?? {};
  }

  private matches(operations: string[]): boolean {
    const match = this.config.match;
    return match === undefined || operations.some((op) => match.includes(op));
  }

  /** true with probability `p` (one PRNG draw whenever 0 < p < 1, so patterns depend only on seed and order). */
  private chance(p: number | undefined): boolean {
    if (!p) return false;
    if (p >= 1) return true;
    return prand.unsafeUniformIntDistribution(0, 999_999, this.rng) < p * 1_000_000;
  }

  /** Added latency in milliseconds for a request with these operations. */
  latencyFor(operations: string[]): number {
    return this.matches(operations) ? (this.config.latencyMs ?? 0) : 0;
  }

  /** Decide a fault that hits before the request takes effect (forced 429 first, then drop, then 5xx). */
  before(operations: string[]): BeforeFault {
    if (!this.matches(operations)) return null;
    if (this.remaining429 > 0) {
      this.remaining429--;
      this.stats.fault("force429");
      const retryAfter = this.config.retryAfterSeconds ?? 1;
      const rateLimitReset = this.config.omitRateLimitHeaders ? null : (this.config.rateLimitResetSeconds ?? Math.max(1, retryAfter));
      return { kind: "force429", retryAfter, rateLimitReset };
    }
    if (this.chance(this.config.dropBeforeRate)) {
      this.stats.fault("dropBefore");
      return { kind: "dropBefore" };
    }
    if (this.chance(this.config.errorRate)) {
      this.stats.fault("error5xx");
      const status = ERROR_STATUSES[prand.unsafeUniformIntDistribution(0, ERROR_STATUSES.length - 1, this.rng)];
      return { kind: "error5xx", status };
    }
    return null;
  }

  /** Whether a request that took effect loses its response (socket destroyed). */
  dropAfter(operations: string[]): boolean {
    if (!this.matches(operations) || !this.chance(this.config.dropAfterRate)) return false;
    this.stats.fault("dropAfter");
    return true;
  }

  /** Events after which a worker-log stream is destroyed, if configured. */
  streamEventLimit(operations: string[]): number | undefined {
    return this.matches(operations) ? this.config.dropStreamAfterEvents : undefined;
  }

  /** Idle workers' periodic lines are held back (`pauseIdleLogs`). */
  idleLogsPaused(): boolean {
    return this.config.pauseIdleLogs === true;
  }

  /** How a worker of `image` fails to start (`failingImages`), or undefined when it starts; read at every start attempt. */
  startFailure(image: string): StartFailure | undefined {
    for (const entry of this.config.failingImages ?? []) {
      const e: z.infer<typeof failingImage> & object = typeof entry === "string" ? { image: entry } : entry;
      if (e.image !== image.trim()) continue;
      return e.failure === "pull" ? { kind: "pull" } : { kind: "crash", exitCode: e.exitCode ?? 1 };
    }
    return undefined;
  }

  /** How error answers to a request with these operations echo the request, if they do. */
  echoFor(operations: string[]): EchoMode | undefined {
    return this.matches(operations) ? this.config.echoRequest : undefined;
  }

  /** Record that an error answer echoed its request. */
  echoed(): void {
    this.stats.fault("echoRequest");
  }

  /** Record that a stream was destroyed by `dropStreamAfterEvents`. */
  streamDropped(): void {
    this.stats.fault("dropStream");
  }
}
