"use strict";
/**
 * Benchmark stack: `count` serverless templates, identical but for their auto-generated names
 * (`<resource name>-<7 hex>`). The image tag is what the benchmark's update changes (an image rollout,
 * the most frequent template change); `env` holds one variable, stored as a secret. Plain JavaScript,
 * so no compile step is timed.
 *
 * Config: count (number, required), imageTag (default 1.4.2), namePrefix (default: the stack name).
 * The provider reaches the platform through the `runpod:*` config the benchmark sets.
 */
const pulumi = require("@pulumi/pulumi");
const { Template } = require("pulumi-runpod");

const config = new pulumi.Config();
const count = config.requireNumber("count");
const imageTag = config.get("imageTag") ?? "1.4.2";
const prefix = config.get("namePrefix") ?? pulumi.getStack();

for (let i = 0; i < count; i++) {
  new Template(`${prefix}-${i}`, { imageName: `ghcr.io/acme/llm-worker:${imageTag}`, containerDiskInGb: 20, env: { MODEL: "llama-3-8b" } });
}
