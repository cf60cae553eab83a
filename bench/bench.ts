/**
 * The benchmark: for each N, each API path (`runpod:api`) and each kind (Endpoint, Template, NetworkVolume, Pod), the stack's preview,
 * create, refresh, one-field update and destroy against the emulator with a fixed added latency, next
 * to the engine's floor (the same stack with a no-op dynamic resource) and the API's floor (the minimum
 * requests, issued directly with the api client at the same parallelism). Plus the provider's start-up
 * in a fresh process.
 */
import * as os from "os";
import { startEmulator, type RunningEmulator } from "../emulator";
import { createClient, resolveClientConfig, type PlatformClient } from "../src/api";
import { randomSuffix, type PlatformAddresses } from "../scripts/exampleStack";
import { pulumiVersion } from "./cliInfo";
import {
  BENCH_ENDPOINT,
  BENCH_POD,
  BENCH_TEMPLATE,
  BENCH_VOLUME,
  benchImageName,
  benchPodImage,
  runApiFloor,
  UPDATED_IDLE_TIMEOUT,
  UPDATED_IMAGE_TAG,
  UPDATED_VOLUME_SIZE,
} from "./apiFloor";
import { resultRow, type BenchResults, type ResultRow } from "./report";
import {
  OPERATIONS,
  callsNeeded,
  catalogNeeded,
  measure,
  requestsNeeded,
  type BenchApi,
  type BenchKind,
  type BenchOperation,
  type Measurement,
} from "./requests";
import { RssProbe } from "./rss";
import { measureStartup } from "./startup";
import { BenchStack, type BenchProgram } from "./stacks";

export interface BenchOptions {
  /** Resource counts, e.g. [10, 50, 200]. */
  ns: number[];
  /** The provider's API paths to run every kind on (`runpod:api`), e.g. ["v2", "graphql"]. */
  apis: BenchApi[];
  /** The kinds to run, e.g. ["endpoints", "templates", "networkVolumes", "pods"]. */
  kinds: BenchKind[];
  /** Also run the endpoints through the provider plugin (a YAML program; rows with `provider: "plugin"`). */
  plugin: boolean;
  /** Added to every emulator request, ms. */
  latencyMs: number;
  /** `--parallel` for every Pulumi command and the API floor's concurrency. */
  parallelism: number;
  /** Runs of each stack and of the API floor per N; rows report the median run. */
  repeat: number;
  /** Fresh processes for the start-up median; 0 skips it. */
  startupRuns: number;
  /** Progress lines. */
  log: (line: string) => void;
  /** Called with the rows so far after each N and kind (so a long run leaves its figures if stopped). */
  onRows?: (rows: readonly ResultRow[]) => void;
}

/** Every run of the three measured subjects at one N and kind. */
interface Runs {
  ours: Record<BenchOperation, Measurement>[];
  /** The same stack through the provider plugin (endpoints, with `plugin`). */
  plugin: Record<BenchOperation, Measurement>[];
  engine: Record<BenchOperation, Measurement>[];
  api: Record<BenchOperation, Measurement>[];
}

/** The four `runpod:*` addresses of a running emulator. */
function addressesOf(emu: RunningEmulator): PlatformAddresses {
  return { graphql: emu.urls.graphql, restV1: emu.urls.restV1, restV2: emu.urls.restV2, inference: emu.urls.inference };
}

