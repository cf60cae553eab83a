"use strict";
/**
 * End-to-end fixture of registry credentials → templates → endpoints, all from stack config:
 *
 *   registries  { <resource name>: ContainerRegistryAuthArgs without password }; the password is the
 *               secret config `registryPassword`
 *   templates   { <resource name>: TemplateArgs }; `registry: "<registry resource name>"` sets
 *               containerRegistryAuthId to that resource's id; `secretEnv: ["KEY", ...]` adds each KEY
 *               from the secret config `envSecret`
 *   endpoints   { <resource name>: EndpointArgs }; `template: "<template resource name>"` sets templateId;
 *               `secretEnv: ["KEY", ...]` adds each KEY from the secret config `envSecret`, as for templates
 *
 * Exports: `reg_<name>` = { id, name }, `tpl_<name>` = { id, name, imageName } (never the env),
 * `ep_<name>` = { id, templateId, imageName } (never the env).
 */
const pulumi = require("@pulumi/pulumi");
const { ContainerRegistryAuth, Endpoint, Template } = require("pulumi-runpod");

const config = new pulumi.Config();
const registries = {};
const templates = {};

for (const [name, spec] of Object.entries(config.getObject("registries") || {})) {
  registries[name] = new ContainerRegistryAuth(name, { ...spec, password: config.requireSecret("registryPassword") });
  exports[`reg_${name}`] = { id: registries[name].id, name: registries[name].name };
}

for (const [name, spec] of Object.entries(config.getObject("templates") || {})) {
  const { registry, secretEnv, ...args } = spec;
  if (registry !== undefined) args.containerRegistryAuthId = registries[registry].id;
  if (secretEnv !== undefined) {
    args.env = { ...(args.env || {}) };
    for (const key of secretEnv) args.env[key] = config.requireSecret("envSecret");
  }
  templates[name] = new Template(name, args);
  exports[`tpl_${name}`] = { id: templates[name].id, name: templates[name].name, imageName: templates[name].imageName };
}

for (const [name, spec] of Object.entries(config.getObject("endpoints") || {})) {
  const { template, secretEnv, ...args } = spec;
  if (template !== undefined) args.templateId = templates[template].id;
  if (secretEnv !== undefined) {
    args.env = { ...(args.env || {}) };
    for (const key of secretEnv) args.env[key] = config.requireSecret("envSecret");
  }
  const endpoint = new Endpoint(name, args);
  exports[`ep_${name}`] = { id: endpoint.id, templateId: endpoint.templateId, imageName: endpoint.imageName };
}
