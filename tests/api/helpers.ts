/** Shared setup of the api client tests: an in-process emulator on port 0 and clients pointed at it. */
import { createServer } from "net";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { createClient, resolveClientConfig, type ClientConfigInput, type PlatformClient } from "../../src/api";

/** Emulator timings short enough for a quick suite. */
export const FAST: EmulatorOptions = { port: 0, logIntervalMs: 20, jobDurationMs: 60, workerStartMs: 30, quiet: true };

export function startFastEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ ...FAST, ...options });
}

/** A client for `emu` with fast retries; `overrides` replace any setting (e.g. the key). */
export function clientFor(emu: RunningEmulator, overrides: ClientConfigInput = {}): PlatformClient {
  return createClient(
    resolveClientConfig(
      {
        apiKey: emu.apiKey,
        graphqlUrl: emu.urls.graphql,
        restV1Url: emu.urls.restV1,
        restV2Url: emu.urls.restV2,
        inferenceUrl: emu.urls.inference,
        timeoutMs: 5000,
        ...overrides,
        retry: { retries: 6, minDelayMs: 5, maxDelayMs: 50, deadlineMs: 20_000, ...overrides.retry },
      },
      {},
    ),
  );
}

/** Runs `fn` and returns what it threw (fails the test when it does not throw). */
export async function thrown(fn: () => Promise<unknown> | unknown): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the call to throw, but it succeeded");
}

/** Polls `check` every 20 ms until it returns a value (not undefined), up to `limitMs`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, limitMs = 10_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const ENDPOINT_INPUT = { name: "api-test", templateId: "tpl_vllm", gpuIds: "AMPERE_24" } as const;

/** A port with nothing listening. */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
