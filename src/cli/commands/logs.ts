/**
 * `logs <endpoint>` (an id, or a resource name of the stack in a Pulumi project): worker log lines
 * with timestamp and source, from one worker or all of them (spec: GET
 * {base_url}/v2/serverless/{id}/workers/{workerId}/logs, and Events).
 *
 * The api client's stream resumes from the last event id after a dropped connection, so the CLI
 * never sees a duplicate or a gap. In `--follow` mode without `--worker`, the worker listing is
 * re-read every few seconds so workers that start later are followed too, and a worker stream
 * that failed is re-attached from its own last event id.
 */
import { poll } from "../../api/poll";
import type { LogEvent, LogStreamOptions } from "../../api/types";
import type { LogSource } from "../../api/spec";
import type { CommandContext } from "../context";
import { endpointTarget } from "../stack/endpointTarget";
import type { StackOptions } from "../stack/session";
import { describeError, exitCodeFor, UsageError } from "../errors";
import { EXIT, type ExitCode } from "../io";
import { jsonText, printable } from "../terminalText";

export interface LogsOptions extends StackOptions {
  /** The argument is a pod (id or resource name): its log (podLogs.ts). */
  pod?: boolean;
  worker?: string;
  source?: LogSource;
  /** Historical lines per worker, 0..5000 (the platform's default is 100). */
  tail?: number;
  /** RFC 3339 resume point (already resolved from a relative duration by the option parser). */
  since?: string;
  follow?: boolean;
  /** One JSON object per line: {worker, id, ts, source, line}. */
  json?: boolean;
  /** Milliseconds between worker listings in follow mode without --worker (default 5000). */
  rescanInterval?: number;
}

interface Tagged {
  worker: string;
  event: LogEvent;
}

/**
 * Prints log lines of `opts.worker`, or of every worker merged by timestamp, as
 * `TS SOURCE [WORKER] LINE` (or `--json`). Without `--follow` it prints the backfill (`--tail`
 * lines per worker, or from `--since`) and ends; with it, it streams until Ctrl-C and exits 0.
 * @returns EXIT.OK, or for a snapshot the exit code of the first worker stream that failed.
 * @throws the client's errors for the listing or a single `--worker` stream; in follow mode a
 *   rejected key (401/403) ends every stream and is thrown.
 */
export async function logsCommand(ctx: CommandContext, endpointRef: string, opts: LogsOptions): Promise<ExitCode> {
  if (opts.pod) {
    if (opts.worker !== undefined) throw new UsageError("--worker applies to endpoints; a pod has one log (drop --worker or --pod)");
    return (await import("./podLogs")).podLogsCommand(ctx, endpointRef, opts);
  }
  const target = await endpointTarget(ctx, endpointRef, opts);
  const endpointId = target.endpointId;
  const { client, apiKey } = target.connect();
  const print = printer(ctx, opts, opts.worker === undefined);
  // Internal stop: the user's Ctrl-C, or a fatal error on one stream that must end the others.
  const stop = new AbortController();
  const onUserAbort = () => stop.abort(ctx.signal.reason);
  if (ctx.signal.aborted) return EXIT.OK;
  ctx.signal.addEventListener("abort", onUserAbort, { once: true });

  /** Last event id seen per worker, so a re-attached stream resumes where the old one stopped. */
  const cursor = new Map<string, string>();
  const pump = async (worker: string, sink: (t: Tagged) => void) => {
    const resume = cursor.get(worker);
    const options: LogStreamOptions = {
      source: opts.source,
      follow: opts.follow === true,
      signal: stop.signal,
      ...(resume ? { lastEventId: resume } : { tail: opts.tail, since: opts.since }),
    };
    try {
      for await (const event of client.streamWorkerLogs(endpointId, worker, options)) {
        cursor.set(worker, event.id);
        sink({ worker, event });
      }
    } catch (err) {
      if (!stop.signal.aborted) throw err;
      // An abort surfacing as an error is the normal end of a stopped stream.
    }
  };

  try {
    if (opts.worker !== undefined) {
      await pump(opts.worker, print);
      return EXIT.OK;
    }
    const workers = await client.listWorkers(endpointId);
    if (!opts.follow) {
      if (workers.length === 0) {
        ctx.io.stderr.write(`no workers running for endpoint ${endpointId}\n`);
        return EXIT.OK;
      }
      return await collectAll(
        ctx,
        workers.map((w) => w.id),
        pump,
        print,
        apiKey,
      );
    }
    return await followAll(
      ctx,
      endpointId,
      workers.map((w) => w.id),
      pump,
      print,
      stop,
      apiKey,
      opts.rescanInterval ?? 5000,
    );
  } finally {
    ctx.signal.removeEventListener("abort", onUserAbort);
    stop.abort();
  }
}

