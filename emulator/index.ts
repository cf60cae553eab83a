/**
 * Local emulator of the platform API (docs/emulator.md; shapes in ./types.ts, spec gaps and choices in ./README.md).
 *
 *   const emu = await startEmulator({ port: 0, logIntervalMs: 20, jobDurationMs: 100 });
 *   // emu.urls.graphql, emu.urls.restV1, emu.urls.restV2, emu.urls.inference, emu.urls.admin; emu.apiKey
 *   await emu.close();
 */
import type { AddressInfo } from "net";
import { resolveUserId } from "./auth";
import { Billing } from "./billing";
import { Catalog } from "./catalog";
import { Clock } from "./clock";
import type { Core } from "./core";
import { Faults } from "./faults";
import { InFlight } from "./inFlight";
import { Jobs, type JobRetention } from "./jobs";
import { Platform } from "./platform";
import { RateLimiter } from "./rateLimit";
import { RegistryAuths } from "./registryAuths";
import { loadSeed, quotasOf, type Seed } from "./seed";
import { createEmulatorServer } from "./server";
import { SqliteStore } from "./sqliteStore";
import { Stats } from "./stats";
import { MemoryStore, type Store } from "./store";
import { Templates } from "./templates";
import { trafficRecorderFromEnv } from "./traffic";
import { applyNetworkVolumeSeed } from "./v2/networkVolumes";
import { SAVE_SEMANTICS, type EmulatorOptions, type EmulatorUrls, type RunningEmulator, type SaveSemantics } from "./types";
import { WorkerPool } from "./workers";

export type { EmulatorOptions, EmulatorStats, EmulatorUrls, FaultConfig, RunningEmulator, SaveSemantics } from "./types";
export type { EndpointRecord, RegistryAuthState, TemplateRecord, TemplateState } from "./records";

/** The save semantics to run with: the option, else RUNPOD_EMULATOR_SAVE_SEMANTICS, else `replace`. */
function saveSemanticsFrom(option: SaveSemantics | undefined): SaveSemantics {
  const chosen = option ?? process.env.RUNPOD_EMULATOR_SAVE_SEMANTICS ?? "replace";
  if (!(SAVE_SEMANTICS as readonly string[]).includes(chosen)) {
    throw new Error(`saveSemantics must be one of ${SAVE_SEMANTICS.join(", ")}; got "${chosen}" (option or RUNPOD_EMULATOR_SAVE_SEMANTICS)`);
  }
  return chosen as SaveSemantics;
}
export { DEFAULT_KEYS, DEFAULT_SEED, loadSeed, type Seed, type SeedInput } from "./seed";

/** Result retention from the option: 30 min after /run and 1 min after /runsync unless given. */
function retentionFrom(option: EmulatorOptions["resultRetentionMs"]): JobRetention {
  const retention = { run: option?.run ?? 30 * 60_000, runsync: option?.runsync ?? 60_000 };
  for (const [k, v] of Object.entries(retention)) {
    if (!Number.isInteger(v) || v < 0) throw new Error(`resultRetentionMs.${k} must be a non-negative integer (milliseconds); got ${v}`);
  }
  return retention;
}

/** Keys handed out by the running handle: first user's read-write and read-only keys, second user's read-write key. */
function pickKeys(seed: Seed): Pick<RunningEmulator, "apiKey" | "readOnlyApiKey" | "otherUserApiKey"> {
  const now = Date.now();
  const usable = seed.apiKeys.filter((k) => k.expiresAt === undefined || Date.parse(k.expiresAt) > now);
  const [first, second] = seed.users;
  return {
    apiKey: usable.find((k) => k.userId === first.id && k.scopes.includes("write"))?.key ?? "",
    readOnlyApiKey: usable.find((k) => k.userId === first.id && !k.scopes.includes("write"))?.key ?? "",
    otherUserApiKey: (second && usable.find((k) => k.userId === second.id && k.scopes.includes("write"))?.key) ?? "",
  };
}

const startListeners = new Set<(emu: RunningEmulator) => void>();

/**
 * Calls `listener` with every emulator this process starts from now on (the test suite's save-semantics probe
 * watches them this way: module exports are read-only bindings, so wrapping `startEmulator` is not an option).
 * @returns a function that removes the listener.
 * @internal
 */
export function onEmulatorStarted(listener: (emu: RunningEmulator) => void): () => void {
  startListeners.add(listener);
  return () => void startListeners.delete(listener);
}

