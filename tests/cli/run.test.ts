/**
 * `pulumi-runpod run` against the emulator over real HTTP: sync and async jobs, failures, the
 * public image model, timeouts, Ctrl-C, the progress indicator and configuration errors.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EndpointRecord } from "../../src/api/types";
import { main } from "../../src/cli/main";
import { createEndpoint, runInProcess, startHarness, type Harness } from "./harness";

let h: Harness;
let endpoint: EndpointRecord;

beforeAll(async () => {
  h = await startHarness();
  endpoint = await createEndpoint(h.client, 0);
});

afterAll(async () => {
  await h?.close();
});

type Extra = { env?: Record<string, string | undefined>; signal?: AbortSignal; stderrTTY?: boolean };
function run(args: string[], extra: Extra = {}) {
  return runInProcess(["run", ...args], { env: { ...h.env, ...extra.env }, signal: extra.signal, stderrTTY: extra.stderrTTY });
}

test("--sync prints the job's output as JSON and exits 0", async () => {
  const input = { prompt: "hello", n: 3 };
  const result = await run([endpoint.id, "--input", JSON.stringify(input), "--sync"]);
  expect(result.code).toBe(0);
  // The emulator's handler echoes its input (emulator/README.md).
  expect(JSON.parse(result.stdout)).toEqual({ echo: input });
  expect(result.stderr).toBe("");
});

test("without --sync the job is submitted, polled to completion, and its output printed", async () => {
  h.emulator.resetStats();
  const input = { task: "async" };
  const result = await run([endpoint.id, "--input", JSON.stringify(input), "--poll-interval", "20"]);
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual({ echo: input });
  const jobId = /job (\S+) submitted to/.exec(result.stderr)?.[1];
  expect(jobId).toBeDefined();
  const stats = h.emulator.stats().byOperation;
  expect(stats.run).toBe(1);
  expect(stats.runsync ?? 0).toBe(0);
  expect(stats.jobStatus).toBeGreaterThanOrEqual(1);
  const job = await h.client.jobStatus(endpoint.id, jobId as string);
  expect(job.status).toBe("COMPLETED");
  expect(job.output).toEqual({ echo: input });
});

test.each([
  ["async", ["--poll-interval", "20"]],
  ["sync", ["--sync"]],
])("a failed job (%s) exits 1 with the failure on stderr and nothing on stdout", async (_mode, flags) => {
  const result = await run([endpoint.id, "--input", '{"fail":true}', ...flags]);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/job \S+ FAILED on \S+: .+/);
});

test("the job goes to the endpoint's requestUrls (its v2 record), not to URLs built from the inference address", async () => {
  // Nothing listens there: only the platform's own requestUrls reach the job interface.
  const env = { RUNPOD_INVOKE_URL: "http://127.0.0.1:1" };
  const { requestUrls } = await h.client.v2.getEndpoint(endpoint.id);
  expect(requestUrls).toMatchObject({ run: `${h.emulator.urls.inference}/v2/${endpoint.id}/run` });
  for (const flags of [["--poll-interval", "20"], ["--sync"]]) {
    const result = await run([endpoint.id, "--input", JSON.stringify({ via: flags[0] }), ...flags], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ echo: { via: flags[0] } });
  }
});

test("a public model endpoint id works in place of an endpoint id: the image model returns output.image_url", async () => {
  const result = await run(["flux-1-schnell", "--sync", "--input", JSON.stringify({ prompt: "a lighthouse at dawn", width: 512, height: 512 })]);
  expect(result.code).toBe(0);
  const output = JSON.parse(result.stdout) as { image_url: string };
  const res = await fetch(output.image_url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
});

test("--input @file reads the input from a file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "cli-run-"));
  const file = join(dir, "input.json");
  writeFileSync(file, JSON.stringify({ from: "file" }));
  const result = await run([endpoint.id, "--sync", "--input", `@${file}`]);
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual({ echo: { from: "file" } });
});

test("a job that does not finish within --timeout exits 1 naming the job and the limit", async () => {
  // Jobs take 150 ms in this emulator; the limit is 50 ms.
  const result = await run([endpoint.id, "--input", "{}", "--timeout", "0.05", "--poll-interval", "10"]);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/did not finish within 0\.05 s on \S+/);
});

test("Ctrl-C while waiting exits 130 and says the job may still run", async () => {
  const stop = new AbortController();
  const stderr: string[] = [];
  const code = await main(["run", endpoint.id, "--input", "{}", "--poll-interval", "10"], {
    stdout: { write: () => true },
    stderr: {
      write: (s: string) => {
        stderr.push(s);
        if (s.includes("submitted")) stop.abort(); // the job is queued; interrupt the wait
        return true;
      },
    },
    env: h.env,
    signal: stop.signal,
  });
  expect(code).toBe(130);
  expect(stderr.join("")).toMatch(/interrupted; job \S+ may still be running/);
});

test("the progress indicator is drawn on stderr only when stderr is a terminal", async () => {
  const tty = await run([endpoint.id, "--input", "{}", "--poll-interval", "10"], { stderrTTY: true });
  expect(tty.code).toBe(0);
  expect(tty.stderr).toMatch(/\r\u001b\[2K.*job \S+ (IN_QUEUE|IN_PROGRESS)/);
  const plain = await run([endpoint.id, "--input", "{}", "--poll-interval", "10"]);
  expect(plain.code).toBe(0);
  expect(plain.stderr).not.toContain("\r");
  expect(plain.stderr).not.toContain("\u001b[");
});

test("bad input and configuration are usage errors (exit 2) without sending a job", async () => {
  h.emulator.resetStats();
  for (const [args, pattern] of [
    [["--input", "{not json"], /not valid JSON/],
    [["--input", "[1,2]"], /must be a JSON object/],
    [["--input", "@/nonexistent/input.json"], /cannot read --input file/],
    [[], /--input/],
    [["--input", "{}", "--timeout", "-1"], /--timeout/],
  ] as const) {
    const result = await run([endpoint.id, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(pattern);
  }
  const noKey = await run([endpoint.id, "--input", "{}"], { env: { RUNPOD_API_KEY: undefined } });
  expect(noKey.code).toBe(2);
  expect(noKey.stderr).toMatch(/RUNPOD_API_KEY/);
  expect(h.emulator.stats().byOperation.run ?? 0).toBe(0);
});

test("rejected keys and unknown endpoints exit 2 with one line that never shows the key", async () => {
  const badKey = "rpa_this_key_does_not_exist_0123456789";
  const invalid = await run([endpoint.id, "--input", "{}", "--sync"], { env: { RUNPOD_API_KEY: badKey } });
  expect(invalid.code).toBe(2);
  expect(invalid.stderr).toMatch(/401/);
  expect(invalid.stderr).not.toContain(badKey);
  expect(invalid.stderr.trimEnd().split("\n")).toHaveLength(1);

  const readOnly = await run([endpoint.id, "--input", "{}"], { env: { RUNPOD_API_KEY: h.emulator.readOnlyApiKey } });
  expect(readOnly.code).toBe(2);
  expect(readOnly.stderr).toMatch(/403/);
  expect(readOnly.stderr).not.toContain(h.emulator.readOnlyApiKey);

  const missing = await run(["nosuchendpoint", "--input", "{}"]);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/404/);
  expect(missing.stderr).not.toContain(h.emulator.apiKey);
});
