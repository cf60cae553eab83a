"use strict";
/**
 * The engine's floor: the benchmark's Endpoint stack (same count, same inputs, same config) with a
 * dynamic resource whose provider does nothing — no API calls, no modules beyond @pulumi/pulumi. What
 * this stack costs is what the Pulumi engine, the language host and the dynamic provider host cost.
 *
 * Config: count (number, required), idleTimeout (seconds, default 30), namePrefix (default: the stack name).
 */
const pulumi = require("@pulumi/pulumi");

/** Every operation answers at once from its inputs; `diff` reports the changed fields like Endpoint's. */
const noopProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff(_id, olds, news) {
    const changed = ["name", "templateId", "gpuIds", "idleTimeout"].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return { changes: changed.length > 0 };
  },
  async create(inputs) {
    return { id: `noop-${inputs.name}`, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
  async delete() {},
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(noopProvider, name, args, opts, "bench", "Noop");
  }
}

const config = new pulumi.Config();
const count = config.requireNumber("count");
const idleTimeout = config.getNumber("idleTimeout") ?? 30;
const prefix = config.get("namePrefix") ?? pulumi.getStack();

for (let i = 0; i < count; i++) {
  new Noop(`ep-${i}`, { name: `${prefix}-${i}`, templateId: "tpl_vllm", gpuIds: ["ADA_24"], idleTimeout });
}
