/**
 * Shared setup of the reliability suite (issue #6): in-process emulators whose injected faults and
 * leftover endpoints are tallied, clients whose retry counters are tallied, and the summary line
 * `reliability: faults injected N, requests retried M, endpoints at end X (expected Y)`.
 *
 * Every figure of the summary comes from a real counter: the emulator's `stats().faultsInjected`,
 * the clients' `stats.retries` (src/api/retry.ts increments it once per repeated attempt) and the
 * emulator's own endpoint table when it closes.
 */
import { DEFAULT_SEED, startEmulator, type EmulatorOptions, type RunningEmulator, type SeedInput } from "../../emulator";
import { createClient, resolveClientConfig, type ClientConfigInput } from "../../src/api";
import type { PlatformClient, RetryPolicy } from "../../src/api/types";

/** Retries quick enough for a test, with the same shape as the production policy. */
export const FAST_RETRY: RetryPolicy = { retries: 5, minDelayMs: 10, maxDelayMs: 80, deadlineMs: 10_000 };

interface Totals {
  /** Emulators started and not yet closed (their endpoints are not in `endpointsAtEnd` yet). */
  emulatorsOpen: number;
  faultsInjected: number;
  endpointsAtEnd: number;
  expectedAtEnd: number;
  /** Every client built by {@link relClient}; their retry counters are read when the summary is printed. */
  clients: PlatformClient[];
}

const totals: Totals = { emulatorsOpen: 0, faultsInjected: 0, endpointsAtEnd: 0, expectedAtEnd: 0, clients: [] };

/** An emulator of this suite: closing it adds its faults and endpoints to the summary. */
export interface RelEmulator extends RunningEmulator {
  /** Endpoints this scenario means to leave on the emulator when it closes (checked by the summary). */
  expectedAtEnd: number;
  /** Faults injected so far, across `resetStats()` calls. */
  faultsSoFar(): number;
}

/**
 * Starts an in-process emulator on a free port with short worker timings.
 * @param options emulator options (seed, initial faults...).
 */
export function startRelEmulator(options: EmulatorOptions = {}): Promise<RelEmulator> {
  return startInto(Object.create(null) as RelEmulator, options);
}

/** Starts the emulator into `rel` (an empty object), so a block's tests can hold `rel` before it starts. */
async function startInto(rel: RelEmulator, options: EmulatorOptions): Promise<RelEmulator> {
  // The platform's own save semantics unless a suite asks otherwise; the merge pass (tests/tiers.js) covers merge.
  const emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 20, logIntervalMs: 5000, jobDurationMs: 50, saveSemantics: "replace", ...options });
  let carried = 0;
  let closed = false;
  totals.emulatorsOpen++;
  return Object.assign(rel, emu, {
    expectedAtEnd: 0,
    faultsSoFar: () => carried + emu.stats().faultsInjected,
    resetStats: () => {
      carried += emu.stats().faultsInjected;
      emu.resetStats();
    },
    close: async () => {
      if (!closed) {
        closed = true;
        totals.emulatorsOpen--;
        totals.faultsInjected += rel.faultsSoFar();
        totals.endpointsAtEnd += emu.endpoints().length;
        totals.expectedAtEnd += rel.expectedAtEnd;
      }
      await emu.close();
    },
  });
}

/**
 * The emulator of one `describe` block: registers hooks that start it before the block, close it
 * after (adding its figures to the summary), and clear its faults and stats before each test.
 * Call it in the block's body; the returned object is usable inside tests and hooks only.
 */
export function useRelEmulator(): RelEmulator {
  const rel = Object.create(null) as RelEmulator;
  beforeAll(() => startInto(rel, {}));
  afterAll(() => rel.close());
  beforeEach(() => {
    rel.setFaults({});
    rel.resetStats();
  });
  return rel;
}

/** The default seed with the first user's minute quota set to `perMinute` (hour and day stay generous). */
export function tightQuotaSeed(perMinute: number): SeedInput {
  return { ...DEFAULT_SEED, rateLimits: { minute: perMinute, hour: 100_000, day: 1_000_000 } };
}

/** `runpod:*`-style addresses of an emulator (no key). */
export function addressesOf(emu: RunningEmulator): Pick<ClientConfigInput, "graphqlUrl" | "restV1Url" | "restV2Url" | "inferenceUrl"> {
  return { graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference };
}

/** The addresses of `emu` as `runpod:*` settings (as the engine hands them to `Configure`), `runpod:api graphql`, and `runpod:apiKey` when given. */
export function runpodConfig(emu: RunningEmulator, apiKey?: string): Record<string, string> {
  const config: Record<string, string> = Object.fromEntries(Object.entries(addressesOf(emu)).map(([k, v]) => [`runpod:${k}`, String(v)]));
  if (apiKey !== undefined) config["runpod:apiKey"] = apiKey;
  config["runpod:api"] = "graphql"; // the suites count the GraphQL path's operations (reliability.test.ts)
  return config;
}

/**
 * A client of `emu` whose retries count toward the summary.
 * @param overrides any setting (key, timeoutMs, a partial retry policy...); defaults: the read-write key, 5 s timeout, {@link FAST_RETRY}.
 */
export function relClient(emu: RunningEmulator, overrides: ClientConfigInput = {}): PlatformClient {
  const client = createClient(
    resolveClientConfig({ apiKey: emu.apiKey, ...addressesOf(emu), timeoutMs: 5000, ...overrides, retry: { ...FAST_RETRY, ...overrides.retry } }, {}),
  );
  totals.clients.push(client);
  return client;
}

/** The summary line and its figures: totals of every emulator closed and every client built so far. */
export function summary(): { line: string; faultsInjected: number; retries: number; endpointsAtEnd: number; expectedAtEnd: number; emulatorsOpen: number } {
  const retries = totals.clients.reduce((n, c) => n + c.stats.retries, 0);
  const { faultsInjected, endpointsAtEnd, expectedAtEnd, emulatorsOpen } = totals;
  const line = `reliability: faults injected ${faultsInjected}, requests retried ${retries}, endpoints at end ${endpointsAtEnd} (expected ${expectedAtEnd})`;
  return { line, faultsInjected, retries, endpointsAtEnd, expectedAtEnd, emulatorsOpen };
}

/** Runs `fn` and returns what it threw (fails the test when it does not throw). */
export { thrown } from "../api/helpers";

let seq = 0;
/** A name unique within this run, e.g. `drop-lq3k-4`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${++seq}`;
}

/** Counts of the mutating operations the emulator received since its last `resetStats()`. */
export function mutationCounts(emu: RunningEmulator): { saveEndpoint: number; restCreateEndpoint: number; deleteEndpoint: number } {
  const ops = emu.stats().byOperation;
  return { saveEndpoint: ops.saveEndpoint ?? 0, restCreateEndpoint: ops.restCreateEndpoint ?? 0, deleteEndpoint: ops.deleteEndpoint ?? 0 };
}

/** Polls `check` every 25 ms until it returns true; fails after `limitMs` (a guard against hanging, not a speed goal). */
export async function eventually(check: () => boolean, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Milliseconds since the epoch, for the few lower-bound checks on waits (never an upper bound). */
export const now = (): number => Date.now();
