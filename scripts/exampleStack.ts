/**
 * Throwaway Pulumi stacks of a program in this repository, pointed at the local emulator: what the
 * demo (scripts/demo.ts), the end-to-end tests (tests/e2e) and the benchmark share.
 *
 * A stack lives in a file backend of its own (no cloud login), with passphrase secrets, the
 * project-local CLI from scripts/install-pulumi.sh and no plugin downloads (see scripts/pulumiCli.ts).
 * Every command names its stack explicitly, so stacks of one program can run side by side.
 *
 * How a program finds the provider package: Pulumi breaks when a program loads two copies of
 * `@pulumi/pulumi`, so programs use the repository's own `node_modules` and reach this package
 * through a `node_modules/pulumi-runpod` symlink to the repository root ({@link linkRepoPackage}).
 * Node resolves symlinks to real paths, so the program, this package and the dynamic provider host
 * all load the one `@pulumi/pulumi` in `<repo>/node_modules`. The dynamic provider host runs in the
 * program directory and loads `pulumi-runpod/provider` from there (src/provider/serializable.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parseDocument } from "yaml";
import { SECRET_SIG_KEY, SECRET_SIG_VALUE, STACK_TYPE, type Deployment, type StateResource } from "../src/cli/stack/checkpoint";
import { readCheckpointFile } from "../src/cli/stack/fileBackend";
import { pulumiBinary, pulumiEnv, pulumiInstalled, repoRoot, runPulumi, type RunPulumiResult } from "./pulumiCli";

/** Type token of `Endpoint` resources in Pulumi state (a dynamic resource of module `runpod`). */
export const ENDPOINT_TYPE = "pulumi-nodejs:dynamic/runpod:Endpoint";

/** This package's name, as programs import it. */
export const PACKAGE_NAME = "pulumi-runpod";

/** Where the platform's four interfaces are, e.g. `RunningEmulator.urls` of the emulator. */
export interface PlatformAddresses {
  graphql: string;
  restV1: string;
  restV2: string;
  inference: string;
}

/** Environment variables that would point the provider somewhere else; removed from the CLI's environment. */
const RUNPOD_ENV_VARS = ["RUNPOD_API_KEY", "RUNPOD_GRAPHQL_URL", "RUNPOD_API_URL", "RUNPOD_REST_V2_URL", "RUNPOD_INVOKE_URL"];

/**
 * Makes `require("pulumi-runpod")` work in `programDir` (a directory inside this repository) by
 * creating `programDir/node_modules/pulumi-runpod`, a relative symlink to the repository root.
 * Idempotent; a wrong symlink is replaced.
 * @throws Error when `node_modules/pulumi-runpod` exists and is not a symlink (e.g. an installed
 *   copy, which would bring a second `@pulumi/pulumi`): the message says to remove it.
 */
export function linkRepoPackage(programDir: string): void {
  const modules = path.join(programDir, "node_modules");
  const link = path.join(modules, PACKAGE_NAME);
  const target = path.relative(modules, repoRoot()) || ".";
  fs.mkdirSync(modules, { recursive: true });
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(link);
  } catch {
    stat = undefined;
  }
  if (stat && !stat.isSymbolicLink()) {
    throw new Error(`${link} is not a symlink to this repository; remove it (a second copy of @pulumi/pulumi breaks Pulumi)`);
  }
  if (stat && fs.readlinkSync(link) === target) return;
  if (stat) fs.unlinkSync(link);
  fs.symlinkSync(target, link, "dir");
}

/**
 * Copies the Pulumi program in `srcDir` (its files, not `node_modules`) to `destDir` outside the
 * repository and gives it a `node_modules` holding absolute symlinks to this package and to the
 * repository's `@pulumi` scope, so the copy runs like a program inside the repository.
 * @returns `destDir`.
 */
export function copyProgram(srcDir: string, destDir: string): string {
  fs.mkdirSync(destDir, { recursive: true });
  for (const entry of fs.readdirSync(srcDir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || /^Pulumi\..+\.yaml$/.test(entry.name)) continue;
    fs.cpSync(path.join(srcDir, entry.name), path.join(destDir, entry.name), { recursive: true });
  }
  const modules = path.join(destDir, "node_modules");
  fs.mkdirSync(modules, { recursive: true });
  fs.symlinkSync(repoRoot(), path.join(modules, PACKAGE_NAME), "dir");
  fs.symlinkSync(path.join(repoRoot(), "node_modules", "@pulumi"), path.join(modules, "@pulumi"), "dir");
  return destDir;
}

