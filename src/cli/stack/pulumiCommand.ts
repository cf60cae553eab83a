/**
 * Runs the user's Pulumi CLI for the stack commands (`import`, `recover`, `orphans`): `pulumi` from
 * PATH, in the program's directory, with the user's environment (backend, passphrase, stack
 * selection), always `--non-interactive`, and `--stack` when one was given.
 */
import { spawn } from "node:child_process";
import { hostname } from "node:os";

/**
 * Runs `pulumi <args>` for one stack; resolves with stdout, rejects with {@link PulumiCommandError}.
 * `anyStack`: a command about the project rather than one stack (`stack ls`): no `--stack`.
 */
export type PulumiRunner = (args: string[], options?: { anyStack?: boolean }) => Promise<string>;

/** A `pulumi` command that exited non-zero; the message carries its last output lines. */
export class PulumiCommandError extends Error {
  override readonly name = "PulumiCommandError";
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    readonly output: string,
    /** Its standard output alone (`output` is stdout then stderr): the JSON document of a `--json` command. */
    readonly stdout = "",
  ) {
    const tail = output.trim().split("\n").slice(-12).join("\n");
    super(`\`pulumi ${args.join(" ")}\` failed (exit ${exitCode ?? "signal"}): ${tail}`);
  }
}

export interface PulumiRunnerOptions {
  /** Stack name (`--stack`); the selected stack when unset. */
  stack?: string;
  /** Program directory; the current directory when unset. */
  cwd?: string;
  /** Environment of the `pulumi` process (the user's: backend, passphrase, PATH). */
  env: Record<string, string | undefined>;
  /** The Pulumi executable; `pulumi` from PATH by default. */
  command?: string;
}

/** A {@link PulumiRunner} for one stack of the program in `options.cwd`. */
export function pulumiRunner(options: PulumiRunnerOptions): PulumiRunner {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
  return (args, { anyStack } = {}) =>
    new Promise((resolve, reject) => {
      const full = [...args, "--non-interactive", ...(options.stack && !anyStack ? ["--stack", options.stack] : [])];
      const child = spawn(options.command ?? "pulumi", full, { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stderr.on("data", (b: Buffer) => err.push(b));
      child.on("error", (e: NodeJS.ErrnoException) =>
        reject(e.code === "ENOENT" ? new Error(`cannot run \`${options.command ?? "pulumi"}\`: the Pulumi CLI is not on PATH`) : e),
      );
      child.on("close", (code) => {
        const stdout = Buffer.concat(out).toString("utf8");
        if (code === 0) resolve(stdout);
        else reject(new PulumiCommandError(args, code, stdout + Buffer.concat(err).toString("utf8"), stdout));
      });
    });
}

/** Who holds a stack lock, as Pulumi's "the stack is currently locked" error names it. */
export interface LockHolder {
  user: string;
  host: string;
  pid: number;
}

/** The holder named in a "currently locked" error of `pulumi`, or undefined for any other error. */
export function lockHolderOf(err: unknown): LockHolder | undefined {
  if (!(err instanceof PulumiCommandError) || !/currently locked/.test(err.output)) return undefined;
  const m = /created by ([^@\s]+)@(\S+) \(pid (\d+)\)/.exec(err.output);
  return m ? { user: m[1], host: m[2], pid: Number(m[3]) } : undefined;
}

/**
 * True when the lock was left by a `pulumi` process of this machine that no longer runs: only then
 * may it be released without asking (a live process, or one on another machine, may still be
 * writing the state).
 */
export function isStaleLock(holder: LockHolder, isAlive: (pid: number) => boolean = processAlive): boolean {
  return holder.host === hostname() && !isAlive(holder.pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
