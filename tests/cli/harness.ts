/**
 * Test harness for the CLI: an in-process emulator on port 0, the environment that points the
 * CLI at it, an in-process runner of `main(argv, io)` and a runner of the compiled bin.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import type { EmulatorOptions, RunningEmulator } from "../../emulator/types";
import { createClient, resolveClientConfig } from "../../src/api";
import type { EndpointRecord, LogEvent, LogStreamOptions, PlatformClient } from "../../src/api/types";
import { main } from "../../src/cli/main";
import type { TextSink } from "../../src/cli/io";

export const BIN = join(__dirname, "..", "..", "dist", "src", "cli", "main.js");

export interface Harness {
  emulator: RunningEmulator;
  /** Environment for the CLI: key and the four address variables. */
  env: Record<string, string>;
  /** An api client for arranging state (endpoints) and reading reference data. */
  client: PlatformClient;
  close(): Promise<void>;
}

/** Fast emulator timings so suites stay quick; every test still waits on real events. */
export const FAST: EmulatorOptions = { quiet: true, logIntervalMs: 20, jobDurationMs: 150, workerStartMs: 100 };

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ ...FAST, ...options });
  const env = {
    RUNPOD_API_KEY: emulator.apiKey,
    RUNPOD_GRAPHQL_URL: emulator.urls.graphql,
    RUNPOD_API_URL: emulator.urls.restV1,
    RUNPOD_REST_V2_URL: emulator.urls.restV2,
    RUNPOD_INVOKE_URL: emulator.urls.inference,
  };
  const client = createClient(resolveClientConfig({}, env));
  return { emulator, env, client, close: () => emulator.close() };
}

/** A sink that records what is written; `isTTY` as asked. */
export class Capture implements TextSink {
  text = "";
  constructor(readonly isTTY = false) {}
  write(s: string): boolean {
    this.text += s;
    return true;
  }
  lines(): string[] {
    return this.text.split("\n").filter((l) => l.length > 0);
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  /** Called on every stdout write, e.g. to abort after enough lines. */
  onStdout?: (all: string) => void;
}

/** Runs `main(argv, io)` in this process with captured streams. */
export async function runInProcess(argv: string[], opts: InProcessOptions): Promise<CliResult> {
  const stdout = new Capture(opts.stdoutTTY);
  const stderr = new Capture(opts.stderrTTY);
  const watched: TextSink = {
    isTTY: stdout.isTTY,
    write: (s: string) => {
      stdout.write(s);
      opts.onStdout?.(stdout.text);
      return true;
    },
  };
  const code = await main(argv, { stdout: watched, stderr, env: opts.env, signal: opts.signal });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * Runs the compiled bin as a child process (needs `npx tsc -p tsconfig.json` first; `npm test`
 * builds before running jest). The watchers may send the child a signal once enough has arrived.
 * `watch.cwd` is its working directory (a Pulumi program's, for the stack commands).
 */
export function runBin(
  argv: string[],
  env: Record<string, string | undefined>,
  watch: {
    onStdout?: (all: string, child: ReturnType<typeof spawn>) => void;
    onStderr?: (all: string, child: ReturnType<typeof spawn>) => void;
    cwd?: string;
  } = {},
): Promise<CliResult & { signal: NodeJS.Signals | null }> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first with \`npx tsc -p tsconfig.json\``);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      env: { PATH: process.env.PATH, ...env },
      cwd: watch.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      watch.onStdout?.(stdout, child);
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      watch.onStderr?.(stderr, child);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }));
  });
}

let counter = 0;
/** Creates an endpoint with `workersMin` workers through the api client. */
export async function createEndpoint(client: PlatformClient, workersMin: number): Promise<EndpointRecord> {
  return client.saveEndpoint({
    name: `cli-test-${process.pid}-${++counter}`,
    templateId: "tpl_vllm",
    gpuIds: "AMPERE_24",
    workersMin,
    workersMax: Math.max(workersMin, 3),
  });
}

/** Resolves once `predicate` holds, checking every 10 ms (no timing assertion: jest's timeout bounds it). */
export async function until(predicate: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await predicate())) await new Promise((r) => setTimeout(r, 10));
}

/** Parses the 12-digit sequence number at the end of an event id (`<ts>/000000000042`). */
export function seqOf(id: string): number {
  const m = /\/(\d{12})$/.exec(id);
  if (!m) throw new Error(`unexpected event id ${id}`);
  return Number(m[1]);
}

/** A worker's lines up to now, read with the api client (reference data for the CLI's output). */
export async function history(client: PlatformClient, endpointId: string, workerId: string, options: LogStreamOptions): Promise<LogEvent[]> {
  const out: LogEvent[] = [];
  for await (const e of client.streamWorkerLogs(endpointId, workerId, { ...options, follow: false })) out.push(e);
  return out;
}

/** The CLI's `--json` log output, one object per line. */
export interface JsonLine {
  worker: string;
  id: string;
  ts: string;
  source: string;
  line: string;
}
export function jsonLines(stdout: string): JsonLine[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as JsonLine);
}

/** Number of complete lines written so far. */
export function lineCount(text: string): number {
  return text.split("\n").length - 1;
}
