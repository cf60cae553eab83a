/**
 * Names the running test file in RUNPOD_TEST_FILE, so each CLI run the harness records (scripts/pulumiCli.ts
 * recordCliRun) is counted for its file and tier by tests/summaryReporter.js. A worker runs one file at a time.
 */
process.env.RUNPOD_TEST_FILE = expect.getState().testPath ?? "";
