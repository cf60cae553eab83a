/**
 * The stack commands (`import`, `recover`, `orphans`) at the edges that need no Pulumi stack: usage
 * errors, a missing Pulumi CLI, how a stale lock is recognised, and recover's default settle time.
 * Their behaviour against real stacks is tested through the real CLI in tests/interrupted and
 * tests/e2e/lifecycle.test.ts.
 */
import { hostname } from "node:os";
import { DEFAULT_RETRY } from "../../src/api";
import { defaultSettleMs } from "../../src/cli/commands/recover";
import { isStaleLock, lockHolderOf, PulumiCommandError } from "../../src/cli/stack/pulumiCommand";
import { runInProcess } from "./harness";

const env = { PATH: "/nonexistent-bin", NO_COLOR: "1" };

test("bad arguments are usage errors (exit 2) naming the option and what it accepts", async () => {
  const settle = await runInProcess(["recover", "--settle", "-3"], { env });
  expect(settle.code).toBe(2);
  expect(settle.stderr).toMatch(
    /option '--settle <seconds>' argument '-3' is invalid\. must be a time from 0 to 24\.8 days: a number of seconds or a duration \(300, 90s, 10m, 2h\)\./,
  );
  const missing = await runInProcess(["import", "inference"], { env });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/missing required argument 'id'/);
  const unknown = await runInProcess(["orphans", "--force"], { env });
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toMatch(/unknown option '--force'/);
});

test("--help lists the stack commands and their options", async () => {
  const help = await runInProcess(["--help"], { env });
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/import \[options\] <resourceName> <id>/);
  expect(help.stdout).toMatch(/recover \[options\]/);
  expect(help.stdout).toMatch(/orphans \[options\]/);
  const recover = await runInProcess(["recover", "--help"], { env });
  expect(recover.stdout).toMatch(/-s, --stack <name>[\s\S]*-C, --cwd <dir>[\s\S]*-y, --yes[\s\S]*--settle <seconds>/);
});

test("without a Pulumi CLI on PATH each stack command says so (exit 1) and changes nothing", async () => {
  for (const argv of [
    ["recover", "--yes"],
    ["orphans", "--delete", "--yes"],
    ["import", "api", "ep1"],
  ]) {
    const r = await runInProcess(argv, { env });
    expect({ argv, code: r.code, stderr: r.stderr }).toEqual({ argv, code: 1, stderr: "pulumi-runpod: cannot run `pulumi`: the Pulumi CLI is not on PATH\n" });
  }
});

test("a lock left by a pulumi of this machine that no longer runs is stale; a live one or another machine's is not", () => {
  const output = (host: string, pid: number) =>
    "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n" +
    `  file:///state/.pulumi/locks/organization/proj/dev/9e8f.json: created by root@${host} (pid ${pid}) at 2026-11-22T22:08:24Z`;
  const err = (host: string, pid: number) => new PulumiCommandError(["refresh"], 255, output(host, pid));
  expect(lockHolderOf(err(hostname(), 4242))).toEqual({ user: "root", host: hostname(), pid: 4242 });
  expect(lockHolderOf(new PulumiCommandError(["refresh"], 255, "error: something else"))).toBeUndefined();
  expect(lockHolderOf(new Error("currently locked"))).toBeUndefined();
  const dead = () => false;
  expect(isStaleLock(lockHolderOf(err(hostname(), 4242))!, dead)).toBe(true);
  expect(isStaleLock(lockHolderOf(err(hostname(), 4242))!, () => true)).toBe(false);
  expect(isStaleLock(lockHolderOf(err("ci-runner-7", 4242))!, dead)).toBe(false);
  // With the real check: this test's own pid is alive.
  expect(isStaleLock({ user: "u", host: hostname(), pid: process.pid })).toBe(false);
});

test("recover's default settle time covers the retries a surviving provider may still send", () => {
  expect(DEFAULT_RETRY.deadlineMs).toBe(120_000);
  expect(defaultSettleMs()).toBe(750_000); // 10 min waiting out the rate limit + 120 s retry deadline + 30 s request timeout
  expect(defaultSettleMs(8_000)).toBe(728_000);
  expect(defaultSettleMs(8_000, 0)).toBe(128_000); // a stack that never waits out the rate limit
  expect(defaultSettleMs(90_000, 0)).toBe(270_000); // an unanswered create: timeout, look, try once more
});
