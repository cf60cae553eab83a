/**
 * A program of many resources serializes each kind's provider stub once, not once per resource:
 * `pulumi.dynamic.Resource` caches the serialized text by provider object, so the classes must hand it
 * the same object every time (serializing a closure costs tens of milliseconds of CPU). A count of
 * Pulumi's own closure serializations under mocks, not a timing.
 */
import * as pulumi from "@pulumi/pulumi";
import { Endpoint, Template } from "../../src/resources";

/* eslint-disable @typescript-eslint/no-require-imports */
// The module `pulumi.dynamic.Resource` serializes providers with (it requires it at first use).
const closure = require("@pulumi/pulumi/runtime/closure/serializeClosure") as { serializeFunction: (...args: unknown[]) => Promise<{ text: string }> };

const registered: pulumi.runtime.MockResourceArgs[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        registered.push(args);
        return { id: `id-${args.name}`, state: args.inputs };
      },
      call: async (args) => args.inputs,
    },
    "proj",
    "stack",
    false,
  );
});

it("30 endpoints and 30 templates serialize one stub per kind, and every resource of a kind carries the same text", async () => {
  const serialize = jest.spyOn(closure, "serializeFunction");
  const resources: pulumi.CustomResource[] = [];
  for (let i = 0; i < 30; i++) {
    resources.push(new Endpoint(`ep-${i}`, { templateId: "tpl_vllm", gpuIds: ["ADA_24"] }));
    resources.push(new Template(`tpl-${i}`, { imageName: "ghcr.io/acme/worker:1", env: { MODEL: "m" } }));
  }
  await Promise.all(resources.map((r) => new Promise((resolve) => r.urn.apply(resolve))));

  expect(serialize).toHaveBeenCalledTimes(2);
  const texts = (type: string) => new Set(registered.filter((r) => r.type === type).map((r) => r.inputs.__provider as string));
  expect(texts("pulumi-nodejs:dynamic/runpod:Endpoint").size).toBe(1);
  expect(texts("pulumi-nodejs:dynamic/runpod:Template").size).toBe(1);
  expect(registered).toHaveLength(60);
});
