/**
 * The requests the provider makes in the benchmark's network-volume and pod stacks (bench/programs/), through
 * the real Pulumi CLI against the in-process emulator, N = 2, on both API paths (both kinds speak REST v2 on
 * each): exactly which requests each operation sends, that the stack reaches what the operation should leave,
 * and requests made = needed (bench/requests.ts). Where the provider is known to send more than needed, that
 * check is `it.failing` and names the excess ({@link KNOWN_EXCESS}): it turns red once the provider is fixed,
 * so the entry is removed with the fix.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClient, resolveClientConfig, type PlatformClient } from "../../src/api";
import { BENCH_POD, BENCH_VOLUME, benchPodImage, UPDATED_IMAGE_TAG, UPDATED_VOLUME_SIZE } from "../../bench/apiFloor";
import { BENCH_APIS, OPERATIONS, measure, requestsNeeded, type BenchApi, type BenchKind, type BenchOperation, type Measurement } from "../../bench/requests";
import { BenchStack } from "../../bench/stacks";
import { randomSuffix } from "../../scripts/exampleStack";

const N = 2;
/** The whole scenario (stack set-up and five CLI runs) of one kind on one path, on a loaded machine. */
const SCENARIO_MS = 10 * 60_000;

/** The whole catalog read (catalog/fetch.ts, pod/review.ts `podCatalog`): three requests where one is needed. */
const WHOLE_CATALOG = { listGpuTypes: 1, listCpuTypes: 1, listDataCenters: 1 };

/**
 * What the provider sends beyond the needed requests (left alone: provider code is not the benchmark's):
 * - network volumes: check reads the whole catalog (`session.catalog()`, three requests) where the data
 *   center and its tier need only `listDataCenters` (NetworkVolumeProvider `review`), at preview, create and
 *   the size's update;
 * - pods: check reads the whole pod catalog where a CPU pod without `dataCenterIds` needs only `listCpuTypes`
 *   (review.ts `podCatalog`), at preview and create; a refresh reads each pod by id (`getPod`, pod port
 *   `read`) where one `listPods` holds them all.
 */
const KNOWN_EXCESS: Partial<Record<BenchKind, Partial<Record<BenchOperation, string>>>> = {
  networkVolumes: {
    preview: "listGpuTypes + listCpuTypes (the whole catalog for a data center)",
    create: "listGpuTypes + listCpuTypes (the whole catalog for a data center)",
    update: "listGpuTypes + listCpuTypes (the whole catalog for a data center)",
  },
  pods: {
    preview: "listGpuTypes + listDataCenters (the whole pod catalog for a CPU flavor)",
    create: "listGpuTypes + listDataCenters (the whole pod catalog for a CPU flavor)",
    refresh: "N getPod where one listPods is needed",
  },
};

/** Requests per operation name that each operation of the stack sends today (N = 2). */
const SENT: Record<"networkVolumes" | "pods", Record<BenchOperation, Record<string, number>>> = {
  networkVolumes: {
    preview: WHOLE_CATALOG,
    create: { ...WHOLE_CATALOG, createNetworkVolume: N },
    refresh: { listNetworkVolumes: 1 },
    update: { ...WHOLE_CATALOG, updateNetworkVolume: N },
    destroy: { deleteNetworkVolume: N },
  },
  pods: {
    preview: WHOLE_CATALOG,
    create: { ...WHOLE_CATALOG, createPod: N },
    refresh: { getPod: N },
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

describe.each(KINDS.flatMap((kind) => BENCH_APIS.map((api) => [kind, api] as [typeof kind, BenchApi])))("%s on runpod:api %s, N = 2", (kind, api) => {
  const made = {} as Record<BenchOperation, Measurement>;
  const after = {} as Record<BenchOperation, unknown[]>;

  beforeAll(async () => {
    const prefix = `bench-test-${kind}-${api}-${randomSuffix()}`;
    const stack = await BenchStack.create({
      program: kind,
      kind,
      n: N,
      api,
      parallelism: 8,
      namePrefix: prefix,
      platform: {
        addresses: { graphql: emu.urls.graphql, restV1: emu.urls.restV1, restV2: emu.urls.restV2, inference: emu.urls.inference },
        apiKey: emu.apiKey,
      },
    });
    try {
      for (const op of OPERATIONS) {
        await stack.prepare(op);
        made[op] = await measure(emu, () => stack.run(op));
        after[op] = await onPlatform(kind, prefix);
      }
    } finally {
      await stack.dispose();
    }
  }, SCENARIO_MS);

  it("each operation sends these requests, and leaves the platform as it should (the update grows each volume / rolls each pod's image)", () => {
    expect(Object.fromEntries(OPERATIONS.map((op) => [op, made[op].byOperation]))).toEqual(SENT[kind]);
    const [before, updated] =
      kind === "networkVolumes" ? [BENCH_VOLUME.size, UPDATED_VOLUME_SIZE] : [benchPodImage(BENCH_POD.imageTag), benchPodImage(UPDATED_IMAGE_TAG)];
    expect(after).toEqual({ preview: [], create: [before, before], refresh: [before, before], update: [updated, updated], destroy: [] });
  });

  for (const op of OPERATIONS) {
    const excess = KNOWN_EXCESS[kind]?.[op];
    const name = `${op}: requests made = needed${excess ? ` (known excess: ${excess})` : ""}`;
    (excess ? it.failing : it)(name, () => {
      expect(made[op].requests).toBe(requestsNeeded(kind, op, N, api));
    });
  }
});
