/**
 * The requests the provider makes in the benchmark's endpoint and template stacks (bench/programs/) on
 * `runpod:api graphql`, N = 2, against the emulator over HTTP, driven the way the engine drives the dynamic
 * provider in each of the benchmark's CLI runs: a provider process (runtime) per run, the resources at
 * parallelism 8, `check` for the preview, `check` + `create` for the first `up`, `read` and the refresh's
 * diff (stored inputs as `news`) for `refresh`, `check` + `diff` + `update` for the changed `up`, `delete`
 * for `destroy`. Asserted: exactly which requests each operation sends, that the update reaches the
 * platform, and requests made = needed (bench/requests.ts `requestsNeeded(…, "graphql")`).
 * tests/bench/endpointTemplateRequests.test.ts walks the same stacks through the Pulumi CLI on v2, the default path.
 */
import type { RunningEmulator } from "../../emulator";
import { benchImageName, BENCH_ENDPOINT, BENCH_TEMPLATE, UPDATED_IDLE_TIMEOUT, UPDATED_IMAGE_TAG } from "../../bench/apiFloor";
import { forEachLimited } from "../../bench/pool";
import { measure, OPERATIONS, requestsNeeded, type BenchOperation, type Measurement } from "../../bench/requests";
import { KINDS } from "../../src/provider/kinds";
import { NAME_PREFIX_PROPERTY } from "../../src/provider/reserved";
import { ProviderRuntime } from "../../src/provider/runtime";
import { emulatorConfig, emulatorPerFile, uniqueName } from "./harness";
import { updatedFieldOnPlatform, updatedFieldThroughWalk, type EndpointOrTemplate } from "../bench/benchRecords";

const N = 2;
/** The benchmark stacks' `--parallel`. */
const PARALLEL = 8;
/** Lookups of one operation share a listing however slow the machine (the default 1 s window is a burst's, not a test's). */
const LOOKUP_WINDOW_MS = 60_000;

const CATALOG = { listGpuTypes: 1, listCpuTypes: 1, listDataCenters: 1 };
type Kind = EndpointOrTemplate;
type Props = Record<string, unknown>;

/** Requests per operation name that each operation sends (N = 2). */
const SENT: Record<Kind, Record<BenchOperation, Record<string, number>>> = {
  endpoints: {
    // `myself` is the template listing of check's `templateId` lookup.
    preview: { myself: 1, ...CATALOG },
    create: { myself: 1, ...CATALOG, saveEndpoint: N },
    refresh: { myself: 1 },
    update: { saveEndpoint: N },
    destroy: { listWorkers: N, saveEndpoint: N, deleteEndpoint: N },
  },
  templates: {
    preview: {},
    create: { saveTemplate: N },
    refresh: { myself: 1 },
    // `myself` is the endpoint listing: the endpoints using a template follow its rollout (none here).
    update: { saveTemplate: N, myself: 1 },
    destroy: { myself: 1, deleteTemplate: N },
  },
};

let emu: RunningEmulator;
let config: Record<string, string>;
emulatorPerFile((e) => ([emu, config] = [e, { ...emulatorConfig(e), "runpod:api": "graphql" }]), { saveSemantics: "replace" });

/** The properties the benchmark program registers for resource `i` (bench/programs/), before and after its update. */
function args(kind: Kind, prefix: string, i: number, updated: boolean): Props {
  const named = { [NAME_PREFIX_PROPERTY]: `${prefix}-${i}` };
  if (kind === "endpoints")
    return {
      templateId: BENCH_ENDPOINT.templateId,
      gpuIds: [BENCH_ENDPOINT.gpuIds],
      idleTimeout: updated ? UPDATED_IDLE_TIMEOUT : BENCH_ENDPOINT.idleTimeout,
      ...named,
    };
  const { imageRepository: _repo, imageTag, ...rest } = BENCH_TEMPLATE;
  return { imageName: benchImageName(updated ? UPDATED_IMAGE_TAG : imageTag), ...rest, ...named };
}

/** The provider of `kind` in a new provider process, configured from the stack as the host does. */
async function providerProcess(kind: Kind) {
  const runtime = new ProviderRuntime(KINDS, LOOKUP_WINDOW_MS);
  runtime.configure({ config: { get: (key: string) => config[key] } });
  return runtime.provider(kind === "endpoints" ? "endpoint" : "template");
}

async function checked(provider: Awaited<ReturnType<typeof providerProcess>>, olds: Props, news: Props): Promise<Props> {
  const r = await provider.check(olds, news);
  expect(r.failures ?? []).toEqual([]);
  return r.inputs as Props;
}

describe.each<Kind>(["endpoints", "templates"])("%s on runpod:api graphql, N = 2, as the benchmark's CLI runs drive the provider", (kind) => {
  const made = {} as Record<BenchOperation, Measurement>;
  const after = {} as Record<BenchOperation, unknown[]>;

  beforeAll(async () => {
    const prefix = uniqueName(`bench-gql-${kind}`);
    const indexes = [...Array(N).keys()];
    const ids: string[] = [];
    const inputs: Props[] = [];
    const outs: Props[] = [];
    const steps: Record<BenchOperation, (provider: Awaited<ReturnType<typeof providerProcess>>, i: number) => Promise<void>> = {
      preview: async (p, i) => {
        await checked(p, {}, args(kind, prefix, i, false));
      },
      create: async (p, i) => {
        inputs[i] = await checked(p, {}, args(kind, prefix, i, false));
        const r = await p.create(inputs[i]);
        [ids[i], outs[i]] = [r.id, r.outs as Props];
      },
      refresh: async (p, i) => {
        const r = await p.read(ids[i], outs[i]);
        expect(r.id).toBe(ids[i]);
        expect((await p.diff(ids[i], r.props as Props, inputs[i])).changes).toBe(false);
        [outs[i], inputs[i]] = [r.props as Props, (r.inputs as Props | undefined) ?? inputs[i]];
      },
      update: async (p, i) => {
        const news = await checked(p, inputs[i], args(kind, prefix, i, true));
        expect((await p.diff(ids[i], outs[i], news)).changes).toBe(true);
        outs[i] = (await p.update(ids[i], outs[i], news)).outs as Props;
      },
      destroy: (p, i) => p.delete(ids[i], outs[i]),
    };
    for (const op of OPERATIONS) {
      const provider = await providerProcess(kind);
      made[op] = await measure(emu, () => forEachLimited(indexes, PARALLEL, (i) => steps[op](provider, i)));
      after[op] = updatedFieldOnPlatform(emu, kind, prefix);
    }
  });

  it("each operation sends these requests, and the update reaches the platform", () => {
    expect(Object.fromEntries(OPERATIONS.map((op) => [op, made[op].byOperation]))).toEqual(SENT[kind]);
    expect(after).toEqual(updatedFieldThroughWalk(kind, N));
  });

  it.each(OPERATIONS)("%s: requests made = needed", (op) => {
    expect(made[op].requests).toBe(requestsNeeded(kind, op, N, "graphql"));
  });
});
