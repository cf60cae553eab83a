/**
 * `workers <endpointId>`: the endpoint's workers as a table (or JSON), optionally after waiting
 * for a number of them to report ready (spec: GET {base_url}/v2/serverless/{id}/workers).
 */
import { waitForWorkers } from "../../api/readiness";
import type { Worker } from "../../api/types";
import type { CommandContext } from "../context";
import { EXIT, type ExitCode } from "../io";
import { cell, renderTable } from "../table";
import { jsonText, printable } from "../terminalText";

export interface WorkersOptions {
  json?: boolean;
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
export async function workersCommand(ctx: CommandContext, endpointId: string, opts: WorkersOptions): Promise<ExitCode> {
  const { client } = ctx.connect();
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
  ctx.io.stdout.write(workersTable(workers, ctx.out.bold));
  return EXIT.OK;
}

/**
 * ID, STATUS and IMAGE_NAME (what a rollout changes) first, then every other field any worker
 * reports, in first-seen order: the spec does not show the worker record, so the table shows whatever
 * the platform sends.
 */
export function workersTable(workers: Worker[], header: (s: string) => string = (s) => s): string {
  const first = ["id", "status", "image"];
  const extra: string[] = [];
  for (const w of workers) {
    for (const key of Object.keys(w)) if (!first.includes(key) && !extra.includes(key)) extra.push(key);
  }
  const keys = [...first.filter((k) => k !== "image" || workers.some((w) => "image" in w)), ...extra];
  const headers = keys.map((k) =>
    printable(k)
      .replace(/([a-z])([A-Z])/g, "$1_$2")
      .toUpperCase(),
  );
  const table = renderTable(
    headers,
    workers.map((w) => keys.map((k) => cell(w[k]))),
  );
  // Bold only the header line; padding was computed on the plain text, so columns stay aligned.
  const nl = table.indexOf("\n");
  return header(table.slice(0, nl)) + table.slice(nl);
}
