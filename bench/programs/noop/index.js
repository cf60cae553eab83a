"use strict";
/**
 * The engine's floor: the benchmark's Endpoint stack (same count, same inputs, same config) with a
 * dynamic resource whose provider does nothing — no API calls; beyond @pulumi/pulumi it loads only the package's light index (as the Endpoint program does) for the field list. It has
 * the Endpoint's shape (the same output properties, outputs of the same size, a read that answers with
 * inputs too), so the engine, the
 * language host and the dynamic provider host do the same work for it; what is left between the two
 * stacks is the provider's own cost (its process, its requests).
 *
 * Config: count (number, required), idleTimeout (seconds, default 30), namePrefix (default: the stack name).
 */
const pulumi = require("@pulumi/pulumi");

/** Every operation answers at once from its inputs; `diff` reports changed fields like Endpoint's. */
const noopProvider = {
  async check(olds, news) {
    // Auto-naming as Endpoint does it: the old name, else the resource name and a random suffix.
    const { __namePrefix, ...inputs } = news;
    inputs.name = inputs.name ?? olds?.name ?? `${__namePrefix}-${require("crypto").randomBytes(4).toString("hex").slice(0, 7)}`;
    return { inputs };
  },
  async diff(_id, olds, news) {
    const changed = ["name", "templateId", "gpuIds", "idleTimeout"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return { changes: changed.length > 0 };
  },
  async create(inputs) {
    const id = `noop${inputs.name.replace(/[^a-z0-9]/gi, "").slice(-10)}`;
    // The same fields an Endpoint's outputs carry (src/provider/endpointState.ts EndpointOutputs).
    const outs = {
      endpointId: id,
      name: inputs.name,
      templateId: inputs.templateId,
      gpuIds: inputs.gpuIds,
      type: "QB",
      idleTimeout: inputs.idleTimeout,
      locations: [],
      fastBoot: false,
      fastBootType: null,
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
      workersMin: 0,
      workersMax: 3,
      networkVolumeId: null,
      jobUrl: `http://127.0.0.1:1/inference/v2/${id}/`,
    };
    return { id, outs };
  },
  async read(id, props) {
    // Inputs too, as Endpoint's read returns them (the engine stores them and shows diffs from them).
    const { endpointId: _id, jobUrl: _url, fastBoot: _fb, ...inputs } = props;
    return { id, props, inputs };
  },
  async update(_id, olds, news) {
    return { outs: { ...olds, idleTimeout: news.idleTimeout } };
  },
  async delete() {},
};

// The same output properties as an Endpoint, so the engine floor stores as much state per resource.
const { ENDPOINT_OUTPUT_FIELDS } = require("pulumi-runpod");

class Noop extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    const props = {};
    for (const key of ENDPOINT_OUTPUT_FIELDS) props[key] = undefined;
    Object.assign(props, args);
    props.__namePrefix = name;
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
