import * as pulumi from "@pulumi/pulumi";
import { ContainerRegistryAuth, Endpoint, Template, getNetworkVolumeOutput } from "pulumi-runpod";

const config = new pulumi.Config();
/** Prefix of the inference endpoint's name on the platform (default: the stack name). */
const prefix = config.get("namePrefix") ?? pulumi.getStack();

// Looked up by name, so the program reads the same in every account that has a volume called "models".
const models = getNetworkVolumeOutput({ name: config.get("modelsVolume") ?? "models" });

/** Credentials for the private registry the worker image lives in (the password stays a secret). */
const registry = new ContainerRegistryAuth("ghcr", {
  username: config.get("registryUsername") ?? "deploy-bot",
  password: config.requireSecret("registryPassword"),
});

/**
 * The worker: image, disk, env. Rolling out a new version is `pulumi config set workerImageTag 1.4.4`
 * and `pulumi up`: the template is modified in place and the endpoint's workers move to the new image.
 */
const worker = new Template("llm", {
  imageName: `ghcr.io/acme/llm-worker:${config.get("workerImageTag") ?? "1.4.3"}`,
  containerDiskInGb: 20,
  ports: ["8000/http"],
  env: { MODEL: "llama-3-8b", HF_TOKEN: config.requireSecret("hfToken") },
  containerRegistryAuthId: registry.id,
});

/** Queue-based inference endpoint on 24 GB tiers, in two EU data centers, with the model volume mounted. */
const inference = new Endpoint("inference", {
  name: `${prefix}-inference`,
  templateId: worker.id,
  gpuIds: ["ADA_24", "AMPERE_24"],
  dataCenterIds: ["EU-RO-1", "EU-CZ-1"],
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  idleTimeout: 30,
  // One warm worker, so a rollout shows workers moving to the new image (against a real account it bills).
  workersMin: config.getNumber("inferenceWorkersMin") ?? 1,
  workersMax: config.getNumber("inferenceWorkersMax") ?? 3,
  flashboot: "FLASHBOOT",
  networkVolumeId: models.id,
});

/**
 * Image endpoint on the 24 GB and 48 GB tiers, scaled to zero when idle. No `name`: auto-named
 * `images-<7 hex digits>`, kept for the endpoint's life.
 */
const images = new Endpoint("images", {
  templateId: "tpl_comfy",
  gpuIds: ["ADA_24", "AMPERE_48"],
  workersMin: 0,
  workersMax: 2,
  idleTimeout: 10,
});

export const registryAuthId = registry.id;
export const templateId = worker.id;
export const templateImage = worker.imageName;
export const inferenceId = inference.id;
export const inferenceJobUrl = inference.jobUrl;
export const inferenceDataCenterIds = inference.dataCenterIds;
export const imagesId = images.id;
export const imagesJobUrl = images.jobUrl;
/** The GPU tiers the platform records for the image endpoint. */
export const imagesGpuTiers = images.gpuIds;
export const modelsVolumeId = models.id;
