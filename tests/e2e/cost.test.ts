/**
 * Know before you deploy, end to end through the real Pulumi CLI against the emulator (docs/cost.md):
 * previews checked against the catalog (an unknown pool or GPU type fails; low availability warns,
 * or fails with `runpod:requireAvailability`), both estimates at preview for a new endpoint and for
 * a `workersMax` change, and the per-endpoint limit and the stack budget each failing a preview with
 * nothing changed on the platform. Program: tests/e2e/fixture. Needs `npm run setup` and a build.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import { createClient, resolveClientConfig } from "../../src/api";
import type { CostReport } from "../../src/cli/cost/report";
import { runBin } from "../cli/harness";

jest.setTimeout(300_000);

const FIXTURE = path.join(__dirname, "fixture");

let emu: RunningEmulator;
let work: string;
let stack: LocalStack;

/** The emulator's serverless price of `pool`, from its own catalog answer. */
let price: Record<string, number>;
const usd = (n: number) => Math.round(n * 1e4) / 1e4;

interface PreviewStep {
  op: string;
  urn: string;
  newState?: { inputs?: Record<string, unknown> };
}
/** `pulumi preview --json`: its document and its Endpoint steps. */
async function previewJson(): Promise<{ stdout: string; steps: PreviewStep[] }> {
  const r = await stack.run(["preview", "--json"]);
  return { stdout: r.stdout, steps: ((JSON.parse(r.stdout) as { steps?: PreviewStep[] }).steps ?? []).filter((s) => s.urn.includes("runpod:Endpoint")) };
}
/** Declares `endpoints`, with plain stack settings such as `runpod:api` in the same CLI run. */
const declare = (endpoints: Record<string, Record<string, unknown>>, settings: Record<string, string> = {}) =>
  stack.setConfigs({ endpoints: JSON.stringify(endpoints), ...settings });
