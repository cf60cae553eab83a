/**
 * `node dist/bench/profile.js`: CPU profiles of the Pulumi program process and the dynamic provider host
 * during one or more operations of a benchmark stack (default: `pulumi preview` of 50 endpoints), with
 * the V8 profiler (`--cpu-prof`'s) started in the processes the engine starts by a `NODE_OPTIONS` preload. Prints where the
 * time went in each process and keeps the `.cpuprofile` files (open them in Chrome DevTools), one
 * subdirectory per profiled operation.
 *
 *   node dist/bench/profile.js --kind templates --n 50 --op preview --out /tmp/prof
 *   node dist/bench/profile.js --n 200 --op refresh,update,destroy --api graphql
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Command, InvalidArgumentError, Option } from "commander";
import { startEmulator } from "../emulator";
import { randomSuffix } from "../scripts/exampleStack";
import { formatSummaries, summariseDir } from "./cpuProfile";
import { BENCH_APIS, BENCH_KINDS, OPERATIONS, type BenchApi, type BenchKind, type BenchOperation } from "./requests";
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
    .option(
      "--op <operations>",
      `the profiled operations, comma-separated, of ${OPERATIONS.join(", ")} (the others before the last run unprofiled)`,
      operationList,
      ["preview"] as BenchOperation[],
    )
    .addOption(new Option("--api <path>", "the stack's runpod:api (default: the provider's)").choices(BENCH_APIS))
    .option("--latency <ms>", "latency the emulator adds to every request", positiveInt, 20)
    .option("--parallel <p>", "--parallel", positiveInt, 8)
    .option(
      "--engine",
      "also profile the Pulumi CLI (the engine, Go): `--profiling`, pprof files `engine.<pid>.cpu` beside the node profiles (`go tool pprof -top`)",
    )
    .option("--out <dir>", "where the .cpuprofile files go (default: a new temporary directory)")
    .parse()
    .opts<{
      kind: BenchKind;
      program: "ours" | "noop";
      n: number;
      op: BenchOperation[];
      api?: BenchApi;
      latency: number;
      parallel: number;
      engine?: boolean;
      out?: string;
    }>();
  const outDir = o.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-profile-"));
  fs.mkdirSync(outDir, { recursive: true });
  const emu = await startEmulator({ port: 0, quiet: true, faults: { latencyMs: o.latency } });
  const stack = await BenchStack.create({
    program: o.program === "noop" ? "noop" : o.kind,
    kind: o.kind,
    n: o.n,
    parallelism: o.parallel,
    api: o.api,
    namePrefix: `profile-${randomSuffix()}`,
    platform: {
      addresses: { graphql: emu.urls.graphql, restV1: emu.urls.restV1, restV2: emu.urls.restV2, inference: emu.urls.inference },
      apiKey: emu.apiKey,
    },
    // Node refuses --cpu-prof in NODE_OPTIONS; the preload starts the same profiler.
    env: { NODE_OPTIONS: `--require ${path.join(__dirname, "profilePreload.js")}`, PULUMI_RUNPOD_CPU_PROF_DIR: outDir },
  });
  const profiled = (op: BenchOperation) => path.join(outDir, op);
  const last = Math.max(...o.op.map((op) => OPERATIONS.indexOf(op)));
  const dropProfiles = () => {
    for (const f of fs.readdirSync(outDir)) if (f.endsWith(".cpuprofile")) fs.rmSync(path.join(outDir, f));
  };
  for (const op of o.op) fs.mkdirSync(profiled(op), { recursive: true });
  try {
    for (const op of OPERATIONS.slice(0, last + 1)) {
      await stack.prepare(op);
      // Only the profiled operations' processes are kept, each operation's in its own directory.
      dropProfiles();
      const start = Date.now();
      const profiledOp = o.op.includes(op);
      await stack.run(op, profiledOp && o.engine ? ["--profiling", path.join(profiled(op), "engine")] : []);
      if (!profiledOp) continue;
      process.stderr.write(`${o.kind} (${o.program}) ${op} N=${o.n}: ${((Date.now() - start) / 1000).toFixed(2)} s (profiled)\n`);
      for (const f of fs.readdirSync(outDir)) if (f.endsWith(".cpuprofile")) fs.renameSync(path.join(outDir, f), path.join(profiled(op), f));
    }
  } finally {
    dropProfiles();
    await stack.dispose();
    await emu.close();
  }
  for (const op of o.op) console.log(`== ${op}\n${formatSummaries(summariseDir(profiled(op)))}`);
  process.stderr.write(`profiles in ${outDir}/{${o.op.join(",")}}\n`);
}

/** `--op update,destroy`: operations of the bench, repeats dropped. */
function operationList(value: string): BenchOperation[] {
  const ops = value.split(",").map((s) => s.trim());
  for (const op of ops)
    if (!(OPERATIONS as readonly string[]).includes(op))
      throw new InvalidArgumentError(`expected one or more of ${OPERATIONS.join(", ")}, comma-separated; got "${op}"`);
  return OPERATIONS.filter((op) => ops.includes(op));
}

main().catch((err: unknown) => {
  process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
