/**
 * `node dist/bench/profile.js`: CPU profiles of the Pulumi program process and the dynamic provider host
 * during one operation of a benchmark stack (default: `pulumi preview` of 50 endpoints), with
 * the V8 profiler (`--cpu-prof`'s) started in the processes the engine starts by a `NODE_OPTIONS` preload. Prints where the
 * time went in each process and keeps the `.cpuprofile` files (open them in Chrome DevTools).
 *
 *   node dist/bench/profile.js --kind templates --n 50 --op preview --out /tmp/prof
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Command, InvalidArgumentError, Option } from "commander";
import { startEmulator } from "../emulator";
import { randomSuffix } from "../scripts/exampleStack";
import { formatSummaries, summariseDir } from "./cpuProfile";
import { BENCH_KINDS, OPERATIONS, type BenchKind, type BenchOperation } from "./requests";
import { BenchStack } from "./stacks";

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

async function main(): Promise<void> {
  const o = new Command("profile")
    .description("CPU profiles of the program and the dynamic provider host during one operation of a benchmark stack")
    .addOption(new Option("--kind <kind>", "resource kind").choices(BENCH_KINDS).default("endpoints"))
    .addOption(new Option("--program <program>", "the stack's program: the kind's own, or the no-op (engine floor)").choices(["ours", "noop"]).default("ours"))
    .option("--n <n>", "resources", positiveInt, 50)
    .addOption(new Option("--op <operation>", "the profiled operation (earlier ones run unprofiled first)").choices(OPERATIONS).default("preview"))
    .option("--latency <ms>", "latency the emulator adds to every request", positiveInt, 20)
    .option("--parallel <p>", "--parallel", positiveInt, 8)
    .option("--out <dir>", "where the .cpuprofile files go (default: a new temporary directory)")
    .parse()
    .opts<{ kind: BenchKind; program: "ours" | "noop"; n: number; op: BenchOperation; latency: number; parallel: number; out?: string }>();
  const outDir = o.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-profile-"));
  fs.mkdirSync(outDir, { recursive: true });
  const emu = await startEmulator({ port: 0, quiet: true, faults: { latencyMs: o.latency } });
  const stack = await BenchStack.create({
    program: o.program === "noop" ? "noop" : o.kind,
    kind: o.kind,
    n: o.n,
    parallelism: o.parallel,
    namePrefix: `profile-${randomSuffix()}`,
    platform: {
      addresses: { graphql: emu.urls.graphql, restV1: emu.urls.restV1, restV2: emu.urls.restV2, inference: emu.urls.inference },
      apiKey: emu.apiKey,
    },
    // Node refuses --cpu-prof in NODE_OPTIONS; the preload starts the same profiler.
    env: { NODE_OPTIONS: `--require ${path.join(__dirname, "profilePreload.js")}`, PULUMI_RUNPOD_CPU_PROF_DIR: outDir },
  });
  try {
    for (const op of OPERATIONS) {
      await stack.prepare(op);
      if (op === o.op) {
        // Only the profiled operation's processes are kept.
        for (const f of fs.readdirSync(outDir)) if (f.endsWith(".cpuprofile")) fs.rmSync(path.join(outDir, f));
        const start = Date.now();
        await stack.run(op);
        process.stderr.write(`${o.kind} (${o.program}) ${op} N=${o.n}: ${((Date.now() - start) / 1000).toFixed(2)} s (profiled)\n`);
        break;
      }
      await stack.run(op);
    }
  } finally {
    await stack.dispose();
    await emu.close();
  }
  console.log(formatSummaries(summariseDir(outDir)));
  process.stderr.write(`profiles in ${outDir}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
