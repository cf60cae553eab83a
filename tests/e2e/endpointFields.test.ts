/**
 * End to end, through the real Pulumi CLI against the emulator: the Endpoint fields from the official clients /
 * REST v1 document — `gpuCount`, `allowedCudaVersions`, `executionTimeoutMs` — set, changed in place, then unset
 * (no diff, and the platform keeps them through later updates), `workersStandby` read back, and bad values
 * stopped at preview. The emulator reads a modify as the live platform does (`replace`: a field left out
 * resets); the last test shows, through the emulator's count, that no save here left out a field whose stored
 * value differs from its default, the one case where the `merge` reading answers otherwise, so every step would
 * end the same under `merge` (which this file once ran whole a second time).
 * Program: tests/e2e/fixture (endpoints from stack config). Needs `npm run setup` and a build.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { EndpointRecord } from "../../src/api";
import { LocalStack, copyProgram, tempDir } from "../../scripts/exampleStack";
import type { RunPulumiResult } from "../../scripts/pulumiCli";

jest.setTimeout(240_000);

const FIXTURE = path.join(__dirname, "fixture");
const BASE = { name: "e2e-fields", templateId: "tpl_vllm", gpuIds: ["ADA_24"] };
const DECLARED = { ...BASE, gpuCount: 2, allowedCudaVersions: ["12.2", "12.1"], executionTimeoutMs: 120000 };

describe("Endpoint platform fields through the CLI", () => {
  const saveSemantics = "replace";
  let emu: RunningEmulator;
  let work: string;
  let stack: LocalStack;

  const declare = (spec: Record<string, unknown>) => stack.setConfig("endpoints", JSON.stringify({ fields: spec }));
  const pulumi = (args: string[]): Promise<RunPulumiResult> => stack.run(args);
  const pulumiFails = (args: string[]): Promise<RunPulumiResult> => stack.run(args, { expectFailure: true });
  const live = (): EndpointRecord => {
    const all = emu.endpoints(emu.apiKey);
    expect(all).toHaveLength(1);
    return all[0];
  };
  const saves = () => emu.stats().byOperation.saveEndpoint ?? 0;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 50, logIntervalMs: 1000, jobDurationMs: 50, saveSemantics });
    work = tempDir("pulumi-runpod-e2e-fields-");
    const programDir = copyProgram(FIXTURE, path.join(work, "program"));
    // Previews are checked with `pulumi preview`: `up` and `destroy` skip theirs.
    stack = await LocalStack.create({ programDir, stackName: `fields-${saveSemantics}`, stateDir: path.join(work, "state"), skipPreview: true });
    await stack.usePlatform(emu.urls, emu.apiKey);
    await stack.setConfig("runpod:api", "graphql"); // save semantics (replace / merge) are the GraphQL modify's; the counts name saveEndpoint
  });

  afterAll(async () => {
    if (stack) await stack.destroyLeftovers();
    await emu?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("set at create: on the platform and in the outputs, workersStandby read back; a reorder of CUDA versions is no change", async () => {
    await declare(DECLARED);
    await pulumi(["up", "--yes"]);
    expect(live()).toMatchObject({ gpuCount: 2, allowedCudaVersions: "12.2,12.1", executionTimeoutMs: 120000 });
    const outputs = (await stack.endpoint("fields"))?.outputs;
    expect(outputs).toMatchObject({ gpuCount: 2, allowedCudaVersions: ["12.2", "12.1"], executionTimeoutMs: 120000, workersStandby: 0 });
    await declare({ ...DECLARED, allowedCudaVersions: ["12.1", "12.2"] });
    await pulumi(["preview", "--expect-no-changes"]);
  });

  test("a change updates in place with one saveEndpoint, leaving the other fields as declared", async () => {
    const id = live().id;
    await declare({ ...DECLARED, gpuCount: 4 });
    emu.resetStats();
    const r = await pulumi(["up", "--yes", "--diff"]);
    expect(r.stdout).toMatch(/~ 1 updated/);
    expect(r.stdout).toMatch(/gpuCount\s*:\s*2 => 4/);
    expect(saves()).toBe(1);
    expect(live()).toMatchObject({ id, gpuCount: 4, allowedCudaVersions: "12.2,12.1", executionTimeoutMs: 120000 });
  });

  test("unset shows no diff, and a later update of another field keeps the platform's values", async () => {
    const id = live().id;
    await declare(BASE);
    await pulumi(["preview", "--expect-no-changes"]);
    await declare({ ...BASE, workersMax: 5 });
    emu.resetStats();
    await pulumi(["up", "--yes"]);
    expect(saves()).toBe(1);
    expect(live()).toMatchObject({ id, workersMax: 5, gpuCount: 4, allowedCudaVersions: "12.2,12.1", executionTimeoutMs: 120000 });
    await pulumi(["preview", "--expect-no-changes"]);
  });

  test("bad values fail at preview naming the field and its range; nothing is sent", async () => {
    emu.resetStats();
    await declare({ ...BASE, workersMax: 101, gpuCount: 0, executionTimeoutMs: 1000, allowedCudaVersions: ["13.0"] });
    const r = await pulumiFails(["preview"]);
    const text = r.stdout + r.stderr;
    expect(text).toMatch(/gpuCount must be an integer number of GPUs per worker at least 1; got 0/);
    expect(text).toMatch(/executionTimeoutMs must be an integer number of milliseconds from 5000 to 604800000 on API path graphql \(runpod:api\); got 1000/);
    expect(text).toMatch(/workersMax must be an integer from 0 to 100 on API path graphql \(runpod:api\); got 101/);
    expect(text).toMatch(/allowedCudaVersions must be a list of distinct CUDA versions, each one of 11\.8, .*12\.8.*got \["13\.0"\]/);
    expect(saves()).toBe(0);
    await declare({ ...BASE, workersMax: 5 });
  });

  test("no save here depended on the reading of a partial modify: under `merge` every step ends the same", () => {
    expect(emu.saveSemantics()).toEqual({ semantics: "replace", fromEnvironment: false, dependentSaves: 0 });
  });
});
