/**
 * Issue 18, CLI side, through the compiled bin (needs `npx tsc -p tsconfig.json`): durations beyond
 * what timers hold, `--since` garbage and impossible dates, keys that cannot be sent, and terminal
 * escapes in text the platform supplies (a template's image name shows up in the worker table and
 * in the workers' log lines; a job's error quotes its input).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { waitForWorkers } from "../../src/api/readiness";
import type { EndpointRecord } from "../../src/api/types";
import { runBin, runInProcess, startHarness, type Harness } from "./harness";

// OSC window-title (ESC ] 0; … BEL), clear screen (ESC [2J), and a C1 CSI (U+009B) clearing the screen too.
const HOSTILE = "\u001b]0;pwned\u0007\u001b[2J\u009b2J";
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;
/** Output lines, each free of control characters (tab aside). */
const expectClean = (text: string) => {
  for (const line of text.split("\n")) expect([line, CONTROL.test(line)]).toEqual([line, false]);
};

let h: Harness;
let endpoint: EndpointRecord;

beforeAll(async () => {
  // Periodic log lines once a second: at 20 ms a slow run pushes the start's lines out of `--tail 5000`.
  h = await startHarness({ logIntervalMs: 1000 });
  const template = await h.client.saveTemplate({ name: `hostile-${process.pid}`, imageName: `evil${HOSTILE}/image:1`, isServerless: true });
  endpoint = await h.client.saveEndpoint({ name: `hostile-${process.pid}`, templateId: template.id, gpuIds: "AMPERE_24", workersMin: 1, workersMax: 1 });
  await waitForWorkers(h.client, endpoint.id, { count: 1, timeoutMs: 20_000, pollIntervalMs: 20 });
});
afterAll(() => h?.close());

