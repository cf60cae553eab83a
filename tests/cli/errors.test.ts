/**
 * The CLI's error lines (README › Troubleshooting): the platform's words once, then `(HTTP status,
 * the command)`, then what to do where this command reads its configuration.
 */
import { runInProcess, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const run = (argv: string[], env: Record<string, string | undefined> = h.env) => runInProcess(argv, { env: { ...env, NO_COLOR: "1" } });

test("an unknown endpoint: one line naming the command, not the api operation; no repeated detail", async () => {
  const r = await run(["workers", "nope0000000000"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('pulumi-runpod: Endpoint "nope0000000000" not found (HTTP 404, pulumi-runpod workers)\n');
});

test("a bad key: the after-deploy commands point at RUNPOD_API_KEY, never at Pulumi config they do not read", async () => {
  for (const argv of [
    ["workers", "nope0000000000"],
    ["logs", "nope0000000000"],
  ]) {
    const r = await run(argv, { ...h.env, RUNPOD_API_KEY: "rpa_wrong_key_000" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^pulumi-runpod: The API key is invalid.* \\(HTTP 401, pulumi-runpod ${argv[0]}\\)\\. Check the key in the environment variable RUNPOD_API_KEY\\n$`,
      ),
    );
    expect(r.stderr).not.toMatch(/runpod:apiKey|pulumi config|\.\.|listWorkers/);
  }
});

test("a duration limit is stated in human units", async () => {
  const r = await run(["workers", "x", "--wait", "1", "--timeout", "abc"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("must be a time above 0, up to 24.8 days: a number of seconds or a duration (300, 90s, 10m, 2h).");
  const ok = await run(["workers", "nope0000000000", "--wait", "1", "--timeout", "2m"]);
  expect(ok.stderr).toMatch(/not found \(HTTP 404, pulumi-runpod workers\)/);
});
