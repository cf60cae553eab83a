/**
 * The public `Endpoint` class as a program sees it (Pulumi mocks stand in for the engine here; the
 * provider itself is exercised against the emulator in tests/provider).
 */
import * as pulumi from "@pulumi/pulumi";
import { Endpoint } from "../../src/resources/endpoint";

const registrations: pulumi.runtime.MockResourceArgs[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        registrations.push(args);
        const id = args.id || `id-of-${args.name}`;
        // The engine answers with the provider's outputs; these mimic them for the class's wiring.
        return { id, state: { ...args.inputs, endpointId: id, jobUrl: `http://inference/v2/${id}/`, gpuIds: args.inputs.gpuIds ?? ["ADA_24"] } };
      },
      call: async (args) => args.inputs,
    },
    "proj",
    "stack",
    false,
  );
});

const valueOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply((v) => resolve(v)));

describe("Endpoint", () => {
  it("registers a dynamic resource of type runpod:Endpoint with the args as inputs and the serialized provider", async () => {
    const ep = new Endpoint("web", { name: "web-ep", templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], workersMax: pulumi.output(2) });
    await valueOf(ep.urn);
    const reg = registrations.find((r) => r.name === "web")!;
    expect(reg.type).toBe("pulumi-nodejs:dynamic/runpod:Endpoint");
    expect(reg.inputs).toMatchObject({ name: "web-ep", templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], workersMax: 2 });
    expect(typeof reg.inputs.__provider).toBe("string");
    // The resource name rides along as the prefix of an auto-name (used only when `name` is unset).
    expect(reg.inputs.__namePrefix).toBe("web");
    expect(Object.keys(reg.inputs).sort()).toEqual(["__namePrefix", "__provider", "gpuIds", "name", "templateId", "workersMax"]);
  });

  it("without a name, registers no name and the resource name as the auto-name prefix", async () => {
    await valueOf(new Endpoint("unnamed", { templateId: "tpl_vllm", gpuIds: ["ADA_24"] }).urn);
    const reg = registrations.find((r) => r.name === "unnamed")!;
    expect(reg.inputs.name).toBeUndefined();
    expect(reg.inputs.__namePrefix).toBe("unnamed");
  });

  it("exposes the provider's outputs as Output properties (including jobUrl and endpointId)", async () => {
    const ep = new Endpoint("out", { name: "out-ep", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"] });
    expect(await valueOf(ep.id)).toBe("id-of-out");
    expect(await valueOf(ep.endpointId)).toBe("id-of-out");
    expect(await valueOf(ep.jobUrl)).toBe("http://inference/v2/id-of-out/");
    expect(await valueOf(ep.name)).toBe("out-ep");
    expect(await valueOf(ep.gpuTypeIds)).toEqual(["NVIDIA L4"]);
  });

  it("Endpoint.get reads an existing endpoint by id", async () => {
    const ep = Endpoint.get("existing", "abc123");
    expect(await valueOf(ep.id)).toBe("abc123");
    const reg = registrations.find((r) => r.name === "existing")!;
    expect(reg.id).toBe("abc123");
    expect(reg.type).toBe("pulumi-nodejs:dynamic/runpod:Endpoint");
  });
});