/**
 * Start the emulator on 127.0.0.1, serving GraphQL, REST v1, REST v2 and the job interface (spec: Endpoints)
 * from one port, plus the emulator-only admin routes.
 * @param options port (0 = any free one), seed, SQLite data file, initial faults, worker and job timings in ms.
 * @returns the running handle: `urls` of each interface, the seeded keys, fault and stats controls, `close()`.
 * @throws when the seed is invalid, the data file cannot be opened or the port is taken.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = loadSeed(options.seed);
  const store: Store = options.dataFile ? new SqliteStore(options.dataFile) : new MemoryStore();
  const stats = new Stats();
  const clock = new Clock();
  const billing = new Billing(clock);
  const faults = new Faults(stats, options.faults);
  const catalog = new Catalog(seed, () => faults.availability());
  // The meter reads `platform` only when a worker starts, after it is initialised.
  const workers = new WorkerPool(
    {
      logIntervalMs: options.logIntervalMs ?? 1000,
      workerStartMs: options.workerStartMs ?? 500,
      idleLogsPaused: () => faults.idleLogsPaused(),
      startFailure: (image) => faults.startFailure(image),
    },
    {
      started: (w) => {
        const row = store.getEndpoint(w.endpointId);
        if (row) billing.workerStarted(row.userId, w.endpointId, w.id, platform.rateOf(w));
      },
      stopped: (w) => billing.workerStopped(w.id),
    },
  );
  const saveSemantics = saveSemanticsFrom(options.saveSemantics);
  const releaseMs = options.templateReleaseMs ?? 0;
  if (!Number.isInteger(releaseMs) || releaseMs < 0) throw new Error(`templateReleaseMs must be a non-negative integer (milliseconds); got ${releaseMs}`);
  // The callback runs only on template modifies, long after `platform` is initialised.
  let dependentSaves = 0;
  const onDependentSave = () => void dependentSaves++;
  const templates = new Templates(store, saveSemantics, releaseMs, (templateId, diff) => platform.rollTemplate(templateId, diff), onDependentSave);
  templates.applySeed(seed.templates);
  applyNetworkVolumeSeed(store, seed.networkVolumes);
  const platform = new Platform(seed, store, workers, templates, catalog, saveSemantics, onDependentSave);
  // Stock changes (the availability fault) let throttled workers start, or new ones throttle.
  faults.onChange = () => platform.restoreWorkers();
  // Assigned once the server listens; closures above read it later (prefer-const cannot see that).
  let urls: EmulatorUrls | undefined;
  const core: Core = {
    seed,
    store,
    stats,
    workers,
    platform,
    templates,
    registryAuths: new RegistryAuths(store),
    jobs: new Jobs(store, workers, {
      retention: retentionFrom(options.resultRetentionMs),
      jobDurationMs: options.jobDurationMs ?? 1000,
      imageBaseUrl: () => `${urls!.inference}/images`,
      // Jobs keep wall time; billing keeps the billing clock (which tests may advance).
      charge: (userId, endpointId, amount, atMs) => billing.charge(userId, endpointId, amount, clock.now() + (atMs - Date.now())),
    }),
    faults,
    catalog,
    billing,
    clock,
    traffic: trafficRecorderFromEnv(),
    rateLimiter: new RateLimiter(store, (userId) => quotasOf(seed, userId)),
    urls: () => urls!,
    log: (message) => {
      if (!options.quiet) console.error(`[emulator] ${message}`);
    },
  };
  const inFlight = new InFlight();
  const server = createEmulatorServer(core, inFlight);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
    });
  } catch (e) {
    store.close();
    throw e;
  }
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  urls = { graphql: `${origin}/graphql`, restV1: `${origin}/rest`, restV2: `${origin}/api`, inference: `${origin}/inference`, admin: `${origin}/_emulator` };
  core.platform.restoreWorkers();
  core.jobs.restore(store.listEndpoints().map((r) => r.id));

  let closing: Promise<void> | undefined;
  const running: RunningEmulator = {
    urls,
    ...pickKeys(seed),
    setFaults: (f) => core.faults.set(f),
    stats: () => stats.snapshot(),
    advanceClock: (ms) => clock.advance(ms),
    freezeClock: () => clock.freeze(),
    resumeClock: () => clock.resume(),
    resetStats: () => stats.reset(),
    idle: () => inFlight.idle(),
    saveSemantics: () => ({ semantics: saveSemantics, fromEnvironment: options.saveSemantics === undefined, dependentSaves }),
    endpoints(userKeyOrId) {
      const userId = userKeyOrId === undefined ? undefined : resolveUserId(seed, userKeyOrId);
      if (userKeyOrId !== undefined && userId === undefined) return [];
      return core.platform.listEndpoints(userId);
    },
    templates(userKeyOrId) {
      const userId = userKeyOrId === undefined ? undefined : resolveUserId(seed, userKeyOrId);
      if (userKeyOrId !== undefined && userId === undefined) return [];
      return core.templates.states(userId);
    },
    registryAuths(userKeyOrId) {
      const userId = userKeyOrId === undefined ? undefined : resolveUserId(seed, userKeyOrId);
      if (userKeyOrId !== undefined && userId === undefined) return [];
      return core.registryAuths.states(userId);
    },
    registryAuthPasswordMatches: (id, password) => core.registryAuths.passwordMatches(id, password),
    close() {
      closing ??= new Promise<void>((resolve) => {
        workers.close();
        core.jobs.close();
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
  for (const listener of startListeners) listener(running);
  return running;
}
