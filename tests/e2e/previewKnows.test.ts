/**
 * What preview can know, it refuses or shows (issue 37), through the real Pulumi CLI against the
 * emulator (program: tests/e2e/stackFixture): a new endpoint's estimates are known at the first
 * preview although its template and volume are created in the same `up`; deleting a volume that
 * endpoints and pods of the stack still mount fails at preview naming them, nothing deleted; an error
 * the provider raises itself reaches the user once and without a JavaScript stack trace.
 * Needs `npm run setup` and a build (dist/).
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import { createClientFromEnv, type PlatformClient } from "../../src/api";

jest.setTimeout(600_000);

let emu: RunningEmulator;
let work: string;
let stack: LocalStack;
let price: Record<string, number>;
let client: PlatformClient;
const volumeNamed = async (name: string) => (await client.v2.listNetworkVolumes()).find((v) => v.name === name);
const usd = (n: number) => Math.round(n * 1e4) / 1e4;

const VOLUME = { name: "e2e-cache", size: 10, dataCenterId: "EU-RO-1" };
const TEMPLATE = { name: "e2e-worker", imageName: "ghcr.io/acme/worker:1" };
const ENDPOINT = { gpuIds: ["ADA_24"], workersMin: 1, workersMax: 2, dataCenterIds: ["EU-RO-1"] };

const declare = async (spec: Record<string, Record<string, unknown>>) => {
  await stack.setConfigs(Object.fromEntries(["volumes", "templates", "endpoints", "pods"].map((key) => [key, JSON.stringify(spec[key] ?? {})])));
};

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  client = createClientFromEnv({ apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2 }, {});
  work = tempDir("pulumi-runpod-e2e-preview-");
  const programDir = copyProgram(path.join(__dirname, "stackFixture"), path.join(work, "program"));
  // Previews are checked with `pulumi preview`: `up` and `destroy` skip their own.
  stack = await LocalStack.create({ programDir, stackName: "knows", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  const res = await fetch(`${emu.urls.restV2}/v2/catalog/gpus`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  const gpus = ((await res.json()) as { gpus: { pool: string | null; price: { serverless?: number } }[] }).gpus;
  price = {};
  for (const g of gpus) if (g.pool && g.price.serverless !== undefined) price[g.pool] = Math.max(price[g.pool] ?? 0, g.price.serverless);
});

afterAll(async () => {
  if (stack) {
    await declare({});
    await stack.destroyLeftovers();
  }
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("a new endpoint's estimates are known at the first preview when its template and volume are created in the same up", async () => {
  await declare({ volumes: { cache: VOLUME }, templates: { tpl: TEMPLATE }, endpoints: { llm: { ...ENDPOINT, template: "tpl", volume: "cache" } } });
  const r = await stack.run(["preview", "--json"]);
  const steps = (JSON.parse(r.stdout) as { steps: { op: string; urn: string; newState?: { inputs?: Record<string, unknown> } }[] }).steps;
  const endpoint = steps.find((s) => s.urn.endsWith("::llm"))!;
  expect(endpoint.op).toBe("create");
  // The template's and the volume's ids are unknown at this preview; the estimate is not.
  expect(endpoint.newState?.inputs?.templateId).toBe("04da6b54-80e4-46f7-96ec-b56ff0331ba9");
  expect(endpoint.newState?.inputs).toMatchObject({ maxHourlyCost: usd(2 * price.ADA_24), idleHourlyCost: usd(price.ADA_24), workerHourlyCost: price.ADA_24 });
  await stack.run(["up", "--yes"]);
});

test("an error the provider raises itself reaches the user once, without a JavaScript stack trace", async () => {
  const spare = { name: "e2e-spare", size: 10, dataCenterId: "EU-RO-1" };
  await declare({ volumes: { cache: VOLUME, spare }, templates: { tpl: TEMPLATE } });
  await stack.run(["up", "--yes"]);
  emu.setFaults({ errorRate: 1, match: ["deleteNetworkVolume"] });
  try {
    await declare({ volumes: { cache: VOLUME }, templates: { tpl: TEMPLATE } });
    const up = await stack.run(["up", "--yes"], { expectFailure: true });
    const out = up.stdout + up.stderr;
    const message = /Injected fault: the emulator answered 5\d\d before taking effect \(HTTP 5\d\d, v2\.deleteNetworkVolume\)/g;
    // The engine's progress lines show the error as it happens; its Diagnostics hold it once, and the
    // provider host's own print of it (`Error: …: Error: …` and the stack) is gone.
    const diagnostics = out.slice(out.indexOf("Diagnostics:"));
    expect({ count: diagnostics.match(message)?.length, diagnostics }).toMatchObject({ count: 1 });
    expect(out).not.toMatch(/Error: Injected fault/);
    expect(out).not.toMatch(/^\s{4}at /m);
    expect(out).not.toMatch(/\.js:\d+:\d+\)?$/m);
  } finally {
    emu.setFaults({});
  }
  expect(await volumeNamed(spare.name)).toBeDefined();
});
