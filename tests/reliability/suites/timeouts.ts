/**
 * Issue #6 "Timeouts": every request has a timeout; what becomes of `customTimeouts`.
 *
 * `customTimeouts` reach the engine (the CLI test shows the registration carrying them) and the engine
 * puts them in the `timeout` field of its Create/Update/Delete requests to the provider plugin — but
 * Pulumi's dynamic provider host never hands that field to a dynamic provider (`provider.create(inputs)`
 * takes inputs only), so the Endpoint provider cannot honour them. The last test pins that down: a
 * CreateRequest with `timeout = 1` second still completes a create that takes 1.5 seconds.
 * The provider's own per-request limit is `runpod:timeoutMs` (default 30 s).
 */
import { TimeoutError } from "../../../src/api";
import { ProviderHost } from "../host";
import { eventually, mutationCounts, now, relClient, runpodConfig, thrown, uniqueName, useRelEmulator } from "../harness";

export function timeoutSuite(): void {
  describe("timeouts", () => {
    const emu = useRelEmulator();

    it("a read slower than timeoutMs fails with TimeoutError once its retries are spent, every attempt cut off", async () => {
      const client = relClient(emu, { timeoutMs: 150, retry: { retries: 2 } });
      emu.setFaults({ latencyMs: 2000, match: ["listNetworkVolumes"] });
      const err = await thrown(() => client.listNetworkVolumes());
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as TimeoutError).timeoutMs).toBe(150);
      expect(err.message).toMatch(/within 150 ms/);
      expect(emu.stats().byOperation.listNetworkVolumes).toBe(3);
      expect(client.stats.retries).toBe(2);
    });

    it("a GraphQL read and a REST create slower than timeoutMs fail with TimeoutError; the create is marked outcome-unknown and not repeated", async () => {
      const client = relClient(emu, { timeoutMs: 150, retry: { retries: 1 } });
      emu.setFaults({ latencyMs: 600, match: ["myself", "restCreateEndpoint"] });
      const read = await thrown(() => client.listEndpoints());
      expect(read).toBeInstanceOf(TimeoutError);
      const name = uniqueName("rest-timeout");
      const create = await thrown(() => client.createEndpointRest({ name, templateId: "tpl_comfy", gpuTypeIds: ["NVIDIA L4"] }));
      expect(create).toBeInstanceOf(TimeoutError);
      expect((create as TimeoutError).outcomeUnknown).toBe(true);
      expect(create.message).toMatch(/may have taken effect/);
      expect(mutationCounts(emu).restCreateEndpoint).toBe(1);
      // The platform still acts on it once the latency has passed: this is why the provider looks before retrying.
      await eventually(() => emu.endpoints(emu.apiKey).some((e) => e.name === name));
      expect(emu.endpoints(emu.apiKey).filter((e) => e.name === name)).toHaveLength(1);
      emu.expectedAtEnd += 1;
    });

    it("customTimeouts: the engine's CreateRequest.timeout is not passed on by Pulumi's dynamic provider host", async () => {
      const host = await ProviderHost.start(runpodConfig(emu, emu.apiKey));
      try {
        const { inputs, failures } = await host.check({ name: uniqueName("custom-timeout"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
        expect(failures).toEqual([]);
        emu.setFaults({ latencyMs: 1500, match: ["saveEndpoint"] });
        const started = now();
        const { id } = await host.create(inputs, 1);
        expect(now() - started).toBeGreaterThanOrEqual(1500);
        expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toBeDefined();
        emu.expectedAtEnd += 1;
      } finally {
        await host.stop();
      }
    });
  });
}
