/**
 * `run <endpoint> --input JSON`: sends a job to a queue-based endpoint (by id, or by its resource name
 * in the stack of a Pulumi project) or a public model endpoint (the id of either goes in the same
 * place) and reports its outcome
 * (spec: Endpoints › POST {inference_url}/v2/{endpoint_id}/run and /runsync). The requests go to the
 * endpoint's `requestUrls` (as the stack records them, else as `GET /v2/serverless/{id}` gives them);
 * a public model endpoint, which has no such record, takes them built from `inferenceUrl`.
 *
 * Output contract for pipelines: the job's `output` as JSON on stdout and exit 0 when it
 * COMPLETED; a one-line failure on stderr and exit 1 when it FAILED, was CANCELLED, TIMED_OUT
 * on the platform, or did not finish within `--timeout`; exit 130 when interrupted.
 */
import { NotFoundError, TERMINAL_JOB_STATUSES, TimeoutError, type JobEndpoint } from "../../api";
import type { CliClient } from "../client";
import type { Job } from "../../api/types";
import type { CommandContext } from "../context";
import { endpointTarget } from "../stack/endpointTarget";
import type { StackOptions } from "../stack/session";
import { UsageError } from "../errors";
import { EXIT, type ExitCode } from "../io";
import { Progress } from "../progress";
import { jsonText, printable } from "../terminalText";

export interface RunOptions extends StackOptions {
  /** The job input: a JSON object, or `@path` to read it from a file. */
  input: string;
  sync?: boolean;
  /** Seconds to wait for the job to finish, submission included (default 300). */
  timeout?: number;
  /** Milliseconds between status polls (default 1000). */
  pollInterval?: number;
}

const isTerminal = (job: Job) => TERMINAL_JOB_STATUSES.includes(job.status);

/**
 * Sends `opts.input` to `/runsync` (`opts.sync`) or `/run` and polls the status every
 * `opts.pollInterval` ms, all within `opts.timeout` seconds; shows a spinner on a TTY stderr.
 * @returns EXIT.OK with the output on stdout when the job COMPLETED; EXIT.FAILED when it failed,
 *   was cancelled, timed out on the platform or did not finish in time; EXIT.INTERRUPTED on Ctrl-C.
 * @throws UsageError for unreadable or non-object `--input`, and the client's errors (submission
 *   refused, unknown endpoint, network), which `main` turns into an exit code.
 */
export async function runCommand(ctx: CommandContext, endpointRef: string, opts: RunOptions): Promise<ExitCode> {
  const input = await parseInput(ctx, opts.input);
  const target = await endpointTarget(ctx, endpointRef, opts);
  const endpointId = target.endpointId;
  const { client } = target.connect();
  const endpoint = await jobEndpoint(client, endpointId, target.requestUrls);
  const timeoutS = opts.timeout ?? 300;
  const timeoutMs = timeoutS * 1000;
  const pollIntervalMs = opts.pollInterval ?? 1000;
  const started = Date.now();
  const progress = new Progress(ctx.io.stderr, ctx.err);

  // One signal ends the wait at the deadline or on Ctrl-C, whichever comes first.
  const stop = new AbortController();
  let deadlinePassed = false;
  const deadline = setTimeout(() => {
    deadlinePassed = true;
    stop.abort();
  }, timeoutMs);
  const onUserAbort = () => stop.abort();
  ctx.signal.addEventListener("abort", onUserAbort, { once: true });
  if (ctx.signal.aborted) stop.abort();

  let last: Job | undefined;
  const onStatus = (job: Job) => {
    last = job;
    progress.update(`job ${printable(job.id)} ${printable(job.status)}`, started);
  };
  const wait = { pollIntervalMs, onStatus, signal: stop.signal };
  let job: Job;
  try {
    if (opts.sync) {
      progress.update(`waiting for runsync on ${endpointId}`, started);
      job = await client.runSync(endpoint, input, { ...wait, timeoutMs });
    } else {
      progress.update(`submitting to ${endpointId}`, started);
      // Not abortable: the platform may have queued the job already; Ctrl-C is honoured right after.
      const submitted = await client.run(endpoint, input);
      ctx.io.stderr.write(`job ${printable(submitted.id)} submitted to ${endpointId}\n`);
      onStatus(submitted);
      const remainingMs = Math.max(1, timeoutMs - (Date.now() - started));
      job = isTerminal(submitted) ? submitted : await client.waitForJob(endpoint, submitted.id, { ...wait, timeoutMs: remainingMs });
    }
  } catch (err) {
    const which = last ? `job ${last.id}` : "the job";
    const lastStatus = last ? ` (last status ${last.status})` : "";
    if (ctx.signal.aborted) {
      progress.clear();
      ctx.io.stderr.write(`interrupted; ${which} may still be running on ${endpointId}${lastStatus}\n`);
      return EXIT.INTERRUPTED;
    }
    const waitTimedOut = err instanceof TimeoutError && (err.operation === "waitForJob" || (opts.sync && err.operation === "runSync"));
    if (deadlinePassed || waitTimedOut) {
      progress.clear();
      ctx.io.stderr.write(ctx.err.red(`${which} did not finish within ${timeoutS} s on ${endpointId}${lastStatus}`) + "\n");
      return EXIT.FAILED;
    }
    throw err;
  } finally {
    clearTimeout(deadline);
    ctx.signal.removeEventListener("abort", onUserAbort);
    progress.clear();
  }

  if (job.status === "COMPLETED") {
    ctx.io.stdout.write(jsonText(job.output ?? null, 2) + "\n");
    return EXIT.OK;
  }
  // The client's job schema already turns a structured `error` into JSON text.
  const reason = job.error === undefined ? "" : `: ${printable(job.error)}`;
  ctx.io.stderr.write(ctx.err.red(`job ${printable(job.id)} ${job.status} on ${endpointId}${reason}`) + "\n");
  return EXIT.FAILED;
}

/**
 * Where endpoint `id`'s jobs go: the `requestUrls` the stack recorded, else those of its v2 record;
 * an id with no record (a public model endpoint) takes the job URLs built from `inferenceUrl`.
 */
async function jobEndpoint(client: CliClient["client"], id: string, recorded: Record<string, string> | undefined): Promise<JobEndpoint> {
  if (recorded) return { id, requestUrls: recorded };
  try {
    const urls = (await client.v2.getEndpoint(id)).requestUrls as Record<string, string> | undefined;
    return urls ? { id, requestUrls: urls } : id;
  } catch (err) {
    if (err instanceof NotFoundError) return id;
    throw err;
  }
}

/** The job input must be a JSON object (spec: the body's `input` is an object). */
async function parseInput(ctx: CommandContext, raw: string): Promise<Record<string, unknown>> {
  let text = raw;
  if (raw.startsWith("@")) {
    const path = raw.slice(1);
    const read = ctx.io.readFile ?? ((p: string) => import("node:fs/promises").then((fs) => fs.readFile(p, "utf8")));
    try {
      text = await read(path);
    } catch (err) {
      throw new UsageError(`cannot read --input file ${path}: ${(err as Error).message}`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--input is not valid JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`--input must be a JSON object, e.g. '{"prompt":"a red fox"}'`);
  }
  return value as Record<string, unknown>;
}