/** Without --follow: read every worker's backfill, then print it merged in timestamp order. */
async function collectAll(
  ctx: CommandContext,
  workerIds: string[],
  pump: (worker: string, sink: (t: Tagged) => void) => Promise<void>,
  print: (t: Tagged) => void,
  apiKey: string,
): Promise<ExitCode> {
  const lines: Tagged[] = [];
  const results = await Promise.allSettled(workerIds.map((id) => pump(id, (t) => lines.push(t))));
  // Array.prototype.sort is stable, so lines with equal timestamps keep their stream order.
  lines.sort((a, b) => Date.parse(a.event.ts) - Date.parse(b.event.ts));
  for (const t of lines) print(t);
  // Lines of the workers that answered are printed; each failure gets its own line, and the
  // first one sets the exit code.
  let code: ExitCode = EXIT.OK;
  results.forEach((r, i) => {
    if (r.status === "rejected") {
      ctx.io.stderr.write(ctx.err.red(`worker ${printable(workerIds[i])}: ${describeError(r.reason, apiKey)}`) + "\n");
      if (code === EXIT.OK) code = exitCodeFor(r.reason);
    }
  });
  return code;
}

/** With --follow: stream every worker until Ctrl-C, attaching workers that appear later. */
async function followAll(
  ctx: CommandContext,
  endpointId: string,
  initial: string[],
  pump: (worker: string, sink: (t: Tagged) => void) => Promise<void>,
  print: (t: Tagged) => void,
  stop: AbortController,
  apiKey: string,
  rescanIntervalMs: number,
): Promise<ExitCode> {
  // The client `logsCommand` built (the context keeps the first).
  const { client } = ctx.connect();
  const active = new Map<string, Promise<void>>();
  let fatal: unknown;
  const failFast = (err: unknown) => {
    // A rejected key will not get better by retrying: end everything and report it.
    const status = (err as { status?: unknown } | null)?.status;
    if (status === 401 || status === 403) {
      fatal ??= err;
      stop.abort();
      return true;
    }
    return false;
  };
  const attach = (worker: string) => {
    if (active.has(worker)) return;
    const running = pump(worker, print).then(
      () => undefined,
      (err) => {
        if (!failFast(err)) ctx.io.stderr.write(ctx.err.yellow(`worker ${printable(worker)}: ${describeError(err, apiKey)}`) + "\n");
      },
    );
    active.set(
      worker,
      running.finally(() => active.delete(worker)),
    );
  };

  if (initial.length === 0) ctx.io.stderr.write(`no workers running for endpoint ${endpointId} yet; waiting for some\n`);
  initial.forEach(attach);
  const rescan = async () => {
    try {
      const workers = await client.listWorkers(endpointId);
      if (!stop.signal.aborted) workers.forEach((w) => attach(w.id));
    } catch (err) {
      // failFast ends the polling (it aborts `stop`); other failures are reported and the rescans go on.
      if (!stop.signal.aborted && !failFast(err)) ctx.io.stderr.write(ctx.err.yellow(`listing workers: ${describeError(err, apiKey)}`) + "\n");
    }
  };
  // Until Ctrl-C or a rejected key: the poll ends only by `stop`.
  await poll(rescan, () => false, { intervalMs: rescanIntervalMs, pauseFirst: true, signal: stop.signal }).catch(() => undefined);
  await Promise.all(active.values());
  if (fatal !== undefined) throw fatal;
  return EXIT.OK;
}

/** Formats one event for stdout: `TS SOURCE [WORKER] LINE`, or a JSON object per line. */
function printer(ctx: CommandContext, opts: LogsOptions, showWorker: boolean): (t: Tagged) => void {
  const { out } = ctx;
  if (opts.json) {
    return ({ worker, event }) => ctx.io.stdout.write(jsonText({ worker, id: event.id, ts: event.ts, source: event.source, line: event.line }) + "\n");
  }
  return ({ worker, event }) => {
    const source = printable(event.source).padEnd(9);
    const tag = event.source === "system" ? out.yellow(source) : out.cyan(source);
    const who = showWorker ? out.magenta(printable(worker)) + " " : "";
    ctx.io.stdout.write(`${out.dim(printable(event.ts))} ${tag} ${who}${printable(event.line)}\n`);
  };
}
