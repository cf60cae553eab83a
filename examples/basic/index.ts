import * as pulumi from "@pulumi/pulumi";
import { Endpoint, getNetworkVolumeOutput } from "pulumi-runpod";

const config = new pulumi.Config();
/** Prefix of the inference endpoint's name on the platform (default: the stack name). */
const prefix = config.get("namePrefix") ?? pulumi.getStack();

// Looked up by name, so the program reads the same in every account that has a volume called "models".
const models = getNetworkVolumeOutput({ name: config.get("modelsVolume") ?? "models" });

/** Queue-based inference endpoint on 24 GB tiers, in EU regions, with the model volume mounted. */
const inference = new Endpoint("inference", {
  name: `${prefix}-inference`,
  templateId: "tpl_vllm",
  gpuIds: ["ADA_24", "AMPERE_24"],
  locations: ["RO", "CZ"],
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  idleTimeout: 30,
  workersMin: 0,
  workersMax: config.getNumber("inferenceWorkersMax") ?? 3,
  fastBoot: true,
  networkVolumeId: models.id,
});

/**
 * Image endpoint created from GPU type names in priority order (the platform's REST v1 create). No
 * `name`: auto-named `images-<7 hex digits>`, kept for the endpoint's life.
 */
const images = new Endpoint("images", {
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
/** The tiers the platform derived from the GPU type names. */
export const imagesGpuTiers = images.gpuIds;
export const modelsVolumeId = models.id;
