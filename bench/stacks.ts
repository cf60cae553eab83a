/**
 * The benchmark's Pulumi stacks: a copy of one of bench/programs/ (Endpoint or no-op) in a temporary
 * directory with its own file backend, run by the project-local CLI through scripts/exampleStack.ts.
 * Every operation runs with `--skip-preview` (one engine pass, not a preview plus an update) and an
 * explicit `--parallel`, the same for both programs.
 */
import * as fs from "fs";
import * as path from "path";
import { LocalStack, copyProgram, randomSuffix, tempDir, type PlatformAddresses } from "../scripts/exampleStack";
import { repoRoot } from "../scripts/pulumiCli";
import { UPDATED_IDLE_TIMEOUT } from "./apiFloor";
import type { BenchOperation } from "./requests";

/** `endpoints`: N `Endpoint` resources; `noop`: N no-op dynamic resources with the same inputs (engine floor). */
export type BenchProgram = "endpoints" | "noop";

/** Source directory of a benchmark program (`bench/programs/<name>`). */
export function programSource(program: BenchProgram): string {
  return path.join(repoRoot(), "bench", "programs", program);
}

export interface BenchStackOptions {
  program: BenchProgram;
  /** Number of resources. */
  n: number;
  /** The engine's `--parallel`. */
  parallelism: number;
  /** Resource names are `${namePrefix}-${i}`. */
  namePrefix: string;
  /** Where the provider sends requests, and the key (stored as the secret `runpod:apiKey`); also set for `noop`, which ignores them. */
  platform: { addresses: PlatformAddresses; apiKey: string };
}

/** One throwaway stack of a benchmark program. */
export class BenchStack {
  private constructor(
    private readonly stack: LocalStack,
    private readonly workDir: string,
    private readonly parallelism: number,
  ) {}

  /**
   * Copies the program to a temporary directory and creates its stack with `count`, `namePrefix` and
   * the `runpod:*` settings (untimed).
   * @throws Error when the Pulumi CLI is not installed; PulumiCommandError when a command fails.
   */
  static async create(opts: BenchStackOptions): Promise<BenchStack> {
    const workDir = tempDir(`pulumi-runpod-bench-${opts.program}-`);
    const programDir = copyProgram(programSource(opts.program), path.join(workDir, "program"));
    const stack = await LocalStack.create({
      programDir,
      stackName: `bench-${opts.program}-${opts.n}-${randomSuffix()}`,
      stateDir: path.join(workDir, "state"),
      timeoutMs: 30 * 60_000,
    });
    await stack.usePlatform(opts.platform.addresses, opts.platform.apiKey);
    await stack.setConfig("count", String(opts.n));
    await stack.setConfig("namePrefix", opts.namePrefix);
    return new BenchStack(stack, workDir, opts.parallelism);
  }

  /** The program's directory (a copy outside the repository, with `node_modules` links to it). */
  get programDir(): string {
    return this.stack.programDir;
  }

  /** Untimed preparation of `op`: the update changes `idleTimeout` in the stack config. */
  async prepare(op: BenchOperation): Promise<void> {
    if (op === "update") await this.stack.setConfig("idleTimeout", String(UPDATED_IDLE_TIMEOUT));
  }

  /**
   * Runs `op` once: `up` (create, update), `refresh` or `destroy`, with `--yes --skip-preview --parallel P`.
   * @throws PulumiCommandError (with the CLI's output) when the command fails.
   */
  async run(op: BenchOperation): Promise<void> {
    const command = op === "create" || op === "update" ? "up" : op;
    await this.stack.run([command, "--yes", "--skip-preview", "--parallel", String(this.parallelism)], { quiet: true });
  }

  /** Removes the stack (forcefully: whatever it still holds is left behind) and its temporary directory. */
  async dispose(): Promise<void> {
    try {
      await this.stack.remove({ force: true });
    } finally {
      fs.rmSync(this.workDir, { recursive: true, force: true });
    }
  }
}
