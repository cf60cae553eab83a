/**
 * The benchmark's Pulumi stacks: a copy of one of bench/programs/ (Endpoint, Template, NetworkVolume, Pod or no-op) in a
 * temporary directory with its own file backend, run by the project-local CLI through
 * scripts/exampleStack.ts. `preview` runs `pulumi preview`; every other operation runs with
 * `--skip-preview` (one engine pass, not a preview plus an update). An explicit `--parallel`, the same
 * for every program.
 */
import * as fs from "fs";
import * as path from "path";
import { LocalStack, copyProgram, randomSuffix, tempDir, type PlatformAddresses } from "../scripts/exampleStack";
import { repoRoot } from "../scripts/pulumiCli";
import { UPDATED_IDLE_TIMEOUT, UPDATED_IMAGE_TAG, UPDATED_VOLUME_SIZE } from "./apiFloor";
import type { BenchApi, BenchKind, BenchOperation } from "./requests";

/**
 * `endpoints`, `templates`, `networkVolumes`, `pods`: N resources of that kind (dynamic provider, Node.js); `noop`: N no-op
 * dynamic resources shaped like one kind (engine floor); `plugin`: N endpoints declared in a YAML
 * program, served by the provider plugin `pulumi-resource-runpod` (docs/plugin.md).
 */
export type BenchProgram = BenchKind | "noop" | "plugin";

/**
 * The plugin's YAML program of `n` endpoints named `${prefix}-${i}`, with the same inputs as
 * bench/programs/endpoints (YAML has no loops: the resources are written out). The plugin comes from
 * this repository by `plugins.providers`, as tests/multilang/ run it; `idleTimeout` is a typed config
 * value, so the update changes stack config as the other programs' updates do.
 */
export function pluginProgramText(n: number, prefix: string): string {
  const lines = [
    "name: runpod-bench-plugin",
    "description: Benchmark stack of the provider plugin (bench/stacks.ts writes it)",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: runpod",
    `      path: ${JSON.stringify(path.join(repoRoot(), "bin"))}`,
    "config:",
    "  idleTimeout:",
    "    type: integer",
    "    default: 30",
    "resources:",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `  ${prefix}-${i}:`,
      "    type: runpod:index:Endpoint",
      "    properties:",
      "      templateId: tpl_vllm",
      "      gpuIds: [ADA_24]",
      "      idleTimeout: ${idleTimeout}",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Source directory of a benchmark program (`bench/programs/<name>`). */
export function programSource(program: Exclude<BenchProgram, "plugin">): string {
  return path.join(repoRoot(), "bench", "programs", program);
}

export interface BenchStackOptions {
  program: BenchProgram;
  /** The kind the stack's resources are (or, for `noop`, are shaped like). */
  kind: BenchKind;
  /** Number of resources. */
  n: number;
  /** The provider's API path (`runpod:api`); unset: the provider's default. The no-op program ignores it. */
  api?: BenchApi;
  /** The engine's `--parallel`. */
  parallelism: number;
  /** Resource names are `${namePrefix}-${i}`. */
  namePrefix: string;
  /** Where the provider sends requests, and the key (stored as the secret `runpod:apiKey`); also set for `noop`, which ignores them. */
  platform: { addresses: PlatformAddresses; apiKey: string };
  /** Extra environment of every CLI run, and so of the processes it starts (e.g. `NODE_OPTIONS`). */
  env?: Record<string, string>;
}

/** One throwaway stack of a benchmark program. */
export class BenchStack {
  private constructor(
    private readonly stack: LocalStack,
    private readonly workDir: string,
    private readonly parallelism: number,
    private readonly kind: BenchKind,
  ) {}

  /**
   * Copies the program to a temporary directory and creates its stack with `count`, `namePrefix` and
   * the `runpod:*` settings (untimed).
   * @throws Error when the Pulumi CLI is not installed; PulumiCommandError when a command fails.
   */
  static async create(opts: BenchStackOptions): Promise<BenchStack> {
    const workDir = tempDir(`pulumi-runpod-bench-${opts.program}-`);
    let programDir: string;
    if (opts.program === "plugin") {
      programDir = path.join(workDir, "program");
      fs.mkdirSync(programDir, { recursive: true });
      fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), pluginProgramText(opts.n, opts.namePrefix));
    } else {
      programDir = copyProgram(programSource(opts.program), path.join(workDir, "program"));
    }
    const stack = await LocalStack.create({
      programDir,
      stackName: `bench-${opts.program}-${opts.n}-${randomSuffix()}`,
      stateDir: path.join(workDir, "state"),
      timeoutMs: 30 * 60_000,
      env: opts.env,
    });
    await stack.usePlatform(opts.platform.addresses, opts.platform.apiKey);
    if (opts.api) await stack.setConfig("runpod:api", opts.api);
    if (opts.program !== "plugin") {
      await stack.setConfig("count", String(opts.n));
      await stack.setConfig("namePrefix", opts.namePrefix);
    }
    if (opts.program === "noop") await stack.setConfig("kind", opts.kind);
    return new BenchStack(stack, workDir, opts.parallelism, opts.kind);
  }

  /** The program's directory (a copy outside the repository, with `node_modules` links to it). */
  get programDir(): string {
    return this.stack.programDir;
  }

  /** Untimed preparation of `op`: the update changes endpoints' `idleTimeout`, templates' and pods' image tag, network volumes' `size`, in the stack config. */
  async prepare(op: BenchOperation): Promise<void> {
    if (op !== "update") return;
    if (this.kind === "endpoints") await this.stack.setConfig("idleTimeout", String(UPDATED_IDLE_TIMEOUT));
    else if (this.kind === "networkVolumes") await this.stack.setConfig("size", String(UPDATED_VOLUME_SIZE));
    else await this.stack.setConfig("imageTag", UPDATED_IMAGE_TAG);
  }

  /**
   * Runs `op` once: `preview` with `--parallel P`; `up` (create, update), `refresh` or `destroy`, with
   * `--yes --skip-preview --parallel P`; `extraArgs` follow (e.g. `--profiling`).
   * @throws PulumiCommandError (with the CLI's output) when the command fails.
   */
  async run(op: BenchOperation, extraArgs: readonly string[] = []): Promise<void> {
    if (op === "preview") {
      await this.stack.run(["preview", "--parallel", String(this.parallelism), ...extraArgs], { quiet: true });
      return;
    }
    const command = op === "create" || op === "update" ? "up" : op;
    await this.stack.run([command, "--yes", "--skip-preview", "--parallel", String(this.parallelism), ...extraArgs], { quiet: true });
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
