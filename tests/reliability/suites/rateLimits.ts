/**
 * Issue #6 "Rate limits": 429 retried after Retry-After within the total deadline; pacing from the
 * RateLimit figures; a many-endpoint deployment under a tight quota creating each endpoint once.
 */
import { RateLimitError } from "../../../src/api";
import type { PlatformClient } from "../../../src/api/types";
import { EndpointProvider } from "../../../src/provider/endpoint/provider";
import { mutationCounts, now, relClient, startRelEmulator, thrown, tightQuotaSeed, uniqueName, useRelEmulator, type RelEmulator } from "../harness";
import { PlatformSession } from "../../../src/provider/session";

/** check + create, as the engine does; fails on check failures. */
export async function createChecked(provider: EndpointProvider, args: Record<string, unknown>) {
  const checked = await provider.check(undefined, args);
  expect(checked.failures).toEqual([]);
  const created = await provider.create(checked.inputs);
  return { inputs: checked.inputs as Record<string, unknown>, id: created.id, outs: created.outs as unknown as Record<string, unknown> };
}

export function rateLimitSuite(): void {
  describe("rate limits: 429 answers", () => {
    const emu = useRelEmulator();

    it("a read answered 429 is retried after Retry-After and then succeeds", async () => {
      const client = relClient(emu);
      emu.setFaults({ force429: 1, retryAfterSeconds: 1, match: ["listNetworkVolumes"] });
      const started = now();
      const volumes = await client.listNetworkVolumes();
      // A lower bound only: the retry must not have gone out before Retry-After.
      expect(now() - started).toBeGreaterThanOrEqual(1000);
      expect(volumes.map((v) => v.id)).toEqual(expect.arrayContaining(["nv_models01", "nv_cache01"]));
      // Waiting out a rate limit is not a retry: the retry count is for faults.
      expect(client.stats.retries).toBe(0);
      expect(client.stats.rateLimitWaits).toBe(1);
      expect(emu.stats().byOperation.listNetworkVolumes).toBe(2);
      expect(emu.stats().faultsByKind.force429).toBe(1);
    });

    it("a create answered 429 (it never took effect) is retried and yields exactly one endpoint", async () => {
      const client = relClient(emu);
      const provider = new EndpointProvider(new PlatformSession(() => client));
      const name = uniqueName("r429");
      emu.setFaults({ force429: 2, retryAfterSeconds: 1, match: ["saveEndpoint", "restCreateEndpoint"] });
      const started = now();
      const { id } = await createChecked(provider, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
      expect(now() - started).toBeGreaterThanOrEqual(2000);
      expect(
        emu
          .endpoints(emu.apiKey)
          .filter((e) => e.name === name)
          .map((e) => e.id),
      ).toEqual([id]);
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 3, restCreateEndpoint: 0, deleteEndpoint: 0 });
      expect(client.stats.retries).toBe(0);
      expect(client.stats.rateLimitWaits).toBe(2);
      emu.expectedAtEnd += 1;
    });

    it("a Retry-After beyond the rate-limit deadline is not waited for: RateLimitError at once naming the window, nothing created", async () => {
      const client = relClient(emu, { rateLimitDeadlineMs: 3000 });
      const provider = new EndpointProvider(new PlatformSession(() => client));
      const name = uniqueName("r429-deadline");
      emu.setFaults({ force429: 5, retryAfterSeconds: 600, match: ["saveEndpoint"] });
      const err = await thrown(() => createChecked(provider, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] }));
      expect(err).toBeInstanceOf(RateLimitError);
      expect((err as RateLimitError).retryAfterSeconds).toBe(600);
      expect((err as RateLimitError).exceededWindows).toEqual(["minute"]);
      expect(err.message).toMatch(/429/);
      expect(err.message).toMatch(/minute/);
      expect(mutationCounts(emu).saveEndpoint).toBe(1);
      expect(emu.endpoints(emu.apiKey).filter((e) => e.name === name)).toEqual([]);
    });
  });
}

export interface QuotaDeployment {
  emu: RelEmulator;
  client: PlatformClient;
  names: string[];
  /** Minute budget the platform reported just before the burst. */
  remainingBefore: number;
  /** Seconds to the minute window's reset at that moment. */
  resetBefore: number;
  results: PromiseSettledResult<{ id: string }>[];
  /** Emulator request count of the burst (listing + creates). */
  requestsInBurst: number;
}

