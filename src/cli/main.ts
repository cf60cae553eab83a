#!/usr/bin/env node
/**
 * `pulumi-runpod`: after-deploy tools for a pipeline — list an endpoint's workers (optionally
 * waiting for them to be ready), read or follow their logs, and send a smoke job — and stack tools
 * run in a Pulumi program's directory: adopt an existing object (`import`), settle what an
 * interrupted deployment left (`recover`), find objects no stack holds (`orphans`).
 *
 * The after-deploy commands take each setting from its `--*-url` flag, else the environment
 * (`RUNPOD_API_KEY` and the address variables of `resolveClientConfig`), else — in a Pulumi project —
 * the stack's `runpod:*` configuration, and an endpoint by its id or its resource name in the stack.
 * The stack commands act for the stack's account, as the provider does: the flags, then the stack's
 * configuration, then the environment.
 * Exit codes: see `EXIT` in ./io.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { ENV_VARS } from "../api";
import { clientFor, type AddressFlags, type CliClient } from "./client";
import { adoptCommand, type AdoptOptions } from "./commands/adopt";
import { costCommand, type CostOptions } from "./commands/cost";
import { importCommand, type ImportOptions } from "./commands/import";
import { logsCommand, type LogsOptions } from "./commands/logs";
import { orphansCommand, type OrphansOptions } from "./commands/orphans";
import { recoverCommand, type RecoverOptions } from "./commands/recover";
import { runCommand, type RunOptions } from "./commands/run";
import { workersCommand, type WorkersOptions } from "./commands/workers";
import type { CommandContext } from "./context";
import { describeError, ENVIRONMENT_HINTS, exitCodeFor, STACK_HINTS } from "./errors";
import { EXIT, type CliIo } from "./io";
import {
  collect,
  parseBucket,
  parseCount,
  parseMillis,
  parseUsdPerHour,
  parseSeconds,
  parseSettle,
  parseSince,
  parseSource,
  parseTail,
  parseUrl,
} from "./options";
import { styleFor } from "./style";

const PROGRAM = "pulumi-runpod";
/** Commands that read the stack's configuration (and so get its hints). */
const STACK_COMMANDS = new Set(["adopt", "import", "recover", "orphans", "cost"]);

