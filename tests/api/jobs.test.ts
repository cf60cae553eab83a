import type { RunningEmulator } from "../../emulator";
import { InvalidArgumentError, NotFoundError, TimeoutError, type Job, type PlatformClient } from "../../src/api";
import { ENDPOINT_INPUT, clientFor, startFastEmulator, thrown } from "./helpers";

let emu: RunningEmulator;
let client: PlatformClient;
let endpointId: string;

beforeAll(async () => {
  emu = await startFastEmulator();
  client = clientFor(emu);
  endpointId = (await client.saveEndpoint({ ...ENDPOINT_INPUT, name: "jobs", workersMin: 1 })).id;
});
afterAll(() => emu.close());

describe("job interface", () => {
  it("jobUrl is {inferenceUrl}/v2/{id}/", () => {
    expect(client.jobUrl(endpointId)).toBe(`${emu.urls.inference}/v2/${endpointId}/`);
  });

  it("run returns a job id; waitForJob polls it to COMPLETED, reporting each status", async () => {
    const job = await client.run(endpointId, { hello: "world" });
    expect(job.id).toMatch(/\S/);
    expect(["IN_QUEUE", "IN_PROGRESS"]).toContain(job.status);
    const seen: string[] = [];
    const done = await client.waitForJob(endpointId, job.id, { pollIntervalMs: 10, onStatus: (j) => seen.push(j.status) });
    expect(done.status).toBe("COMPLETED");
    expect(done.output).toEqual({ echo: { hello: "world" } });
    expect(seen[seen.length - 1]).toBe("COMPLETED");
    expect((await client.jobStatus(endpointId, job.id)).status).toBe("COMPLETED");
  });

  it("runSync returns the finished job with its output", async () => {
    const job = await client.runSync(endpointId, { n: 1 });
    expect(job.status).toBe("COMPLETED");
    expect(job.output).toEqual({ echo: { n: 1 } });
  });

  it("a failing handler ends FAILED with its error, returned rather than thrown", async () => {
    const job = await client.runSync(endpointId, { fail: true });
    expect(job.status).toBe("FAILED");
    expect(typeof job.error).toBe("string");
  });

  it("the public image model returns output.image_url", async () => {
    const job = await client.runSync("flux-1-schnell", { prompt: "a red fox", width: 512, height: 512 });
    expect(job.status).toBe("COMPLETED");
    expect((job.output as { image_url: string }).image_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const queued = await client.run("flux-1-schnell", { prompt: "a blue fox", width: 512, height: 512 });
    const done: Job = await client.waitForJob("flux-1-schnell", queued.id, { pollIntervalMs: 10 });
    expect((done.output as { image_url: string }).image_url).toContain(queued.id);
  });

  it("unknown endpoints and jobs are NotFoundError", async () => {
    expect(await thrown(() => client.run("nope0000000000", {}))).toBeInstanceOf(NotFoundError);
    expect(await thrown(() => client.jobStatus(endpointId, "no-such-job"))).toBeInstanceOf(NotFoundError);
  });

  it("waitForJob gives up with a TimeoutError naming the last status", async () => {
    const slowEmu = await startFastEmulator({ jobDurationMs: 60_000 });
    try {
      const c = clientFor(slowEmu);
      const ep = await c.saveEndpoint({ ...ENDPOINT_INPUT, name: "slow", workersMin: 1 });
      const job = await c.run(ep.id, {});
      const err = await thrown(() => c.waitForJob(ep.id, job.id, { pollIntervalMs: 10, timeoutMs: 100 }));
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as TimeoutError).outcomeUnknown).toBe(false);
      expect(err.message).toMatch(/IN_QUEUE|IN_PROGRESS/);
    } finally {
      await slowEmu.close();
    }
  });

  it("rejects empty ids and bad wait options before sending", async () => {
    emu.resetStats();
    expect(await thrown(() => client.run("", {}))).toBeInstanceOf(InvalidArgumentError);
    expect(await thrown(() => client.jobStatus(endpointId, ""))).toBeInstanceOf(InvalidArgumentError);
    expect(await thrown(() => client.waitForJob(endpointId, "x", { timeoutMs: 0 }))).toBeInstanceOf(InvalidArgumentError);
    expect(emu.stats().requests).toBe(0);
  });
});
