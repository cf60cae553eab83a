"use strict";
/**
 * The engine's floor: the benchmark's Endpoint, Template, NetworkVolume or Pod stack (config `kind`; same count, same
 * inputs, same config) with a dynamic resource whose provider does nothing — no API calls. Its shape
 * comes from that resource's model (`pulumi-runpod/provider`, which loads as light as the package's
 * index the real program loads): the same output properties, outputs of the same size (every default
 * filled in), the same secret outputs, and a read that answers with inputs too. Its serialized provider
 * is a stub as small as the real one: one object per kind whose methods load the no-op module
 * (provider.js) at call time, so neither side pays for serializing a closure the other does not.
 * What is left between the two stacks is the provider's own cost (its process, its requests).
 *
 * Config: count (number, required), kind (`endpoints`, default, `templates`, `networkVolumes` or `pods`),
 * namePrefix (default: the stack name); endpoints: idleTimeout (seconds, default 30); templates and pods:
 * imageTag (default 1.4.2); network volumes: size (GB, default 10).
 */
const pulumi = require("@pulumi/pulumi");
const model = require("pulumi-runpod/provider");

const { NAME_PREFIX_PROPERTY, outputNames, secretOutputNames } = model;

/** Per kind: the resource type, its model, the stack's arguments. */
const config = new pulumi.Config();
const KINDS = {
  endpoints: {
    type: "Noop",
    model: model.ENDPOINT_MODEL,
    args: () => ({ templateId: "tpl_vllm", gpuIds: ["ADA_24"], idleTimeout: config.getNumber("idleTimeout") ?? 30 }),
  },
  templates: {
    type: "NoopTemplate",
    model: model.TEMPLATE_MODEL,
    args: () => ({ imageName: `ghcr.io/acme/llm-worker:${config.get("imageTag") ?? "1.4.2"}`, containerDiskInGb: 20, env: { MODEL: "llama-3-8b" } }),
  },
  networkVolumes: {
    type: "NoopNetworkVolume",
    model: model.NETWORK_VOLUME_MODEL,
    args: () => ({ size: config.getNumber("size") ?? 10, dataCenterId: "EU-RO-1" }),
  },
  pods: {
    type: "NoopPod",
    model: model.POD_MODEL,
    args: () => ({
      imageName: `ghcr.io/acme/dev-box:${config.get("imageTag") ?? "1.4.2"}`,
      cpuFlavorId: "cpu3c",
      vcpuCount: 2,
      containerDiskInGb: 20,
      env: { MODEL: "llama-3-8b" },
    }),
  },
};

/** Absolute, so the provider host finds it wherever it runs; captured as a string beside `kind`. */
const NOOP_MODULE = require.resolve("./provider.js");

/* The stub: nothing captured but two strings, like src/provider/serializable.ts. */
function stubOf(kind) {
  return {
    async check(olds, news) {
      return require(NOOP_MODULE)[kind].check(olds, news);
    },
    async diff(id, olds, news) {
      return require(NOOP_MODULE)[kind].diff(id, olds, news);
    },
    async create(inputs) {
      return require(NOOP_MODULE)[kind].create(inputs);
    },
    async read(id, props) {
      return require(NOOP_MODULE)[kind].read(id, props);
    },
    async update(id, olds, news) {
      return require(NOOP_MODULE)[kind].update(id, olds, news);
    },
    async delete(id, props) {
      return require(NOOP_MODULE)[kind].delete(id, props);
    },
  };
}

const kind = config.get("kind") ?? "endpoints";
const spec = KINDS[kind];
if (!spec) throw new Error(`config kind must be one of ${Object.keys(KINDS).join(", ")}; got "${kind}"`);
const provider = stubOf(kind);
const outputFields = outputNames(spec.model);
// The secret outputs the real classes register (e.g. an endpoint's `env` and `releasedContainer`).
const secretFields = secretOutputNames(spec.model);

class Noop extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    // The same output properties as the real resource, so the engine floor stores as much state per resource.
    const props = {};
    for (const key of outputFields) props[key] = undefined;
    Object.assign(props, args);
    for (const key of secretFields) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
    props[NAME_PREFIX_PROPERTY] = name;
    super(provider, name, props, { ...opts, additionalSecretOutputs: secretFields }, "bench", spec.type);
  }
}

const count = config.requireNumber("count");
const prefix = config.get("namePrefix") ?? pulumi.getStack();

for (let i = 0; i < count; i++) {
  new Noop(`${prefix}-${i}`, spec.args());
}
