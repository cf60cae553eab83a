/**
 * `npm run bench` (node dist/bench/run.js): runs the benchmark, prints the table and writes
 * bench/results.json. Build first (`npx tsc -p tsconfig.json`) and install the CLI (`npm run setup`).
 *
 *   npm run bench                      N = 10, 50, 200 endpoints, templates, network volumes and pods, three runs each (medians reported)
 *   npm run bench -- --kinds networkVolumes,pods --n 10,50
 *   npm run bench -- --quick           N = 10, one run
 *   npm run bench -- --api v2 --n 10,50 --repeat 1 --latency 20 --parallel 8 --startup-runs 5 --out bench/results.json
 */
import * as fs from "fs";
import * as path from "path";
import { Command, InvalidArgumentError } from "commander";
import { pulumiBinary, pulumiInstalled, repoRoot } from "../scripts/pulumiCli";
import { benchHeader, runBench } from "./bench";
import { defaultParallelism } from "./cliInfo";
import { formatPerResource, formatStartup, formatTable } from "./report";
import { apiList, kindList } from "./options";
import { BENCH_APIS, BENCH_KINDS, type BenchApi, type BenchKind } from "./requests";

const DEFAULT_NS = [10, 50, 200];
const QUICK_NS = [10];

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

function countList(value: string): number[] {
  return value.split(",").map((s) => positiveInt(s.trim()));
}

async function main(): Promise<void> {
  const program = new Command("bench")
    .description(
      "Time and count the API requests of pulumi preview / up / refresh / update / destroy of N endpoints, templates, network volumes and pods against the engine's and the API's floors",
    )
    .option("--n <list>", `resource counts, comma-separated (default ${DEFAULT_NS.join(",")})`, countList)
    .option("--api <list>", `runpod:api paths to run, comma-separated (default ${BENCH_APIS.join(",")})`, apiList, [...BENCH_APIS])
    .option("--kinds <list>", `resource kinds to run, comma-separated (default ${BENCH_KINDS.join(",")})`, kindList, [...BENCH_KINDS])
    .option("--no-plugin", "skip the provider plugin's endpoints (a YAML program; needs the YAML host of `npm run setup`)")
    .option("--quick", `only N = ${QUICK_NS.join(",")}`)
    .option("--repeat <k>", "runs per N (rows report the medians; default 3, 1 with --quick)", positiveInt)
    .option("--latency <ms>", "latency the emulator adds to every request", nonNegativeInt, 20)
    .option("--parallel <p>", "--parallel for Pulumi and the API floor (default: the CLI's own default)", positiveInt)
    .option("--startup-runs <k>", "fresh processes for the provider start-up median (0 skips it)", nonNegativeInt, 5)
    .option("--out <file>", "where to write the JSON results", path.join(repoRoot(), "bench", "results.json"))
    .parse();
  const o = program.opts<{
    api: BenchApi[];
    kinds: BenchKind[];
    plugin: boolean;
    n?: number[];
    quick?: boolean;
    repeat?: number;
    latency: number;
    parallel?: number;
    startupRuns: number;
    out: string;
  }>();
  if (!pulumiInstalled())
    throw new Error(`the Pulumi CLI is not installed in ${path.dirname(pulumiBinary())}: run \`npm run setup\` (or \`bash scripts/install-pulumi.sh\`)`);
  const ns = o.n ?? (o.quick ? QUICK_NS : DEFAULT_NS);
  const repeat = o.repeat ?? (o.quick ? 1 : 3);
  const parallelism = o.parallel ?? (await defaultParallelism());
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(
    `bench: N = ${ns.join(", ")}, ${o.kinds.join(", ")}, runpod:api ${o.api.join(" and ")}, ${repeat} run(s) each, emulator latency ${o.latency} ms, --parallel ${parallelism}`,
  );

  const started = Date.now();
  const settings = { ns, apis: o.api, kinds: o.kinds, plugin: o.plugin, repeat, latencyMs: o.latency, parallelism, startupRuns: o.startupRuns };
  const header = await benchHeader(settings);
  // Partial results after each N and kind; the full file (with the start-up) at the end.
  const onRows = (rows: readonly unknown[]) => fs.writeFileSync(o.out, `${JSON.stringify({ ...header, partial: true, rows }, null, 2)}\n`);
  const results = await runBench({ ...settings, log, onRows });
  log(`bench: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  console.log(formatTable(results.rows));
  console.log("");
  console.log(formatPerResource(results.rows));
  if (results.startup) {
    console.log("");
    console.log(formatStartup(results.startup));
  }
  const broken = results.rows.filter((r) => r.apiFloorRequests !== r.requestsNeeded || r.engineFloorRequests !== 0);
  for (const r of broken)
    log(
      `warning: ${r.kind} (${r.provider ?? "dynamic"}, ${r.api}) ${r.operation} N=${r.n}: API floor made ${r.apiFloorRequests} requests (needed ${r.requestsNeeded}), engine floor ${r.engineFloorRequests}`,
    );
  for (const r of results.rows.filter((row) => row.requestsMade !== row.requestsNeeded))
    log(
      `warning: ${r.kind} (${r.api}) ${r.operation} N=${r.n}: made ${r.requestsMade} requests ${JSON.stringify(r.madeByOperation)}, needed ${r.requestsNeeded}`,
    );
  fs.writeFileSync(o.out, `${JSON.stringify(results, null, 2)}\n`);
  log(`bench: wrote ${o.out}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