/** A `pulumi` command that exited with an unexpected code; the message carries its output. */
export class PulumiCommandError extends Error {
  constructor(
    public readonly args: string[],
    public readonly result: RunPulumiResult,
  ) {
    super(`pulumi ${args.join(" ")} exited with code ${result.code}${result.signal ? ` (${result.signal})` : ""}\n${result.stdout}\n${result.stderr}`);
    this.name = "PulumiCommandError";
  }
}

export interface LocalStackOptions {
  /** Pulumi project directory (holds Pulumi.yaml). */
  programDir: string;
  /** Stack name, e.g. `demo-3f9a`; the stack is created by {@link LocalStack.create}. */
  stackName: string;
  /** Directory of the stack's file backend (created if missing). */
  stateDir: string;
  /** Secrets passphrase (default: scripts/pulumiCli.ts DEFAULT_PASSPHRASE). */
  passphrase?: string;
  /** Extra environment for every CLI run (e.g. `PULUMI_NODEJS_TRANSPILE_ONLY`). */
  env?: Record<string, string>;
  /** Receives CLI output as it arrives (e.g. to stream it to the terminal). */
  onOutput?: (chunk: string, stream: "stdout" | "stderr") => void;
  /** Per-command limit in milliseconds (default 10 minutes). */
  timeoutMs?: number;
  /**
   * `up`, `refresh` and `destroy` run with `--yes` skip the preview the CLI otherwise runs before them
   * (`--skip-preview`): half the program and provider start-ups of those commands. For callers that check the
   * preview with `pulumi preview` itself; a run can ask for it back with {@link RunOptions.preview}.
   */
  skipPreview?: boolean;
}

export interface RunOptions {
  /** Exit codes that count as success (default `[0]`). */
  expectCodes?: number[];
  /** The command is expected to fail: any non-zero exit code counts as success, 0 throws. */
  expectFailure?: boolean;
  /** Written to the CLI's stdin (e.g. a secret value, so it is not on the command line). */
  input?: string;
  /** Do not pass this run's output to `onOutput`. */
  quiet?: boolean;
  /** Run the preview before `up`/`refresh`/`destroy` even on a stack made with {@link LocalStackOptions.skipPreview}. */
  preview?: boolean;
  /** Extra environment for this run only, over the stack's. */
  env?: Record<string, string>;
}

/**
 * Options for the later runs of an unchanged TypeScript program: ts-node type-checks at every run, as it does
 * for a user, so a test checks it at the program's first run and only transpiles it afterwards.
 */
export const TRANSPILE_ONLY: RunOptions = { env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } };

/**
 * The plan and the update of an `up` run with its preview ({@link RunOptions.preview}), as its output prints them
 * in turn: the plan is what `pulumi preview` would have printed, the update starts at "Updating (".
 * @throws Error when the output has no plan followed by an update (the preview failed, or was skipped).
 */
export function upPhases(stdout: string): [plan: string, update: string] {
  const at = stdout.search(/^Updating \(/m);
  if (at <= 0) throw new Error(`no plan followed by an "Updating (" section in:\n${stdout}`);
  return [stdout.slice(0, at), stdout.slice(at)];
}

/** The commands the CLI runs a preview before, unless told `--skip-preview`. */
const PREVIEWED = ["up", "update", "refresh", "destroy"];

/** The exported deployment and its resources, as the stack commands read them (src/cli/stack/checkpoint.ts). */
export type { Deployment, StateResource };

/** `value` with each secret replaced by `[secret]`, as `pulumi stack output --json` prints it without `--show-secrets`. */
function hideSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideSecrets);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (record[SECRET_SIG_KEY] === SECRET_SIG_VALUE) return "[secret]";
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, hideSecrets(v)]));
}

/**
 * A stack of a local program in a file backend of its own. Every command runs with
 * `--non-interactive` and `--stack <name>`.
 */
export class LocalStack {
  readonly env: NodeJS.ProcessEnv;

  private constructor(private readonly opts: LocalStackOptions) {
    const env = pulumiEnv({ stateDir: opts.stateDir, passphrase: opts.passphrase });
    for (const k of RUNPOD_ENV_VARS) delete env[k];
    this.env = { ...env, ...opts.env };
  }

  /**
   * Creates the stack (`pulumi stack init`).
   * @throws Error when the CLI is not installed (run `npm run setup`); PulumiCommandError when init fails.
   */
  static async create(opts: LocalStackOptions): Promise<LocalStack> {
    if (!pulumiInstalled()) {
      throw new Error(`the Pulumi CLI is not installed in ${path.dirname(pulumiBinary())}: run \`npm run setup\` (or \`bash scripts/install-pulumi.sh\`)`);
    }
    const stack = new LocalStack(opts);
    await stack.run(["stack", "init"], { quiet: true });
    return stack;
  }

