/**
 * runpod-sdk (npm), unchanged, as an oracle for the emulator's job interface (issue 15 §2): every public function
 * of the client (runSync, run, status, statusSync, stream, cancel, health, purgeQueue) runs against the in-process
 * emulator over real HTTP (tests/conformance/clients/runpod_sdk.mjs, in a child process because the SDK is an ES
 * module); each result is checked here. runpod-sdk is a devDependency; `RUNPOD_SDK_MODULE` may point elsewhere.
 */
import { spawn } from "child_process";
import { join } from "path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";

type Result = { ok?: any; error?: string };

function sdkModule(): string {
  if (process.env.RUNPOD_SDK_MODULE) return process.env.RUNPOD_SDK_MODULE;
  try {
    return require.resolve("runpod-sdk");
  } catch {
    throw new Error("runpod-sdk is not installed: it is a devDependency of this project (npm i -D runpod-sdk@1.1.2), or set RUNPOD_SDK_MODULE");
  }
}

function runDriver(emu: RunningEmulator, endpointId: string): Promise<Record<string, Result>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, "clients", "runpod_sdk.mjs")], {
      env: {
        PATH: process.env.PATH,
        RUNPOD_SDK_MODULE: sdkModule(),
        RUNPOD_API_KEY: emu.apiKey,
        RUNPOD_BASE_URL: `${emu.urls.inference}/v2`,
        RUNPOD_ENDPOINT_ID: endpointId,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
      if (code !== 0 || !line) return reject(new Error(`runpod_sdk.mjs exited ${code}:\n${stdout}\n${stderr}`));
      resolve(JSON.parse(line.slice("RESULT ".length)));
    });
  });
}

describe("runpod-sdk 1.1.2 against the emulator", () => {
  let emu: RunningEmulator;
  let r: Record<string, Result>;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, quiet: true, jobDurationMs: 1500, workerStartMs: 50, logIntervalMs: 200 });
    const res = await fetch(`${emu.urls.graphql}?api_key=${emu.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `mutation { saveEndpoint(input: { name: "sdk-ep", templateId: "tpl_vllm", gpuIds: "ADA_24", workersMin: 1 }) { id } }` }),
    });
    r = await runDriver(emu, (await res.json()).data.saveEndpoint.id);
  }, 120_000);
  afterAll(() => emu?.close());

  const ok = (name: string) => {
    expect(r[name]).toBeDefined();
    expect(r[name].error).toBeUndefined();
    return r[name].ok;
  };

  test("runSync: through runsync?wait, and through status-sync when the wait runs out", () => {
    expect(ok("runSync")).toMatchObject({ status: "COMPLETED", output: { echo: { a: 1 } }, started: true, completed: true, succeeded: true });
    expect(ok("runSync (short wait, polls status-sync)")).toMatchObject({ status: "COMPLETED", output: { echo: { a: 2 } }, completed: true, succeeded: true });
  });

  test("run, status, statusSync", () => {
    const job = ok("run");
    expect(job).toEqual({ id: expect.stringMatching(/-u1$/), status: "IN_QUEUE" });
    expect(ok("status")).toMatchObject({ id: job.id, status: expect.stringMatching(/^IN_(QUEUE|PROGRESS)$/), started: true, completed: false });
    expect(ok("statusSync")).toMatchObject({
      id: job.id,
      status: "COMPLETED",
      output: { echo: { b: 1 } },
      completed: true,
      succeeded: true,
      delayTime: expect.any(Number),
      executionTime: expect.any(Number),
    });
  });

  test("stream yields the image model's chunks in order", () => {
    const chunks = ok("stream");
    expect(chunks.map((c: any) => c.output.progress ?? "image")).toEqual([0.25, 0.5, 0.75, "image"]);
    expect(chunks[3].output).toMatchObject({ image_url: expect.stringContaining(ok("run (image model)").id), width: 512, height: 512 });
  });

  test("cancel, health, purgeQueue", () => {
    const job = ok("run (to cancel)");
    expect(ok("cancel")).toEqual({ id: job.id, status: "CANCELLED" });
    expect(ok("status (cancelled)")).toMatchObject({ status: "CANCELLED", completed: true, succeeded: false });
    const health = ok("health");
    expect(health.jobs).toMatchObject({ completed: expect.any(Number), failed: 0, retried: 0 });
    expect(health.jobs.completed).toBeGreaterThanOrEqual(3);
    expect(health.workers).toMatchObject({ idle: expect.any(Number), initializing: 0, ready: 1, running: expect.any(Number), throttled: 0 });
    // Of the three jobs sent last, the endpoint's one worker (free again) took the first: two were still queued.
    expect(ok("purgeQueue")).toEqual({ removed: 2, status: "completed" });
  });
});
