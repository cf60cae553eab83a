/**
 * Public shapes of the emulator (package export `pulumi-runpod/emulator`): start options, the running handle,
 * fault configuration and request statistics. Tests, the demo and the benchmark code against these: only add, never change.
 */
import type { EndpointRecord, RegistryAuthState, TemplateState } from "./records";
import type { Seed, SeedInput } from "./seed";

/** Options of {@link startEmulator}. All durations are milliseconds. */
export interface EmulatorOptions {
  /** TCP port; 0 (default) picks a free one. The host is always 127.0.0.1. */
  port?: number;
  /** Seed object or path to a JSON seed file; default: the built-in seed (emulator/seed.ts). */
  seed?: Seed | SeedInput | string;
  /** Persist endpoints, jobs and rate-limit counters in SQLite at this path; state survives a restart. */
  dataFile?: string;
  /** Initial fault injection. */
  faults?: FaultConfig;
  /** How often each simulated worker emits a container log line (default 1000). */
  logIntervalMs?: number;
  /**
   * How long an endpoint's handler runs a job (IN_PROGRESS) unless `input.executionMs` says (default 1000); the time it
   * waits IN_QUEUE is up to its endpoint's workers. Public model jobs: queued for the first half, running the second.
   */
  jobDurationMs?: number;
  /** Time for a new worker to go from INITIALIZING to READY (default 500). */
  workerStartMs?: number;
  /**
   * What `saveEndpoint` with an `id` does to a field the input leaves out: `replace` (default) resets it
   * to its default, as the live platform does (its official CLI's maintainers found so); `merge` keeps
   * the stored value, as the spec's "carries … plus the changed fields" reads. Default: the
   * `RUNPOD_EMULATOR_SAVE_SEMANTICS` environment variable, else `replace`.
   */
  saveSemantics?: SaveSemantics;
  /**
   * Milliseconds after an endpoint last stopped using a template (switched away or deleted) during which
   * GraphQL's `deleteTemplate` is still refused with FAILED_PRECONDITION (REST v2's is not), as the platform notes
   * it may be for a couple of minutes (docs/spec/platform-clients.md). Default 0 (no window).
   */
  templateReleaseMs?: number;
  /**
   * How long a finished job's result stays readable (status, stream, retry), counted from its final state:
   * `run` for jobs sent with `/run` (default 1 800 000, 30 min), `runsync` for `/runsync` (default 60 000), as the
   * platform keeps them (docs/spec/platform-clients.md). Afterwards the job answers 404.
   */
  resultRetentionMs?: { run?: number; runsync?: number };
  /** Suppress the emulator's own console output. */
  quiet?: boolean;
}

/** See {@link EmulatorOptions.saveSemantics}. */
export type SaveSemantics = "merge" | "replace";
export const SAVE_SEMANTICS: readonly SaveSemantics[] = ["merge", "replace"];

/** Base URLs of the four interfaces plus the emulator-only admin routes. */
export interface EmulatorUrls {
  /** `http://127.0.0.1:P/graphql`; clients append `?api_key=KEY`. */
  graphql: string;
  /** `{rest_url}`: clients append `/v1/endpoints`. */
  restV1: string;
  /** `{base_url}`: clients append `/v2/...`. */
  restV2: string;
  /** `{inference_url}`: clients append `/v2/{endpointId}/run` etc. */
  inference: string;
  /** Emulator-only routes (no auth): `/faults`, `/stats`, `/stats/reset`, `/state`. */
  admin: string;
}

/** Handle returned by {@link startEmulator}. */
export interface RunningEmulator {
  urls: EmulatorUrls;
  /** Read-write key of the first seeded user. */
  apiKey: string;
  /** Read-only key of the first seeded user. */
  readOnlyApiKey: string;
  /** Read-write key of the second seeded user (isolation tests). */
  otherUserApiKey: string;
  /** Replace the fault configuration (also `POST {admin}/faults`). */
  setFaults(f: FaultConfig): void;
  /** Request statistics since start or the last reset (also `GET {admin}/stats`). */
  stats(): EmulatorStats;
  /**
   * Move the billing clock forward by `ms` milliseconds (also `POST {admin}/clock` with `{ "advanceMs": ms }`):
   * running workers accrue that much more time in REST v2 billing. Returns the clock's new time (epoch ms).
   */
  advanceClock(ms: number): number;
  /**
   * Stop the billing clock at its current reading (also `POST {admin}/clock` with `{ "freeze": true }`), so every
   * billing answer until `resumeClock` is computed at one instant. Returns that reading (epoch ms).
   */
  freezeClock(): number;
  /** Let the billing clock run again from its frozen reading (also `{ "freeze": false }`). Returns the current reading. */
  resumeClock(): number;
  /** Zero the statistics (also `POST {admin}/stats/reset`). */
  resetStats(): void;
  /**
   * Resolves once the emulator handles no request: every request received so far has taken effect (one held by
   * `latencyMs` included) and been answered. Tests wait on this, not on a guess of wall time, for a request whose
   * client gave up (timeout, killed process) to land.
   */
  idle(): Promise<void>;
  /**
   * The save semantics in force; whether it came from the environment (no `saveSemantics` option); and how many
   * modifies so far left out a field whose stored value differs from its default, the saves `merge` and `replace`
   * answer differently (the test suite runs the files with such saves under both).
   */
  saveSemantics(): { semantics: SaveSemantics; fromEnvironment: boolean; dependentSaves: number };
  /** Endpoint records of one user (by API key or user id) or of all users when omitted (also `GET {admin}/state`). */
  endpoints(userKeyOrId?: string): EndpointRecord[];
  /** Templates of one user (by API key or user id; owned only) or of all users including public seeded ones (also `GET {admin}/state`). */
  templates(userKeyOrId?: string): TemplateState[];
  /** Registry credentials of one user or of all users: id, name, owner, username; never the password (also `GET {admin}/state`). */
  registryAuths(userKeyOrId?: string): RegistryAuthState[];
  /** Whether `password` is the stored password of those credentials (the platform never returns it; tests check updates this way). */
  registryAuthPasswordMatches(registryAuthId: string, password: string): boolean;
  /** Stop the server, all simulated workers and timers; closes the SQLite file. */
  close(): Promise<void>;
}

