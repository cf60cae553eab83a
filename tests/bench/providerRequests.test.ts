/**
 * The requests the provider makes in the benchmark's network-volume and pod stacks (bench/programs/), through
 * the real Pulumi CLI against the in-process emulator, N = 2: exactly which requests each operation sends, that
 * the stack reaches what the operation should leave, and requests made = needed (bench/requests.ts). Both kinds
 * speak REST v2 whatever `runpod:api` says (V2_ONLY_KINDS), so the stacks run on v2 alone: that the GraphQL path
 * sends the very same requests, operation by operation, is tests/provider/{networkVolume,pod}.integration.test.ts
 * (and tests/e2e/{networkVolume,pod}.test.ts run these kinds through the CLI on it).
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClient, resolveClientConfig, type PlatformClient } from "../../src/api";
import { BENCH_POD, BENCH_VOLUME, benchPodImage, UPDATED_IMAGE_TAG, UPDATED_VOLUME_SIZE } from "../../bench/apiFloor";
import { BENCH_APIS, OPERATIONS, requestsNeeded, V2_ONLY_KINDS, type BenchApi, type BenchOperation } from "../../bench/requests";
import { walkBenchStack, type Walked } from "./benchScenario";

const N = 2;
/** The whole scenario (stack set-up and five CLI runs) of one kind on one path, on a loaded machine. */
const SCENARIO_MS = 10 * 60_000;

/**
 * Requests per operation name that each operation of the stack sends (N = 2): a volume's check reads the data
 * centers alone, a CPU pod's check (no `dataCenterIds`) the pod CPU flavors alone, once per provider process; a
 * refresh lists once.
 */
const SENT: Record<"networkVolumes" | "pods", Record<BenchOperation, Record<string, number>>> = {
  networkVolumes: {
    preview: { listDataCenters: 1 },
    create: { listDataCenters: 1, createNetworkVolume: N },
    refresh: { listNetworkVolumes: 1 },
    update: { listDataCenters: 1, updateNetworkVolume: N },
    destroy: { deleteNetworkVolume: N },
  },
  pods: {
    preview: { listCpuTypes: 1 },
    create: { listCpuTypes: 1, createPod: N },
    refresh: { listPods: 1 },
    update: { updatePod: N },
    destroy: { deletePod: N },
  },
};

let emu: RunningEmulator;
let client: PlatformClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, saveSemantics: "replace" });
  client = createClient(
    resolveClientConfig(
      { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
      {},
    ),
  );
});
afterAll(() => emu?.close());

/** The benchmark's records of `kind` named `${prefix}-*` on the platform, with the field the update changes. */
async function onPlatform(kind: "networkVolumes" | "pods", prefix: string): Promise<unknown[]> {
  if (kind === "networkVolumes") return (await client.v2.listNetworkVolumes()).filter((v) => v.name.startsWith(`${prefix}-`)).map((v) => v.size);
  return (await client.v2.listPods()).filter((p) => p.name.startsWith(`${prefix}-`)).map((p) => p.image);
}

const KINDS = ["networkVolumes", "pods"] as const;

const WALKS = KINDS.flatMap((kind) =>
  BENCH_APIS.filter((api) => api === "v2" || !V2_ONLY_KINDS.includes(kind)).map((api) => [kind, api] as [typeof kind, BenchApi]),
);

test("both kinds speak REST v2 on either path, so one walk each covers them", () => {
  expect(WALKS).toEqual([
    ["networkVolumes", "v2"],
    ["pods", "v2"],
  ]);
  for (const kind of KINDS) for (const op of OPERATIONS) expect(requestsNeeded(kind, op, N, "graphql")).toBe(requestsNeeded(kind, op, N, "v2"));
});

describe.each(WALKS)("%s on runpod:api %s, N = 2", (kind, api) => {
  let made: Walked["made"];
  let after: Walked["after"];

  beforeAll(async () => {
    ({ made, after } = await walkBenchStack(emu, kind, api, N, (prefix) => onPlatform(kind, prefix)));
  }, SCENARIO_MS);

  it("each operation sends these requests, and leaves the platform as it should (the update grows each volume / rolls each pod's image)", () => {
    expect(Object.fromEntries(OPERATIONS.map((op) => [op, made[op].byOperation]))).toEqual(SENT[kind]);
    const [before, updated] =
      kind === "networkVolumes" ? [BENCH_VOLUME.size, UPDATED_VOLUME_SIZE] : [benchPodImage(BENCH_POD.imageTag), benchPodImage(UPDATED_IMAGE_TAG)];
    expect(after).toEqual({ preview: [], create: [before, before], refresh: [before, before], update: [updated, updated], destroy: [] });
  });

  for (const op of OPERATIONS) {
    it(`${op}: requests made = needed`, () => {
      expect(made[op].requests).toBe(requestsNeeded(kind, op, N, api));
    });
  }
});