  get name(): string {
    return this.opts.stackName;
  }

  get programDir(): string {
    return this.opts.programDir;
  }

  get stateDir(): string {
    return path.resolve(this.opts.stateDir);
  }

  /** The stack's config file in the program directory (`Pulumi.<stack>.yaml`). */
  get configFile(): string {
    return path.join(this.opts.programDir, `Pulumi.${this.opts.stackName}.yaml`);
  }

  /**
   * Runs `pulumi <args> --stack <name> --non-interactive` in the program directory.
   * @returns the result when the exit code is expected (see {@link RunOptions}).
   * @throws PulumiCommandError otherwise.
   */
  async run(args: string[], options: RunOptions = {}): Promise<RunPulumiResult> {
    const skip = this.opts.skipPreview && !options.preview && PREVIEWED.includes(args[0]) && args.includes("--yes") && !args.includes("--skip-preview");
    const full = [...args, ...(skip ? ["--skip-preview"] : []), "--stack", this.opts.stackName, "--non-interactive"];
    const result = await runPulumi(full, {
      cwd: this.opts.programDir,
      env: options.env ? { ...this.env, ...options.env } : this.env,
      input: options.input,
      timeoutMs: this.opts.timeoutMs ?? 600_000,
      onOutput: options.quiet ? undefined : this.opts.onOutput,
    });
    const ok = options.expectFailure ? result.code !== 0 : (options.expectCodes ?? [0]).includes(result.code);
    if (!ok) throw new PulumiCommandError(args, result);
    return result;
  }

  /**
   * `pulumi config set <key> <value>`: a plain value is written to the stack's config file as that command
   * writes it (a CLI run costs the engine's start-up, and the file is the stack's config either way); a secret
   * goes through the CLI and its stdin (never on a command line, and only the CLI can encrypt it).
   * `value` must not start with `-` (it would be read as a flag).
   */
  async setConfig(key: string, value: string, options: { secret?: boolean } = {}): Promise<void> {
    if (options.secret) {
      await this.run(["config", "set", "--secret", key], { input: value, quiet: true });
    } else {
      await this.setConfigs({ [key]: value });
    }
  }

  /** Sets several plain (not secret) values, as `pulumi config set-all --plaintext key=value ...` would. */
  async setConfigs(values: Record<string, string>): Promise<void> {
    this.editConfig((config) => {
      for (const [k, v] of Object.entries(values)) config.set(this.configKey(k), v);
    });
  }

  /** `pulumi config rm <key>`: removed from the stack's config file; a key it does not hold goes to the CLI, to fail as it does. */
  async removeConfig(key: string): Promise<void> {
    let held = false;
    this.editConfig((config) => {
      held = config.has(this.configKey(key));
      config.delete(this.configKey(key));
    });
    if (!held) await this.run(["config", "rm", key], { quiet: true });
  }

  /** `runpod:api` as given; a key without a namespace belongs to the project, as the CLI reads it. */
  private configKey(key: string): string {
    return key.includes(":") ? key : `${this.projectName()}:${key}`;
  }

  /** `name` of the program's Pulumi.yaml, read once: every config write and state read needs it. */
  private projectName(): string {
    if (this.project === undefined) {
      const name = parseDocument(fs.readFileSync(path.join(this.opts.programDir, "Pulumi.yaml"), "utf8")).get("name");
      if (typeof name !== "string") throw new Error(`${this.opts.programDir}/Pulumi.yaml has no project name`);
      this.project = name;
    }
    return this.project;
  }
  private project: string | undefined;

