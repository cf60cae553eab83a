/**
 * The package's provider module, `pulumi-runpod/provider`: what the serialized stub (serializable.ts)
 * loads inside the dynamic provider host at call time. It holds the process's configuration and the
 * one {@link EndpointProvider} serving every `Endpoint` of the stack, so the shared endpoint listing
 * (endpointLookup.ts) spans all of them.
 */
import { createClient, resolveClientConfig } from "../api";
import type { ClientConfigInput } from "../api/config";
import { EndpointProvider } from "./endpointProvider";
import { clientInputFromConfig, type ConfigSource } from "./providerConfig";

let stackConfig: ClientConfigInput = {};
let endpointProvider = newEndpointProvider();

function newEndpointProvider(): EndpointProvider {
  // Built on first use, i.e. after `configure`, which the host always calls before any operation.
  return new EndpointProvider(() => createClient(resolveClientConfig(stackConfig, process.env)));
}

/**
 * The dynamic provider's `configure` hook: keeps the `runpod:*` stack configuration (the API key
 * included) in this process only; it never reaches inputs, outputs or the serialized provider.
 */
export async function configure(req: { config: ConfigSource }): Promise<void> {
  // A host that was given no configuration at all cannot look keys up; that means "nothing set".
  const get = (key: string): string | undefined => {
    try {
      return req?.config?.get(key);
    } catch {
      return undefined;
    }
  };
  stackConfig = clientInputFromConfig({ get });
  endpointProvider = newEndpointProvider();
}

/** The `Endpoint` operations as the dynamic provider host calls them. */
export const endpoint = {
  check: (olds: Record<string, unknown>, news: Record<string, unknown>) => endpointProvider.check(olds, news),
  diff: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => endpointProvider.diff(id, olds, news),
  create: (news: Record<string, unknown>) => endpointProvider.create(news),
  read: (id: string, props?: Record<string, unknown>) => endpointProvider.read(id, props),
  update: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => endpointProvider.update(id, olds, news),
  delete: (id: string, props: Record<string, unknown>) => endpointProvider.delete(id, props),
};

export { EndpointProvider, EndpointInitError } from "./endpointProvider";
export { checkEndpointInputs, type EndpointInputs } from "./endpointInputs";
export { diffEndpoint, ENDPOINT_CHANGE_POLICY, renderChangePolicyTable } from "./endpointDiff";
export { endpointProviderStub, PROVIDER_MODULE } from "./serializable";
export type { EndpointOutputs } from "./endpointState";
