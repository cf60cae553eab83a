"use strict";
/**
 * Benchmark stack: `count` queue-based endpoints, identical but for their names, which are left to
 * auto-naming (`<resource name>-<7 hex>`; the way most programs declare endpoints). `idleTimeout` is the
 * one field the benchmark's update step changes. Plain JavaScript, so no compile step is timed.
 *
 * Config: count (number, required), idleTimeout (seconds, default 30), namePrefix (default: the stack name).
 * The provider reaches the platform through the `runpod:*` config the benchmark sets.
 */
const pulumi = require("@pulumi/pulumi");
const { Endpoint } = require("pulumi-runpod");

const config = new pulumi.Config();
const count = config.requireNumber("count");
const idleTimeout = config.getNumber("idleTimeout") ?? 30;
const prefix = config.get("namePrefix") ?? pulumi.getStack();

for (let i = 0; i < count; i++) {
  new Endpoint(`${prefix}-${i}`, { templateId: "tpl_vllm", gpuIds: ["ADA_24"], idleTimeout });
}