const platformWrites = () => {
  const ops = emu.stats().byOperation;
  return (ops.saveEndpoint ?? 0) + (ops.deleteEndpoint ?? 0) + (ops.createEndpoint ?? 0) + (ops.updateEndpoint ?? 0);
};

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  work = tempDir("pulumi-runpod-e2e-cost-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up` and `destroy` skip theirs, but where an `up`'s refusal is asserted.
  stack = await LocalStack.create({ programDir, stackName: "cost", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  const res = await fetch(`${emu.urls.restV2}/v2/catalog/gpus`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  const gpus = ((await res.json()) as { gpus: { pool: string | null; price: { serverless?: number } }[] }).gpus;
  price = {};
  for (const g of gpus) if (g.pool && g.price.serverless !== undefined) price[g.pool] = Math.max(price[g.pool] ?? 0, g.price.serverless);
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("a new endpoint's preview shows maxHourlyCost and idleHourlyCost as known values; low availability warns naming pool and data center; runpod:requireAvailability makes it fail", async () => {
  await declare({ llm: { templateId: "tpl_vllm", gpuIds: ["ADA_24", "ADA_80_PRO"], workersMin: 1, workersMax: 2 } });
  const worker = Math.max(price.ADA_24, price.ADA_80_PRO);
  // One of the endpoint's two pools scarce: the same previews show the estimates and warn of that pool.
  emu.setFaults({ availability: { ADA_80_PRO: { "*": "LOW" } } });
  try {
    const text = await stack.run(["preview", "--diff"]);
    expect(text.stdout).toMatch(new RegExp(`maxHourlyCost\\s*: ${usd(2 * worker)}\\b`));
    expect(text.stdout).toMatch(new RegExp(`idleHourlyCost\\s*: ${usd(worker)}\\b`));
    const json = await previewJson();
    // The warning, among the JSON document's diagnostics: the `--diff` display above does not print it.
    expect(json.stdout).toMatch(
      /warning: endpoint llm \(llm-[0-9a-f]{7}\): GPU pool ADA_80_PRO has LOW availability in every data center \(best: [A-Z]{2}-[A-Z]{2}-\d LOW\)/,
    );
    const [step] = json.steps;
    expect(step.op).toBe("create");
    expect(step.newState?.inputs).toMatchObject({ maxHourlyCost: usd(2 * worker), idleHourlyCost: usd(worker), workerHourlyCost: worker });
    await stack.setConfig("runpod:requireAvailability", "true");
    const failed = await stack.run(["preview"], { expectFailure: true });
    expect(failed.stdout + failed.stderr).toMatch(/GPU pool ADA_80_PRO has LOW availability in every data center .*runpod:requireAvailability is set/);
  } finally {
    emu.setFaults({});
    await stack.removeConfig("runpod:requireAvailability");
  }
  expect(emu.endpoints(emu.apiKey)).toEqual([]);
});

test("an unknown pool or GPU type fails the preview naming the field and the valid or nearest values", async () => {
  await declare({ llm: { templateId: "tpl_vllm", gpuIds: ["ADA_42"] } });
  const pool = await stack.run(["preview"], { expectFailure: true });
  expect(pool.stdout + pool.stderr).toMatch(/gpuIds must be a non-empty list of distinct GPU tiers in priority order, each one of AMPERE_16, .*ADA_24/);
  // REST v2 (the default path) names GPU types only as exclusions from the pools.
  await declare({ llm: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], excludedGpuTypes: ["NVIDIA GeForce RTX 4091"] } });
  const excluded = await stack.run(["preview"], { expectFailure: true });
  expect(excluded.stdout + excluded.stderr).toContain(
    'excludedGpuTypes: "NVIDIA GeForce RTX 4091" is not a GPU type of the selected pools (ADA_24); nearest: "NVIDIA GeForce RTX 4090"',
  );
  // GPU type names as the selection itself are GraphQL-path input; the catalog checks them there too.
  await declare({ llm: { templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA GeForce RTX 4091"] } }, { "runpod:api": "graphql" });
  try {
    const type = await stack.run(["preview"], { expectFailure: true });
    expect(type.stdout + type.stderr).toContain('"NVIDIA GeForce RTX 4091" is not a GPU type of a serverless pool; nearest: "NVIDIA GeForce RTX 4090"');
  } finally {
    await stack.removeConfig("runpod:api");
  }
  expect(emu.endpoints(emu.apiKey)).toEqual([]);
});

test("a workersMax change shows both new estimates at preview", async () => {
  await declare({ llm: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 2 } });
  await stack.run(["up", "--yes"]);
  const outputs = (await stack.endpoint("llm"))?.outputs;
  expect(outputs).toMatchObject({ maxHourlyCost: usd(2 * price.ADA_24), idleHourlyCost: price.ADA_24, workerHourlyCost: price.ADA_24 });
  await stack.run(["preview", "--expect-no-changes"]);

  await declare({ llm: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 5 } });
  const text = await stack.run(["preview", "--diff"]);
  expect(text.stdout).toMatch(new RegExp(`maxHourlyCost\\s*: ${usd(2 * price.ADA_24)} => ${usd(5 * price.ADA_24)}`));
  const [step] = (await previewJson()).steps;
  expect(step.op).toBe("update");
  expect(step.newState?.inputs).toMatchObject({ maxHourlyCost: usd(5 * price.ADA_24), idleHourlyCost: price.ADA_24 });
});

test("maxHourlyCostLimit fails the preview when the change would exceed it; nothing changes on the platform", async () => {
  const before = emu.endpoints(emu.apiKey);
  emu.resetStats();
  await declare({ llm: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 5, maxHourlyCostLimit: 4 } });
  // `up` with its preview: the preview refuses, so the update never starts.
  const up = await stack.run(["up", "--yes"], { expectFailure: true, preview: true });
  expect(up.stdout).toMatch(/^Previewing update \(/m);
  expect(up.stdout).not.toMatch(/^Updating \(/m);
  expect(up.stdout + up.stderr).toContain(
    `maxHourlyCost $${(5 * price.ADA_24).toFixed(2)}/h (5 workers × $${price.ADA_24}/h) exceeds maxHourlyCostLimit $4.00/h`,
  );
  expect(up.stdout + up.stderr).toContain("property maxHourlyCostLimit value {4} has a problem: maxHourlyCost");
  expect(up.stdout + up.stderr).not.toContain("{<nil>}");
  expect(platformWrites()).toBe(0);
  expect(emu.endpoints(emu.apiKey)).toEqual(before);
});

test("runpod:maxHourlyCost fails the preview when the stack's sum would exceed it, naming the endpoints and shares", async () => {
  const before = emu.endpoints(emu.apiKey);
  emu.resetStats();
  await declare(
    {
      llm: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 2 },
      embed: { templateId: "tpl_vllm", gpuIds: ["AMPERE_16"], workersMax: 2 },
    },
    { "runpod:maxHourlyCost": "3" },
  );
  try {
    const r = await stack.run(["preview"], { expectFailure: true });
    const total = usd(2 * price.ADA_24 + 2 * price.AMPERE_16);
    // The refusal is the endpoint's own problem, not a property the program does not have (`{<nil>}`).
    expect(r.stdout + r.stderr).toMatch(
      new RegExp(
        `resource '(llm|embed)' has a problem: the stack would cost up to \\$${total.toFixed(2)}/h \\(its endpoints with all workers busy, its pods running\\), over runpod:maxHourlyCost \\$3\\.00/h`,
      ),
    );
    expect(r.stdout + r.stderr).not.toContain("{<nil>}");
    expect(r.stdout + r.stderr).toMatch(/llm \(llm-[0-9a-f]{7}\) \$\d+\.\d\d\/h = \d+%/);
    expect(r.stdout + r.stderr).toMatch(/embed \(embed-[0-9a-f]{7}\) \$\d+\.\d\d\/h = \d+%/);
    expect(platformWrites()).toBe(0);
    expect(emu.endpoints(emu.apiKey)).toEqual(before);
    // `cost` falls back to the state and quotes preview's own reason, not the tail of its JSON document.
    const cost = await runBin(["cost", "--stack", stack.name], stack.env, { cwd: stack.programDir });
    expect(cost.code).toBe(0);
    const warning = cost.stderr.split("\n").find((l) => l.includes("`pulumi preview` failed"));
    expect(warning).toMatch(
      new RegExp(
        `warning: \`pulumi preview\` failed, so the estimates are the stack's state as deployed: .*resource '(llm|embed)' has a problem: the stack would cost up to \\$${total.toFixed(2)}/h`,
      ),
    );
    expect(warning).not.toMatch(/"same"|[{}]/);
  } finally {
    await stack.removeConfig("runpod:maxHourlyCost");
  }
});

test("`pulumi-runpod cost --since` shows each endpoint's estimates and the spend the emulator billed, per bucket", async () => {
  // What the workersMax test deployed, unchanged since (the refusals in between wrote nothing): no `up` needed.
  await declare({ llm: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 2 } });
  const id = (await stack.endpoint("llm"))!.id!;
  // Let the endpoint's one minimum worker run two hours on the billing clock, then hold the clock still so the CLI's
  // billing read and this test's read below are taken at the same instant (the current bucket keeps accruing otherwise).
  const hours = 2;
  emu.advanceClock(hours * 3_600_000);
  emu.freezeClock();
  try {
    await costReportMatchesBilling(id, hours);
  } finally {
    emu.resumeClock();
  }
});

async function costReportMatchesBilling(id: string, hours: number): Promise<void> {
  const cli = (args: string[]) => runBin(["cost", ...args, "--stack", stack.name], stack.env, { cwd: stack.programDir });
  const r = await cli(["--since", "1d", "--bucket", "hour", "--json"]);
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout) as CostReport;
  expect(report.source).toBe("preview");
  const [llm] = report.endpoints;
  expect(llm).toMatchObject({ resource: "llm", endpointId: id, maxHourlyCost: usd(2 * price.ADA_24), idleHourlyCost: price.ADA_24, idleBilled: true });

  // The same window, asked of the emulator directly: the CLI shows exactly its records.
  const client = createClient(resolveClientConfig({ apiKey: emu.apiKey, restV2Url: emu.urls.restV2, graphqlUrl: emu.urls.graphql }, {}));
  const billed = await client.v2.listServerlessBilling({
    startTime: report.window!.startTime,
    endTime: report.window!.endTime,
    bucketSize: "hour",
    serverlessId: id,
  });
  const billedTotal = billed.records.reduce((sum, rec) => sum + rec.totalAmount, 0);
  // The report keeps 4 decimals of the same sum, read at the same (frozen) instant: exactly equal.
  expect(llm.spend!.totalAmount).toBe(Math.round(billedTotal * 1e4) / 1e4);
  expect(llm.spend!.perBucket.filter((v) => v > 0).length).toBe(billed.records.filter((rec) => rec.totalAmount > 0).length);
  // N × T × price: one worker for the two hours (and the real seconds since the up), within a bucket's rounding.
  expect(llm.spend!.totalAmount).toBeGreaterThanOrEqual(hours * price.ADA_24 - 0.01);
  expect(llm.spend!.totalAmount).toBeLessThan((hours + 0.1) * price.ADA_24);

  // The text and CSV views of the same report from the state (`--no-preview`, a program run fewer each): the JSON
  // run above read the preview, which changes nothing here (the deployed endpoint is declared unchanged).
  const text = await cli(["--since", "1d", "--bucket", "hour", "--max-hourly", "1", "--no-preview"]);
  expect(text.code).toBe(1);
  expect(text.stdout).toMatch(/^RESOURCE\s+ENDPOINT\s+MAX \$\/H\s+IDLE \$\/H\s+SPENT\s+PER HOUR$/m);
  expect(text.stdout).toMatch(
    new RegExp(`^llm\\s+${id}\\s+\\$${(2 * price.ADA_24).toFixed(2)}\\s+\\$${price.ADA_24.toFixed(2)} !\\s+\\$\\d+\\.\\d\\d\\s+[ ▁▂▃▄▅▆▇█]+$`, "m"),
  );
  expect(text.stdout).toContain("! llm costs money while idle: workersMin 1, standby 0");
  expect(text.stdout).toContain(`over budget: $${(2 * price.ADA_24).toFixed(2)}/h with all workers busy exceeds --max-hourly $1.00/h`);

  const csv = await cli(["--since", "1d", "--bucket", "hour", "--csv", "--no-preview"]);
  expect(csv.code).toBe(0);
  expect(csv.stdout.split("\n")[0]).toBe(
    "resource,endpointId,startTime,endTime,totalAmount,gpuAmount,cpuAmount,diskAmount,feeAmount,maxHourlyCost,idleHourlyCost",
  );
}

test("a network volume outside the endpoint's data centers fails the preview (REST v2 path), nothing created", async () => {
  const before = emu.endpoints(emu.apiKey).map((e) => e.id);
  await declare({ vol: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], dataCenterIds: ["US-TX-3"], networkVolumeId: "nv_models01" } }, { "runpod:api": "v2" });
  try {
    const r = await stack.run(["preview"], { expectFailure: true });
    expect(r.stdout + r.stderr).toContain(
      "network volume nv_models01 (models) is in data center EU-RO-1, which is not among the endpoint's dataCenterIds [US-TX-3]",
    );
    await declare({ vol: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], dataCenterIds: ["EU-RO-1"], networkVolumeId: "nv_models01" } });
    await stack.run(["preview"]);
  } finally {
    await stack.removeConfig("runpod:api");
  }
  expect(emu.endpoints(emu.apiKey).map((e) => e.id)).toEqual(before);
});
