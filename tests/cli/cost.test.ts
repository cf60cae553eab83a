/**
 * `pulumi-runpod cost`: the report (estimates, totals, idle-billed flags, the budget verdict, spend per
 * bucket with a sparkline, JSON and CSV records) on billing records shaped as the REST v2 document's
 * example, and the command's usage errors. The command against a real stack and the emulator's
 * billing: tests/e2e/cost.test.ts.
 */
import { parse } from "csv-parse/sync";
import { podCosts } from "../../src/cli/cost/pods";
import { PulumiCommandError } from "../../src/cli/stack/pulumiCommand";
import { previewFailureReason } from "../../src/cli/cost/previewFailure";
import {
  bucketStarts,
  buildReport,
  renderCsv,
  renderJson,
  renderText,
  sparkline,
  withPods,
  type BillingRecord,
  type EndpointEstimate,
} from "../../src/cli/cost/report";
import { documentExample } from "../provider/catalogFixture";
import { runInProcess } from "./harness";

const plain = { bold: (s: string) => s, yellow: (s: string) => s, red: (s: string) => s };
const env = { PATH: "/nonexistent-bin", NO_COLOR: "1" };

const ESTIMATES: EndpointEstimate[] = [
  { resource: "llm", endpointId: "ep_llm", name: "llm-1a2b3c4", maxHourlyCost: 8.36, idleHourlyCost: 4.18, workersMin: 1, workersStandby: 0 },
  { resource: "embed", endpointId: "ep_embed", name: "embed", maxHourlyCost: 1.16, idleHourlyCost: 0, workersMin: 0, workersStandby: 0 },
  { resource: "batch", name: "batch-9f8e7d6", maxHourlyCost: 2.2, idleHourlyCost: 0, workersMin: 0, workersStandby: 0 },
];

/** The document's listServerlessBilling example record, moved to `endpoint` and `start` with `total`. */
function record(endpoint: string, start: string, total: number): BillingRecord {
  const example = documentExample<{ records: BillingRecord[] }>("/v2/billing/serverless").records[0];
  const end = new Date(Date.parse(start) + 86_400_000).toISOString();
  return { ...example, serverlessId: endpoint, startTime: start, endTime: end, totalAmount: total, gpuAmount: total };
}

const WINDOW_START = "2026-06-01T00:00:00.000Z";
const window = {
  startTime: WINDOW_START,
  endTime: "2026-06-05T00:00:00.000Z",
  bucketSize: "day" as const,
  buckets: bucketStarts(WINDOW_START, "2026-06-05T00:00:00.000Z", "day"),
};
const RECORDS = [
  record("ep_llm", "2026-06-01T00:00:00Z", 100.32),
  record("ep_llm", "2026-06-02T00:00:00Z", 50),
  record("ep_llm", "2026-06-04T00:00:00Z", 120.5),
  record("ep_embed", "2026-06-03T00:00:00Z", 2.5),
  record("ep_other", "2026-06-03T00:00:00Z", 999), // not the stack's
];

test("estimates, totals and the idle-billed flag; the budget verdict", () => {
  const report = buildReport("preview", ESTIMATES, undefined, 10);
  expect(report.totals).toEqual({ maxHourlyCost: 11.72, idleHourlyCost: 4.18 });
  // By resource name, whatever order the stack holds them in.
  expect(report.endpoints.map((e) => [e.resource, e.idleBilled])).toEqual([
    ["batch", false],
    ["embed", false],
    ["llm", true],
  ]);
  expect(buildReport("preview", [...ESTIMATES].reverse()).endpoints.map((e) => e.resource)).toEqual(["batch", "embed", "llm"]);
  expect(report.budget).toEqual({ maxHourly: 10, over: true });
  expect(buildReport("state", ESTIMATES, undefined, 12).budget).toEqual({ maxHourly: 12, over: false });

  const text = renderText(report, plain);
  expect(text.split("\n").slice(0, 5)).toEqual([
    "RESOURCE  ENDPOINT  MAX $/H  IDLE $/H",
    "batch     (new)     $2.20    $0.00",
    "embed     ep_embed  $1.16    $0.00",
    "llm       ep_llm    $8.36    $4.18 !",
    "total               $11.72   $4.18",
  ]);
  expect(text).toContain("! llm costs money while idle: workersMin 1, standby 0 = $4.18/h, $3009.60 per 30 days with no traffic");
  expect(text).toContain("over budget: $11.72/h with all workers busy exceeds --max-hourly $10.00/h");
});

test("with pods, each table's total row adds up its own rows; the stack's total, pods included, follows the pods", () => {
  const pods = podCosts([
    { resource: "dev", podId: "pod1", desiredStatus: "RUNNING", costPerHour: 0.69 },
    { resource: "idle", podId: "pod2", desiredStatus: "EXITED", costPerHour: 0.34 },
  ]);
  const report = withPods(buildReport("preview", ESTIMATES, undefined, 12), pods);
  expect(report.totals).toMatchObject({ maxHourlyCost: 12.41, idleHourlyCost: 4.87, podHourlyCost: 0.69 });
  expect(report.budget).toEqual({ maxHourly: 12, over: true });
  const lines = renderText(report, plain).split("\n");
  expect(lines).toContain("total               $11.72   $4.18");
  expect(lines.filter((l) => l.startsWith("total"))).toEqual(["total               $11.72   $4.18", "total                 $0.69"]);
  expect(lines).toContain("stack total (endpoints and running pods): $12.41/h with all workers busy, $4.87/h idle");
  expect(lines).toContain("over budget: $12.41/h with all workers busy exceeds --max-hourly $12.00/h");
});

