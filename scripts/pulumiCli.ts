/**
 * Runs the project-local Pulumi CLI (installed in `.pulumi/bin` by scripts/install-pulumi.sh)
 * with a local file backend and passphrase secrets: no cloud login, no plugin downloads.
 * Used by the demo, the end-to-end tests and the benchmark.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { LocalWorkspaceOptions, Stack } from "@pulumi/pulumi/automation";

/** Passphrase used for local throwaway stacks when the caller gives none. Not a secret. */
export const DEFAULT_PASSPHRASE = "pulumi-runpod-local-passphrase";

/**
 * The repository root: the nearest ancestor of this module holding scripts/install-pulumi.sh
 * (works from scripts/ under Jest and from dist/scripts/ when compiled).
 * @throws Error when no such directory exists.
 */
export function repoRoot(): string {
  // Every CLI run asks (through pulumiBinary and pulumiEnv); the walk up the file system happens once.
  return (root ??= findRepoRoot());
}
let root: string | undefined;

function findRepoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (fs.existsSync(path.join(dir, "scripts", "install-pulumi.sh"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${__dirname}`);
    dir = parent;
  }
}

/** `<repo>/.pulumi`: the install root (`bin/`, `home/`), laid out like the official installer's. */
export function pulumiRoot(): string {
  return path.join(repoRoot(), ".pulumi");
}

/** Absolute path of the `pulumi` executable the project uses (`<repo>/.pulumi/bin/pulumi`). */
export function pulumiBinary(): string {
  return path.join(pulumiRoot(), "bin", "pulumi");
}

/**
 * Whether scripts/install-pulumi.sh has put a runnable CLI in place. Cheap: checks files only.
 */
export function pulumiInstalled(): boolean {
  const bin = path.join(pulumiRoot(), "bin");
  return ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"].every((f) => {
    try {
      fs.accessSync(path.join(bin, f), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export interface PulumiEnvOptions {
  /** Directory holding the file backend's state (created if missing). Absolute or relative to the cwd. */
  stateDir: string;
  /** Secrets passphrase for stacks in this backend; defaults to {@link DEFAULT_PASSPHRASE}. */
  passphrase?: string;
  /** Keep ANSI colours in CLI and Node.js output (default false: NO_COLOR is set, output is plain text). */
  color?: boolean;
  /** Environment to start from; defaults to `process.env`. */
  base?: NodeJS.ProcessEnv;
}

/**
 * Environment for running the local CLI against a file backend.
 *
 * Sets PATH (`.pulumi/bin` first, so the engine finds the language host and the dynamic-provider
 * launcher), PULUMI_HOME (`.pulumi/home`, keeps ~/.pulumi untouched), PULUMI_BACKEND_URL
 * (`file://<stateDir>?metadata=skip`: no `.attrs` sidecars, the one state file the file backend writes
 * in place, which a run the tests kill can leave empty; src/cli/stack/stateSidecars.ts), PULUMI_CONFIG_PASSPHRASE, and switches off update checks and automatic
 * plugin acquisition. Removes variables that would point the CLI elsewhere (access token, a
 * passphrase file, another backend).
 */
export function pulumiEnv(opts: PulumiEnvOptions): NodeJS.ProcessEnv {
  const root = pulumiRoot();
  const stateDir = path.resolve(opts.stateDir);
  fs.mkdirSync(stateDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...(opts.base ?? process.env) };
  for (const k of ["PULUMI_ACCESS_TOKEN", "PULUMI_CONFIG_PASSPHRASE_FILE", "PULUMI_API"]) delete env[k];
  env.PATH = [path.join(root, "bin"), env.PATH].filter(Boolean).join(path.delimiter);
  env.PULUMI_HOME = path.join(root, "home");
  env.PULUMI_BACKEND_URL = `file://${stateDir}?metadata=skip`;
  env.PULUMI_CONFIG_PASSPHRASE = opts.passphrase ?? DEFAULT_PASSPHRASE;
  env.PULUMI_SKIP_UPDATE_CHECK = "true";
  env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
  if (!opts.color) {
    env.NO_COLOR = "1";
    delete env.FORCE_COLOR;
  }
  return env;
}

export interface RunPulumiOptions {
  /** Working directory: the Pulumi project directory for stack commands. */
  cwd: string;
  /** Usually from {@link pulumiEnv}. */
  env: NodeJS.ProcessEnv;
  /** Written to the CLI's stdin, then stdin is closed (stdin is empty otherwise). */
  input?: string;
  /** Kill the CLI (SIGTERM, then SIGKILL after 5 s) if it runs longer than this many milliseconds. */
  timeoutMs?: number;
  /** Called with each chunk of stdout/stderr as it arrives (e.g. to stream the demo's progress). */
  onOutput?: (chunk: string, stream: "stdout" | "stderr") => void;
}

export interface RunPulumiResult {
  /** Exit code; -1 when the process was killed by a signal (see `signal`). */
  code: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `pulumi <args>` (no shell) and collects its output. Resolves with the exit code rather
 * than rejecting on failure, so callers can assert on failing commands.
 * @throws Error only when the CLI cannot be started (e.g. not installed).
 */
export function runPulumi(args: string[], opts: RunPulumiOptions): Promise<RunPulumiResult> {
  recordCliRun(args);
  return new Promise((resolve, reject) => {
    const child = spawn(pulumiBinary(), args, { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => {
      out.push(b);
      opts.onOutput?.(b.toString("utf8"), "stdout");
    });
    child.stderr.on("data", (b: Buffer) => {
      err.push(b);
      opts.onOutput?.(b.toString("utf8"), "stderr");
    });
    let timer: NodeJS.Timeout | undefined;
    let killer: NodeJS.Timeout | undefined;
    if (opts.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        child.kill("SIGTERM");
        killer = setTimeout(() => child.kill("SIGKILL"), 5000);
      }, opts.timeoutMs);
    }
    child.on("error", (e) => {
      clearTimeout(timer);
      clearTimeout(killer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({
        code: code ?? -1,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
    child.stdin.on("error", () => undefined); // the CLI may exit before reading its input
    child.stdin.end(opts.input ?? "");
  });
}

/**
 * The test suite counts CLI runs per file and tier (jest.config.js sets RUNPOD_TEST_CLI_LOG, tests/testFileEnv.ts
 * RUNPOD_TEST_FILE, tests/summaryReporter.js reads the log): one JSON line per run, naming the command, not its values.
 */
export function recordCliRun(args: string[]): void {
  const log = process.env.RUNPOD_TEST_CLI_LOG;
  if (!log) return;
  const command = args.filter((a) => !a.startsWith("-")).slice(0, args[0] === "stack" || args[0] === "config" ? 2 : 1);
  fs.appendFileSync(log, JSON.stringify({ file: process.env.RUNPOD_TEST_FILE ?? "", command: command.join(" ") }) + "\n");
}

export interface WorkspaceStackOptions extends PulumiEnvOptions {
  /** Pulumi project directory (holds Pulumi.yaml). */
  workDir: string;
  /** Stack name; created if it does not exist, selected otherwise. */
  stackName: string;
  /** Extra environment for the CLI, applied over {@link pulumiEnv}'s. */
  envVars?: Record<string, string>;
}

/**
 * Creates or selects a stack of a local Pulumi program through the Automation API
 * (`@pulumi/pulumi/automation`), driving the project-local CLI with {@link pulumiEnv}'s settings.
 * The returned Stack's `preview`/`up`/`refresh`/`destroy` run the real engine.
 * @throws Error when the CLI is not installed or the stack cannot be created/selected.
 */
export async function localWorkspaceStack(opts: WorkspaceStackOptions): Promise<Stack> {
  // Loaded lazily: the automation module pulls in a lot and most callers only need runPulumi.
  const auto = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await auto.PulumiCommand.get({ root: pulumiRoot() });
  const env = pulumiEnv(opts);
  const envVars: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) envVars[k] = v;
  Object.assign(envVars, opts.envVars);
  const wsOpts: LocalWorkspaceOptions = { workDir: opts.workDir, pulumiCommand, envVars };
  return auto.LocalWorkspace.createOrSelectStack({ stackName: opts.stackName, workDir: opts.workDir }, wsOpts);
}
