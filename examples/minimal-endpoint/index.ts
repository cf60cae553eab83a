import * as pulumi from "@pulumi/pulumi";
import { Endpoint } from "pulumi-runpod";

const config = new pulumi.Config();

// A queue-based endpoint on 24 GB GPUs that scales to zero when idle.
const endpoint = new Endpoint("hello", {
  templateId: config.get("templateId") ?? "tpl_vllm", // a template of your account (the emulator has tpl_vllm)
  gpuIds: ["ADA_24", "AMPERE_24"],
  workersMax: 1,
});

export const endpointId = endpoint.endpointId;
export const jobUrl = endpoint.jobUrl;
