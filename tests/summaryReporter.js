/**
 * Prints, at the end of a run:
 * - one line per tier (Jest project, see tests/tiers.js): wall time from its first file's start to its last file's end
 *   (tiers overlap: workers run files of several tiers at once), the summed time of its files, files and test counts;
 * - per tier, the Pulumi CLI runs the harness made (RUNPOD_TEST_CLI_LOG, scripts/pulumiCli.ts recordCliRun): a count
 *   that, unlike times, a shared machine does not skew;
 * - the ten slowest files;
 * - with RUNPOD_TEST_RECORD_DURATIONS set, on a run of every tier, each file's wall time into
 *   tests/fileDurations.json, the order a fresh clone's first run follows (tests/sequencer.js);
 * - one plain closing line, `jest: N passed, N failed, N skipped, N suite errors`, so CI logs carry a count any
 *   reader can parse. A suite error is a test file that failed outside its tests — it did not load or compile, or a
 *   hook such as `afterAll` threw — which Jest leaves out of the test counts; so is an error of the run itself (e.g.
 *   global setup).
 */
const fs = require("fs");
const path = require("path");
const { tiers } = require("./tiers");

const DURATIONS_FILE = path.join(__dirname, "fileDurations.json");

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.files = [];
    this.started = Date.now();
  }

  onRunStart() {
    this.started = Date.now();
  }

  onTestResult(test, result) {
    const tier = (test.context.config.displayName && test.context.config.displayName.name) || "tests";
    // A file that failed to load reports no times: count it as ending now, taking no time.
    const now = Date.now();
    const end = result.perfStats.end || now;
    const start = result.perfStats.start || end;
    this.files.push({
      tier,
      path: result.testFilePath,
      file: path.relative(this.rootDir, result.testFilePath),
      start,
      end,
      passed: result.numPassingTests,
      failed: result.numFailingTests + (result.testExecError ? 1 : 0),
      skipped: result.numPendingTests + result.numTodoTests,
    });
  }

  /** CLI runs per test file (absolute path), from the log the workers appended to; the log is removed. */
  cliRuns() {
    const log = process.env.RUNPOD_TEST_CLI_LOG;
    const runs = new Map();
    if (!log || !fs.existsSync(log)) return runs;
    for (const line of fs.readFileSync(log, "utf8").split("\n")) {
      if (!line) continue;
      const { file } = JSON.parse(line);
      runs.set(file, (runs.get(file) ?? 0) + 1);
    }
    fs.rmSync(log, { force: true });
    return runs;
  }

  /** Each file's wall time of this run (the merge pass aside), in whole seconds, replacing the recorded ones. */
  recordDurations() {
    const ran = new Set(this.files.map((f) => f.tier));
    if (!tiers().every((t) => ran.has(t))) return "durations not recorded: not every tier ran";
    const recorded = {};
    for (const f of [...this.files].sort((a, b) => a.file.localeCompare(b.file))) {
      if (f.tier === "merge") continue;
      recorded[f.file.split(path.sep).join("/")] = Math.max(1, Math.round((f.end - f.start) / 1000));
    }
    const about = JSON.parse(fs.readFileSync(DURATIONS_FILE, "utf8")).about;
    fs.writeFileSync(DURATIONS_FILE, JSON.stringify({ about, seconds: recorded }, null, 2) + "\n");
    return `durations of ${Object.keys(recorded).length} files written to ${path.relative(this.rootDir, DURATIONS_FILE)}`;
  }

  onRunComplete(_contexts, results) {
    const lines = [""];
    if (process.env.RUNPOD_TEST_RECORD_DURATIONS) lines.push(this.recordDurations());
    const runs = this.cliRuns();
    const byTier = new Map();
    for (const f of this.files) byTier.set(f.tier, [...(byTier.get(f.tier) ?? []), f]);
    for (const [tier, files] of byTier) {
      const wall = Math.max(...files.map((f) => f.end)) - Math.min(...files.map((f) => f.start));
      const summed = files.reduce((s, f) => s + (f.end - f.start), 0);
      const sum = (k) => files.reduce((s, f) => s + f[k], 0);
      // The merge pass runs files of other tiers again: their runs are not told apart, so it shows none.
      const cli = tier === "merge" ? 0 : files.reduce((s, f) => s + (runs.get(f.path) ?? 0), 0);
      lines.push(
        `tier ${tier.padEnd(12)} ${seconds(wall).padStart(8)} wall, ${seconds(summed).padStart(8)} in files; ${files.length} files, ${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped, ${cli} CLI runs`,
      );
    }
    const slowest = [...this.files].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 10);
    if (slowest.length)
      lines.push(
        `slowest files: ${slowest.map((f) => `${f.file} [${f.tier}] ${seconds(f.end - f.start)}${runs.get(f.path) ? ` (${runs.get(f.path)} CLI runs)` : ""}`).join("; ")}`,
      );
    lines.push(`jest wall time: ${seconds(Date.now() - this.started)}`);
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites, runExecError } = results;
    const suiteErrors = numRuntimeErrorTestSuites + (runExecError ? 1 : 0);
    lines.push(`jest: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped, ${suiteErrors} suite errors`);
    process.stdout.write(lines.join("\n") + "\n");
  }
}
module.exports = SummaryReporter;
