/**
 * Issue #6 "Delete is resumable": scale-to-zero succeeded but the delete failed → the next destroy
 * finishes; an endpoint deleted outside Pulumi → destroy succeeds.
 */
import { EndpointProvider } from "../../../src/provider/endpointProvider";
import { mutationCounts, relClient, thrown, uniqueName, useRelEmulator } from "../harness";
import { createChecked } from "./rateLimits";

export function deleteResumableSuite(): void {
  describe("delete is resumable", () => {
    const emu = useRelEmulator();

    const onPlatform = (id: string) => emu.endpoints(emu.apiKey).find((e) => e.id === id);

    it("scaled to zero, then deleteEndpoint failed: the next delete (a new provider process) finishes without scaling again", async () => {
      const first = new EndpointProvider(() => relClient(emu, { retry: { retries: 2 } }));
      const { id, outs } = await createChecked(first, { name: uniqueName("resume"), templateId: "tpl_vllm", gpuIds: ["AMPERE_24"], workersMin: 1, workersMax: 3 });
      emu.resetStats();
      emu.setFaults({ errorRate: 1, match: ["deleteEndpoint"] });
      const err = await thrown(() => first.delete(id, outs));
      expect(err.message).toMatch(/deleteEndpoint/);
      expect(onPlatform(id)).toMatchObject({ id, workersMin: 0, workersMax: 0 });
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 1, restCreateEndpoint: 0, deleteEndpoint: 3 });

      emu.setFaults({});
      emu.resetStats();
      const next = new EndpointProvider(() => relClient(emu));
      await next.delete(id, outs);
      expect(onPlatform(id)).toBeUndefined();
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 0, restCreateEndpoint: 0, deleteEndpoint: 1 });
    });

    it("a delete whose answer was lost after it took effect counts as done", async () => {
      const provider = new EndpointProvider(() => relClient(emu));
      const { id, outs } = await createChecked(provider, { name: uniqueName("lost-answer"), templateId: "tpl_vllm", gpuIds: ["AMPERE_24"] });
      emu.resetStats();
      // Seeded so that exactly the first deleteEndpoint loses its answer (the retry then finds it gone).
      emu.setFaults({ dropAfterRate: 0.5, match: ["deleteEndpoint"], seed: 2 });
      await provider.delete(id, outs);
      expect(onPlatform(id)).toBeUndefined();
      expect(emu.stats().faultsByKind.dropAfter).toBe(1);
      expect(mutationCounts(emu).deleteEndpoint).toBe(2);
    });

    it("an endpoint deleted outside Pulumi: delete succeeds and sends no mutation", async () => {
      const provider = new EndpointProvider(() => relClient(emu));
      const { id, outs } = await createChecked(provider, { name: uniqueName("gone"), templateId: "tpl_comfy", gpuIds: ["AMPERE_48"], workersMin: 1 });
      const outside = relClient(emu);
      const rec = onPlatform(id)!;
      await outside.saveEndpoint({ id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds, workersMin: 0, workersMax: 0 });
      await outside.deleteEndpoint(id);
      emu.resetStats();
      await provider.delete(id, outs);
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 0, restCreateEndpoint: 0, deleteEndpoint: 0 });
      expect(onPlatform(id)).toBeUndefined();
    });

    it("scaled to zero outside Pulumi, deleted by the provider: no redundant scale-down", async () => {
      const provider = new EndpointProvider(() => relClient(emu));
      const { id, outs } = await createChecked(provider, { name: uniqueName("half"), templateId: "tpl_vllm", gpuIds: ["AMPERE_24"], workersMin: 2, workersMax: 2 });
      const rec = onPlatform(id)!;
      await relClient(emu).saveEndpoint({ id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds, workersMin: 0, workersMax: 0 });
      emu.resetStats();
      await provider.delete(id, outs);
      expect(onPlatform(id)).toBeUndefined();
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 0, restCreateEndpoint: 0, deleteEndpoint: 1 });
    });
  });
}
