/**
 * The conformance tier over recorded traffic: every REST v2 exchange an emulator answered while
 * `RUNPOD_EMULATOR_V2_TRAFFIC=<dir>` was set (emulator/traffic.ts) is validated against the vendored document
 * (v2Validator.ts). A request the document refuses must have been refused (4xx); every answer must be one the
 * document allows, with no field it does not list and none it requires missing.
 *
 * - `RUNPOD_V2_TRAFFIC_CHECK=<dir>`: validate that directory — `npm test` records the whole suite's traffic there and
 *   then runs this file (`npm run test:v2-traffic`).
 * - otherwise: run the emulator's REST v2 test files (tests/emulator/v2*.test.ts) in a child jest with recording on,
 *   and validate what they sent and got.
 */
import { spawnSync } from "child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { V2Validator, type Exchange } from "./v2Validator";

const ROOT = join(__dirname, "../..");

function recordedOwnRun(): string {
  const dir = mkdtempSync(join(tmpdir(), "v2-traffic-own-"));
  const run = spawnSync(process.execPath, [require.resolve("jest/bin/jest"), "--ci", "--silent", "tests/emulator/v2"], {
    cwd: ROOT,
    env: { ...process.env, RUNPOD_EMULATOR_V2_TRAFFIC: dir, RUNPOD_V2_TRAFFIC_CHECK: "" },
    encoding: "utf8",
    timeout: 240_000,
  });
  if (run.status !== 0) throw new Error(`the recorded run failed (exit ${run.status}):\n${(run.stderr ?? "").slice(-4000)}`);
  return dir;
}

function load(dir: string): Exchange[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Exchange),
    );
}

test("every recorded REST v2 exchange conforms to the vendored document", () => {
  const given = process.env.RUNPOD_V2_TRAFFIC_CHECK;
  const dir = given ? given : recordedOwnRun();
  try {
    const exchanges = load(dir);
    expect(exchanges.length).toBeGreaterThan(0);
    const validator = new V2Validator();
    const checked = exchanges.filter((x) => !x.fault);
    const failures = checked
      .map((x) => ({ call: `${x.method} ${x.path}${x.query ? `?${x.query}` : ""} → ${x.status}`, problems: validator.exchangeProblems(x) }))
      .filter((f) => f.problems.length > 0);
    const byOperation: Record<string, number> = {};
    for (const x of checked) {
      const op = validator.find(x.method, x.path)?.operationId ?? "(no operation)";
      byOperation[op] = (byOperation[op] ?? 0) + 1;
    }
    // The figure the closing note quotes: how many exchanges the tier validated, per operation.
    process.stdout.write(
      `v2 conformance: ${checked.length} exchanges validated (${exchanges.length - checked.length} shaped by injected faults, not judged) ${JSON.stringify(byOperation)}\n`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
  } finally {
    if (!given) rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);