describe("durations beyond 2,147,483,647 ms are usage errors, not 1 ms timers", () => {
  test.each([
    [["run", "flux-1-schnell", "--input", '{"prompt":"x"}', "--poll-interval", "3000000000"], "--poll-interval"],
    [["run", "flux-1-schnell", "--input", '{"prompt":"x"}', "--timeout", "3000000"], "--timeout"],
    [["workers", "abc", "--wait", "1", "--poll-interval", "3000000000"], "--poll-interval"],
    [["workers", "abc", "--wait", "1", "--timeout", "2147484"], "--timeout"],
    [["logs", "abc", "--rescan-interval", "2147483648"], "--rescan-interval"],
    [["recover", "--settle", "9999999"], "--settle"],
  ])("%j", async (argv, option) => {
    const before = h.emulator.stats().requests;
    const r = await runBin(argv, h.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(option);
    // In human units, whatever unit the option takes.
    expect(r.stderr).toMatch(/up to 24\.8 days|to 24\.8 days/);
    expect(r.stderr).not.toMatch(/(most|to) 2147483/);
    expect(h.emulator.stats().requests).toBe(before);
  });

  test("the largest allowed values are accepted", async () => {
    const r = await runBin(
      ["run", "flux-1-schnell", "--sync", "--input", '{"prompt":"x"}', "--timeout", "2147483.647", "--poll-interval", "2147483647"],
      h.env,
    );
    expect(r.code).toBe(0);
  });
});

describe("--since", () => {
  test.each(["99999999999999999999d", "2024-02-30T00:00:00Z", "2023-02-29T12:00:00Z", "2024-01-01T25:00:00Z", "yesterday"])(
    "%s is a usage error (exit 2)",
    async (since) => {
      const r = await runBin(["logs", endpoint.id, "--since", since], h.env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--since/);
    },
  );

  test("a leap second is accepted", async () => {
    const r = await runBin(["logs", endpoint.id, "--since", "2016-12-31T23:59:60Z"], h.env);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toMatch(/worker is ready/);
  });
});

describe("an API key that cannot be sent is a configuration error (exit 2)", () => {
  test.each([
    ["newline", "rpa_abc\nX-Injected: 1"],
    ["non-ASCII", "rpa_abc\u00e9"],
  ])("key with a %s", async (_label, key) => {
    const before = h.emulator.stats().requests;
    const r = await runBin(["workers", endpoint.id], { ...h.env, RUNPOD_API_KEY: key });
    expect(r.code).toBe(2);
    // The after-deploy commands read the environment only: the message names it, not Pulumi config.
    expect(r.stderr).toMatch(/RUNPOD_API_KEY/);
    expect(r.stderr).not.toMatch(/runpod:apiKey|pulumi config/);
    expect(r.stderr).not.toMatch(/connection failed|may have taken effect/);
    expect(r.stderr).not.toContain("rpa_abc");
    expect(h.emulator.stats().requests).toBe(before);
  });
});

describe("platform-supplied text reaches the terminal without control characters", () => {
  test("worker table cells (plain output and a terminal)", async () => {
    const plain = await runBin(["workers", endpoint.id], h.env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("evil]0;pwned[2J2J/image:1");
    expectClean(plain.stdout);
    const tty = await runInProcess(["workers", endpoint.id], { env: { ...h.env, NO_COLOR: "1" }, stdoutTTY: true });
    expect(tty.stdout).toContain("evil]0;pwned[2J2J/image:1");
    expectClean(tty.stdout);
  });

  test("--json stays JSON with every control character escaped", async () => {
    const r = await runBin(["workers", endpoint.id, "--json"], h.env);
    expectClean(r.stdout);
    expect((JSON.parse(r.stdout) as { image: string }[])[0].image).toBe(`evil${HOSTILE}/image:1`);
    const logs = await runBin(["logs", endpoint.id, "--json", "--tail", "5000"], h.env);
    expectClean(logs.stdout);
    const lines = logs.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { line: string });
    expect(lines.some((l) => l.line.includes(`evil${HOSTILE}/image:1`))).toBe(true);
  });

  test("log lines", async () => {
    const r = await runBin(["logs", endpoint.id, "--tail", "5000"], h.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pulling image evil]0;pwned[2J2J/image:1");
    expectClean(r.stdout);
  });

  test("a hostile server: worker id and image, job error, problem detail", async () => {
    // The emulator never sends these; a small local server plays a platform that does.
    const server = createServer((req, res) => {
      req.resume();
      res.setHeader("content-type", "application/json");
      const url = req.url ?? "";
      // REST v2's shape (listEndpointWorkers): the status is an enum, so the hostile text rides on free-text fields.
      if (url.includes("/workers"))
        res.end(
          JSON.stringify({
            workers: [{ id: `w1${HOSTILE}`, status: "IDLE", isStale: false, gpuCount: 1, image: `img${HOSTILE}` }],
            summary: { running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0, total: 1 },
          }),
        );
      else if (url.endsWith("/serverless/abc")) {
        // No endpoint record: `run` sends to the job URLs built from the inference address.
        res.statusCode = 404;
        res.end(JSON.stringify({ title: "Not Found", status: 404, detail: "no endpoint abc" }));
      } else if (url.endsWith("/runsync")) res.end(JSON.stringify({ id: "job1", status: "FAILED", error: `boom${HOSTILE}` }));
      else {
        res.statusCode = 400;
        res.setHeader("content-type", "application/problem+json");
        res.end(JSON.stringify({ title: "Bad Request", status: 400, detail: `refused${HOSTILE}` }));
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = { ...h.env, RUNPOD_REST_V2_URL: base, RUNPOD_INVOKE_URL: base };
    try {
      const workers = await runBin(["workers", "abc"], env);
      expect(workers.stdout).toContain("w1]0;pwned[2J2J");
      expect(workers.stdout).toContain("img]0;pwned[2J2J");
      expectClean(workers.stdout);
      const failed = await runBin(["run", "abc", "--sync", "--input", "{}"], env);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain("FAILED on abc: boom]0;pwned[2J2J");
      expectClean(failed.stderr);
      const refused = await runBin(["run", "abc", "--input", "{}"], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("refused]0;pwned[2J2J");
      expectClean(refused.stderr);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test("the emulator's error text", async () => {
    const refused = await runBin(["run", "flux-1-schnell", "--input", JSON.stringify({ prompt: "x", [HOSTILE]: 1, width: HOSTILE })], h.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/invalid for model/);
    expectClean(refused.stderr);
  });
});
