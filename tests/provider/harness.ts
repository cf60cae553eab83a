/** Shared setup of the provider tests: an in-process emulator on a free port and clients pointed at it. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { createClient, resolveClientConfig } from "../../src/api";
import type { ClientConfig, PlatformClient } from "../../src/api/types";
import type { EndpointProvider } from "../../src/provider/endpoint/provider";

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, quiet: true, workerStartMs: 20, logIntervalMs: 5000, jobDurationMs: 50, ...options });
}

/**
 * One emulator for the whole test file: started before its first test (handed to `started` with a client
 * of it), closed after its last.
 */
export function emulatorPerFile(started: (emu: RunningEmulator, client: PlatformClient) => void, options: EmulatorOptions = {}): void {
  let emu: RunningEmulator | undefined;
  beforeAll(async () => {
    emu = await startTestEmulator(options);
    started(emu, emulatorClient(emu));
  });
  afterAll(() => emu?.close());
}

/** The `runpod:*` settings that point a client at the emulator (without the key). */
export function emulatorAddresses(emu: RunningEmulator): Pick<ClientConfig, "graphqlUrl" | "restV1Url" | "restV2Url" | "inferenceUrl"> {
  return { graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference };
}

/** The stack configuration a provider process is handed for the emulator: `runpod:apiKey` and its addresses. */
export function emulatorConfig(emu: RunningEmulator): Record<string, string> {
  return { "runpod:apiKey": emu.apiKey, ...Object.fromEntries(Object.entries(emulatorAddresses(emu)).map(([k, v]) => [`runpod:${k}`, v])) };
}

/** A client of the emulator with quick retries (tests stay fast under injected faults). */
export function emulatorClient(emu: RunningEmulator, apiKey: string = emu.apiKey): PlatformClient {
  return createClient(
    resolveClientConfig({ apiKey, ...emulatorAddresses(emu), timeoutMs: 5000, retry: { retries: 3, minDelayMs: 5, maxDelayMs: 20, deadlineMs: 5000 } }, {}),
  );
}

let seq = 0;
/** An endpoint name no other test of the run uses: `prefix`, the time and a counter. */
export const uniqueName = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${++seq}`;

/** `provider.check(olds, args)` as the engine calls it; fails the test on check failures and returns the checked inputs. */
export async function checked(provider: EndpointProvider, args: Record<string, unknown>, olds?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await provider.check(olds, args);
  expect(r.failures).toEqual([]);
  return r.inputs;
}
