/**
 * What the benchmark asks the project-local Pulumi CLI about itself: its version and its default
 * `--parallel` (the CLI derives it from the machine's CPU count, so it is read from `pulumi up --help`
 * rather than assumed).
 */
import * as fs from "fs";
import * as os from "os";
import { pulumiEnv, runPulumi } from "../scripts/pulumiCli";
import { tempDir } from "../scripts/exampleStack";

async function cli(args: string[]): Promise<string> {
  const dir = tempDir("pulumi-runpod-bench-cli-");
  const r = await runPulumi(args, { cwd: dir, env: pulumiEnv({ stateDir: dir }), timeoutMs: 60_000 }).finally(() =>
    fs.rmSync(dir, { recursive: true, force: true }),
  );
  if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited with ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** `pulumi version`, e.g. `v3.259.0`. */
export async function pulumiVersion(): Promise<string> {
  return (await cli(["version"])).trim();
}

/**
 * The `--parallel` default `pulumi up` uses on this machine, from its help text
 * (`-p, --parallel int32 ... (default 8)`); four per CPU when the text has no default.
 */
export async function defaultParallelism(): Promise<number> {
  return parseDefaultParallelism(await cli(["up", "--help"])) ?? 4 * os.cpus().length;
}

/** The default of `--parallel` in a `pulumi up --help` text, or undefined. */
export function parseDefaultParallelism(help: string): number | undefined {
  const m = /--parallel\b[^\n]*\(default (\d+)\)/.exec(help);
  return m ? Number(m[1]) : undefined;
}
