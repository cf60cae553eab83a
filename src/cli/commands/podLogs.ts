/**
 * `logs --pod <pod>` (an id, or a Pod's resource name in the stack): the pod's log lines with timestamp and
 * source (REST v2 getPodLogs). Without `--follow` it prints the backfill (`--tail` lines, or from `--since`)
 * and ends; with it, it streams until Ctrl-C. The client's stream resumes after a dropped connection.
 */
import type { LogStreamOptions } from "../../api/types";
import type { LogSource } from "../../api/spec";
import type { CommandContext } from "../context";
import { endpointTarget, podIdIn } from "../stack/endpointTarget";
import { EXIT, type ExitCode } from "../io";
import { jsonText, printable } from "../terminalText";
import type { StackOptions } from "../stack/session";

/** The `logs` options a pod's log takes (logs.ts `LogsOptions` without the worker ones). */
export interface PodLogsOptions extends StackOptions {
  source?: LogSource;
  tail?: number;
  since?: string;
  follow?: boolean;
  json?: boolean;
}

export async function podLogsCommand(ctx: CommandContext, podRef: string, opts: PodLogsOptions): Promise<ExitCode> {
  const target = await endpointTarget(ctx, podRef, opts, podIdIn);
  const podId = target.endpointId;
  const { client } = target.connect();
  const stop = new AbortController();
  const onUserAbort = () => stop.abort(ctx.signal.reason);
  if (ctx.signal.aborted) return EXIT.OK;
  ctx.signal.addEventListener("abort", onUserAbort, { once: true });
  const options: LogStreamOptions = { source: opts.source, follow: opts.follow === true, signal: stop.signal, tail: opts.tail, since: opts.since };
  const { out } = ctx;
  try {
    for await (const event of client.streamPodLogs(podId, options)) {
      if (opts.json) {
        ctx.io.stdout.write(jsonText({ pod: podId, id: event.id, ts: event.ts, source: event.source, line: event.line }) + "\n");
        continue;
      }
      const source = printable(event.source).padEnd(9);
      const tag = event.source === "system" ? out.yellow(source) : out.cyan(source);
      ctx.io.stdout.write(`${out.dim(printable(event.ts))} ${tag} ${printable(event.line)}\n`);
    }
  } catch (err) {
    if (!stop.signal.aborted) throw err;
  } finally {
    ctx.signal.removeEventListener("abort", onUserAbort);
    stop.abort();
  }
  return EXIT.OK;
}
