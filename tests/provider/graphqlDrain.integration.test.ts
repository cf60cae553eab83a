/**
 * The GraphQL path's endpoint delete lets jobs in progress finish (a delete cancels them), as REST v2's
 * does (v2Path.integration.test.ts): against the emulator over HTTP, the job's status is read from the
 * platform at the moment the deleting request is sent.
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api";
import { poll } from "../../src/api/poll";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { PlatformSession } from "../../src/provider/session";
import { emulatorPerFile, uniqueName } from "./harness";

let emu: RunningEmulator;
let client: PlatformClient;
emulatorPerFile((e, c) => ([emu, client] = [e, c]));

/** The client, recording the watched job's status on the platform just before each request that deletes. */
function watching(job: { endpointId: string; id: string }, seen: string[]): PlatformClient {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== "deleteEndpoint" && prop !== "scaleDownAndDeleteEndpoint") return value;
      return async (...args: unknown[]) => {
        seen.push((await target.jobStatus(job.endpointId, job.id)).status);
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
}

async function endpointWithWorker(provider: EndpointProvider) {
  const r = await provider.check(undefined, {
    name: uniqueName("gql-drain"),
    templateId: "tpl_vllm",
    gpuIds: ["ADA_24"],
    workersMin: 1,
    workersMax: 1,
    waitForWorkers: true,
  });
  expect(r.failures).toEqual([]);
  return provider.create(r.inputs!);
}

async function jobInProgress(endpointId: string) {
  const job = await client.run(endpointId, { executionMs: 1000 });
  const started = await poll(
    () => client.jobStatus(endpointId, job.id),
    (s) => s.status !== "IN_QUEUE",
    { timeoutMs: 10_000, intervalMs: 20 },
  );
  expect(started.value?.status).toBe("IN_PROGRESS");
  return { endpointId, id: job.id };
}

describe("Endpoint delete on GraphQL", () => {
  it("a job running at delete time completes: scale to zero, wait for the job, then deleteEndpoint", async () => {
    const { id, outs } = await endpointWithWorker(new EndpointProvider(new PlatformSession(() => client, { api: "graphql" })));
    const job = await jobInProgress(id);
    const seen: string[] = [];
    const provider = new EndpointProvider(new PlatformSession(() => watching(job, seen), { api: "graphql" }));
    emu.resetStats();
    await provider.delete(id, outs as Record<string, unknown>);
    // One deleting request, sent once the job had completed (not cancelled, not still running).
    expect(seen).toEqual(["COMPLETED"]);
    expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toBeUndefined();
    const ops = emu.stats().byOperation;
    expect({ saveEndpoint: ops.saveEndpoint, deleteEndpoint: ops.deleteEndpoint }).toEqual({ saveEndpoint: 1, deleteEndpoint: 1 });
  });

  it("an idle endpoint is scaled down and deleted in one request after one look at its workers", async () => {
    const { id, outs } = await endpointWithWorker(new EndpointProvider(new PlatformSession(() => client, { api: "graphql" })));
    const provider = new EndpointProvider(new PlatformSession(() => client, { api: "graphql" }));
    emu.resetStats();
    await provider.delete(id, outs as Record<string, unknown>);
    expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toBeUndefined();
    expect(emu.stats().requests).toBe(2);
  });
});
