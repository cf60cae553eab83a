"use strict";
/**
 * End-to-end fixture of tests/e2e/pod.test.ts: one Pod whose arguments are the stack config `pod`
 * (PodArgs), with `env.HF_TOKEN` from the secret config `envSecret`.
 * Exports `pod` = { id, status, desiredStatus, imageName, costPerHour, sshCommand } (never the env).
 */
const pulumi = require("@pulumi/pulumi");
const { Pod } = require("pulumi-runpod");

const config = new pulumi.Config();
const spec = config.requireObject("pod");
const pod = new Pod("dev", { ...spec, env: { ...(spec.env || {}), HF_TOKEN: config.requireSecret("envSecret") } });
exports.pod = {
  id: pod.id,
  status: pod.status,
  desiredStatus: pod.desiredStatus,
  imageName: pod.imageName,
  costPerHour: pod.costPerHour,
  sshCommand: pod.sshCommand,
};
