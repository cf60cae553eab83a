/**
 * Issue #6 "Delete is resumable": a failed delete changes nothing, and an endpoint left scaled to zero
 * but not deleted is deleted by the next destroy; an endpoint deleted outside Pulumi → destroy succeeds.
 */
import { EndpointProvider } from "../../../src/provider/endpoint/provider";
import { mutationCounts, relClient, thrown, uniqueName, useRelEmulator } from "../harness";
import { createChecked } from "./rateLimits";
import { PlatformSession } from "../../../src/provider/session";

export function deleteResumableSuite(): void {
  describe("delete is resumable", () => {
    const emu = useRelEmulator();

    const onPlatform = (id: string) => emu.endpoints(emu.apiKey).find((e) => e.id === id);

    it("a failed delete changes nothing; left scaled to zero but not deleted, the next delete (a new provider process, stale outputs) finishes", async () => {
      const first = new EndpointProvider(new PlatformSession(() => relClient(emu, { retry: { retries: 2 } })));
      const { id, outs } = await createChecked(first, {
        name: uniqueName("resume"),
        templateId: "tpl_vllm",
        gpuIds: ["AMPERE_24"],
        workersMin: 1,
        workersMax: 3,
      });
      emu.resetStats();
      emu.setFaults({ errorRate: 1, match: ["deleteEndpoint"] });
      const err = await thrown(() => first.delete(id, outs));
      expect(err.message).toMatch(/deleteEndpoint/);
      expect(onPlatform(id)).toMatchObject({ id, workersMin: 1, workersMax: 3 });
      // a look at the workers (no job running), then three attempts of the one request that carries both calls
      expect(emu.stats().requests).toBe(4);
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 3, restCreateEndpoint: 0, deleteEndpoint: 3 });

      // Scaled to zero but not deleted, as a destroy on a platform taking one mutation per request can leave it.
      emu.setFaults({});
      const rec = onPlatform(id)!;
      await relClient(emu).saveEndpoint({ id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds, workersMin: 0, workersMax: 0 });
      emu.resetStats();
      const next = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      await next.delete(id, outs);
      expect(onPlatform(id)).toBeUndefined();
      // The engine kept the old outputs (1..3 workers): after a look at the workers, the scale-down is written again (a no-op) with the delete, no listing.
      expect(emu.stats().requests).toBe(2);
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 1, restCreateEndpoint: 0, deleteEndpoint: 1 });
      expect(emu.stats().byOperation.myself).toBeUndefined();
    });

    it("a delete whose answer was lost after it took effect counts as done", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      const { id, outs } = await createChecked(provider, { name: uniqueName("lost-answer"), templateId: "tpl_vllm", gpuIds: ["AMPERE_24"] });
      emu.resetStats();
      // Seeded so that exactly the first deleteEndpoint loses its answer (the retry then finds it gone).
      emu.setFaults({ dropAfterRate: 0.5, match: ["deleteEndpoint"], seed: 2 });
      await provider.delete(id, outs);
      expect(onPlatform(id)).toBeUndefined();
      expect(emu.stats().faultsByKind.dropAfter).toBe(1);
      expect(mutationCounts(emu).deleteEndpoint).toBe(2);
      expect(emu.stats().requests).toBe(3);
    });

    it("an endpoint deleted outside Pulumi: delete succeeds on the platform's not-found answer", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      const { id, outs } = await createChecked(provider, { name: uniqueName("gone"), templateId: "tpl_comfy", gpuIds: ["AMPERE_48"], workersMin: 1 });
      const outside = relClient(emu);
      const rec = onPlatform(id)!;
      await outside.saveEndpoint({ id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds, workersMin: 0, workersMax: 0 });
      await outside.deleteEndpoint(id);
      emu.resetStats();
      await provider.delete(id, outs);
      // The look at its workers answers "not found": nothing left to do, nothing written.
      expect(emu.stats().byOperation.listWorkers).toBe(1);
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 0, restCreateEndpoint: 0, deleteEndpoint: 0 });
      expect(onPlatform(id)).toBeUndefined();
    });

    it("stored outputs at zero workers but raised outside Pulumi: the refused delete is followed by a look, a scale-down and the delete", async () => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu)));
      const { id, outs } = await createChecked(provider, {
        name: uniqueName("raised"),
        templateId: "tpl_vllm",
        gpuIds: ["AMPERE_24"],
        workersMin: 0,
        workersMax: 0,
      });
      const rec = onPlatform(id)!;
      await relClient(emu).saveEndpoint({ id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds, workersMin: 2, workersMax: 2 });
      emu.resetStats();
      await provider.delete(id, outs);
      expect(onPlatform(id)).toBeUndefined();
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 1, restCreateEndpoint: 0, deleteEndpoint: 2 });
      expect(emu.stats().byOperation.myself).toBe(1);
    });
  });
}
