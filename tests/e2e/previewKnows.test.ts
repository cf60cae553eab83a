/**
 * What preview can know, it refuses or shows (issue 37), through the real Pulumi CLI against the
 * emulator (program: tests/e2e/stackFixture): a new endpoint's estimates are known at the first
 * preview although its template and volume are created in the same `up`; removing a volume that
 * endpoints and pods the program still declares keep mounting fails at preview, naming them, and `up`
 * refuses it the same way (no in-use retries), nothing deleted; an error the provider raises itself reaches the user once and without a
 * JavaScript stack trace.
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
const ENV_SECRET = "e2e-env-secret-5309";
const POD = { name: "e2e-nb", imageName: "runpod/pytorch:2.4.0", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], volumeMountPath: "/workspace" };

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
  // `up --json` prints its preview first, as `pulumi preview --json` does (one document), then the update's events.
  const r = await stack.run(["up", "--yes", "--json"], { preview: true });
  const preview = r.stdout.slice(0, r.stdout.search(/^\}$/m) + 1);
  const steps = (JSON.parse(preview) as { steps: { op: string; urn: string; newState?: { inputs?: Record<string, unknown> } }[] }).steps;
  const endpoint = steps.find((s) => s.urn.endsWith("::llm"))!;
  expect(endpoint.op).toBe("create");
  // The template's and the volume's ids are unknown at this preview; the estimate is not.
  expect(endpoint.newState?.inputs?.templateId).toBe("04da6b54-80e4-46f7-96ec-b56ff0331ba9");
  expect(endpoint.newState?.inputs).toMatchObject({ maxHourlyCost: usd(2 * price.ADA_24), idleHourlyCost: usd(price.ADA_24), workerHourlyCost: price.ADA_24 });
});

test("removing a volume that an unchanged endpoint and pod of the stack still mount fails at preview, naming them; up refuses it too, nothing deleted", async () => {
  const id = (await volumeNamed(VOLUME.name))!.id;
  // The endpoint and a pod keep the volume's id as a literal (no reference, so no dependency).
  const mounted = {
    templates: { tpl: TEMPLATE },
    endpoints: { llm: { ...ENDPOINT, template: "tpl", networkVolumeId: id } },
    pods: { nb: { ...POD, networkVolumeId: id } },
  };
  await declare({ volumes: { cache: VOLUME }, ...mounted });
  await stack.run(["up", "--yes"]);
  // What the endpoint and the pod recorded of the volume survives a refresh.
  await stack.run(["refresh", "--yes"]);
  try {
    await declare(mounted);
    const preview = await stack.run(["preview"], { expectFailure: true });
    const out = preview.stdout + preview.stderr;
    // The engine stops at the first failing check (the endpoint's or the pod's); either names both.
    const refusal =
      `resource '(llm|nb)': property networkVolumeId value \\{${id}\\} has a problem: NetworkVolume cache \\(network volume "${VOLUME.name}" ${id}\\) ` +
      "is no longer declared, so this deployment would delete it, but endpoint llm, pod nb of this stack still mount it, and the platform refuses to delete a mounted volume. " +
      "Keep cache declared, or remove the mount from them first and delete the volume in a later deployment";
    expect(out.slice(out.indexOf("Diagnostics:"))).toMatch(new RegExp(refusal));
    // `up` refuses at the same checks, before any change: not the in-use retries' end (they wait 2 minutes for a release that cannot come).
    const up = await stack.run(["up", "--yes"], { expectFailure: true });
    const upOut = up.stdout + up.stderr;
    expect(upOut).toMatch(new RegExp(refusal));
    expect(upOut).not.toMatch(/of retries/);
    expect(upOut).not.toMatch(/^\s{4}at /m);
    expect(await volumeNamed(VOLUME.name)).toMatchObject({ id });
  } finally {
    // Declared again: nothing to change. (The next test's first `up` removes the endpoint and the pod.)
    await declare({ volumes: { cache: VOLUME }, ...mounted });
    await stack.run(["preview", "--expect-no-changes"]);
  }
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

test("the budget refusal's total counts every endpoint and pod of the stack, those declared after the crossing one included", async () => {
  const p = price.ADA_24;
  const stackOf = (bigWorkers: number) => ({
    volumes: { cache: VOLUME },
    templates: { tpl: TEMPLATE },
    endpoints: {
      big: { template: "tpl", gpuIds: ["ADA_24"], workersMax: bigWorkers },
      // Registered after `big` (it depends on it), so never checked before the refusal.
      llm: { template: "tpl", gpuIds: ["ADA_24"], workersMax: 1, after: "big", env: { TOKEN: ENV_SECRET } },
    },
    pods: { nb: POD },
  });
  await declare(stackOf(1));
  await stack.run(["up", "--yes"]);
  const state = JSON.parse((await stack.run(["stack", "export"], { quiet: true })).stdout) as {
    deployment: { resources: { urn: string; outputs?: { costPerHour?: number } }[] };
  };
  const nb = state.deployment.resources.find((r) => r.urn.endsWith("::nb"))!.outputs!.costPerHour!;
  expect(nb).toBeGreaterThan(0);
  // `big` grows past the budget on its own; `llm` and the pod `nb`, declared after it, are unchanged.
  await stack.setConfig("runpod:maxHourlyCost", String(usd(2.5 * p)));
  try {
    await declare(stackOf(3));
    // At the engine's highest verbosity: what the program hands over carries no secret.
    const r = await stack.run(["preview", "--verbose=9", "--logtostderr", "--logflow", "--debug"], { expectFailure: true, quiet: true });
    const out = r.stdout + r.stderr;
    // (The fixture reads env from plain stack config, which the engine logs; the hand-over itself carries no env.)
    const handOver = out.split("\n").filter((l) => l.includes("__stackMembers"));
    expect(handOver.length).toBeGreaterThan(0);
    expect(handOver.filter((l) => l.includes(ENV_SECRET))).toEqual([]);
    const engineConfigureTrace = /"msg":"Marshaling property for RPC\[Provider\[0x[0-9a-f]+\]\.Configure\(\)\.inputs\]: value=\{/;
    expect(out.split("\n").filter((l) => l.includes(emu.apiKey) && !engineConfigureTrace.test(l))).toEqual([]);
    const [big, llm, total] = [usd(3 * p), usd(p), usd(4 * p + nb)];
    const share = (n: number) => Math.round((n / total) * 100);
    expect(out).toContain(`the stack would cost up to $${total.toFixed(2)}/h`);
    expect(out).toMatch(new RegExp(`big \\(big-[0-9a-f]{7}\\) \\$${big.toFixed(2)}/h = ${share(big)}%`));
    // Not checked: counted at its inputs' estimate, under its resource name alone.
    expect(out).toContain(`llm $${llm.toFixed(2)}/h = ${share(llm)}%`);
    // Checked before `big` (with its platform name) or not yet: counted either way.
    expect(out).toMatch(new RegExp(`nb (\\(e2e-nb\\) )?\\$${nb.toFixed(2)}/h = ${share(nb)}%`));
    expect(out).not.toContain("not counted");
  } finally {
    // What this test deployed is left to afterAll's destroy.
    await stack.removeConfig("runpod:maxHourlyCost");
  }
});
