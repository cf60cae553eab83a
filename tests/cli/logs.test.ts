/**
 * `pulumi-runpod logs` against the emulator over real HTTP: tail 0, since, resume after forced
 * disconnects, source filtering, all-workers merge, formatting and colour, follow discovery.
 */
import { waitForWorkers } from "../../src/api/readiness";
import type { EndpointRecord } from "../../src/api/types";
import { createEndpoint, history, jsonLines, lineCount, runInProcess, seqOf, startHarness, until, type Harness } from "./harness";

let h: Harness;
let single: EndpointRecord; // one worker
let pair: EndpointRecord; // two workers
let worker: string;

beforeAll(async () => {
  h = await startHarness();
  single = await createEndpoint(h.client, 1);
  pair = await createEndpoint(h.client, 2);
  [{ id: worker }] = await waitForWorkers(h.client, single.id, { count: 1, timeoutMs: 20_000, pollIntervalMs: 20 });
  await waitForWorkers(h.client, pair.id, { count: 2, timeoutMs: 20_000, pollIntervalMs: 20 });
  // Enough history for tails of 30 and for 20 lines of each source.
  await until(async () => (await history(h.client, single.id, worker, { tail: 5000 })).length >= 90);
});

afterAll(async () => {
  await h?.close();
});

afterEach(() => h.emulator.setFaults({}));

function logs(args: string[], extra: { signal?: AbortSignal; onStdout?: (all: string) => void; stdoutTTY?: boolean; env?: Record<string, string> } = {}) {
  return runInProcess(["logs", ...args], { env: { ...h.env, ...extra.env }, signal: extra.signal, onStdout: extra.onStdout, stdoutTTY: extra.stdoutTTY });
}

/** Follows until `lines` lines arrived, then stops it the way Ctrl-C does. */
async function followFor(args: string[], lines: number) {
  const stop = new AbortController();
  const result = await logs([...args, "--follow"], { signal: stop.signal, onStdout: (all) => lineCount(all) >= lines && stop.abort() });
  return result;
}

function expectContiguous(seqs: number[]) {
  expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
}

/**
 * The newest line already stored. (A snapshot read ends at lines stamped after its request was
 * sent, so it may stop a line or two short of the server's newest; taking the last of several
 * keeps this a line that existed before the command under test started.)
 */
async function newestLine() {
  const recent = await history(h.client, single.id, worker, { tail: 20 });
  return recent[recent.length - 1];
}

test("--tail 0 sends only live lines", async () => {
  const newest = await newestLine();
  const result = await followFor([single.id, "--worker", worker, "--tail", "0", "--json"], 6);
  expect(result.code).toBe(0);
  const seqs = jsonLines(result.stdout).map((e) => seqOf(e.id));
  expect(seqs.length).toBeGreaterThanOrEqual(6);
  // Nothing that already existed when the command started: every line is newer than the probe.
  expect(seqs[0]).toBeGreaterThan(seqOf(newest.id));
  expectContiguous(seqs);
});

test("without --tail the platform's backfill comes first (the contrast to --tail 0)", async () => {
  const newest = await newestLine();
  const result = await followFor([single.id, "--worker", worker, "--json"], 110);
  const seqs = jsonLines(result.stdout).map((e) => seqOf(e.id));
  expect(seqs[0]).toBeLessThan(seqOf(newest.id));
  expectContiguous(seqs);
});

test("--since resumes at the line stamped at that time", async () => {
  const all = await history(h.client, single.id, worker, { tail: 5000 });
  // A line in the middle whose timestamp differs from its predecessor's, so the start is unambiguous.
  let k = Math.floor(all.length / 2);
  while (all[k].ts === all[k - 1].ts) k++;
  const result = await logs([single.id, "--worker", worker, "--since", all[k].ts, "--json"]);
  expect(result.code).toBe(0);
  const ids = jsonLines(result.stdout).map((e) => e.id);
  expect(ids[0]).toBe(all[k].id);
  expect(ids.slice(0, all.length - k)).toEqual(all.slice(k).map((e) => e.id));
});

test("a stream dropped every 4 events is resumed without duplicate or gap", async () => {
  // The history stands still (pauseIdleLogs), so no line is stamped while the request is in flight (such a line
  // would count as live, not backfill, and end the snapshot early): all 30 come.
  h.emulator.setFaults({ dropStreamAfterEvents: 4, match: ["workerLogs"], pauseIdleLogs: true });
  h.emulator.resetStats();
  const result = await logs([single.id, "--worker", worker, "--tail", "30", "--json"]);
  expect(result.code).toBe(0);
  const seqs = jsonLines(result.stdout).map((e) => seqOf(e.id));
  expect(seqs.length).toBe(30);
  expectContiguous(seqs);
  // It really was cut: at least one connection per 4 lines delivered.
  expect(h.emulator.stats().byOperation.workerLogs).toBeGreaterThanOrEqual(Math.ceil(seqs.length / 4));
});

