"use strict";
/**
 * End-to-end fixture of a whole stack from stack config (plain JavaScript: no compile step):
 *
 *   volumes    { <resource name>: NetworkVolumeArgs }
 *   templates  { <resource name>: TemplateArgs }
 *   endpoints  { <resource name>: EndpointArgs }; `volume` / `template` name a volume or template of
 *              this program (its id, a reference), else `networkVolumeId` / `templateId` are literals;
 *              `after` names an endpoint declared before it that it depends on (registered after it)
 *   pods       { <resource name>: PodArgs }
 */
const pulumi = require("@pulumi/pulumi");
const runpod = require("pulumi-runpod");

const config = new pulumi.Config();
const volumes = {};
const templates = {};
for (const [name, args] of Object.entries(config.getObject("volumes") || {})) volumes[name] = new runpod.NetworkVolume(name, args);
for (const [name, args] of Object.entries(config.getObject("templates") || {})) templates[name] = new runpod.Template(name, args);
const endpoints = {};
for (const [name, spec] of Object.entries(config.getObject("endpoints") || {})) {
  const { volume, template, after, ...args } = spec;
  if (volume) args.networkVolumeId = volumes[volume].id;
  if (template) args.templateId = templates[template].id;
  endpoints[name] = new runpod.Endpoint(name, args, after ? { dependsOn: [endpoints[after]] } : undefined);
}
for (const [name, args] of Object.entries(config.getObject("pods") || {})) new runpod.Pod(name, args);
