/**
 * The compiled bin (`dist/src/cli/main.js`, the package's `pulumi-runpod`) run as a child process
 * against the emulator: exit codes, signals and address flags as a pipeline sees them.
 * Needs a build first (`npx tsc -p tsconfig.json`; `npm test` builds before jest).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitForWorkers } from "../../src/api/readiness";
import type { EndpointRecord } from "../../src/api/types";
import { createEndpoint, lineCount, runBin, startHarness, type Harness } from "./harness";

let h: Harness;
let endpoint: EndpointRecord;

beforeAll(async () => {
  h = await startHarness();
  endpoint = await createEndpoint(h.client, 1);
  await waitForWorkers(h.client, endpoint.id, { count: 1, timeoutMs: 20_000, pollIntervalMs: 20 });
});

afterAll(async () => {
  await h?.close();
});

test("--version, --help; an unknown command or an --api-key flag is a usage error (exit 2)", async () => {
  const { version } = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
  const v = await runBin(["--version"], {});
  expect(v.code).toBe(0);
  expect(v.stdout.trim()).toBe(version);
  const help = await runBin(["--help"], {});
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/workers[\s\S]*logs[\s\S]*run/);
  const unknown = await runBin(["deploy"], {});
  expect(unknown.code).toBe(2);
  // No key on the command line: the flag does not exist.
  const keyFlag = await runBin(["--api-key", "rpa_secret", "workers", "x"], {});
  expect(keyFlag.code).toBe(2);
  expect(keyFlag.stderr).toMatch(/unknown option '--api-key'/);
});

test("run --sync: output on stdout and exit 0; a failed job exits 1", async () => {
  const ok = await runBin(["run", endpoint.id, "--sync", "--input", '{"smoke":true}'], h.env);
  expect(ok.code).toBe(0);
  expect(JSON.parse(ok.stdout)).toEqual({ echo: { smoke: true } });
  const failed = await runBin(["run", endpoint.id, "--sync", "--input", '{"fail":true}'], h.env);
  expect(failed.code).toBe(1);
  expect(failed.stderr).toMatch(/FAILED/);
});

test("addresses can be given as flags instead of variables; without a key it is a configuration error", async () => {
  const flags = [
    "--graphql-url",
    h.emulator.urls.graphql,
    "--rest-v1-url",
    h.emulator.urls.restV1,
    "--rest-v2-url",
    h.emulator.urls.restV2,
    "--inference-url",
    h.emulator.urls.inference,
  ];
  const listed = await runBin([...flags, "workers", endpoint.id, "--json"], { RUNPOD_API_KEY: h.emulator.apiKey });
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout)).toHaveLength(1);

  const noKey = await runBin([...flags, "workers", endpoint.id], {});
  expect(noKey.code).toBe(2);
  expect(noKey.stderr.trim()).toBe("pulumi-runpod: No API key configured: set the environment variable RUNPOD_API_KEY");
});

test("logs --follow ends cleanly with exit 0 on SIGINT", async () => {
  let sent = false;
  const result = await runBin(["logs", endpoint.id, "--worker", (await h.client.listWorkers(endpoint.id))[0].id, "--tail", "0", "--follow"], h.env, {
    onStdout: (all, child) => {
      if (!sent && lineCount(all) >= 3) {
        sent = true;
        child.kill("SIGINT");
      }
    },
  });
  expect(result.signal).toBeNull();
  expect(result.code).toBe(0);
  expect(lineCount(result.stdout)).toBeGreaterThanOrEqual(3);
  expect(result.stderr).toBe("");
});

test("run interrupted by SIGINT while the job is queued exits 130", async () => {
  const slow = await startHarness({ jobDurationMs: 60_000 });
  try {
    const ep = await createEndpoint(slow.client, 0);
    let sent = false;
    const result = await runBin(["run", ep.id, "--input", "{}", "--poll-interval", "20"], slow.env, {
      onStderr: (all, child) => {
        if (!sent && all.includes("submitted")) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/interrupted; job \S+ may still be running/);
  } finally {
    await slow.close();
  }
});
