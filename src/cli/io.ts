/**
 * What a CLI command may touch of the outside world. The bin passes the real process streams;
 * tests pass in-memory ones, so `main(argv, io)` runs in-process without spawning node.
 */

/** A text sink: `process.stdout`/`process.stderr` or anything with `write` (and optionally `isTTY`). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** Environment the configuration is read from (`RUNPOD_API_KEY`, address variables, `NO_COLOR`). */
  env: Record<string, string | undefined>;
  /**
   * Aborted when the user interrupts (Ctrl-C / SIGTERM in the bin). Commands end cleanly on it:
   * `logs` exits 0, `run` exits 130 (see {@link EXIT}).
   */
  signal?: AbortSignal;
  /** Reads a file named by `--input @path`; defaults to the filesystem. */
  readFile?: (path: string) => Promise<string>;
}

/**
 * Exit codes, fixed so pipelines can branch on them.
 * - `OK` 0: command succeeded (job COMPLETED; logs streamed or stopped by the user).
 * - `FAILED` 1: the job failed, was cancelled or timed out; or the platform could not be reached
 *   or answered an error other than the configuration ones below; a `pulumi` command failed;
 *   `recover --yes` left pending operations it could not settle.
 * - `USAGE` 2: bad arguments or configuration: unknown option, invalid JSON, missing key,
 *   rejected key (401/403), unknown endpoint or worker (404); `import` of a resource the program
 *   does not declare or of an unknown id; `orphans --delete --yes` on a stack with pending operations.
 * - `INTERRUPTED` 130: `run` stopped by Ctrl-C before the job finished (the job may still run), or
 *   `recover` stopped while it waited for the interrupted run's requests to settle.
 */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, INTERRUPTED: 130 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