export const QUOTA_PER_MINUTE = 20;
export const QUOTA_ENDPOINTS = 25;

/**
 * Deploys {@link QUOTA_ENDPOINTS} endpoints in parallel through one provider (as the dynamic provider
 * host does for one `pulumi up`) against a user whose quota is {@link QUOTA_PER_MINUTE} requests a
 * minute. The emulator's windows are wall-clock minutes, so the run first makes sure the current
 * window has enough time left for the burst to exhaust it: the run then cannot finish without
 * waiting for a reset (at most a minute). Started early and awaited by the last test, so the wait
 * overlaps the rest of the suite.
 */
export async function quotaDeployment(): Promise<QuotaDeployment> {
  const emu = await startRelEmulator({ seed: tightQuotaSeed(QUOTA_PER_MINUTE) });
  emu.expectedAtEnd = QUOTA_ENDPOINTS;
  try {
    const client = relClient(emu, { retry: { retries: 6, minDelayMs: 100, maxDelayMs: 2000, deadlineMs: 120_000 } });
    const provider = new EndpointProvider(new PlatformSession(() => client));

    await client.listNetworkVolumes();
    if ((client.rateLimit.minute?.resetSeconds ?? 60) <= 10) {
      await new Promise((r) => setTimeout(r, ((client.rateLimit.minute?.resetSeconds ?? 0) + 1) * 1000));
      await client.listNetworkVolumes();
    }
    const remainingBefore = client.rateLimit.minute?.remaining ?? -1;
    const resetBefore = client.rateLimit.minute?.resetSeconds ?? -1;
    const requestsBefore = emu.stats().requests;

    const names = Array.from({ length: QUOTA_ENDPOINTS }, (_, i) => uniqueName(`quota${i}`));
    const checked = await Promise.all(names.map((name) => provider.check(undefined, { name, templateId: "tpl_vllm", gpuIds: ["AMPERE_16"] })));
    const failures = checked.flatMap((c) => c.failures);
    if (failures.length) throw new Error(`unexpected check failures: ${JSON.stringify(failures)}`);
    const results = await Promise.allSettled(checked.map((c) => provider.create(c.inputs)));
    return { emu, client, names, remainingBefore, resetBefore, results, requestsInBurst: emu.stats().requests - requestsBefore };
  } catch (err) {
    await emu.close();
    throw err;
  }
}

/** The assertions on {@link quotaDeployment}'s outcome. */
export function quotaDeploymentSuite(run: () => Promise<QuotaDeployment>): void {
  describe("rate limits: a deployment under a tight quota", () => {
    it(`${QUOTA_ENDPOINTS} endpoints created in parallel under ${QUOTA_PER_MINUTE} requests/minute: each exactly once, paced without meeting a 429`, async () => {
      const d = await run();
      try {
        const rejected = d.results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason));
        expect(rejected).toEqual([]);
        const ids = d.results.map((r) => (r as PromiseFulfilledResult<{ id: string }>).value.id);

        const onPlatform = d.emu.endpoints(d.emu.apiKey);
        expect(onPlatform).toHaveLength(QUOTA_ENDPOINTS);
        expect(onPlatform.map((e) => e.name).sort()).toEqual([...d.names].sort());
        expect(new Set(ids).size).toBe(QUOTA_ENDPOINTS);
        expect(onPlatform.map((e) => e.id).sort()).toEqual([...ids].sort());
        expect(mutationCounts(d.emu).saveEndpoint).toBe(QUOTA_ENDPOINTS);

        // The burst needed more requests than the window had left, and the window was not about to reset...
        expect(d.resetBefore).toBeGreaterThan(10);
        expect(d.requestsInBurst).toBeGreaterThan(d.remainingBefore);
        // ...so it had to wait for a reset: the client held back the requests beyond the reported budget (it
        // counts the requests still unanswered against each answer's figures, so it may hold back more), paced
        // the last ones of the window, and never met a 429.
        expect(d.client.stats.rateLimitWaits).toBeGreaterThanOrEqual(1);
        expect(d.client.stats.rateLimitWaits + d.client.stats.rateLimitPaced).toBeGreaterThanOrEqual(d.requestsInBurst - d.remainingBefore);
        expect(d.emu.stats().rateLimited).toBe(0);
        expect(d.client.stats.retries).toBe(0);
        expect(d.emu.stats().faultsInjected).toBe(0);
      } finally {
        await d.emu.close();
      }
    });
  });
}
