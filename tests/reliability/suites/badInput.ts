/**
 * Issue #6 "Bad input": a table of bad inputs, each giving exactly one error that names the field,
 * with nothing created. Endpoint inputs go through `Check` of the serialized provider inside Pulumi's
 * real dynamic provider host (what `pulumi preview` calls; the CLI suite repeats a few through the
 * real `pulumi preview`); client arguments that no resource input carries (`tail`, ids) go through the client.
 */
import { InvalidArgumentError } from "../../../src/api";
import type { PlatformClient } from "../../../src/api/types";
import { ProviderHost } from "../host";
import { relClient, runpodConfig, startRelEmulator, thrown, type RelEmulator } from "../harness";

const BASE = { name: "bad-input", templateId: "tpl_vllm", gpuIds: ["ADA_24"] };
const WITHOUT_TIERS = { name: "bad-input", templateId: "tpl_vllm" };

/** [what is wrong, inputs, the one field the error must name]. */
export const BAD_ENDPOINT_INPUTS: [string, Record<string, unknown>, string][] = [
  ["name of the wrong type", { ...BASE, name: 42 }, "name"],
  ["empty name", { ...BASE, name: "" }, "name"],
  ["name with surrounding spaces", { ...BASE, name: "  padded " }, "name"],
  ["name too long", { ...BASE, name: "x".repeat(192) }, "name"],
  ["templateId of the wrong type", { ...BASE, templateId: 7 }, "templateId"],
  ["malformed templateId", { ...BASE, templateId: "tpl vllm!" }, "templateId"],
  ["empty templateId", { ...BASE, templateId: "" }, "templateId"],
  ["gpuIds as a string, not a list", { ...BASE, gpuIds: "ADA_24" }, "gpuIds"],
  ["unknown GPU tier", { ...BASE, gpuIds: ["H100"] }, "gpuIds"],
  ["empty gpuIds", { ...BASE, gpuIds: [] }, "gpuIds"],
  ["repeated GPU tier", { ...BASE, gpuIds: ["ADA_24", "ADA_24"] }, "gpuIds"],
  ["neither gpuIds nor gpuTypeIds", { ...WITHOUT_TIERS }, "gpuIds"],
  ["both gpuIds and gpuTypeIds", { ...BASE, gpuTypeIds: ["NVIDIA L4"] }, "gpuTypeIds"],
  ["empty GPU type name", { ...WITHOUT_TIERS, gpuTypeIds: [""] }, "gpuTypeIds"],
  ["gpuTypeIds as a string, not a list", { ...WITHOUT_TIERS, gpuTypeIds: "NVIDIA L4" }, "gpuTypeIds"],
  ["unknown endpoint type", { ...BASE, type: "BATCH" }, "type"],
  ["type of the wrong type", { ...BASE, type: 1 }, "type"],
  ["negative idleTimeout", { ...BASE, idleTimeout: -5 }, "idleTimeout"],
  ["fractional idleTimeout", { ...BASE, idleTimeout: 2.5 }, "idleTimeout"],
  ["idleTimeout as a string", { ...BASE, idleTimeout: "30" }, "idleTimeout"],
  ["idleTimeout out of range", { ...BASE, idleTimeout: 4000 }, "idleTimeout"],
  ["unknown region", { ...BASE, locations: ["DE"] }, "locations"],
  ["locations as a string, not a list", { ...BASE, locations: "US" }, "locations"],
  ["unknown fastBootType", { ...BASE, fastBootType: "TURBO" }, "fastBootType"],
  ["fastBoot of the wrong type", { ...BASE, fastBoot: "yes" }, "fastBoot"],
  ["fastBoot contradicting fastBootType", { ...BASE, fastBoot: false, fastBootType: "FASTBOOT" }, "fastBoot"],
  ["unknown scalerType", { ...BASE, scalerType: "CPU" }, "scalerType"],
  ["zero scalerValue", { ...BASE, scalerValue: 0 }, "scalerValue"],
  ["fractional scalerValue", { ...BASE, scalerValue: 1.5 }, "scalerValue"],
  ["negative workersMin", { ...BASE, workersMin: -1 }, "workersMin"],
  ["fractional workersMin", { ...BASE, workersMin: 1.5 }, "workersMin"],
  ["workersMin as a string", { ...BASE, workersMin: "2" }, "workersMin"],
  ["negative workersMax", { ...BASE, workersMax: -2 }, "workersMax"],
  ["workersMax out of range", { ...BASE, workersMax: 101 }, "workersMax"],
  ["fractional workersMax", { ...BASE, workersMax: 2.5 }, "workersMax"],
  ["workersMin > workersMax", { ...BASE, workersMin: 5, workersMax: 2 }, "workersMin"],
  ["unknown networkVolumeId", { ...BASE, networkVolumeId: "nv_doesnotexist" }, "networkVolumeId"],
  ["another user's networkVolumeId", { ...BASE, networkVolumeId: "nv_other01" }, "networkVolumeId"],
  ["malformed networkVolumeId", { ...BASE, networkVolumeId: "nv/../x" }, "networkVolumeId"],
  ["networkVolumeId of the wrong type", { ...BASE, networkVolumeId: 5 }, "networkVolumeId"],
  ["misspelled property", { ...BASE, workerMax: 3 }, "workerMax"],
];

