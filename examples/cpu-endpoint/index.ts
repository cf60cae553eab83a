import * as pulumi from "@pulumi/pulumi";
import { Endpoint } from "pulumi-runpod";

const config = new pulumi.Config();

// A queue-based endpoint on CPU workers that runs an image directly: no template, its own container.
// `pulumi config set --secret apiToken …` keeps the value out of plain state (env values are secrets).
const endpoint = new Endpoint("cpu-worker", {
  imageName: `ghcr.io/acme/cpu-worker:${config.get("imageTag") ?? "1.0.0"}`,
  env: { LOG_LEVEL: "info", API_TOKEN: config.getSecret("apiToken") ?? "unset" },
  cpuFlavorIds: ["cpu3c", "cpu5c"], // catalog CPU flavors in priority order (see getCpuTypes())
  vcpuCount: 4, // per worker: a power of two every listed flavor offers
  workersMax: 2,
});

export const endpointId = endpoint.endpointId;
export const imageName = endpoint.imageName;
export const runUrl = endpoint.requestUrls.apply((urls) => (urls && "run" in urls ? urls.run : undefined));
export const maxHourlyCost = endpoint.maxHourlyCost;