/** Fault injection; every rate is a share between 0 and 1. */
export interface FaultConfig {
  /** Added to every non-admin request before it is handled. */
  latencyMs?: number;
  /** Share of requests answered 500/502/503 before taking effect. */
  errorRate?: number;
  /** Share of requests whose socket is destroyed before taking effect. */
  dropBeforeRate?: number;
  /** Share of requests that take effect, then lose their socket without a response. */
  dropAfterRate?: number;
  /** The next N matching requests answer 429 with Retry-After. */
  force429?: number;
  /** Retry-After of forced 429s, seconds (default 1). */
  retryAfterSeconds?: number;
  /**
   * `t` (seconds to reset) of the minute window in forced 429s' `RateLimit` header; default `retryAfterSeconds`
   * (at least 1). A value apart from `retryAfterSeconds` shows whether a client waits for `Retry-After` or the reset.
   */
  rateLimitResetSeconds?: number;
  /** Forced 429s carry no `RateLimit` or `RateLimit-Policy` header, only `Retry-After`. */
  omitRateLimitHeaders?: boolean;
  /**
   * Error answers echo the request (method, URL with its query, every header), as some gateways do:
   * `json` adds it to the error body's text (problem `detail` and `errors`, GraphQL `message`) and as a
   * `request` member; `text` replaces error bodies of status 400 or more with a plain-text page carrying it.
   */
  echoRequest?: "json" | "text";
  /** Only requests whose operation name is listed are affected; default all. */
  match?: string[];
  /**
   * GraphQL: refuse documents whose mutation has more than one top-level field with a request error
   * (no `path`, nothing run), as a gateway that takes one mutation per request would.
   */
  singleMutationField?: boolean;
  /** Worker-log SSE: destroy each connection after this many events. */
  dropStreamAfterEvents?: number;
  /**
   * Idle workers write no periodic lines (the `logIntervalMs` container line and heartbeat) while set; lifecycle and
   * job lines still come. A test reading a snapshot of a worker's log then sees a history that stands still.
   */
  pauseIdleLogs?: boolean;
  /**
   * Workers whose image is listed fail to start: each cycles INITIALIZING → UNHEALTHY → restarted (INITIALIZING)
   * and writes why into its log. A bare reference crashes on boot with exit code 1; `{ image, failure: "pull" }` fails
   * the image pull; `{ image, exitCode }` picks the exit code. Checked at every start attempt, so clearing it lets
   * failing workers start on their next restart. Not limited by `match`.
   */
  failingImages?: (string | { image: string; failure?: "crash" | "pull"; exitCode?: number })[];
  /** PRNG seed so fault patterns are reproducible (default 1). */
  seed?: number;
  /**
   * Catalog stock overrides: catalog id (serverless pool such as `ADA_24`, GPU type id, or CPU flavor id) → data
   * center id (or `*` for every data center hosting it) → `NONE` | `LOW` | `MEDIUM` | `HIGH`. REST v2
   * `listGpuTypes`/`listCpuTypes`/`listDataCenters` answer these levels and new workers are placed by them.
   * Not limited by `match`. Example: `{ "ADA_24": { "EU-RO-1": "NONE", "*": "LOW" } }`.
   */
  availability?: Record<string, Record<string, "NONE" | "LOW" | "MEDIUM" | "HIGH">>;
}

/** Request statistics; admin routes are not counted. */
export interface EmulatorStats {
  /** All non-admin requests received. */
  requests: number;
  /** Per operation name (GraphQL top-level field names, restCreateEndpoint, listNetworkVolumes, listWorkers, workerLogs, run, runsync, jobStatus, ...). */
  byOperation: Record<string, number>;
  /** Total faults injected (5xx, drops, forced 429s, dropped streams, echoed requests). */
  faultsInjected: number;
  /** Per kind: error5xx, dropBefore, dropAfter, force429, dropStream, echoRequest. */
  faultsByKind: Record<string, number>;
  /** Requests refused with 429 because a window of the user's quota was used up (forced 429s are faults). */
  rateLimited: number;
}
