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
import { withPulumiHint, type ConfigSource } from "./providerConfig";
import { quiet } from "./quietErrors";
import type { CatalogReads } from "./catalog/queries";
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

/**
 * The catalog reads of the configured session, for the provider plugin's catalog functions: in the
 * plugin's process they share the reads preview makes.
 * @internal
 */
export async function catalogReads(): Promise<CatalogReads> {
  return (await processRuntime()).catalogReads;
}

function operationsOf(kind: ResourceKindName): ResourceOperations {
  // Every failure the engine shows gets the Pulumi front end's hint (where the key is set), and no stack trace (quietErrors.ts).
  const call = async <T>(op: (p: ResourceOperations) => Promise<T>): Promise<T> => {
    try {
      return await op(await (await processRuntime()).provider(kind));
    } catch (err) {
      throw quiet(withPulumiHint(err));
    }
  };
  return {
    check: (olds, news) => call((p) => p.check(olds, news)),
    diff: (id, olds, news) => call((p) => p.diff(id, olds, news)),
    create: (inputs) => call((p) => p.create(inputs)),
    read: (id, props) => call((p) => p.read(id, props)),
    update: (id, olds, news) => call((p) => p.update(id, olds, news)),
    delete: (id, props) => call((p) => p.delete(id, props)),
  };
}

/** Each resource kind's operations as the dynamic provider host calls them, e.g. `resources.endpoint.create(inputs)`. */
export const resources = Object.fromEntries(RESOURCE_KIND_NAMES.map((kind) => [kind, operationsOf(kind)])) as Record<ResourceKindName, ResourceOperations>;

/**
 * `resources.endpoint` under the name a pre-release stub called; no released stack depends on it.
 * @internal
 */
export const endpoint: ResourceOperations = resources.endpoint;

// The public surface (etc/api-report.md): the serialized-stub contract above (`configure`,
// `resources.<kind>`), which stacks written by any released version call (their stubs are kept in
// tests/provider/fixtures), and the types of the public resources' outputs.
export type { ResourceKindName, ResourceOperations } from "./kinds";
export { PULUMI_CONFIG_KEYS, type ConfigSource } from "./providerConfig";
export type { CudaVersion, EndpointInputs, EndpointOutputs, EndpointSettings } from "./endpoint/model";
export type { TemplateInputs, TemplateOutputs } from "./template/model";
export type { PodInputs, PodOutputs } from "./pod/model";
export type { RegistryAuthInputs, RegistryAuthOutputs } from "./registryAuth/model";
export type { NetworkVolumeInputs, NetworkVolumeOutputs } from "./networkVolume/model";

// Internals: used by this package's resources and CLI, stripped from the declarations (stripInternal).
/** @internal */
export { KINDS, RESOURCE_KINDS, RESOURCE_KIND_NAMES } from "./kinds";
/** @internal */
export type { AnyKind, KindDescriptor, StackFacts } from "./kind";
/** @internal */
export { providerStub, endpointProviderStub, templateProviderStub, registryAuthProviderStub, PROVIDER_MODULE } from "./serializable";
/** @internal */
export { AUTONAMED_PROPERTY, CHECKED_PROPERTY, LOOKUP_PROPERTY, NAME_PREFIX_PROPERTY, PROVIDER_PROPERTY, RESERVED_PROPERTIES } from "./reserved";
/** @internal */
export { clientInputFromConfig, PULUMI_HINTS } from "./providerConfig";
/** @internal */
export { UNKNOWN } from "./unknown";
/** @internal */
export {
  argumentNames,
  changeOf,
  defaultsOf,
  inputNames,
  outputNames,
  secretNames,
  secretOutputNames,
  settingNames,
  typeToken,
  type ArgsOf,
  type ResourceModel,
} from "./model/fields";
/** @internal */
export { renderArgumentTable, renderChangePolicyTable } from "./model/tables";
/** @internal */
export { checkedInputs } from "./model/state";
/** @internal */
export {
  ENDPOINT_MODEL,
  ENDPOINT_ARG_FIELDS,
  ENDPOINT_DEFAULTS,
  ENDPOINT_INPUT_FIELDS,
  ENDPOINT_OUTPUT_FIELDS,
  ENDPOINT_SETTING_DEFAULTS,
  ENDPOINT_SETTING_FIELDS,
  ENDPOINT_SECRET_FIELDS,
  CUDA_VERSIONS,
  type EndpointInputField,
  type EndpointSettingField,
} from "./endpoint/model";
/** @internal */
export { checkEndpointInputs, type EndpointCheck, type InputFailure } from "./endpoint/check";
/** @internal */
export { diffEndpoint, type EndpointDiff } from "./endpoint/diff";
/** @internal */
export { outputsFromRecord } from "./endpoint/state";
/** @internal */
export { isAutoNameOf, AUTONAME_FORM } from "./naming";
/** @internal */
export { EndpointInitError } from "./endpoint/initError";
/** @internal */
export {
  TEMPLATE_MODEL,
  TEMPLATE_ARG_FIELDS,
  TEMPLATE_DEFAULTS,
  TEMPLATE_INPUT_FIELDS,
  TEMPLATE_OUTPUT_FIELDS,
  TEMPLATE_SECRET_FIELDS,
  type TemplateInputField,
} from "./template/model";
/** @internal */
export {
  REGISTRY_AUTH_MODEL,
  REGISTRY_AUTH_ARG_FIELDS,
  REGISTRY_AUTH_INPUT_FIELDS,
  REGISTRY_AUTH_OUTPUT_FIELDS,
  REGISTRY_AUTH_SECRET_FIELDS,
  type RegistryAuthInputField,
} from "./registryAuth/model";
/** @internal */
export {
  NETWORK_VOLUME_MODEL,
  NETWORK_VOLUME_ARG_FIELDS,
  NETWORK_VOLUME_INPUT_FIELDS,
  NETWORK_VOLUME_OUTPUT_FIELDS,
  VOLUME_TYPES,
  type NetworkVolumeInputField,
} from "./networkVolume/model";
/** @internal */
export { POD_MODEL, POD_ARG_FIELDS, POD_DEFAULTS, POD_INPUT_FIELDS, POD_OUTPUT_FIELDS, POD_SECRET_FIELDS, type PodInputField } from "./pod/model";
// Public: the resource classes' Args and outputs name these.
export type { VolumeTypeName } from "./networkVolume/model";
export type { PodStatus, CloudType, DesiredStatus } from "./pod/model";
