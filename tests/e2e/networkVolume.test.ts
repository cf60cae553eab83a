/**
 * A NetworkVolume end to end through the real Pulumi CLI against the emulator, as one stack's life: preview shows
 * the monthly storage cost, `up` creates the volume, a larger size grows it in place and a new name renames it (same
 * id), a smaller size fails the preview naming the current size (also after a refresh saw it grown outside Pulumi), `pulumi-runpod cost` shows its monthly cost and the
 * storage the emulator billed, and `destroy` deletes it. Program: tests/e2e/networkVolumeFixture. Needs `npm run
 * setup` and a build.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import type { CostReport } from "../../src/cli/cost/report";
import { VOLUME_PRICE_PER_GB_MONTH } from "../../src/provider/networkVolume/cost";
import { runBin } from "../cli/harness";

jest.setTimeout(600_000);

const FIXTURE = path.join(__dirname, "networkVolumeFixture");
const HOUR = 3_600_000;

let emu: RunningEmulator;
let work: string;
let stack: LocalStack;

const declare = (volume: Record<string, unknown>) => stack.setConfig("volume", JSON.stringify(volume));
const volumeOut = async () => (await stack.outputs()).volume as { id: string; name: string; size: number; monthlyCost: number };
const onPlatform = async (id: string) => {
  const res = await fetch(`${emu.urls.restV2}/v2/network-volumes/${id}`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
  return res.status === 404 ? undefined : ((await res.json()) as { id: string; name: string; size: number; dataCenter: string; type: string });
};
const usd = (n: number) => Math.round(n * 1e4) / 1e4;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50 });
  work = tempDir("pulumi-runpod-e2e-volume-");
  const programDir = copyProgram(FIXTURE, path.join(work, "program"));
  // Each preview is checked with `pulumi preview`: `up`, `refresh` and `destroy` skip theirs.
  stack = await LocalStack.create({ programDir, stackName: "volume", stateDir: path.join(work, "state"), skipPreview: true });
  await stack.usePlatform(emu.urls, emu.apiKey);
  // The kind speaks REST v2 whatever runpod:api says: the GraphQL path must not stop it.
  await stack.setConfig("runpod:api", "graphql");
});

afterAll(async () => {
  if (stack) await stack.destroyLeftovers();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("preview shows the cost; up creates; grow and rename in place; a shrink fails at preview; cost shows it and its spend; destroy", async () => {
  await declare({ name: "e2e-data", size: 50, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  const preview = await stack.run(["preview", "--diff"]);
  expect(preview.stdout).toMatch(new RegExp(`monthlyCost\\s*: ${usd(50 * VOLUME_PRICE_PER_GB_MONTH.HIGH_PERFORMANCE)}\\b`));

  await stack.run(["up", "--yes"]);
  const created = await volumeOut();
  expect(await onPlatform(created.id)).toEqual({ id: created.id, name: "e2e-data", size: 50, dataCenter: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  expect(created.monthlyCost).toBe(usd(50 * VOLUME_PRICE_PER_GB_MONTH.HIGH_PERFORMANCE));

  // Grow and rename: one in-place update, the same volume.
  await declare({ name: "e2e-data-2", size: 80, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  const up = await stack.run(["up", "--yes"]);
  expect(up.stdout).toMatch(/~ 1 updated/);
  expect(up.stdout).not.toMatch(/replaced/);
  const grown = await volumeOut();
  expect(grown).toMatchObject({ id: created.id, name: "e2e-data-2", size: 80, monthlyCost: usd(80 * VOLUME_PRICE_PER_GB_MONTH.HIGH_PERFORMANCE) });
  expect(await onPlatform(created.id)).toMatchObject({ name: "e2e-data-2", size: 80 });

  // A shrink fails at preview, naming the current size; nothing changes.
  await declare({ name: "e2e-data-2", size: 60, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  const shrink = await stack.run(["preview"], { expectFailure: true });
  expect(shrink.stdout + shrink.stderr).toMatch(/size cannot shrink: the volume has 80 GB/);
  await declare({ name: "e2e-data-2", size: 80, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" });

  // Two hours of storage on the billing clock, then `cost` with the spend, read at one frozen instant.
  emu.advanceClock(2 * HOUR);
  emu.freezeClock();
  try {
    const r = await runBin(["cost", "--since", "1d", "--bucket", "hour", "--json", "--stack", stack.name], stack.env, { cwd: stack.programDir });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as CostReport;
    expect(report.volumes).toEqual([
      expect.objectContaining({ resource: "data", networkVolumeId: created.id, size: 80, type: "HIGH_PERFORMANCE", monthlyCost: grown.monthlyCost }),
    ]);
    expect(report.totals.monthlyStorageCost).toBe(grown.monthlyCost);
    const billed = await fetch(
      `${emu.urls.restV2}/v2/billing/network-volumes?bucketSize=hour&startTime=${report.window!.startTime}&networkVolumeId=${created.id}`,
      {
        headers: { authorization: `Bearer ${emu.apiKey}` },
      },
    );
    const total = ((await billed.json()) as { metadata: { totals: { totalAmount: number } } }).metadata.totals.totalAmount;
    expect(total).toBeGreaterThan(0);
    expect(report.volumes![0].spend!.totalAmount).toBe(usd(total));
    // At least the two hours at 80 GB.
    expect(total).toBeGreaterThanOrEqual((2 * 80 * VOLUME_PRICE_PER_GB_MONTH.HIGH_PERFORMANCE) / 730 - 1e-9);

    const text = await runBin(["cost", "--stack", stack.name], stack.env, { cwd: stack.programDir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^VOLUME\s+ID\s+SIZE\s+\$\/MONTH$/m);
    expect(text.stdout).toMatch(new RegExp(`^data\\s+${created.id}\\s+80 GB HIGH_PERFORMANCE\\s+\\$${grown.monthlyCost.toFixed(2)}$`, "m"));
  } finally {
    emu.resumeClock();
  }

  // Grown outside Pulumi (the console): refresh records it, and the program's smaller size then fails the preview.
  const patched = await fetch(`${emu.urls.restV2}/v2/network-volumes/${created.id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ size: 100 }),
  });
  expect(patched.status).toBe(200);
  const refresh = await stack.run(["refresh", "--yes"]);
  expect(refresh.stdout).toMatch(/NetworkVolume data updated .*\[diff: ~size\]/);
  const [refreshed] = await stack.resources("pulumi-nodejs:dynamic/runpod:NetworkVolume");
  expect(refreshed).toMatchObject({ id: created.id, outputs: { size: 100 }, inputs: { size: 100 } });
  const behind = await stack.run(["preview"], { expectFailure: true });
  expect(behind.stdout + behind.stderr).toMatch(/size cannot shrink: the volume has 100 GB .*got 80/);
  await declare({ name: "e2e-data-2", size: 100, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" });
  const caughtUp = await stack.run(["preview", "--diff"]);
  expect(caughtUp.stdout).toMatch(
    new RegExp(`monthlyCost\\s*: ${usd(80 * VOLUME_PRICE_PER_GB_MONTH.HIGH_PERFORMANCE)} => ${usd(100 * VOLUME_PRICE_PER_GB_MONTH.HIGH_PERFORMANCE)}`),
  );

  await stack.run(["destroy", "--yes"]);
  expect(await onPlatform(created.id)).toBeUndefined();
});