test("a followed stream dropped every 3 events keeps every live line exactly once", async () => {
  h.emulator.setFaults({ dropStreamAfterEvents: 3, match: ["workerLogs"] });
  h.emulator.resetStats();
  const result = await followFor([single.id, "--worker", worker, "--tail", "0", "--json"], 15);
  expect(result.code).toBe(0);
  const seqs = jsonLines(result.stdout).map((e) => seqOf(e.id));
  expectContiguous(seqs);
  expect(h.emulator.stats().byOperation.workerLogs).toBeGreaterThanOrEqual(Math.ceil(seqs.length / 3));
});

test("--source keeps only the chosen source; without it both come", async () => {
  h.emulator.setFaults({ pauseIdleLogs: true });
  for (const source of ["system", "container"]) {
    const result = await logs([single.id, "--worker", worker, "--tail", "20", "--source", source, "--json"]);
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.length).toBe(20);
    expect(new Set(events.map((e) => e.source))).toEqual(new Set([source]));
  }
  const both = jsonLines((await logs([single.id, "--worker", worker, "--tail", "20", "--json"])).stdout);
  expect(new Set(both.map((e) => e.source))).toEqual(new Set(["container", "system"]));
});

test("without --worker every worker's lines are printed, merged in time order", async () => {
  const ids = (await h.client.listWorkers(pair.id)).map((w) => w.id).sort();
  h.emulator.setFaults({ pauseIdleLogs: true });
  const result = await logs([pair.id, "--tail", "5", "--json"]);
  expect(result.code).toBe(0);
  const events = jsonLines(result.stdout);
  expect([...new Set(events.map((e) => e.worker))].sort()).toEqual(ids);
  for (const id of ids) expect(events.filter((e) => e.worker === id).length).toBe(5);
  const times = events.map((e) => Date.parse(e.ts));
  expect(times).toEqual([...times].sort((a, b) => a - b));
});

test("text lines carry timestamp, source and (for several workers) the worker id; colour only on a TTY without NO_COLOR", async () => {
  h.emulator.setFaults({ pauseIdleLogs: true });
  const plain = await logs([single.id, "--worker", worker, "--tail", "5"]);
  expect(plain.code).toBe(0);
  const lines = plain.stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(5);
  for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z (container|system {3}) \S/);
  expect(plain.stdout).not.toContain("\u001b[");

  const merged = await logs([pair.id, "--tail", "2"]);
  const workers = (await h.client.listWorkers(pair.id)).map((w) => w.id);
  expect(merged.stdout.trimEnd().split("\n")).toHaveLength(4);
  for (const line of merged.stdout.trimEnd().split("\n")) {
    expect(workers.some((id) => line.split(" ").includes(id))).toBe(true);
  }

  const tty = await logs([single.id, "--worker", worker, "--tail", "2"], { stdoutTTY: true });
  expect(tty.stdout).toContain("\u001b[");
  const noColor = await logs([single.id, "--worker", worker, "--tail", "2"], { stdoutTTY: true, env: { NO_COLOR: "1" } });
  expect(noColor.stdout).not.toContain("\u001b[");
});

test("--follow without --worker picks up a worker that starts later", async () => {
  const grow = await createEndpoint(h.client, 1);
  await waitForWorkers(h.client, grow.id, { count: 1, timeoutMs: 20_000, pollIntervalMs: 20 });
  const stop = new AbortController();
  let scaled = false;
  const result = await logs([grow.id, "--tail", "0", "--follow", "--json", "--rescan-interval", "50"], {
    signal: stop.signal,
    onStdout: (all) => {
      if (!scaled) {
        scaled = true;
        void h.client.saveEndpoint({ id: grow.id, name: grow.name, templateId: grow.templateId, gpuIds: grow.gpuIds, workersMin: 2 });
      }
      if (new Set(jsonLines(all).map((e) => e.worker)).size === 2) stop.abort();
    },
  });
  expect(result.code).toBe(0);
  expect(new Set(jsonLines(result.stdout).map((e) => e.worker)).size).toBe(2);
});

test("bad options and unknown ids are usage errors (exit 2) with one clear line", async () => {
  for (const [args, pattern] of [
    [["--tail", "6000"], /--tail/],
    [["--source", "stdout"], /--source/],
    [["--since", "yesterday"], /--since/],
  ] as const) {
    const result = await logs([single.id, "--worker", worker, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(pattern);
  }
  const unknownWorker = await logs([single.id, "--worker", "nosuchworker"]);
  expect(unknownWorker.code).toBe(2);
  expect(unknownWorker.stderr).toMatch(/not found/i);
  const unknownEndpoint = await logs(["nosuchendpoint"]);
  expect(unknownEndpoint.code).toBe(2);
  expect(unknownEndpoint.stderr.trimEnd().split("\n")).toHaveLength(1);
});
