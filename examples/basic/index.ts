import * as pulumi from "@pulumi/pulumi";
import { Endpoint, getNetworkVolumeOutput } from "pulumi-runpod";

const config = new pulumi.Config();
const prefix = config.get("namePrefix") ?? pulumi.getStack();
const workersMax = config.getNumber("inferenceWorkersMax") ?? 3;

// Looked up by name so the program reads the same in every account that has a volume called "models".
const models = getNetworkVolumeOutput({ name: config.get("modelsVolume") ?? "models" });

/** Queue-based inference endpoint on 24 GB tiers, pinned to EU regions, with the model volume mounted. */
export const inference = new Endpoint("inference", {
  name: `${prefix}-inference`,
  templateId: "tpl_vllm",
  gpuIds: ["ADA_24", "AMPERE_24"],
  locations: ["RO", "CZ"],
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  idleTimeout: 30,
  workersMin: 0,
  workersMax,
  fastBoot: true,
  networkVolumeId: models.id,
});

/** Image endpoint created from GPU type names in priority order (REST v1 create). */
export const images = new Endpoint("images", {
  name: `${prefix}-images`,
  templateId: "tpl_comfy",
  gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA RTX A6000"],
  workersMin: 0,
  workersMax: 2,
  idleTimeout: 10,
});

export const inferenceId = inference.id;
export const inferenceJobUrl = inference.jobUrl;
export const imagesId = images.id;
export const imagesJobUrl = images.jobUrl;
export const modelsVolumeId = models.id;
