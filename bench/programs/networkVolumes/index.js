"use strict";
/**
 * Benchmark stack: `count` network volumes in one data center, identical but for their auto-generated
 * names (`<resource name>-<7 hex>`), the tier left to the data center's primary one (the way most programs
 * declare a volume). `size` is what the benchmark's update changes: it grows in place (updateNetworkVolume).
 * Plain JavaScript, so no compile step is timed.
 *
 * Config: count (number, required), size (GB, default 10), namePrefix (default: the stack name).
 * The provider reaches the platform through the `runpod:*` config the benchmark sets.
 */
const pulumi = require("@pulumi/pulumi");
const { NetworkVolume } = require("pulumi-runpod");

const config = new pulumi.Config();
const count = config.requireNumber("count");
const size = config.getNumber("size") ?? 10;
const prefix = config.get("namePrefix") ?? pulumi.getStack();

for (let i = 0; i < count; i++) {
  new NetworkVolume(`${prefix}-${i}`, { size, dataCenterId: "EU-RO-1" });
}
