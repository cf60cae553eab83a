/**
 * Issue #6 — "Nothing lost, nothing duplicated, nothing leaked" — against the emulator's fault
 * injection: rate limits, transient faults, create-once, resumable delete, bad input, auth, secrets
 * and timeouts, in-process, through Pulumi's dynamic provider host over gRPC, and through the real
 * Pulumi CLI. One file so that one summary line covers the whole suite:
 *
 *   reliability: faults injected N, requests retried M, endpoints at end X (expected Y)
 *
 * N counts faults the emulators injected (CLI runs included); M counts retries of the in-process
 * clients (a CLI run's retries happen inside Pulumi's provider process and are not visible here);
 * X/Y compare the endpoints left on every emulator with what each scenario meant to leave; the last
 * test checks them, so a difference fails a test (not only a hook, whose error the counts leave out).
 *
 * Needs dist/ (`npx tsc -p tsconfig.json`) and the Pulumi CLI in .pulumi/bin (`npm run setup`).
 */
import { summary } from "./harness";
import { authSuite } from "./suites/auth";
import { badInputSuite } from "./suites/badInput";
import { cliSuite } from "./suites/cli";
import { createOnceSuite } from "./suites/createOnce";
import { deleteResumableSuite } from "./suites/deleteResumable";
import { quotaDeployment, quotaDeploymentSuite, rateLimitSuite, type QuotaDeployment } from "./suites/rateLimits";
import { secretsInProcessSuite } from "./suites/secretsInProcess";
import { timeoutSuite } from "./suites/timeouts";
import { transientSuite } from "./suites/transient";

// The suites count the GraphQL path's requests (saveEndpoint, myself, REST v1 create) and inject faults
// by those names, so providers built here run on it; the default path (v2): tests/provider/v2Path, tests/e2e.
process.env.RUNPOD_API = "graphql";

jest.setTimeout(120_000);

// The tight-quota deployment waits for a wall-clock minute window to reset (up to a minute): started
// first, it runs while the other scenarios do, and its test (last) awaits it.
let quotaRun: Promise<QuotaDeployment> | undefined;
const awaitQuotaRun = () => (quotaRun ??= quotaDeployment());
beforeAll(() => {
  void awaitQuotaRun().catch(() => undefined);
});

rateLimitSuite();
transientSuite();
createOnceSuite();
deleteResumableSuite();
timeoutSuite();
badInputSuite();
authSuite();
secretsInProcessSuite();
cliSuite();
quotaDeploymentSuite(awaitQuotaRun);

// Declared last: Jest runs it after every block above has run its afterAll hooks, which close the
// emulators and add their endpoints to the summary.
describe("summary", () => {
  it("every emulator closed with exactly the endpoints its scenarios meant to leave", () => {
    const { line, endpointsAtEnd, expectedAtEnd, emulatorsOpen } = summary();
    process.stdout.write(`\n${line}\n`);
    // An emulator still open has not added its endpoints, so the comparison below would not cover it.
    expect(emulatorsOpen).toBe(0);
    // Every scenario states what it leaves behind; a difference means something was lost or duplicated.
    expect(endpointsAtEnd).toBe(expectedAtEnd);
  });
});
