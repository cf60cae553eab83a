/**
 * `workers <endpoint>` (an id, or a resource name of the stack in a Pulumi project): the endpoint's workers as a table (or JSON), optionally after waiting
 * for a number of them to report ready (spec: GET {base_url}/v2/serverless/{id}/workers).
 */
import { waitForWorkers } from "../../api/readiness";
import type { Worker } from "../../api/types";
import type { CommandContext } from "../context";
import { endpointTarget } from "../stack/endpointTarget";
import type { StackOptions } from "../stack/session";
import { EXIT, type ExitCode } from "../io";
import { cell, renderTable } from "../table";
import { jsonText, printable } from "../terminalText";

export interface WorkersOptions extends StackOptions {
  json?: boolean;
  /** Every field the platform reports, not only the default columns. */
  wide?: boolean;
  /** Wait until this many workers are ready before listing them. */
  wait?: number;
  /** Seconds to wait for `wait` workers (default 300). */
  timeout?: number;
  /** Milliseconds between listings while waiting (default 1000). */
  pollInterval?: number;
}

/**
 * Lists the endpoint's workers (`GET {base_url}/v2/serverless/{id}/workers`), after waiting for
 * `opts.wait` ready workers when given (`opts.timeout` seconds, `opts.pollInterval` ms).
 * Writes a table (or `--json`) to stdout; "no workers" goes to stderr.
 * @returns EXIT.OK.
 * @throws WorkersNotReadyError when the wait times out, AbortedError on Ctrl-C, and the errors of
 *   `listWorkers` (NotFoundError for an unknown endpoint); `main` turns them into an exit code.
 */
export async function workersCommand(ctx: CommandContext, endpointRef: string, opts: WorkersOptions): Promise<ExitCode> {
  const target = await endpointTarget(ctx, endpointRef, opts);
  const endpointId = target.endpointId;
  const { client } = target.connect();
  let workers: Worker[];
  if (opts.wait !== undefined) {
    workers = await waitForWorkers(client, endpointId, {
      count: opts.wait,
      timeoutMs: (opts.timeout ?? 300) * 1000,
      pollIntervalMs: opts.pollInterval ?? 1000,
      signal: ctx.signal,
    });
  } else {
    workers = await client.listWorkers(endpointId);
  }

  if (opts.json) {
    ctx.io.stdout.write(jsonText(workers, 2) + "\n");
    return EXIT.OK;
  }
  if (workers.length === 0) {
    ctx.io.stderr.write(`no workers running for endpoint ${endpointId}\n`);
    return EXIT.OK;
  }
  ctx.io.stdout.write(workersTable(workers, ctx.out.bold, { wide: opts.wide }));
  return EXIT.OK;
}

/** A default column: its header, the record fields that may hold it (first present wins), and how it shows. */
interface Column {
  header: string;
  fields: string[];
  show?: (value: unknown, now: number) => string;
}

/** Time since an ISO date, in the largest whole unit (`45s`, `12m`, `3h`, `2d`); the value itself when not a date. */
export function age(value: unknown, now: number): string {
  const at = typeof value === "string" ? Date.parse(value) : NaN;
  if (!Number.isFinite(at)) return cell(value);
  const s = Math.max(0, Math.floor((now - at) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/**
 * What a pipeline watches, narrow enough for a terminal: the image is what a rollout changes; STATUS
 * RUNNING is a worker on a job (REST v2's Worker carries no job count). The spec
 * does not show the worker record, so each column takes the first field the platform sends of its
 * list; `--wide` adds every other field, `--json` gives the records.
 */
const DEFAULT_COLUMNS: Column[] = [
  { header: "ID", fields: ["id"] },
  { header: "STATUS", fields: ["status"] },
  { header: "GPU", fields: ["gpuTypeId", "gpuId", "gpu"] },
  { header: "IMAGE", fields: ["image", "imageName"] },
  { header: "AGE", fields: ["startedAt", "createdAt"], show: age },
];

const headerOf = (key: string) =>
  printable(key)
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toUpperCase();

/**
 * The workers as a table: the default columns (those any worker reports), then with `wide` every other
 * field any worker reports, in first-seen order.
 */
export function workersTable(workers: Worker[], header: (s: string) => string = (s) => s, options: { wide?: boolean; now?: number } = {}): string {
  const now = options.now ?? Date.now();
  const fieldOf = (c: Column) => c.fields.find((f) => workers.some((w) => f in w));
  const columns = DEFAULT_COLUMNS.flatMap((c) => {
    const field = fieldOf(c);
    return field ? [{ header: c.header, field, show: c.show ?? ((v: unknown) => cell(v)) }] : [];
  });
  if (options.wide) {
    const used = new Set(columns.map((c) => c.field));
    for (const w of workers) {
      for (const key of Object.keys(w)) {
        if (!used.has(key)) {
          used.add(key);
          columns.push({ header: headerOf(key), field: key, show: (v: unknown) => cell(v) });
        }
      }
    }
  }
  const table = renderTable(
    columns.map((c) => c.header),
    workers.map((w: Record<string, unknown>) => columns.map((c) => c.show(w[c.field], now))),
  );
  // Bold only the header line; padding was computed on the plain text, so columns stay aligned.
  const nl = table.indexOf("\n");
  return header(table.slice(0, nl)) + table.slice(nl);
}
