"use strict";
const pulumi = require("@pulumi/pulumi");
const { Endpoint, getNetworkVolumeOutput } = require("pulumi-runpod");

const config = new pulumi.Config();

// Looked up by name at preview; a name that matches no volume stops the program with the list of yours.
const models = getNetworkVolumeOutput({ name: config.get("volume") || "models" });

const endpoint = new Endpoint("inference", {
  templateId: config.get("templateId") || "tpl_vllm",
  gpuIds: ["AMPERE_24"],
  networkVolumeId: models.id, // the endpoint's workers run in the volume's data center
  workersMax: 2,
  idleTimeout: 30, // seconds a worker stays up after its last job
});

exports.endpointId = endpoint.endpointId;
exports.volume = models.name;
exports.dataCenter = models.dataCenter;
