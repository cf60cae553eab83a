/**
 * Issue #6 "Create is not blindly repeated": after a create whose outcome is unknown, the provider
 * looks for the endpoint (by name and template) before trying again, so one create yields exactly
 * one endpoint — proven with the emulator acting on the create and then dropping the connection,
 * and with a create that outlives the client's timeout and lands afterwards.
 */
import { EndpointProvider } from "../../../src/provider/endpoint/provider";
import { mutationCounts, relClient, uniqueName, useRelEmulator } from "../harness";
import { createChecked } from "./rateLimits";
import { PlatformSession } from "../../../src/provider/session";

export function createOnceSuite(): void {
  describe("create is not blindly repeated", () => {
    const emu = useRelEmulator();

    const named = (name: string) => emu.endpoints(emu.apiKey).filter((e) => e.name === name);

    it("saveEndpoint acted on, then the connection dropped: the provider adopts that endpoint — exactly one", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      const name = uniqueName("drop-gql");
      emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
      const { id, outs } = await createChecked(provider, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], workersMax: 4 });
      expect(named(name).map((e) => e.id)).toEqual([id]);
      expect(outs).toMatchObject({ endpointId: id, name, workersMax: 4, gpuIds: ["ADA_24", "AMPERE_24"] });
      expect(mutationCounts(emu).saveEndpoint).toBe(1);
      expect(emu.stats().faultsByKind.dropAfter).toBe(1);
      emu.expectedAtEnd += 1;
    });

    it("POST /v1/endpoints acted on, then the connection dropped: exactly one", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      const name = uniqueName("drop-rest");
      emu.setFaults({ dropAfterRate: 1, match: ["restCreateEndpoint"] });
      const { id } = await createChecked(provider, {
        name,
        templateId: "tpl_comfy",
        gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA RTX A6000"],
        workersMax: 2,
      });
      expect(named(name).map((e) => e.id)).toEqual([id]);
      expect(named(name)[0].gpuIds).toBe("ADA_24,AMPERE_48");
      expect(mutationCounts(emu).restCreateEndpoint).toBe(1);
      expect(emu.stats().faultsByKind.dropAfter).toBe(1);
      emu.expectedAtEnd += 1;
    });

    it("auto-named (name unset): saveEndpoint acted on, then the connection dropped — adopted with one listing after, none before: exactly one", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      const prefix = uniqueName("auto");
      // An endpoint named like the prefix: the drawn suffix keeps it from ever being taken.
      await relClient(emu).saveEndpoint({ name: prefix, templateId: "tpl_vllm", gpuIds: "ADA_24" });
      emu.resetStats();
      emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
      const { id, inputs } = await createChecked(provider, { __namePrefix: prefix, templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
      expect(inputs.name).toMatch(new RegExp(`^${prefix}-[0-9a-f]{7}$`));
      expect(named(inputs.name as string).map((e) => e.id)).toEqual([id]);
      // check's templateId lookup (one template listing), its one catalog read (docs/cost.md), and the one
      // endpoint listing after the lost answer.
      expect(emu.stats().byOperation).toEqual({ saveEndpoint: 1, myself: 2, listGpuTypes: 1, listCpuTypes: 1, listDataCenters: 1 });
      emu.expectedAtEnd += 2;
    });

    it("an endpoint with the same name and template that existed before is never taken for the new one", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      const name = uniqueName("twin");
      const earlier = await relClient(emu).saveEndpoint({ name, templateId: "tpl_vllm", gpuIds: "AMPERE_16" });
      emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
      const { id } = await createChecked(provider, { name, templateId: "tpl_vllm", gpuIds: ["AMPERE_16"] });
      expect(id).not.toBe(earlier.id);
      expect(
        named(name)
          .map((e) => e.id)
          .sort(),
      ).toEqual([earlier.id, id].sort());
      emu.expectedAtEnd += 2;
    });

    it("a create refused before taking effect (dropped before it reached the platform) is tried once more: exactly one", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      const name = uniqueName("drop-before");
      // Seeded so that the first create is dropped before taking effect and the second goes through.
      emu.setFaults({ dropBeforeRate: 0.5, match: ["saveEndpoint"], seed: 3 });
      const { id } = await createChecked(provider, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
      expect(emu.stats().faultsByKind.dropBefore).toBe(1);
      expect(mutationCounts(emu).saveEndpoint).toBe(2);
      expect(named(name).map((e) => e.id)).toEqual([id]);
      emu.expectedAtEnd += 1;
    });

    it("a create that outlives the client's timeout and lands afterwards is adopted, not repeated: exactly one", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu, { timeoutMs: 300 })));
      const name = uniqueName("slow-create");
      emu.setFaults({ latencyMs: 700, match: ["saveEndpoint"] });
      let id: string | undefined;
      let error: string | undefined;
      try {
        id = (await createChecked(provider, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] })).id;
      } catch (err) {
        error = String(err);
      }
      // Any second create still held by the latency fault lands before counting.
      await emu.idle();
      expect({ error, onPlatform: named(name).length, creates: mutationCounts(emu).saveEndpoint }).toEqual({ error: undefined, onPlatform: 1, creates: 1 });
      expect(named(name)[0].id).toBe(id);
      emu.expectedAtEnd += 1;
    });
  });
}
