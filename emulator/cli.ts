#!/usr/bin/env node
/**
 * `pulumi-runpod-emulator [--port 0] [--seed FILE] [--data FILE] [--save-semantics replace|merge] [--json | --env]` — starts the emulator and prints its
 * URLs and keys (human format ending in a `READY <origin>` line, one JSON line with --json, or
 * ready-to-paste `export RUNPOD_…=` lines with --env). Stops on SIGINT/SIGTERM.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { startEmulator } from "./index";
import { SAVE_SEMANTICS, type FaultConfig, type RunningEmulator } from "./types";

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a non-negative integer");
  return n;
}

function faults(value: string): FaultConfig {
  try {
    return JSON.parse(value) as FaultConfig;
  } catch {
    throw new InvalidArgumentError("expected a JSON object");
  }
}

/** The human-readable banner; the last line is `READY <origin>` so scripts can wait for it. */
export function banner(emu: RunningEmulator): string {
  const { urls } = emu;
  return [
    "Platform API emulator running",
    `  GraphQL     ${urls.graphql}   (append ?api_key=KEY)`,
    `  REST v1     ${urls.restV1}`,
    `  REST v2     ${urls.restV2}`,
    `  Inference   ${urls.inference}`,
    `  Admin       ${urls.admin}   (emulator only, no auth)`,
    `  API key (read-write)  ${emu.apiKey}`,
    `  API key (read-only)   ${emu.readOnlyApiKey}`,
    `  API key (other user)  ${emu.otherUserApiKey}`,
    "  Environment for pulumi-runpod and the provider: run with --env for `export RUNPOD_…=` lines",
    `READY ${new URL(urls.graphql).origin}`,
  ].join("\n");
}

/**
 * The environment the provider and `pulumi-runpod` read, pointing at this emulator: the variable names
 * of the platform's own CLI (runpodctl), stated here on the emulator's side (it shares nothing with
 * the client); a test checks them against the client's.
 */
export const ENVIRONMENT_VARIABLES = {
  apiKey: "RUNPOD_API_KEY",
  graphql: "RUNPOD_GRAPHQL_URL",
  restV1: "RUNPOD_API_URL",
  restV2: "RUNPOD_REST_V2_URL",
  inference: "RUNPOD_INVOKE_URL",
} as const;

/** `export NAME=value` lines for a POSIX shell, then the READY line as a comment (pasting it is harmless). */
export function envLines(emu: RunningEmulator): string {
  const { urls } = emu;
  const quote = (v: string) => `'${v.replace(/'/g, "'\\''")}'`;
  return [
    "# Paste into a shell (or eval) to point pulumi-runpod and the provider at this emulator:",
    `export ${ENVIRONMENT_VARIABLES.apiKey}=${quote(emu.apiKey)}`,
    `export ${ENVIRONMENT_VARIABLES.graphql}=${quote(urls.graphql)}`,
    `export ${ENVIRONMENT_VARIABLES.restV1}=${quote(urls.restV1)}`,
    `export ${ENVIRONMENT_VARIABLES.restV2}=${quote(urls.restV2)}`,
    `export ${ENVIRONMENT_VARIABLES.inference}=${quote(urls.inference)}`,
    `# read-only key: ${emu.readOnlyApiKey}   other user's key: ${emu.otherUserApiKey}   admin: ${urls.admin}`,
    `# READY ${new URL(urls.graphql).origin}`,
  ].join("\n");
}

async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("pulumi-runpod-emulator")
    .description("Local emulator of the serverless GPU platform API (GraphQL, REST v1, REST v2, job interface)")
    .option("-p, --port <port>", "TCP port on 127.0.0.1 (0 = any free port)", integer, 0)
    .option("-s, --seed <file>", "JSON seed file (users, keys, volumes, templates, GPU types, quotas)")
    .option("-d, --data <file>", "persist state in this SQLite file (survives restarts)")
    .option("--json", "print one JSON line {urls, apiKey, readOnlyApiKey, otherUserApiKey} instead of the banner")
    .option(
      "--env",
      "print `export RUNPOD_API_KEY=… RUNPOD_GRAPHQL_URL=… RUNPOD_API_URL=… RUNPOD_REST_V2_URL=… RUNPOD_INVOKE_URL=…` lines instead of the banner",
    )
    .option("--log-interval <ms>", "log line interval of simulated workers", integer, 1000)
    .option("--job-duration <ms>", "time an endpoint's handler runs a job (IN_PROGRESS)", integer, 1000)
    .option("--worker-start <ms>", "time a worker takes to become READY", integer, 500)
    .option("--faults <json>", 'initial fault injection, e.g. \'{"errorRate":0.2,"seed":7}\'', faults)
    .addOption(
      new Option(
        "--save-semantics <mode>",
        "what saveEndpoint with an id does to fields it leaves out: replace (reset to default, as the live platform) or merge (keep) (default: $RUNPOD_EMULATOR_SAVE_SEMANTICS, else replace)",
      ).choices([...SAVE_SEMANTICS]),
    )
    .option("--retention-run <ms>", "how long a finished /run job's result stays readable (30 min)", integer, 1_800_000)
    .option("--retention-runsync <ms>", "how long a finished /runsync job's result stays readable (1 min)", integer, 60_000)
    .option("--template-release <ms>", "after an endpoint stops using a template, refuse GraphQL deleteTemplate for this long", integer, 0)
    .option("-q, --quiet", "do not log internal errors to stderr")
    .parse(argv);
  const o = program.opts();
  const emu = await startEmulator({
    port: o.port,
    seed: o.seed,
    dataFile: o.data,
    faults: o.faults,
    logIntervalMs: o.logInterval,
    jobDurationMs: o.jobDuration,
    workerStartMs: o.workerStart,
    saveSemantics: o.saveSemantics,
    templateReleaseMs: o.templateRelease,
    resultRetentionMs: { run: o.retentionRun, runsync: o.retentionRunsync },
    quiet: o.quiet,
  });
  const { urls, apiKey, readOnlyApiKey, otherUserApiKey } = emu;
  const text = o.json ? JSON.stringify({ urls, apiKey, readOnlyApiKey, otherUserApiKey }) : o.env ? envLines(emu) : banner(emu);
  process.stdout.write(`${text}\n`);
  const stop = () => {
    emu.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  main(process.argv).catch((e) => {
    process.stderr.write(`emulator failed to start: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
