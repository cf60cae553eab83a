/**
 * Prints one plain closing line, `jest: N passed, N failed, N skipped, N suite errors`, so CI logs carry a
 * count any reader can parse. A suite error is a test file that failed outside its tests — it did not
 * load or compile, or a hook such as `afterAll` threw — which Jest leaves out of the test counts; so is
 * an error of the run itself (e.g. global setup).
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites, runExecError } = results;
    const suiteErrors = numRuntimeErrorTestSuites + (runExecError ? 1 : 0);
    process.stdout.write(
      `\njest: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped, ${suiteErrors} suite errors\n`,
    );
  }
}
module.exports = SummaryReporter;