/** [what is wrong, the call, the argument the error must name]. */
const BAD_CLIENT_ARGUMENTS: [string, (c: PlatformClient) => unknown, string][] = [
  ["tail below 0", (c) => c.streamWorkerLogs("ep", "w", { tail: -1 }), "tail"],
  ["tail above 5000", (c) => c.streamWorkerLogs("ep", "w", { tail: 5001 }), "tail"],
  ["fractional tail", (c) => c.streamWorkerLogs("ep", "w", { tail: 2.5 }), "tail"],
  ["unknown log source", (c) => c.streamWorkerLogs("ep", "w", { source: "stdout" as never }), "source"],
  ["since not RFC 3339", (c) => c.streamWorkerLogs("ep", "w", { since: "yesterday" }), "since"],
  ["empty endpoint id for logs", (c) => c.streamWorkerLogs("", "w"), "endpointId"],
  ["empty worker id for logs", (c) => c.streamWorkerLogs("ep", " "), "workerId"],
  ["empty id on delete", (c) => c.deleteEndpoint(""), "id"],
  ["blank id on modify", (c) => c.saveEndpoint({ id: "  ", name: "x", templateId: "tpl_vllm", gpuIds: "ADA_24" }), "id"],
  ["empty endpoint id for workers", (c) => c.listWorkers(""), "endpointId"],
  ["empty GPU type list on the REST create", (c) => c.createEndpointRest({ name: "x", templateId: "tpl_vllm", gpuTypeIds: [] }), "gpuTypeIds"],
  ["empty job id", (c) => c.jobStatus("ep", ""), "jobId"],
];

export function badInputSuite(): void {
  describe("bad input", () => {
    let emu: RelEmulator;
    let host: ProviderHost;
    beforeAll(async () => {
      emu = await startRelEmulator();
      host = await ProviderHost.start(runpodConfig(emu, emu.apiKey));
    });
    afterAll(async () => {
      await host?.stop();
      await emu.close();
    });

    it("the table holds at least 30 bad endpoint inputs and the valid base passes", async () => {
      expect(BAD_ENDPOINT_INPUTS.length + BAD_CLIENT_ARGUMENTS.length).toBeGreaterThanOrEqual(30);
      expect(BAD_ENDPOINT_INPUTS.length).toBeGreaterThanOrEqual(30);
      expect((await host.check(BASE)).failures).toEqual([]);
      expect(
        (await host.check({ ...WITHOUT_TIERS, gpuTypeIds: ["NVIDIA L4"], networkVolumeId: "nv_models01", workersMin: 2, workersMax: 2 })).failures,
      ).toEqual([]);
    });

    it.each(BAD_ENDPOINT_INPUTS)("check: %s → one failure naming the field", async (_what, news, field) => {
      const { failures } = await host.check(news);
      expect(failures).toHaveLength(1);
      expect(failures[0].property).toBe(field);
      expect(failures[0].reason).toContain(field);
      expect(failures[0].reason.length).toBeGreaterThan(field.length + 10);
    });

    it.each(BAD_CLIENT_ARGUMENTS)("client: %s → InvalidArgumentError naming the argument, nothing sent", async (_what, call, argument) => {
      const client = relClient(emu);
      const before = emu.stats().requests;
      const err = await thrown(async () => call(client));
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as InvalidArgumentError).argument).toBe(argument);
      expect(err.message).toContain(argument);
      expect(emu.stats().requests).toBe(before);
    });

    it("nothing was created: no endpoint exists and no create reached the emulator", () => {
      expect(emu.endpoints()).toEqual([]);
      const ops = emu.stats().byOperation;
      expect(ops.saveEndpoint ?? 0).toBe(0);
      expect(ops.restCreateEndpoint ?? 0).toBe(0);
      expect(host.stderr.text).not.toContain(emu.apiKey);
    });
  });
}