/**
 * Runs the CLI with `argv` (the arguments after the program name) and returns the exit code.
 * Never calls `process.exit`, so tests can run it in-process with in-memory streams.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const signal = io.signal ?? new AbortController().signal;
  let connected: CliClient | undefined;
  /** Whether the client was built from a stack's configuration (its errors then point there too). */
  let fromStack = false;
  let code: number = EXIT.OK;

  const program = new Command(PROGRAM)
    .description(
      "Workers, logs and smoke jobs for serverless endpoints deployed with the pulumi-runpod provider; import, recover, orphans and cost for its stacks.",
    )
    .version(packageVersion(), "-V, --version")
    .addOption(new Option("--graphql-url <url>", `GraphQL address (default: $${ENV_VARS.graphqlUrl} or production)`).argParser(parseUrl))
    .addOption(new Option("--rest-v1-url <url>", `REST v1 address (default: $${ENV_VARS.restV1Url} or production)`).argParser(parseUrl))
    .addOption(new Option("--rest-v2-url <url>", `REST v2 address (default: $${ENV_VARS.restV2Url} or production)`).argParser(parseUrl))
    .addOption(new Option("--inference-url <url>", `job interface address (default: $${ENV_VARS.inferenceUrl} or production)`).argParser(parseUrl))
    .addHelpText(
      "after",
      `\nThe API key is read from $${ENV_VARS.apiKey} or the stack's runpod:apiKey; there is no --api-key flag (keys on a command line leak into shell history).` +
        "\nIn a Pulumi project, workers, logs and run also read the stack's runpod:* configuration (after the flags and the environment) and take an endpoint's resource name." +
        "\nThe stack commands (import, recover, orphans, cost) run `pulumi` from PATH in the program's directory and read the stack's runpod:* configuration first." +
        "\nExit codes: 0 success, 1 job failed/cancelled/timed out, platform error or pending operations left, 2 usage or configuration error, 130 interrupted.",
    )
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });

  const context = (): CommandContext => ({
    io,
    signal,
    out: styleFor(io.stdout, io.env),
    err: styleFor(io.stderr, io.env),
    connect: (stackConfig) => {
      fromStack ||= stackConfig !== undefined;
      return (connected ??= clientFor(program.opts<AddressFlags>(), io.env, stackConfig));
    },
  });
  /** Runs a command, turning any error into one stderr line (key scrubbed) and an exit code. */
  const act = (command: string, fn: (ctx: CommandContext) => Promise<number>) => async () => {
    const ctx = context();
    try {
      code = await fn(ctx);
    } catch (err) {
      const hints = STACK_COMMANDS.has(command) || fromStack ? STACK_HINTS : ENVIRONMENT_HINTS;
      const line = describeError(err, connected?.apiKey ?? io.env[ENV_VARS.apiKey], { doing: `${PROGRAM} ${command}`, hints });
      io.stderr.write(ctx.err.red(`${PROGRAM}: ${line}`) + "\n");
      code = exitCodeFor(err);
    }
  };

  /** `--stack` and `--cwd`: which stack of which program a command reads. */
  const inProject = (command: Command, stackHelp: string) =>
    command.option("-s, --stack <name>", stackHelp).option("-C, --cwd <dir>", "the Pulumi program's directory (default: the current directory)");
  const AFTER_DEPLOY_STACK = "stack whose configuration and resource names to use (default: the selected stack, in a Pulumi project)";

  inProject(program.command("workers"), AFTER_DEPLOY_STACK)
    .description("list an endpoint's workers as a table")
    .argument("<endpoint>", "serverless endpoint id, or the endpoint's resource name in the stack")
    .option("--wide", "every field the platform reports, not only ID, STATUS, GPU, IMAGE, AGE")
    .option("--json", "print the listing as JSON (every field)")
    .addOption(new Option("--wait <count>", "first wait until this many workers are ready").argParser(parseCount))
    .addOption(new Option("--timeout <seconds>", "how long --wait may take").argParser(parseSeconds).default(300))
    .addOption(new Option("--poll-interval <ms>", "pause between listings while waiting").argParser(parseMillis).default(1000))
    .action((endpointId: string, opts: WorkersOptions) => act("workers", (ctx) => workersCommand(ctx, endpointId, opts))());

  inProject(program.command("logs"), AFTER_DEPLOY_STACK)
    .description("print worker logs (all workers unless --worker), or a pod's log (--pod), with timestamp and source")
    .argument("<endpoint>", "serverless endpoint id, or the endpoint's resource name in the stack (with --pod: a pod's)")
    .option("--pod", "the argument is a pod (id, or a Pod's resource name in the stack): print its log")
    .option("--worker <id>", "only this worker (ids from `workers`)")
    .addOption(new Option("--source <source>", "only container or system lines").argParser(parseSource))
    .addOption(new Option("--tail <n>", "historical lines per worker before live ones, 0..5000 (platform default 100)").argParser(parseTail))
    .addOption(new Option("--since <time>", "start at an RFC 3339 time or a duration ago (10m, 2h); overrides --tail").argParser((v) => parseSince(v)))
    .option("-f, --follow", "keep streaming live lines until Ctrl-C (exits 0)")
    .option("--json", "one JSON object per line: {worker, id, ts, source, line}")
    .addOption(new Option("--rescan-interval <ms>").argParser(parseMillis).hideHelp())
    .action((endpointId: string, opts: LogsOptions) => act("logs", (ctx) => logsCommand(ctx, endpointId, opts))());

  inProject(program.command("run"), AFTER_DEPLOY_STACK)
    .description("send a job to an endpoint or a public model endpoint and print its output")
    .argument("<endpoint>", "serverless endpoint id, the endpoint's resource name in the stack, or a public model endpoint id")
    .requiredOption("--input <json>", "job input as a JSON object, or @file.json")
    .option("--sync", "use /runsync (the response carries the result) instead of /run and polling")
    .addOption(new Option("--timeout <seconds>", "give up waiting after this long (exit 1)").argParser(parseSeconds).default(300))
    .addOption(new Option("--poll-interval <ms>", "pause between status polls").argParser(parseMillis).default(1000))
    .action((endpointId: string, opts: RunOptions) => act("run", (ctx) => runCommand(ctx, endpointId, opts))());

  const stackCommand = (name: string, description: string) => inProject(program.command(name), "stack (default: the selected stack)").description(description);

  stackCommand("import", "adopt an existing object into the stack as the resource the program declares (what `pulumi import` cannot do for dynamic providers)")
    .argument("<resourceName>", "Pulumi name of the resource in the program, e.g. inference")
    .argument("<id>", "id of the existing object on the platform")
    .action((resourceName: string, id: string, opts: ImportOptions) => act("import", (ctx) => importCommand(ctx, resourceName, id, opts))());

  stackCommand("adopt", "bring the account's objects that no stack holds into the stack, writing the program that declares them (docs/operations.md)")
    .option("--kinds <list>", "only these kinds, comma-separated: containerregistryauth, networkvolume, template, endpoint, pod")
    .option("--name <regex>", "only objects whose platform name matches this regular expression")
    .option("--language <language>", "the program's language: typescript, javascript, python, go, yaml (default: from Pulumi.yaml's runtime)")
    .option("--out <file>", "where the program goes (default: adopted.<ext> in the project)")
    .option("--force", "overwrite --out when it exists")
    .option("--dry-run", "only print what would be adopted (kind, platform name, id, resource name)")
    .option("-y, --yes", "adopt without asking")
    .action((opts: AdoptOptions) => act("adopt", (ctx) => adoptCommand(ctx, opts))());

  stackCommand("recover", "settle what an interrupted `pulumi up`/`destroy` left pending: adopt or drop pending creates, read back pending updates and deletes")
    .option("-y, --yes", "act (default: only print what would be done)")
    .addOption(
      new Option(
        "--settle <seconds>",
        "seconds after the interrupted run's last state write during which its requests may still land (default: 120 s retry deadline + runpod:timeoutMs)",
      ).argParser(parseSettle),
    )
    .option("--id <id>", "adopt this object for its pending create (repeatable); needed where the backend's other stacks cannot all be read", collect, [])
    .action((opts: RecoverOptions) => act("recover", (ctx) => recoverCommand(ctx, opts))());

  stackCommand(
    "orphans",
    "list platform objects this stack's records prove its own (pending operations, recorded resources, unrecorded creates) that no stack holds",
  )
    .option("--delete", "delete them (scale to zero first); needs --yes")
    .option("-y, --yes", "with --delete: act (default: only print what would be deleted)")
    .option("--id <id>", "with --delete: only this orphan (repeatable); needed where the backend's other stacks cannot all be read", collect, [])
    .action((opts: OrphansOptions) => act("orphans", (ctx) => orphansCommand(ctx, opts))());

  stackCommand("cost", "the stack's endpoints with their hourly cost estimates and totals (docs/cost.md); --since adds actual spend")
    .option("--json", "print the report as JSON")
    .option("--csv", "print CSV records (per endpoint per bucket with --since)")
    .addOption(new Option("--max-hourly <usd>", "exit 1 when the endpoints' total maxHourlyCost exceeds this many USD per hour").argParser(parseUsdPerHour))
    .addOption(new Option("--since <time>", "add actual spend since an RFC 3339 time or a duration ago (7d, 24h)").argParser((v) => parseSince(v)))
    .addOption(new Option("--bucket <size>", "billing bucket of --since: hour or day").argParser(parseBucket).default("day"))
    .option("--no-preview", "estimates from the stack's state (as deployed) instead of `pulumi preview`")
    .action((opts: CostOptions) => act("cost", (ctx) => costCommand(ctx, opts))());

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    throw err;
  }
  return code;
}

/** The package's version, found by walking up from this file (works from src/ and dist/src/). */
function packageVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-runpod" && pkg.version) return pkg.version;
    } catch {
      // not here; keep walking up
    }
  }
  return "0.0.0";
}

/** The bin: real streams, Ctrl-C/SIGTERM as the stop signal, exit once stdout has drained. */
function runBin(): void {
  const controller = new AbortController();
  const interrupt = () => {
    // A second Ctrl-C while a command is winding down ends the process at once.
    if (controller.signal.aborted) process.exit(EXIT.INTERRUPTED);
    controller.abort();
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  // A closed pipe (`| head`) is a normal way to stop reading logs.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(EXIT.OK);
    throw err;
  });
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: controller.signal }).then(
    (code) => process.stdout.write("", () => process.exit(code)),
    (err) => {
      process.stderr.write(`${PROGRAM}: ${describeError(err, process.env[ENV_VARS.apiKey])}\n`);
      process.exit(EXIT.FAILED);
    },
  );
}

if (require.main === module) runBin();
