/**
 * What the program hands an Endpoint's or Pod's check about the stack's NetworkVolumes
 * (src/resources/stackMembers.ts): only to one that mounts a volume; every declared volume by name (those
 * it never deletes by dropping them marked retained), the
 * ids of those declared before it (their registrations answered first), none of a later one; the
 * resources mounting its literal ids. Pulumi mocks stand in for the engine.
 */
import * as pulumi from "@pulumi/pulumi";
import { Endpoint } from "../../src/resources/endpoint";
import { NetworkVolume } from "../../src/resources/networkVolume";
import { Pod } from "../../src/resources/pod";

const registrations: pulumi.runtime.MockResourceArgs[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        registrations.push(args);
        return { id: args.id || `id-of-${args.name}`, state: args.inputs };
      },
      call: async (args) => args.inputs,
    },
    "proj",
    "stack",
    false,
  );
});

const urnOf = (r: pulumi.Resource): Promise<string> => new Promise((resolve) => r.urn.apply(resolve));
const inputsOf = (name: string) => registrations.find((r) => r.name === name)!.inputs;

test("an endpoint or pod that mounts a volume gets the declared volumes and who mounts its literal ids; one that mounts none gets nothing", async () => {
  const volume = { size: 10, dataCenterId: "EU-RO-1" };
  new NetworkVolume("models", volume);
  new NetworkVolume("kept", volume, { retainOnDelete: true });
  NetworkVolume.get("looked-up", "vol-seen");
  const ep = new Endpoint("llm", { templateId: "tpl_vllm", gpuIds: ["ADA_24"], networkVolumeId: "id-of-models" });
  const plain = new Endpoint("plain", { templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
  new NetworkVolume("mid", volume);
  const pod = new Pod("nb", { imageName: "alpine:3", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], networkVolumeId: "id-of-models" });
  new NetworkVolume("late", volume);
  await Promise.all([ep, plain, pod].map(urnOf));

  const mountedBy = { "id-of-models": ["endpoint llm", "pod nb"] };
  // A `get` is a volume the program uses without managing it: never deleted by dropping it, as with `retainOnDelete`.
  const first = [
    { key: "models", id: "id-of-models" },
    { key: "kept", id: "id-of-kept", retained: true },
    { key: "looked-up", id: "vol-seen", retained: true },
  ];
  expect(inputsOf("llm").__stackVolumes).toEqual({ volumes: [...first, { key: "mid" }, { key: "late" }], mountedBy });
  // `mid`, declared after the endpoint and before the pod: the pod awaits its id, the endpoint not.
  expect(inputsOf("nb").__stackVolumes).toEqual({ volumes: [...first, { key: "mid", id: "id-of-mid" }, { key: "late" }], mountedBy });
  expect(inputsOf("plain")).not.toHaveProperty("__stackVolumes");
});