/** Each of `kind`'s records on the platform, by name, with the one field the update changes (endpoints' idleTimeout, templates' and pods' image, volumes' size). */
async function changedFieldOnPlatform(
  emu: RunningEmulator,
  client: PlatformClient,
  kind: BenchKind,
  op: BenchOperation,
): Promise<{ field: string; expected: unknown; records: { name: string; value: unknown }[] }> {
  const updated = op === "update";
  switch (kind) {
    case "endpoints":
      return {
        field: "idleTimeout",
        expected: updated ? UPDATED_IDLE_TIMEOUT : BENCH_ENDPOINT.idleTimeout,
        records: emu.endpoints(emu.apiKey).map((e) => ({ name: e.name, value: e.idleTimeout })),
      };
    case "templates":
      return {
        field: "imageName",
        expected: benchImageName(updated ? UPDATED_IMAGE_TAG : BENCH_TEMPLATE.imageTag),
        records: emu.templates(emu.apiKey).map((t) => ({ name: t.name, value: t.imageName })),
      };
    // The running emulator has no accessors for these: read through the API (outside the measured runs).
    case "networkVolumes":
      return {
        field: "size",
        expected: updated ? UPDATED_VOLUME_SIZE : BENCH_VOLUME.size,
        records: (await client.v2.listNetworkVolumes()).map((v) => ({ name: v.name, value: v.size })),
      };
    case "pods":
      return {
        field: "image",
        expected: benchPodImage(updated ? UPDATED_IMAGE_TAG : BENCH_POD.imageTag),
        records: (await client.v2.listPods()).map((p) => ({ name: p.name, value: p.image })),
      };
  }
}

/** Stops the benchmark when the platform does not hold what an operation should have left (a preview: nothing). */
async function expectOnPlatform(emu: RunningEmulator, client: PlatformClient, kind: BenchKind, prefix: string, op: BenchOperation, n: number): Promise<void> {
  const want = op === "destroy" || op === "preview" ? 0 : n;
  const { field, expected, records } = await changedFieldOnPlatform(emu, client, kind, op);
  const mine = records.filter((r) => r.name.startsWith(`${prefix}-`));
  if (mine.length !== want) throw new Error(`after ${op} of N=${n}: ${mine.length} ${kind} named ${prefix}-* on the emulator, expected ${want}`);
  const off = mine.filter((r) => r.value !== expected);
  if (off.length > 0) throw new Error(`after ${op} of N=${n}: ${off.length} ${kind} have ${field} != ${String(expected)}`);
}

/** Runs every operation on a fresh stack of `program` (shaped like `kind`); the stack is removed afterwards. */
async function runStack(
  program: BenchProgram,
  kind: BenchKind,
  emu: RunningEmulator,
  client: PlatformClient,
  n: number,
  api: BenchApi,
  opts: BenchOptions,
  onCreated?: (stack: BenchStack) => Promise<void>,
): Promise<Record<BenchOperation, Measurement>> {
  const label = program === "noop" ? `noop-${kind}` : program === "plugin" ? `plugin-${kind}-${api}` : `${program}-${api}`;
  const prefix = `bench-${label}-${n}-${randomSuffix()}`;
  const rss = new RssProbe();
  const stack = await BenchStack.create({
    program,
    kind,
    n,
    api,
    parallelism: opts.parallelism,
    namePrefix: prefix,
    platform: { addresses: addressesOf(emu), apiKey: emu.apiKey },
    env: rss.env,
  });
  try {
    const out = {} as Record<BenchOperation, Measurement>;
    for (const op of OPERATIONS) {
      await stack.prepare(op);
      rss.take();
      out[op] = await measure(emu, () => stack.run(op));
      const { peakRssMb: peak, cpuMs } = rss.take();
      const m = { ...out[op], peakRssMb: peak, processCpuMs: cpuMs };
      out[op] = m;
      opts.log(
        `  ${label.padEnd(14)} ${op.padEnd(7)} N=${n}: ${(m.ms / 1000).toFixed(2)} s, ${m.requests} requests ${JSON.stringify(m.byOperation)}, CPU: emulator ${m.localCpuMs.toFixed(0)} ms, pulumi+plugins ${m.childCpuMs?.toFixed(0) ?? "?"} ms (program ${cpuMs.program ?? "?"} ms, provider host ${cpuMs.providerHost ?? "?"} ms); peak RSS program ${peak.program ?? "?"} MB, provider host ${peak.providerHost ?? "?"} MB; load ${m.load1}`,
      );
      if (program !== "noop") await expectOnPlatform(emu, client, kind, prefix, op, n);
      if (op === "create" && onCreated) await onCreated(stack);
    }
    return out;
  } finally {
    await stack.dispose();
    rss.dispose();
  }
}

