"use strict";
/**
 * Benchmark stack: `count` CPU pods (2 vCPU of `cpu3c`, placed wherever the flavor has stock), identical
 * but for their auto-generated names (`<resource name>-<7 hex>`); `env` holds one variable, stored as a
 * secret. The image tag is what the benchmark's update changes: updatePod's `image`, in place (the running
 * pod restarts its container). Plain JavaScript, so no compile step is timed.
 *
 * Config: count (number, required), imageTag (default 1.4.2), namePrefix (default: the stack name).
 * The provider reaches the platform through the `runpod:*` config the benchmark sets.
 */
const pulumi = require("@pulumi/pulumi");
const { Pod } = require("pulumi-runpod");

const config = new pulumi.Config();
const count = config.requireNumber("count");
const imageTag = config.get("imageTag") ?? "1.4.2";
const prefix = config.get("namePrefix") ?? pulumi.getStack();

for (let i = 0; i < count; i++) {
  new Pod(`${prefix}-${i}`, {
    imageName: `ghcr.io/acme/dev-box:${imageTag}`,
    cpuFlavorId: "cpu3c",
    vcpuCount: 2,
    containerDiskInGb: 20,
    env: { MODEL: "llama-3-8b" },
  });
}
