/**
 * Prints, at the end of a run:
 * - one line per tier (Jest project, see tests/tiers.js): wall time from its first file's start to its last file's end
 *   (tiers overlap: workers run files of several tiers at once), the summed time of its files, files and test counts;
 * - the ten slowest files;
 * - one plain closing line, `jest: N passed, N failed, N skipped, N suite errors`, so CI logs carry a count any
 *   reader can parse. A suite error is a test file that failed outside its tests — it did not load or compile, or a
 *   hook such as `afterAll` threw — which Jest leaves out of the test counts; so is an error of the run itself (e.g.
 *   global setup).
 */
const path = require("path");

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
      file: path.relative(this.rootDir, result.testFilePath),
      start,
      end,
      passed: result.numPassingTests,
      failed: result.numFailingTests + (result.testExecError ? 1 : 0),
      skipped: result.numPendingTests + result.numTodoTests,
    });
  }

  onRunComplete(_contexts, results) {
    const lines = [""];
    const byTier = new Map();
    for (const f of this.files) byTier.set(f.tier, [...(byTier.get(f.tier) ?? []), f]);
    for (const [tier, files] of byTier) {
      const wall = Math.max(...files.map((f) => f.end)) - Math.min(...files.map((f) => f.start));
      const summed = files.reduce((s, f) => s + (f.end - f.start), 0);
      const sum = (k) => files.reduce((s, f) => s + f[k], 0);
      lines.push(
        `tier ${tier.padEnd(12)} ${seconds(wall).padStart(8)} wall, ${seconds(summed).padStart(8)} in files; ${files.length} files, ${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped`,
      );
    }
    const slowest = [...this.files].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 10);
    if (slowest.length) lines.push(`slowest files: ${slowest.map((f) => `${f.file} [${f.tier}] ${seconds(f.end - f.start)}`).join("; ")}`);
    lines.push(`jest wall time: ${seconds(Date.now() - this.started)}`);
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites, runExecError } = results;
    const suiteErrors = numRuntimeErrorTestSuites + (runExecError ? 1 : 0);
    lines.push(`jest: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped, ${suiteErrors} suite errors`);
    process.stdout.write(lines.join("\n") + "\n");
  }
}
module.exports = SummaryReporter;
