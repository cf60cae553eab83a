/**
 * Wiring of the public `Endpoint` class: what it registers with the engine and how it exposes the
 * engine's answer. Pulumi mocks stand in for the engine, and the outputs below are the mocks' own
 * invention: this proves the plumbing only. The outputs the provider really gives (id, endpointId,
 * jobUrl) are checked against the emulator in endpoint.outputs.test.ts and tests/provider.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { ENDPOINT_MODEL, ENDPOINT_OUTPUT_FIELDS, typeToken } from "../../src/provider";
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
  it("warns once per deprecated fast boot spelling the program sets, and not for flashboot", async () => {
    const warn = jest.spyOn(pulumi.log, "warn").mockImplementation(async () => undefined);
    try {
      const old = new Endpoint("old-fb", { templateId: "tpl_vllm", gpuIds: ["ADA_24"], fastBoot: true, fastBootType: "FASTBOOT" });
      const fresh = new Endpoint("new-fb", { templateId: "tpl_vllm", gpuIds: ["ADA_24"], flashboot: "PRIORITY_FLASHBOOT" });
      expect(warn.mock.calls.map(([msg, res]) => [msg, res === old])).toEqual([
        [expect.stringMatching(/^Endpoint\.fastBoot is deprecated: use flashboot/), true],
        [expect.stringMatching(/^Endpoint\.fastBootType is deprecated: use flashboot/), true],
      ]);
      expect(warn.mock.calls.some(([, res]) => res === fresh)).toBe(false);
      await valueOf(fresh.urn);
    } finally {
      warn.mockRestore();
    }
  });

  it("registers a dynamic resource of type runpod:Endpoint with the args as inputs and the serialized provider", async () => {
    const ep = new Endpoint("web", { name: "web-ep", templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], workersMax: pulumi.output(2) });
    await valueOf(ep.urn);
    const reg = registrations.find((r) => r.name === "web")!;
    expect(reg.type).toBe("pulumi-nodejs:dynamic/runpod:Endpoint");
    expect(typeToken(ENDPOINT_MODEL)).toBe(reg.type);
    expect(reg.inputs).toMatchObject({ name: "web-ep", templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], workersMax: 2 });
    expect(typeof reg.inputs.__provider).toBe("string");
    // The resource name rides along as the prefix of an auto-name (used only when `name` is unset).
    expect(reg.inputs.__namePrefix).toBe("web");
    expect(Object.keys(reg.inputs).sort()).toEqual(["__namePrefix", "__provider", "gpuIds", "name", "templateId", "workersMax"]);
  });

  it("registers every output of the model as an Output property, and nothing else but the arguments", () => {
    const declared = Object.keys(new Endpoint("props", { templateId: "tpl_vllm", gpuIds: ["ADA_24"] })).filter(
      (k) => !k.startsWith("__") && !["urn", "id"].includes(k),
    );
    expect(declared.sort()).toEqual([...ENDPOINT_OUTPUT_FIELDS].sort());
  });

  it("without a name, registers no name and the resource name as the auto-name prefix", async () => {
    await valueOf(new Endpoint("unnamed", { templateId: "tpl_vllm", gpuIds: ["ADA_24"] }).urn);
    const reg = registrations.find((r) => r.name === "unnamed")!;
    expect(reg.inputs.name).toBeUndefined();
    expect(reg.inputs.__namePrefix).toBe("unnamed");
  });

  it("passes the engine's answer through as Output properties (values invented by the mocks)", async () => {
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

describe("loading the package in a Pulumi program", () => {
  it("loads neither the api client nor zod (a program pays only for the resources and the models)", () => {
    const root = path.resolve(__dirname, "../..");
    const script = `require("@pulumi/pulumi"); const before = new Set(Object.keys(require.cache)); const m = require("./dist/src/index.js");
      if (typeof m.Endpoint !== "function") throw new Error("no Endpoint");
      console.log(JSON.stringify(Object.keys(require.cache).filter((k) => !before.has(k))));`;
    const loaded: string[] = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" }));
    expect(loaded.some((k) => k.includes("/dist/src/resources/endpoint.js"))).toBe(true);
    expect(
      loaded.filter((k) => /node_modules\/(zod|graphql|graphql-request|node-fetch)\//.test(k) || /dist\/src\/api\/(client|graphql|http)\.js$/.test(k)),
    ).toEqual([]);
  });
});