  /** Edits the `config:` map of the stack's config file in place, keeping every other entry (the salt, secrets). */
  private editConfig(edit: (config: { set(k: string, v: string): void; has(k: string): boolean; delete(k: string): void }) => void): void {
    const file = this.configFile;
    const doc = parseDocument(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
    if (!doc.has("config")) doc.set("config", doc.createNode({}));
    edit({
      set: (k, v) => doc.setIn(["config", k], v),
      has: (k) => doc.hasIn(["config", k]),
      delete: (k) => doc.deleteIn(["config", k]),
    });
    fs.writeFileSync(file, doc.toString());
  }

  /**
   * Points the provider at `addresses` (`runpod:graphqlUrl`, `runpod:restV1Url`, `runpod:restV2Url`,
   * `runpod:inferenceUrl`) and stores `apiKey` as the secret `runpod:apiKey`.
   */
  async usePlatform(addresses: PlatformAddresses, apiKey: string): Promise<void> {
    // The four addresses go to the config file; the key, a secret, through the CLI and its stdin.
    await this.setConfigs({
      "runpod:graphqlUrl": addresses.graphql,
      "runpod:restV1Url": addresses.restV1,
      "runpod:restV2Url": addresses.restV2,
      "runpod:inferenceUrl": addresses.inference,
    });
    await this.setConfig("runpod:apiKey", apiKey, { secret: true });
  }

  /**
   * The stack's outputs as `pulumi stack output --json` prints them (secrets as `[secret]`), read from the
   * stack's checkpoint in the file backend (falls back to the CLI when there is none to read).
   */
  async outputs(): Promise<Record<string, unknown>> {
    const deployment = this.checkpoint();
    if (!deployment) {
      const r = await this.run(["stack", "output", "--json"], { quiet: true });
      return JSON.parse(r.stdout) as Record<string, unknown>;
    }
    const root = deployment.resources?.find((r) => r.type === STACK_TYPE);
    return hideSecrets(root?.outputs ?? {}) as Record<string, unknown>;
  }

  /** The raw text of `pulumi stack export` (with `--show-secrets` when asked). */
  async exportText(options: { showSecrets?: boolean } = {}): Promise<string> {
    const r = await this.run(["stack", "export", ...(options.showSecrets ? ["--show-secrets"] : [])], { quiet: true });
    return r.stdout;
  }

  /**
   * The current deployment as `pulumi stack export` gives it, read from the stack's checkpoint in the file
   * backend: the same resources, outputs (secrets as ciphertext) and pending operations, without a CLI run.
   */
  async deployment(): Promise<Deployment> {
    const read = this.checkpoint();
    if (read) return read;
    return (JSON.parse(await this.exportText()) as { deployment?: Deployment }).deployment ?? {};
  }

  /** Resources of the current deployment, optionally only those of one type (e.g. {@link ENDPOINT_TYPE}). */
  async resources(type?: string): Promise<StateResource[]> {
    const all = (await this.deployment()).resources ?? [];
    return type ? all.filter((r) => r.type === type) : all;
  }

  /** The `Endpoint` resource named `name` in the current deployment, if any. */
  async endpoint(name: string): Promise<StateResource | undefined> {
    return (await this.resources(ENDPOINT_TYPE)).find((r) => r.urn.endsWith(`::${name}`));
  }

  /**
   * `checkpoint.latest` of `<stateDir>/.pulumi/stacks/<project>/<stack>.json`, the file the file backend keeps the
   * stack in (scripts/pulumiCli.ts sets `metadata=skip`, so it is written in place), read as the stack commands
   * read it (src/cli/stack/fileBackend.ts); undefined when there is no such file (another layout) or it is no
   * checkpoint (emptied by a killed run).
   */
  private checkpoint(): Deployment | undefined {
    const file = path.join(this.stateDir, ".pulumi", "stacks", this.projectName(), `${this.opts.stackName}.json`);
    try {
      return readCheckpointFile(file).deployment;
    } catch {
      // No such file, or an empty one (a run killed mid-write, src/cli/stack/stateSidecars.ts): the CLI says what it makes of it.
      return undefined;
    }
  }

  /**
   * Best-effort clean-up, e.g. in a test's `afterAll`: `pulumi destroy --yes` only when the state still holds a
   * resource of the program or an operation left pending (a destroy of an empty stack still costs an engine start).
   * Never throws.
   */
  async destroyLeftovers(): Promise<void> {
    try {
      const deployment = await this.deployment();
      const held = (deployment.resources ?? []).some((r) => r.type !== STACK_TYPE && !r.type.startsWith("pulumi:providers:"));
      if (!held && !deployment.pending_operations?.length) return;
      await this.run(["destroy", "--yes"], { quiet: true });
    } catch {
      // best effort: the caller's test has already passed or failed on its own
    }
  }

  /**
   * Removes the stack and its config file (`pulumi stack rm --yes`; `force` also drops a stack that
   * still has resources, leaving them on the platform).
   */
  async remove(options: { force?: boolean } = {}): Promise<void> {
    await this.run(["stack", "rm", "--yes", ...(options.force ? ["--force"] : [])], { quiet: true });
  }
}

/** A fresh directory under the system temp dir, e.g. for a stack's state (`prefix` like `pulumi-runpod-demo-`). */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A short random suffix for stack names, e.g. `k3f9a`. */
export function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 7);
}

/** `examples/basic` of this repository. */
export function basicExampleDir(): string {
  return path.join(repoRoot(), "examples", "basic");
}
