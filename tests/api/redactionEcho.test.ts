/**
 * Some gateways answer errors with the request echoed: its URL (GraphQL's carries `?api_key=`) and its
 * headers (`Authorization: Bearer …`). The emulator's `echoRequest` fault does that on every error answer
 * of GraphQL, REST and the job interface; the client's errors must still never show the key. Each case
 * also checks that the emulator did echo, so a pass cannot come from an answer without the key.
 */
import { DEFAULT_SEED, type RunningEmulator } from "../../emulator";
import type { FaultConfig } from "../../emulator";
import { RateLimitError, type ClientConfigInput, type PlatformClient } from "../../src/api";
import { ENDPOINT_INPUT, clientFor, startFastEmulator, thrown } from "./helpers";
import { expectNoKey, keyForms } from "./keyLeaks";

// Characters that URL and form encoding change, so every encoded form of the key is exercised.
const RW_KEY = "rpa+Echo/Key=with&chars%41?x";
const BAD_KEY = "rpa+Unknown/Echo=key&bad";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startFastEmulator({ seed: { ...DEFAULT_SEED, apiKeys: [{ key: RW_KEY, userId: "user_1", scopes: ["read", "write"] }] } as never });
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

const echoes = () => emu.stats().faultsByKind.echoRequest ?? 0;

interface Case {
  label: string;
  key: string;
  faults?: FaultConfig;
  /** Client settings beyond the key; the 429 cases set `rateLimitDeadlineMs: 0` so the 429 is thrown, not waited out. */
  config?: ClientConfigInput;
  /** The error the case must end in, so a pass cannot come from some other failure. */
  expected?: new (...args: never[]) => Error;
  call: (client: PlatformClient) => unknown;
}

const CASES: Case[] = [
  { label: "GraphQL validation error (HTTP 200)", key: RW_KEY, call: (c) => c.saveEndpoint({ ...ENDPOINT_INPUT, gpuIds: "BOGUS" }) },
  { label: "GraphQL 401", key: BAD_KEY, call: (c) => c.myself() },
  { label: "GraphQL NOT_FOUND", key: RW_KEY, call: (c) => c.deleteEndpoint("missing0000000") },
  {
    label: "GraphQL 429",
    key: RW_KEY,
    faults: { force429: 1, retryAfterSeconds: 5, match: ["gpuTypes"] },
    config: { rateLimitDeadlineMs: 0 },
    expected: RateLimitError,
    call: (c) => c.gpuTypes(),
  },
  { label: "GraphQL 5xx", key: RW_KEY, faults: { errorRate: 1, match: ["gpuTypes"] }, call: (c) => c.gpuTypes() },
  { label: "REST v1 400", key: RW_KEY, call: (c) => c.createEndpointRest({ name: "echo", templateId: "tpl_vllm", gpuTypeIds: ["nope"] }) },
  { label: "REST v2 401", key: BAD_KEY, call: (c) => c.listNetworkVolumes() },
  { label: "REST v2 404", key: RW_KEY, call: (c) => c.listWorkers("missing0000000") },
  {
    label: "REST v2 429",
    key: RW_KEY,
    faults: { force429: 1, retryAfterSeconds: 5, match: ["listNetworkVolumes"] },
    config: { rateLimitDeadlineMs: 0 },
    expected: RateLimitError,
    call: (c) => c.listNetworkVolumes(),
  },
  { label: "REST v2 5xx", key: RW_KEY, faults: { errorRate: 1, match: ["listNetworkVolumes"] }, call: (c) => c.listNetworkVolumes() },
  {
    label: "log stream 404",
    key: RW_KEY,
    call: async (c) => {
      for await (const _ of c.streamWorkerLogs("missing0000000", "w1", { follow: false })) break;
    },
  },
  { label: "job /run 404", key: RW_KEY, call: (c) => c.run("missing0000000", { x: 1 }) },
  { label: "job /run 400 (model input)", key: RW_KEY, call: (c) => c.run("flux-1-schnell", { width: 1 }) },
  { label: "job /status 404", key: RW_KEY, call: (c) => c.jobStatus("flux-1-schnell", "missing-job") },
  { label: "job /runsync 5xx", key: RW_KEY, faults: { errorRate: 1, match: ["runsync"] }, call: (c) => c.runSync("flux-1-schnell", { prompt: "x" }) },
];

describe.each(["json", "text"] as const)("echoRequest %s: the key never surfaces in the client's errors", (mode) => {
  test("the emulator's echo does carry the key (the cases below are not vacuous)", async () => {
    emu.setFaults({ echoRequest: mode });
    const url = new URL(emu.urls.graphql);
    url.searchParams.set("api_key", RW_KEY);
    const gql = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ nope }" }) });
    expect(await gql.text()).toContain(keyForms(RW_KEY)[2]);
    const restAnswer = await fetch(`${emu.urls.restV2}/v2/serverless/missing0000000/workers`, { headers: { authorization: `Bearer ${RW_KEY}` } });
    expect(restAnswer.status).toBe(404);
    expect(await restAnswer.text()).toContain(RW_KEY);
  });

  test.each(CASES.map((c) => [c.label, c] as const))("%s", async (label, { key, faults, config, expected, call }) => {
    emu.setFaults({ ...faults, echoRequest: mode });
    const before = echoes();
    // `retries: 0` ends a fault at once; a 429 is waited out unless `rateLimitDeadlineMs` forbids it.
    const client = clientFor(emu, { ...config, apiKey: key, retry: { retries: 0 } });
    const err = await thrown(() => call(client));
    if (expected) expect(err).toBeInstanceOf(expected);
    expect(echoes()).toBeGreaterThan(before);
    expectNoKey(`${mode} ${label}`, err, key);
  });
});
