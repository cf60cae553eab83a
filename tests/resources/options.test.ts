/**
 * What every resource class checks before registering (README › Troubleshooting): a misspelled
 * `runpod:*` configuration key stops the program at preview with a "did you mean" (it would
 * otherwise fall back to the production address), and `opts.import` fails at once, naming the
 * import that works. Both are `pulumi.RunError`s: Pulumi prints them as one line, without a stack.
 */
import * as pulumi from "@pulumi/pulumi";
import { unknownConfigKeys } from "../../src/provider/providerConfig";
import { ContainerRegistryAuth } from "../../src/resources/containerRegistryAuth";
import { Endpoint } from "../../src/resources/endpoint";
import { getNetworkVolumes } from "../../src/resources/networkVolume";
import { Template } from "../../src/resources/template";

const registered: string[] = [];
beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        registered.push(args.name);
        return { id: `id-${args.name}`, state: args.inputs };
      },
      call: async (args) => args.inputs,
    },
    "proj",
    "stack",
    true,
  );
});

const thrownBy = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("did not throw");
};

test("opts.import fails at once with a RunError pointing to `pulumi-runpod import`", () => {
  for (const make of [
    () => new Endpoint("inference", { templateId: "tpl_vllm", gpuIds: ["ADA_24"] }, { import: "abc123" }),
    () => new Template("tpl", { imageName: "img:1" } as never, { import: "t1" }),
    () => new ContainerRegistryAuth("creds", { username: "u", password: "p" } as never, { import: "c1" }),
  ]) {
    const err = thrownBy(make);
    expect(pulumi.RunError.isInstance(err)).toBe(true);
    expect(err.message).toMatch(/the `import` resource option does not work with this provider/);
    expect(err.message).toMatch(/pulumi-runpod import (inference|tpl|creds) <id>/);
  }
  expect(registered).toEqual([]);
});

test("a misspelled runpod:* key stops the program (resources and lookups) with a 'did you mean'; nothing is registered", async () => {
  pulumi.runtime.setConfig("runpod:graphQLUrl", "http://127.0.0.1:1/graphql");
  try {
    const err = thrownBy(() => new Endpoint("e", { templateId: "tpl_vllm", gpuIds: ["ADA_24"] }));
    expect(pulumi.RunError.isInstance(err)).toBe(true);
    expect(err.message).toMatch(/^Unknown configuration key runpod:graphQLUrl \(did you mean runpod:graphqlUrl\?\): the provider reads only runpod:apiKey, /);
    const lookup = (await getNetworkVolumes().catch((e: unknown) => e)) as Error;
    expect(pulumi.RunError.isInstance(lookup)).toBe(true);
    expect(lookup.message).toContain("did you mean runpod:graphqlUrl?");
    expect(registered).toEqual([]);
  } finally {
    pulumi.runtime.setConfig("runpod:graphQLUrl", undefined as never);
  }
});

test("unknownConfigKeys: other namespaces and known keys pass; several typos are all named", () => {
  expect(unknownConfigKeys(["aws:region", "runpod:apiKey", "proj:x", "runpod:timeoutMs"])).toBeUndefined();
  expect(unknownConfigKeys(["runpod:apikey", "runpod:restv2url", "runpod:zzzzzzzzzzzzzzzzzzzz"])).toMatch(
    /^Unknown configuration keys runpod:apikey \(did you mean runpod:apiKey\?\), runpod:restv2url \(did you mean runpod:restV2Url\?\), runpod:zzzzzzzzzzzzzzzzzzzz: /,
  );
});
