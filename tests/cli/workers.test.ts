/**
 * Readiness wait (src/api/readiness.ts) and `pulumi-runpod workers` against the emulator over real HTTP.
 */
import { AbortedError, InvalidArgumentError, NotFoundError, TimeoutError } from "../../src/api";
import { isWorkerReady, waitForWorkers, WorkersNotReadyError } from "../../src/api/readiness";
import { createEndpoint, runInProcess, startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

function workers(args: string[]) {
  return runInProcess(["workers", ...args], { env: h.env });
}

test("after waitForWorkers the listing holds workersMin ready workers, in the table and as JSON", async () => {
  const endpoint = await createEndpoint(h.client, 2);
  const ready = await waitForWorkers(h.client, endpoint.id, { count: endpoint.workersMin, timeoutMs: 20_000, pollIntervalMs: 20 });
  expect(ready).toHaveLength(2);
  expect(ready.every(isWorkerReady)).toBe(true);

  const json = await workers([endpoint.id, "--json"]);
  expect(json.code).toBe(0);
  const listed = JSON.parse(json.stdout) as { id: string; status: string; gpuTypeId: string }[];
  expect(listed).toHaveLength(endpoint.workersMin);
  expect(listed.map((w) => w.id).sort()).toEqual(ready.map((w) => w.id).sort());
  // REST v2 WorkerStatus: a ready worker is IDLE (polling) or RUNNING (on a job).
  expect(listed.every((w) => w.status === "IDLE" || w.status === "RUNNING")).toBe(true);

  const table = await workers([endpoint.id]);
  expect(table.code).toBe(0);
  const [header, ...rows] = table.stdout.trimEnd().split("\n");
  // The default set, narrow enough for a terminal; the image is what a pipeline watches during a rollout.
  // REST v2's Worker has no job count: STATUS RUNNING is a worker on a job.
  expect(header.split(/\s{2,}/)).toEqual(["ID", "STATUS", "GPU", "IMAGE", "AGE"]);
  expect(rows).toHaveLength(2);
  const image = (await h.client.findTemplate("tpl_vllm"))!.imageName;
  for (const r of rows)
    expect(r.split(/\s{2,}/)).toEqual([
      expect.any(String),
      expect.stringMatching(/^(IDLE|RUNNING)$/),
      listed[0].gpuTypeId,
      image,
      expect.stringMatching(/^\d+[smhd]$/),
    ]);
  for (const w of ready) expect(rows.some((r) => r.startsWith(w.id) && /\b(IDLE|RUNNING)\b/.test(r))).toBe(true);
  for (const line of table.stdout.trimEnd().split("\n")) expect(line.length).toBeLessThanOrEqual(100);
});

test("workers --wait N waits for a freshly created endpoint's workers to become ready", async () => {
  const endpoint = await createEndpoint(h.client, 2);
  const result = await workers([endpoint.id, "--wait", "2", "--poll-interval", "20", "--json"]);
  expect(result.code).toBe(0);
  const listed = JSON.parse(result.stdout) as { status: string }[];
  expect(listed).toHaveLength(2);
  // REST v2 WorkerStatus: a ready worker is IDLE (polling) or RUNNING (on a job).
  expect(listed.every((w) => w.status === "IDLE" || w.status === "RUNNING")).toBe(true);
});

test("a readiness wait that runs out of time names the endpoint, the counts and the seconds", async () => {
  const endpoint = await createEndpoint(h.client, 0);
  const error = await waitForWorkers(h.client, endpoint.id, { count: 1, timeoutMs: 300, pollIntervalMs: 20 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WorkersNotReadyError);
  expect(error).toBeInstanceOf(TimeoutError);
  expect((error as Error).message).toBe(`endpoint ${endpoint.id}: 0 of 1 worker ready after 0.3 s (timed out waiting for readiness)`);
  expect(error).toMatchObject({ endpointId: endpoint.id, expected: 1, ready: 0, timeoutMs: 300 });

  const cli = await workers([endpoint.id, "--wait", "1", "--timeout", "0.3", "--poll-interval", "20"]);
  expect(cli.code).toBe(1);
  expect(cli.stderr).toContain(`endpoint ${endpoint.id}: 0 of 1 worker ready after 0.3 s`);
});

test("waitForWorkers: abort, bad arguments, unknown endpoint, count 0", async () => {
  const empty = await createEndpoint(h.client, 0);
  const stop = new AbortController();
  const waiting = waitForWorkers(h.client, empty.id, { count: 1, timeoutMs: 20_000, pollIntervalMs: 20, signal: stop.signal });
  setTimeout(() => stop.abort(), 50);
  await expect(waiting).rejects.toBeInstanceOf(AbortedError);

  await expect(waitForWorkers(h.client, empty.id, { count: -1, timeoutMs: 100 })).rejects.toBeInstanceOf(InvalidArgumentError);
  await expect(waitForWorkers(h.client, empty.id, { count: 1, timeoutMs: 100, pollIntervalMs: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
  await expect(waitForWorkers(h.client, "nosuchendpoint", { count: 1, timeoutMs: 5000 })).rejects.toBeInstanceOf(NotFoundError);
  await expect(waitForWorkers(h.client, empty.id, { count: 0, timeoutMs: 0 })).resolves.toEqual([]);
});

test("an endpoint without workers lists none (exit 0); an unknown endpoint exits 2", async () => {
  const empty = await createEndpoint(h.client, 0);
  const none = await workers([empty.id]);
  expect(none.code).toBe(0);
  expect(none.stdout).toBe("");
  expect(none.stderr).toContain(`no workers running for endpoint ${empty.id}`);
  expect(JSON.parse((await workers([empty.id, "--json"])).stdout)).toEqual([]);

  const unknown = await workers(["nosuchendpoint"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toMatch(/404/);
});