/**
 * Runs the whole benchmark against a fresh in-process emulator.
 * @returns every row plus the settings and the start-up measurement.
 * @throws when the Pulumi CLI is missing, a command fails, or the emulator does not hold what an
 *   operation should have left (the error names the operation and N).
 */
export async function runBench(opts: BenchOptions): Promise<BenchResults> {
  const emu = await startEmulator({ port: 0, quiet: true, faults: { latencyMs: opts.latencyMs } });
  const rows: ResultRow[] = [];
  let startup: BenchResults["startup"];
  try {
    const client: PlatformClient = createClient(
      resolveClientConfig(
        { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
        {},
      ),
    );
    for (const n of opts.ns) {
      for (const api of opts.apis)
        for (const kind of opts.kinds) {
          opts.log(`N=${n} ${kind} (runpod:api ${api})`);
          const runs: Runs = { ours: [], plugin: [], engine: [], api: [] };
          // Interleaved, so a slow spell of the machine hits all three alike.
          for (let rep = 1; rep <= opts.repeat; rep++) {
            if (opts.repeat > 1) opts.log(` run ${rep}/${opts.repeat}`);
            runs.ours.push(
              await runStack(kind, kind, emu, client, n, api, opts, async (stack) => {
                if (kind !== "endpoints" || startup || opts.startupRuns <= 0) return;
                const a = addressesOf(emu);
                startup = await measureStartup(
                  stack.programDir,
                  {
                    "runpod:apiKey": emu.apiKey,
                    "runpod:graphqlUrl": a.graphql,
                    "runpod:restV1Url": a.restV1,
                    "runpod:restV2Url": a.restV2,
                    "runpod:inferenceUrl": a.inference,
                  },
                  opts.startupRuns,
                );
              }),
            );
            if (kind === "endpoints" && opts.plugin) runs.plugin.push(await runStack("plugin", kind, emu, client, n, api, opts));
            runs.engine.push(await runStack("noop", kind, emu, client, n, api, opts));
            const floor = await runApiFloor(
              kind,
              client,
              emu,
              { n, parallelism: opts.parallelism, prefix: `floor-${kind}-${api}-${n}-${randomSuffix()}` },
              api,
            );
            opts.log(`  api floor (${api}): ${OPERATIONS.map((op) => `${op} ${(floor[op].ms / 1000).toFixed(2)} s / ${floor[op].requests} req`).join(", ")}`);
            runs.api.push(floor);
          }
          // The plugin's rows share the dynamic provider's floors: the same N, path and inputs.
          const subjects = [["dynamic", runs.ours] as const, ["plugin", runs.plugin] as const].filter(([, ours]) => ours.length > 0);
          for (const [provider, ours] of subjects) {
            for (const op of OPERATIONS) {
              const pick = (list: Record<BenchOperation, Measurement>[]) => list.map((r) => r[op]);
              const needed = { requests: requestsNeeded(kind, op, n, api), calls: callsNeeded(kind, op, n, api), catalog: catalogNeeded(kind, op, n) };
              rows.push({ ...resultRow(kind, op, n, pick(ours), pick(runs.engine), pick(runs.api), needed, api), provider });
            }
          }
          opts.onRows?.(rows);
        }
    }
  } finally {
    await emu.close();
  }
  return { ...(await benchHeader(opts)), rows, startup };
}

/** The settings and machine of a run, as written with its rows. */
export async function benchHeader(opts: Omit<BenchOptions, "log">): Promise<Omit<BenchResults, "rows" | "startup">> {
  return {
    generatedAt: new Date().toISOString(),
    settings: {
      ns: opts.ns,
      apis: opts.apis,
      kinds: opts.kinds,
      plugin: opts.plugin,
      repeat: opts.repeat,
      latencyMs: opts.latencyMs,
      parallelism: opts.parallelism,
      pulumiVersion: await pulumiVersion(),
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      totalMemMb: Math.round(os.totalmem() / 2 ** 20),
    },
  };
}
