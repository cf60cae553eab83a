import * as pulumi from "@pulumi/pulumi";
import { Endpoint, Template } from "pulumi-runpod";

const config = new pulumi.Config();

// Roll out a new version with `pulumi config set imageTag 1.1.0 && pulumi up`: the template is
// updated in place and the endpoint's workers move to the new image (no endpoint replacement).
const worker = new Template("worker", {
  imageName: `ghcr.io/acme/worker:${config.get("imageTag") ?? "1.0.0"}`,
  containerDiskInGb: 10,
  env: { LOG_LEVEL: "info" },
});

const endpoint = new Endpoint("worker", {
  templateId: worker.id,
  gpuIds: ["ADA_24"],
  workersMin: config.getNumber("workersMin") ?? 1, // one warm worker shows the rollout (it bills on a real account)
  workersMax: 2,
});

export const templateId = worker.id;
export const imageName = worker.imageName;
export const endpointId = endpoint.endpointId;
