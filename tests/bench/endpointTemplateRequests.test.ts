/**
 * The requests the provider makes in the benchmark's endpoint and template stacks (bench/programs/), through
 * the real Pulumi CLI against the in-process emulator, N = 2, on runpod:api v2 (the default path): exactly
 * which requests each operation sends, that the update reaches the platform, and requests made = needed
 * (bench/requests.ts) — including the listings of the v2 template re-apply comparison. The GraphQL path's
 * rows and its made = needed (the listing of its template rollout included) are
 * tests/provider/benchGraphqlRequests.test.ts: the same stacks, operation by operation, driven as the engine
 * drives the provider (and tests/e2e/{lifecycle,templates}.test.ts run these kinds through the CLI on it).
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { OPERATIONS, requestsNeeded, type BenchOperation } from "../../bench/requests";
import { walkBenchStack, type Walked } from "./benchScenario";
import { updatedFieldOnPlatform, updatedFieldThroughWalk, type EndpointOrTemplate } from "./benchRecords";

const N = 2;
/** The whole scenario (stack set-up and five CLI runs) of one kind on one path, on a loaded machine. */
const SCENARIO_MS = 10 * 60_000;

const CATALOG = { listGpuTypes: 1, listCpuTypes: 1, listDataCenters: 1 };
type Kind = EndpointOrTemplate;

/** Requests per operation name that each operation sends on v2 (N = 2). */
const SENT: Record<Kind, Record<BenchOperation, Record<string, number>>> = {
  endpoints: {
    preview: { listTemplates: 1, ...CATALOG },
    create: { listTemplates: 1, ...CATALOG, createEndpoint: N },
    // The copies the endpoints run against their template's settings (templateCurrent), and each endpoint's
    // release listing: the engine diffs a refresh's outputs, and the diff compares the release followed.
    refresh: { listEndpoints: 1, listTemplates: 1, listEndpointReleases: N },
    // The release listing of each endpoint: by its diff, and by its update (a release nobody followed is followed).
    update: { listEndpoints: 1, listTemplates: 1, listEndpointReleases: 2 * N, updateEndpoint: N },
    // A look at the workers, then the DELETE: none runs a job, so no scale to zero first.
    destroy: { listWorkers: N, deleteEndpoint: N },
  },
  templates: {
    preview: {},
    create: { createTemplate: N },
    refresh: { listTemplates: 1 },
    update: { updateTemplate: N },
    destroy: { deleteTemplate: N },
  },
};

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, saveSemantics: "replace" });
});
afterAll(() => emu?.close());

const KINDS: readonly Kind[] = ["endpoints", "templates"];

describe.each(KINDS)("%s on runpod:api v2, N = 2", (kind) => {
  let made: Walked["made"];
  let after: Walked["after"];

  beforeAll(async () => {
    ({ made, after } = await walkBenchStack(emu, kind, "v2", N, (prefix) => updatedFieldOnPlatform(emu, kind, prefix)));
  }, SCENARIO_MS);

  it("each operation sends these requests, and the update reaches the platform", () => {
    expect(Object.fromEntries(OPERATIONS.map((op) => [op, made[op].byOperation]))).toEqual(SENT[kind]);
    expect(after).toEqual(updatedFieldThroughWalk(kind, N));
  });

  it.each(OPERATIONS)("%s: requests made = needed", (op) => {
    expect(made[op].requests).toBe(requestsNeeded(kind, op, N, "v2"));
  });
});
