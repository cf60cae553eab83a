/**
 * A `pulumi` killed while it saved the stack can leave the file backend's `<stack>.json.attrs`
 * sidecar empty (the one state file it writes in place), and every later read then fails with
 * `failed to load checkpoint: EOF`. A CI run saw it after a kill. The stack commands name the empty
 * file; `recover --yes` removes it and goes on. The state here is that of such a kill, made
 * directly: the kill's timing cannot be chosen (the tests' own backend writes no sidecars).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalStack, tempDir } from "../../scripts/exampleStack";
import { runCli } from "./harness";

let work: string;
let stack: LocalStack;
let sidecar: string;

beforeAll(async () => {
  work = tempDir("runpod-sidecar-");
  const programDir = path.join(work, "program");
  fs.mkdirSync(programDir, { recursive: true });
  fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: sidecar\nruntime: yaml\nresources: {}\n");
  const stateDir = path.join(work, "state");
  // The file backend as users have it: with its metadata sidecars.
  stack = await LocalStack.create({ programDir, stackName: "dev", stateDir, env: { PULUMI_BACKEND_URL: `file://${stateDir}` } });
  await stack.run(["up", "--yes", "--skip-preview"], { quiet: true });
  sidecar = path.join(stateDir, ".pulumi", "stacks", "sidecar", "dev.json.attrs");
  expect(fs.statSync(sidecar).size).toBeGreaterThan(0);
  fs.truncateSync(sidecar, 0);
}, 120_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("the stack commands name the empty sidecar and say how to mend it; a dry-run recover changes nothing", async () => {
  await expect(stack.run(["stack", "export"], { quiet: true })).rejects.toThrow(/failed to load checkpoint: EOF/);
  for (const args of [["cost"], ["orphans"], ["recover"]]) {
    const r = await runCli(stack, args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`a killed \`pulumi\` left its file backend's metadata sidecar unwritten: ${sidecar} is empty`);
    expect(r.stderr).toContain("`pulumi-runpod recover --yes` removes the empty sidecar");
  }
  expect(fs.statSync(sidecar).size).toBe(0);
});

test("recover --yes removes the empty sidecar, and the stack reads again with its checkpoint intact", async () => {
  const r = await runCli(stack, ["recover", "--yes"]);
  expect(r.stderr).toContain(`removed the empty metadata sidecar a killed \`pulumi\` left: ${sidecar}`);
  expect(r.stdout).toContain("no pending operations: nothing to recover");
  expect(r.code).toBe(0);
  // recover's refresh of the stack (releasing a stale lock) writes the state, and with it a whole sidecar.
  expect(fs.statSync(sidecar).size).toBeGreaterThan(0);
  const { deployment } = JSON.parse(await stack.exportText()) as { deployment: { resources?: { type: string }[] } };
  expect(deployment.resources?.map((x) => x.type)).toEqual(["pulumi:pulumi:Stack"]);
  await stack.run(["preview", "--expect-no-changes"], { quiet: true });
});
