"use strict";
/**
 * The engine's floor: the benchmark's Endpoint or Template stack (config `kind`; same count, same
 * inputs, same config) with a dynamic resource whose provider does nothing — no API calls. Its shape
 * comes from that resource's model (`pulumi-runpod/provider`, which loads as light as the package's
 * index the real program loads): the same output properties, outputs of the same size (every default
 * filled in), the same secret outputs, and a read that answers with inputs too. So the engine, the
 * language host and the dynamic provider host do the same work for it; what is left between the two
 * stacks is the provider's own cost (its process, its requests).
 *
 * Config: count (number, required), kind (`endpoints`, default, or `templates`), namePrefix (default:
 * the stack name); endpoints: idleTimeout (seconds, default 30); templates: imageTag (default 1.4.2).
 */
const crypto = require("crypto");
const pulumi = require("@pulumi/pulumi");
const model = require("pulumi-runpod/provider");

const { NAME_PREFIX_PROPERTY, defaultsOf, inputNames, outputNames, secretNames, settingNames } = model;

/** What a no-op provider needs of a model: its defaults and field lists (plain data, captured by the serialized provider). */
function shapeOf(resourceModel) {
  return {
    defaults: { ...defaultsOf(resourceModel, "input"), ...defaultsOf(resourceModel, "setting") },
    inputFields: inputNames(resourceModel),
    storedInputs: [...inputNames(resourceModel), ...settingNames(resourceModel)],
    outputFields: outputNames(resourceModel),
    secretFields: secretNames(resourceModel),
  };
}

/** Per kind: the model's shape, the outputs only the platform sets, the stack's arguments. */
const config = new pulumi.Config();
const KINDS = {
  endpoints: {
    type: "Noop",
    shape: shapeOf(model.ENDPOINT_MODEL),
    computed: (id) => ({ endpointId: id, fastBoot: false, jobUrl: `http://127.0.0.1:1/inference/v2/${id}/` }),
    args: () => ({ templateId: "tpl_vllm", gpuIds: ["ADA_24"], idleTimeout: config.getNumber("idleTimeout") ?? 30 }),
  },
  templates: {
    type: "NoopTemplate",
    shape: shapeOf(model.TEMPLATE_MODEL),
    computed: () => ({}),
    args: () => ({ imageName: `ghcr.io/acme/llm-worker:${config.get("imageTag") ?? "1.4.2"}`, containerDiskInGb: 20, env: { MODEL: "llama-3-8b" } }),
  },
};

/** Every operation answers at once from its inputs; `diff` reports changed fields like the real provider. */
function noopProvider(shape, computed, prefixProperty) {
  return {
    async check(olds, news) {
      // Auto-naming as the real providers do it: the old name, else the resource name and a random suffix.
      const given = { ...news };
      const prefix = given[prefixProperty];
      delete given[prefixProperty];
      const inputs = { ...shape.defaults, ...given };
      inputs.name = given.name ?? olds?.name ?? `${prefix}-${crypto.randomBytes(4).toString("hex").slice(0, 7)}`;
      return { inputs };
    },
    async diff(_id, olds, news) {
      const changed = shape.inputFields.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
      return { changes: changed.length > 0 };
    },
    async create(inputs) {
      const id = `noop${inputs.name.replace(/[^a-z0-9]/gi, "").slice(-10)}`;
      const outs = {};
      for (const key of shape.outputFields) if (inputs[key] !== undefined) outs[key] = inputs[key];
      Object.assign(outs, computed(id));
      return { id, outs };
    },
    async read(id, props) {
      // Inputs too, as the real read returns them (the engine stores them and shows diffs from them).
      const inputs = Object.fromEntries(shape.storedInputs.filter((k) => props[k] !== undefined && props[k] !== null).map((k) => [k, props[k]]));
      return { id, props, inputs };
    },
    async update(_id, olds, news) {
      const changed = Object.fromEntries(shape.inputFields.filter((k) => news[k] !== undefined).map((k) => [k, news[k]]));
      return { outs: { ...olds, ...changed } };
    },
    async delete() {},
  };
}

const kind = config.get("kind") ?? "endpoints";
const spec = KINDS[kind];
if (!spec) throw new Error(`config kind must be one of ${Object.keys(KINDS).join(", ")}; got "${kind}"`);
const provider = noopProvider(spec.shape, spec.computed, NAME_PREFIX_PROPERTY);

class Noop extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    // The same output properties as the real resource, so the engine floor stores as much state per resource.
    const props = {};
    for (const key of spec.shape.outputFields) props[key] = undefined;
    Object.assign(props, args);
    for (const key of spec.shape.secretFields) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
    props[NAME_PREFIX_PROPERTY] = name;
    super(provider, name, props, { ...opts, additionalSecretOutputs: spec.shape.secretFields }, "bench", spec.type);
  }
}

const count = config.requireNumber("count");
const prefix = config.get("namePrefix") ?? pulumi.getStack();

for (let i = 0; i < count; i++) {
  new Noop(`${prefix}-${i}`, spec.args());
}
