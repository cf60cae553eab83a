"use strict";
/**
 * The engine's floor: the benchmark's Endpoint stack (same count, same inputs, same config) with a
 * dynamic resource whose provider does nothing — no API calls. Its shape comes from the Endpoint's
 * model (`pulumi-runpod/provider`, which loads as light as the package's index the Endpoint program
 * loads): the same output properties, outputs of the same size (every default filled in), and a read
 * that answers with inputs too. So the engine, the language host and the dynamic provider host do the
 * same work for it; what is left between the two stacks is the provider's own cost (its process, its
 * requests).
 *
 * Config: count (number, required), idleTimeout (seconds, default 30), namePrefix (default: the stack name).
 */
const pulumi = require("@pulumi/pulumi");
const model = require("pulumi-runpod/provider");

const { ENDPOINT_MODEL, ENDPOINT_OUTPUT_FIELDS, ENDPOINT_INPUT_FIELDS, ENDPOINT_SETTING_FIELDS, NAME_PREFIX_PROPERTY, defaultsOf } = model;
/** What `check` fills in for unset arguments, and the provider settings. */
const DEFAULTS = { ...defaultsOf(ENDPOINT_MODEL, "input"), ...defaultsOf(ENDPOINT_MODEL, "setting") };
const STORED_INPUTS = [...ENDPOINT_INPUT_FIELDS, ...ENDPOINT_SETTING_FIELDS];

/** Every operation answers at once from its inputs; `diff` reports changed fields like Endpoint's. */
const noopProvider = {
  async check(olds, news) {
    // Auto-naming as Endpoint does it: the old name, else the resource name and a random suffix.
    const { [NAME_PREFIX_PROPERTY]: prefix, ...given } = news;
    const inputs = { ...DEFAULTS, ...given };
    inputs.name = given.name ?? olds?.name ?? `${prefix}-${require("crypto").randomBytes(4).toString("hex").slice(0, 7)}`;
    return { inputs };
  },
  async diff(_id, olds, news) {
    const changed = ENDPOINT_INPUT_FIELDS.filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return { changes: changed.length > 0 };
  },
  async create(inputs) {
    const id = `noop${inputs.name.replace(/[^a-z0-9]/gi, "").slice(-10)}`;
    const outs = {};
    for (const key of ENDPOINT_OUTPUT_FIELDS) if (inputs[key] !== undefined) outs[key] = inputs[key];
    Object.assign(outs, { endpointId: id, fastBoot: false, jobUrl: `http://127.0.0.1:1/inference/v2/${id}/` });
    return { id, outs };
  },
  async read(id, props) {
    // Inputs too, as Endpoint's read returns them (the engine stores them and shows diffs from them).
    const inputs = Object.fromEntries(STORED_INPUTS.filter((k) => props[k] !== undefined && props[k] !== null).map((k) => [k, props[k]]));
    return { id, props, inputs };
  },
  async update(_id, olds, news) {
    const changed = Object.fromEntries(ENDPOINT_INPUT_FIELDS.filter((k) => news[k] !== undefined).map((k) => [k, news[k]]));
    return { outs: { ...olds, ...changed } };
  },
  async delete() {},
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    // The same output properties as an Endpoint, so the engine floor stores as much state per resource.
    const props = {};
    for (const key of ENDPOINT_OUTPUT_FIELDS) props[key] = undefined;
    Object.assign(props, args);
    props[NAME_PREFIX_PROPERTY] = name;
    super(noopProvider, name, props, opts, "bench", "Noop");
  }
}

const config = new pulumi.Config();
const count = config.requireNumber("count");
const idleTimeout = config.getNumber("idleTimeout") ?? 30;
const prefix = config.get("namePrefix") ?? pulumi.getStack();

for (let i = 0; i < count; i++) {
  new Noop(`${prefix}-${i}`, { templateId: "tpl_vllm", gpuIds: ["ADA_24"], idleTimeout });
}
