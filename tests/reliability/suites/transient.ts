/**
 * Issue #6 "Transient faults": 5xx answers and dropped connections are retried with exponential
 * backoff and jitter, for reads and for writes that are safe to repeat (saveEndpoint with id, deleteEndpoint).
 */
import { ServerError } from "../../../src/api";
import { EndpointProvider } from "../../../src/provider/endpoint/provider";
import { mutationCounts, relClient, thrown, uniqueName, useRelEmulator } from "../harness";
import { createChecked } from "./rateLimits";
import { PlatformSession } from "../../../src/provider/session";

const READS = ["listNetworkVolumes", "myself", "gpuTypes", "listWorkers"];

export function transientSuite(): void {
  describe("transient faults", () => {
    const emu = useRelEmulator();

    it("reads: 5xx and connections dropped before or after the answer are retried until they succeed, one retry per fault", async () => {
      const client = relClient(emu, { retry: { retries: 8 } });
      const seeded = await relClient(emu).saveEndpoint({ name: uniqueName("reads"), templateId: "tpl_vllm", gpuIds: "AMPERE_16", workersMin: 1 });
      emu.expectedAtEnd += 1;
      emu.resetStats();
      emu.setFaults({ errorRate: 0.25, dropBeforeRate: 0.15, dropAfterRate: 0.15, match: READS, seed: 11 });
      for (let i = 0; i < 12; i++) {
        expect((await client.listNetworkVolumes()).length).toBe(2);
        expect((await client.listEndpoints()).map((e) => e.id)).toContain(seeded.id);
        expect((await client.gpuTypes()).length).toBeGreaterThan(5);
        expect(Array.isArray(await client.listWorkers(seeded.id))).toBe(true);
      }
      const { faultsByKind, faultsInjected } = emu.stats();
      expect(faultsByKind.error5xx).toBeGreaterThan(0);
      expect(faultsByKind.dropBefore).toBeGreaterThan(0);
      expect(faultsByKind.dropAfter).toBeGreaterThan(0);
      expect(client.stats.retries).toBe(faultsInjected);
    });

    it("safe writes: saveEndpoint with id and deleteEndpoint are retried after 5xx and lost answers, each taking effect once", async () => {
      const client = relClient(emu, { retry: { retries: 8 } });
      const rec = await client.saveEndpoint({ name: uniqueName("writes"), templateId: "tpl_vllm", gpuIds: "AMPERE_24" });
      emu.setFaults({ errorRate: 0.3, dropBeforeRate: 0.1, dropAfterRate: 0.3, match: ["saveEndpoint", "deleteEndpoint"], seed: 5 });
      for (let workersMax = 1; workersMax <= 8; workersMax++) {
        const saved = await client.saveEndpoint({
          id: rec.id,
          name: rec.name,
          templateId: rec.templateId,
          gpuIds: rec.gpuIds,
          workersMax,
          idleTimeout: 10 + workersMax,
        });
        expect(saved).toMatchObject({ id: rec.id, workersMax, idleTimeout: 10 + workersMax });
        expect(emu.endpoints(emu.apiKey).find((e) => e.id === rec.id)).toMatchObject({ workersMax, idleTimeout: 10 + workersMax });
      }
      await client.saveEndpoint({ id: rec.id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds, workersMin: 0, workersMax: 0 });
      await client.deleteEndpoint(rec.id);
      expect(emu.endpoints(emu.apiKey).find((e) => e.id === rec.id)).toBeUndefined();
      const { faultsByKind, faultsInjected } = emu.stats();
      expect(faultsByKind.error5xx).toBeGreaterThan(0);
      expect(faultsByKind.dropAfter).toBeGreaterThan(0);
      expect(client.stats.retries).toBe(faultsInjected);
    });

    it("the provider's update and delete ride out the same faults", async () => {
      const client = relClient(emu, { retry: { retries: 8 } });
      const provider = new EndpointProvider(new PlatformSession(() => client));
      const { id, outs, inputs } = await createChecked(provider, {
        name: uniqueName("prov-writes"),
        templateId: "tpl_comfy",
        gpuIds: ["AMPERE_48"],
        workersMin: 1,
        workersMax: 2,
      });
      // Seeded so that both the update and the delete meet faults: a lost answer each, and 5xx answers.
      emu.setFaults({ errorRate: 0.3, dropAfterRate: 0.3, match: ["saveEndpoint", "deleteEndpoint", "myself"], seed: 4 });
      const next = (await provider.check(inputs, { ...inputs, workersMax: 5, scalerValue: 7 })).inputs;
      const updated = await provider.update(id, outs, next);
      expect(updated.outs).toMatchObject({ workersMax: 5, scalerValue: 7 });
      const faultsInUpdate = emu.stats().faultsInjected;
      expect(faultsInUpdate).toBeGreaterThan(0);
      expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toMatchObject({ workersMax: 5, scalerValue: 7, workersMin: 1 });
      await provider.delete(id, updated.outs as unknown as Record<string, unknown>);
      expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toBeUndefined();
      expect(emu.stats().faultsInjected).toBeGreaterThan(faultsInUpdate);
      expect(client.stats.retries).toBe(emu.stats().faultsInjected);
    });

    it("creates are not repeated by the client after a 5xx: the provider looks, finds nothing, tries once more, then reports the error", async () => {
      const client = relClient(emu);
      const provider = new EndpointProvider(new PlatformSession(() => client));
      const name = uniqueName("create-5xx");
      emu.setFaults({ errorRate: 1, match: ["saveEndpoint"] });
      const err = await thrown(() => createChecked(provider, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] }));
      expect(err).toBeInstanceOf(ServerError);
      expect(mutationCounts(emu).saveEndpoint).toBe(2);
      expect(emu.endpoints(emu.apiKey).filter((e) => e.name === name)).toEqual([]);
    });

    it("backoff grows exponentially between attempts, with jitter", async () => {
      const MIN = 50;
      const gaps: number[][] = [];
      for (let run = 0; run < 3; run++) {
        const answered: number[] = [];
        const client = relClient(emu, {
          retry: { retries: 4, minDelayMs: MIN, maxDelayMs: 10_000, deadlineMs: 30_000 },
          debug: (line) => {
            if (/^gpuTypes: POST .* -> \d+$/.test(line)) answered.push(Date.now());
          },
        });
        emu.setFaults({ errorRate: 1, match: ["gpuTypes"] });
        expect(await thrown(() => client.gpuTypes())).toBeInstanceOf(ServerError);
        expect(answered).toHaveLength(5);
        gaps.push(answered.slice(1).map((t, i) => t - answered[i]));
      }
      // Lower bounds only (a busy machine may stretch a wait, never shorten it): attempt n+1 waits at least MIN·2^(n-1).
      for (const run of gaps) run.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(MIN * 2 ** i - 2));
      // Jitter: each wait is its base times a random factor in [1, 2); twelve factors that all sit within
      // 0.15 of each other would mean no randomisation (chance with jitter: far below one in a million).
      const factors = gaps.flatMap((run) => run.map((gap, i) => gap / (MIN * 2 ** i)));
      expect(Math.max(...factors) - Math.min(...factors)).toBeGreaterThan(0.15);
    });
  });
}
