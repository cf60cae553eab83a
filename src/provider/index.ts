/**
 * The package's provider module, `pulumi-runpod/provider`: what every serialized stub (serializable.ts)
 * loads inside the dynamic provider host at call time — `configure` and `resources.<kind>` — and the
 * resource models with what is derived from them (field lists, defaults, README tables).
 *
 * Loading it is light (the models and the stubs; no api client, no zod): Pulumi programs load it for
 * the field names. The runtime (runtime.ts), and with it the api client, loads at the first call.
 */
import { RESOURCE_KIND_NAMES, type ResourceKindName, type ResourceOperations } from "./kinds";
import { exitWhenParentDies } from "./parentWatch";
import type { ConfigSource } from "./providerConfig";
import type { ProviderRuntime } from "./runtime";

let runtime: Promise<ProviderRuntime> | undefined;

/** The process's one runtime. */
function processRuntime(): Promise<ProviderRuntime> {
  runtime ??= import("./runtime").then((m) => new m.ProviderRuntime());
  return runtime;
}

/**
 * The dynamic provider's `configure` hook, called by the host once per distinct serialized stub: the
 * first call configures the process; a repeated configuration changes nothing (runtime.ts).
 */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  exitWhenParentDies();
  (await processRuntime()).configure(req);
}

function operationsOf(kind: ResourceKindName): ResourceOperations {
  const provider = async () => (await processRuntime()).provider(kind);
  return {
    check: async (olds, news) => (await provider()).check(olds, news),
    diff: async (id, olds, news) => (await provider()).diff(id, olds, news),
    create: async (inputs) => (await provider()).create(inputs),
    read: async (id, props) => (await provider()).read(id, props),
    update: async (id, olds, news) => (await provider()).update(id, olds, news),
    delete: async (id, props) => (await provider()).delete(id, props),
  };
}

/** Each resource kind's operations as the dynamic provider host calls them, e.g. `resources.endpoint.create(inputs)`. */
export const resources = Object.fromEntries(RESOURCE_KIND_NAMES.map((kind) => [kind, operationsOf(kind)])) as Record<ResourceKindName, ResourceOperations>;

/** `resources.endpoint` under the name stubs serialized by earlier versions call, so their stacks keep working. */
export const endpoint: ResourceOperations = resources.endpoint;

export { RESOURCE_KINDS, RESOURCE_KIND_NAMES, type ResourceKindName, type ResourceOperations } from "./kinds";
export { providerStub, endpointProviderStub, templateProviderStub, registryAuthProviderStub, PROVIDER_MODULE } from "./serializable";
export { AUTONAMED_PROPERTY, LOOKUP_PROPERTY, NAME_PREFIX_PROPERTY, PROVIDER_PROPERTY, RESERVED_PROPERTIES } from "./reserved";
export { clientInputFromConfig, type ConfigSource } from "./providerConfig";
export { UNKNOWN } from "./unknown";
export { argumentNames, changeOf, defaultsOf, inputNames, outputNames, secretNames, settingNames, typeToken, type ResourceModel } from "./model/fields";
export { renderArgumentTable, renderChangePolicyTable } from "./model/tables";
export {
  ENDPOINT_MODEL,
  ENDPOINT_ARG_FIELDS,
  ENDPOINT_DEFAULTS,
  ENDPOINT_INPUT_FIELDS,
  ENDPOINT_OUTPUT_FIELDS,
  ENDPOINT_SETTING_DEFAULTS,
  ENDPOINT_SETTING_FIELDS,
  CUDA_VERSIONS,
  type CudaVersion,
  type EndpointInputField,
  type EndpointInputs,
  type EndpointOutputs,
  type EndpointSettingField,
  type EndpointSettings,
} from "./endpoint/model";
export { checkEndpointInputs, type EndpointCheck, type InputFailure } from "./endpoint/check";
export { API_PATHS, API_PATH_CONFIG_KEY, DEFAULT_API_PATH, resolveApiPath, type ApiPath, type PerPath } from "./apiPath";
export { LISTINGS, type Listings } from "./paths/listings";
export { diffEndpoint, type EndpointDiff } from "./endpoint/diff";
export { outputsFromRecord, restCreateInputFrom } from "./endpoint/state";
export { isAutoNameOf, AUTONAME_FORM } from "./naming";
export { EndpointInitError } from "./endpoint/initError";
export {
  TEMPLATE_MODEL,
  TEMPLATE_ARG_FIELDS,
  TEMPLATE_DEFAULTS,
  TEMPLATE_INPUT_FIELDS,
  TEMPLATE_OUTPUT_FIELDS,
  TEMPLATE_SECRET_FIELDS,
  type TemplateInputField,
  type TemplateInputs,
  type TemplateOutputs,
} from "./template/model";
export {
  REGISTRY_AUTH_MODEL,
  REGISTRY_AUTH_ARG_FIELDS,
  REGISTRY_AUTH_INPUT_FIELDS,
  REGISTRY_AUTH_OUTPUT_FIELDS,
  REGISTRY_AUTH_SECRET_FIELDS,
  type RegistryAuthInputField,
  type RegistryAuthInputs,
  type RegistryAuthOutputs,
} from "./registryAuth/model";
