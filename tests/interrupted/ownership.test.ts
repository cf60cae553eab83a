/**
 * Issue #37's data loss, through the real Pulumi CLI: two projects share one account (one emulator),
 * one file backend and one resource name (a Template `shared` each, auto-named `shared-<7 hex>`). The
 * first project's `orphans` never lists, and `orphans --delete --yes` never deletes, the second's
 * template, although its name has the form of the first's auto-name; an orphan the first stack's own
 * records prove (an interrupted create cleared without `recover`) is still found and deleted, and
 * nothing else. The second stack's `orphans` does not take the first's orphan for its own.
 * Needs dist/ and the Pulumi CLI in .pulumi/bin (`npm run setup`).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import type { CliResult } from "../cli/harness";
import { endProcesses, runCli, runUntilKilled } from "./harness";

jest.setTimeout(600_000);

const FIXTURE = path.join(__dirname, "..", "e2e", "templatesFixture");
const TEMPLATE_TYPE = "pulumi-nodejs:dynamic/runpod:Template";
const SHARED = { imageName: "alpine:3" };

let emu: RunningEmulator;
let work: string;
let first: LocalStack;
let second: LocalStack;

/** A stack `dev` of a copy of the fixture named `project`, in the one backend, on the one account. */
async function project(name: string): Promise<LocalStack> {
  const dir = copyProgram(FIXTURE, path.join(work, name));
  const yaml = path.join(dir, "Pulumi.yaml");
  fs.writeFileSync(yaml, fs.readFileSync(yaml, "utf8").replace(/^name: .*$/m, `name: ${name}`));
  // No assertion reads the preview an `up` or `refresh` runs first: they skip it.
  const stack = await LocalStack.create({ programDir: dir, stackName: "dev", stateDir: path.join(work, "state"), timeoutMs: 300_000, skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  return stack;
}

const declare = (stack: LocalStack, templates: Record<string, unknown>) => stack.setConfig("templates", JSON.stringify(templates));
/** The account's templates less the emulator's seeded ones: what the two projects made. */
let seeded: string[] = [];
const templateIds = () =>
  emu
    .templates("user_1")
    .map((t) => t.id)
    .filter((id) => !seeded.includes(id))
    .sort();
const heldIds = async (stack: LocalStack) => (await stack.resources(TEMPLATE_TYPE)).map((r) => r.id!).sort();

async function cli(stack: LocalStack, args: string[]): Promise<CliResult> {
  const r = await runCli(stack, args);
  expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: "" });
  return r;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 5000, jobDurationMs: 50 });
  seeded = emu.templates("user_1").map((t) => t.id);
  work = tempDir("pulumi-runpod-ownership-");
  first = await project("first");
  second = await project("second");
});

afterAll(async () => {
  for (const s of [first, second]) if (s) await s.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("orphans in one project never lists or deletes another project's object of the same resource name; its own orphan is found and deleted", async () => {
  await declare(first, { shared: SHARED });
  await declare(second, { shared: SHARED });
  await first.run(["up", "--yes"]);
  await second.run(["up", "--yes"]);
  const [ours] = await heldIds(first);
  const [theirs] = await heldIds(second);
  const theirName = emu.templates("user_1").find((t) => t.id === theirs)!.name;
  expect(theirName).toMatch(/^shared-[0-9a-f]{7}$/); // the form of the first stack's auto-name for `shared`

  // The reproduction: nothing of the second project is the first's.
  expect((await cli(first, ["orphans"])).stdout).toMatch(/^no orphans/);
  expect((await cli(first, ["orphans", "--delete", "--yes"])).stdout).toMatch(/^no orphans/);
  expect(templateIds()).toEqual([ours, theirs].sort());

  // A genuine orphan of the first stack: its create of `extra` is killed at the platform, and the user
  // goes on without `recover` (`cancel`; `up`, which keeps the pending create and makes `extra` anew;
  // then clears the pending create).
  await declare(first, { shared: SHARED, extra: SHARED });
  emu.resetStats();
  emu.setFaults({ latencyMs: 2500, match: ["createTemplate"] });
  const killed = await runUntilKilled(first, ["up", "--yes", "--skip-preview"], () => (emu.stats().byOperation.createTemplate ?? 0) >= 1);
  await endProcesses(killed.leftovers);
  emu.setFaults({});
  while (templateIds().length < 3) await new Promise((r) => setTimeout(r, 50));
  await first.run(["cancel", "--yes"]);
  await first.run(["up", "--yes"]);
  await first.run(["refresh", "--yes", "--clear-pending-creates"]);
  const held = await heldIds(first);
  const orphans = templateIds().filter((id) => !held.includes(id) && id !== theirs);
  expect(orphans).toHaveLength(1);

  const listed = await cli(first, ["orphans"]);
  const rows = listed.stdout.split("\n").filter((l) => l.startsWith("template "));
  expect(rows).toEqual([expect.stringMatching(new RegExp(`^template +${orphans[0]} +extra-[0-9a-f]{7} +pending create of extra `))]);
  expect(listed.stdout).not.toContain(theirs);
  // The second stack's records prove neither the first's orphan nor anything of the first its own.
  expect((await cli(second, ["orphans"])).stdout).toMatch(/^no orphans/);

  const deleted = await cli(first, ["orphans", "--delete", "--yes"]);
  expect(deleted.stdout.match(/^deleted template .*$/gm)).toEqual([expect.stringContaining(`deleted template ${orphans[0]} (extra-`)]);
  expect(templateIds()).toEqual([...held, theirs].sort());
  expect((await cli(first, ["orphans"])).stdout).toMatch(/^no orphans/);
  await second.run(["preview", "--expect-no-changes"]);
});