test("a failed preview's reason is its error diagnostics, not the tail of its JSON document", () => {
  const doc = {
    steps: [],
    diagnostics: [
      { urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev", message: "warning: something else\n", severity: "warning" },
      {
        urn: "urn:x::big",
        message: "error: pulumi-nodejs:dynamic:Resource resource 'big' has a problem: the stack would cost up to $47.15/h …\n",
        severity: "error",
      },
      { urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev", message: "preview failed\n", severity: "error" },
    ],
    changeSummary: { same: 7 },
  };
  const stdout = JSON.stringify(doc, null, 4);
  const err = new PulumiCommandError(["preview", "--json"], 255, `${stdout}error: preview failed\n`, stdout);
  expect(previewFailureReason(err)).toBe("pulumi-nodejs:dynamic:Resource resource 'big' has a problem: the stack would cost up to $47.15/h …");
  // No JSON document (the CLI could not start the program): the command and its last lines.
  expect(previewFailureReason(new PulumiCommandError(["preview", "--json"], 255, "error: no Pulumi.yaml project file found\n", ""))).toBe(
    "`pulumi preview --json` exited 255: error: no Pulumi.yaml project file found",
  );
});

test("spend per bucket beside the estimate, with a sparkline; only the stack's endpoints count", () => {
  const report = buildReport("preview", ESTIMATES, { window, records: RECORDS });
  expect(report.endpoints.map((e) => e.resource)).toEqual(["batch", "embed", "llm"]);
  expect(report.endpoints[2].spend).toMatchObject({ totalAmount: 270.82, perBucket: [100.32, 50, 0, 120.5] });
  expect(report.endpoints[1].spend).toMatchObject({ totalAmount: 2.5, perBucket: [0, 0, 2.5, 0] });
  expect(report.endpoints[0].spend).toMatchObject({ totalAmount: 0, perBucket: [0, 0, 0, 0] });
  expect(report.totals.spend).toBe(273.32);
  expect(sparkline([100.32, 50, 0, 120.5])).toBe("▇▄ █");
  // An amount that prints as $0.00 draws no bar, even as the window's largest.
  expect(sparkline([0.004, 0, 0.001])).toBe("   ");
  expect(sparkline([0.004, 0.01])).toBe(" █");
  const text = renderText(report, plain);
  expect(text.split("\n")[0]).toBe("RESOURCE  ENDPOINT  MAX $/H  IDLE $/H  SPENT    PER DAY");
  expect(text.split("\n")[3]).toBe("llm       ep_llm    $8.36    $4.18 !   $270.82  ▇▄ █");
  expect(text).toContain("spent: 2026-06-01T00:00:00.000Z to 2026-06-05T00:00:00.000Z, per day (listServerlessBilling)");
});

test("--json gives the same data; --csv the records per endpoint per bucket", () => {
  const report = buildReport("preview", ESTIMATES, { window, records: RECORDS }, 20);
  expect(JSON.parse(renderJson(report))).toEqual(JSON.parse(JSON.stringify(report)));
  const rows = parse(renderCsv(report), { columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(3 * 4);
  expect(rows.map((r) => r.resource)).toEqual([..."bbbbeeeellll"].map((c) => ({ b: "batch", e: "embed", l: "llm" })[c]));
  expect(rows[8]).toEqual({
    resource: "llm",
    endpointId: "ep_llm",
    startTime: "2026-06-01T00:00:00.000Z",
    endTime: "2026-06-02T00:00:00.000Z",
    totalAmount: "100.32",
    gpuAmount: "100.32",
    cpuAmount: "0",
    diskAmount: "0.4",
    feeAmount: "1",
    maxHourlyCost: "8.36",
    idleHourlyCost: "4.18",
  });
  const estimates = parse(renderCsv(buildReport("state", ESTIMATES)), { columns: true }) as Record<string, string>[];
  expect(estimates.map((r) => [r.resource, r.maxHourlyCost, r.idleBilled])).toEqual([
    ["batch", "2.2", "false"],
    ["embed", "1.16", "false"],
    ["llm", "8.36", "true"],
  ]);
});

test("usage errors name the option and what it accepts (exit 2)", async () => {
  const bucket = await runInProcess(["cost", "--since", "7d", "--bucket", "week"], { env });
  expect(bucket.code).toBe(2);
  expect(bucket.stderr).toMatch(/option '--bucket <size>' argument 'week' is invalid\. must be hour or day\./);
  const budget = await runInProcess(["cost", "--max-hourly", "-1"], { env });
  expect(budget.code).toBe(2);
  expect(budget.stderr).toMatch(/must be a non-negative number of US dollars per hour/);
  const both = await runInProcess(["cost", "--json", "--csv"], { env });
  expect(both).toMatchObject({ code: 2, stderr: "pulumi-runpod: --json and --csv are exclusive: choose one\n" });
  const since = await runInProcess(["cost", "--since", "a week"], { env });
  expect(since.code).toBe(2);
});
