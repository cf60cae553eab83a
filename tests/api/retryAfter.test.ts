/**
 * The client waits for `Retry-After` itself, not only for the `RateLimit` reset its pacing follows: the
 * emulator's forced 429s here send a reset that differs from `Retry-After`, or no `RateLimit` at all, so
 * the only thing that can hold the retry back for the full `Retry-After` is the retry path honouring it.
 * Each call starts with a fresh client (no figures from earlier answers to pace by).
 */
import type { FaultConfig, RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api";
import { clientFor, startFastEmulator } from "./helpers";

const RETRY_AFTER_S = 2;
// Timer granularity only: the wait is Retry-After seconds from the 429, and the 429 follows the call's start.
const MIN_WAIT_MS = RETRY_AFTER_S * 1000 - 50;

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFastEmulator();
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.setFaults({});
  emu.resetStats();
});

/** Runs `call` with one forced 429 on `operation`; returns the call's duration and the client. */
async function afterOne429(
  operation: string,
  rateLimit: Pick<FaultConfig, "rateLimitResetSeconds" | "omitRateLimitHeaders">,
  call: (c: PlatformClient) => Promise<unknown>,
) {
  emu.setFaults({ force429: 1, retryAfterSeconds: RETRY_AFTER_S, match: [operation], ...rateLimit });
  const client = clientFor(emu);
  const started = Date.now();
  await call(client);
  const elapsedMs = Date.now() - started;
  expect(emu.stats().faultsByKind.force429).toBe(1);
  expect(emu.stats().byOperation[operation]).toBe(2); // the 429, then the retry that succeeded
  // Waiting out a rate limit is not a retry: the retry count is for faults.
  expect(client.stats.retries).toBe(0);
  expect(client.stats.rateLimitWaits).toBe(1);
  return { elapsedMs, client };
}

describe("a 429 whose RateLimit reset is sooner than Retry-After", () => {
  test("REST: the retry waits Retry-After (RateLimit says t=0)", async () => {
    const { elapsedMs } = await afterOne429("listNetworkVolumes", { rateLimitResetSeconds: 0 }, (c) => c.listNetworkVolumes());
    expect(elapsedMs).toBeGreaterThanOrEqual(MIN_WAIT_MS);
  });

  test("REST: the retry waits Retry-After, not the shorter reset (RateLimit says t=1)", async () => {
    const { elapsedMs } = await afterOne429("listNetworkVolumes", { rateLimitResetSeconds: 1 }, (c) => c.listNetworkVolumes());
    expect(elapsedMs).toBeGreaterThanOrEqual(MIN_WAIT_MS);
  });

  test("GraphQL: the retry waits Retry-After (RateLimit says t=0)", async () => {
    const { elapsedMs } = await afterOne429("myself", { rateLimitResetSeconds: 0 }, (c) => c.myself());
    expect(elapsedMs).toBeGreaterThanOrEqual(MIN_WAIT_MS);
  });
});

describe("a 429 without RateLimit headers", () => {
  test("REST: the retry waits Retry-After", async () => {
    const { elapsedMs } = await afterOne429("listNetworkVolumes", { omitRateLimitHeaders: true }, (c) => c.listNetworkVolumes());
    expect(elapsedMs).toBeGreaterThanOrEqual(MIN_WAIT_MS);
  });

  test("GraphQL: the retry waits Retry-After", async () => {
    const { elapsedMs } = await afterOne429("gpuTypes", { omitRateLimitHeaders: true }, (c) => c.gpuTypes());
    expect(elapsedMs).toBeGreaterThanOrEqual(MIN_WAIT_MS);
  });

  test("job interface: a rejected /run waits Retry-After, then is sent once more", async () => {
    const { elapsedMs } = await afterOne429("run", { omitRateLimitHeaders: true }, (c) => c.run("flux-1-schnell", { prompt: "x" }));
    expect(elapsedMs).toBeGreaterThanOrEqual(MIN_WAIT_MS);
  });
});
