/**
 * The object handed to `pulumi.dynamic.Resource`, one per resource kind. Pulumi serializes it into the
 * state of every resource (`__provider`) and runs that text in the dynamic provider host, so it must
 * stay tiny and capture nothing but its kind: each method loads the installed package's provider module
 * at call time instead of closing over code, configuration or secrets. The module name resolves from
 * the Pulumi program's directory, where `pulumi-runpod` is installed.
 *
 * Keep these methods free of references to anything outside their own bodies except `kind` (no
 * imports, no helper functions): tests/provider/serialization.test.ts asserts the serialized text stays
 * small and secret-free.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { ResourceKindName } from "./kinds";

/** Module the stub loads; `exports["./provider"]` of package.json. */
export const PROVIDER_MODULE = "pulumi-runpod/provider";

/**
 * One stub object per kind for the whole process: `pulumi.dynamic.Resource` caches the serialized text
 * by provider object, and serializing a closure (parsing its source, walking what it captures) costs
 * tens of milliseconds — per resource, if every resource brought a fresh object.
 */
const stubs = new Map<ResourceKindName, dynamic.ResourceProvider>();

/**
 * The stub of resource kind `kind`: every call goes to `require("pulumi-runpod/provider").resources[kind]`.
 * The same object for every call with the same kind.
 */
export function providerStub(kind: ResourceKindName): dynamic.ResourceProvider {
  let stub = stubs.get(kind);
  if (!stub) {
    stub = newStub(kind);
    stubs.set(kind, stub);
  }
  return stub;
}

/* eslint-disable @typescript-eslint/no-require-imports */
function newStub(kind: ResourceKindName): dynamic.ResourceProvider {
  return {
    async configure(req) {
      return require("pulumi-runpod/provider").configure(req);
    },
    async check(olds, news) {
      return require("pulumi-runpod/provider").resources[kind].check(olds, news);
    },
    async diff(id, olds, news) {
      return require("pulumi-runpod/provider").resources[kind].diff(id, olds, news);
    },
    async create(inputs) {
      return require("pulumi-runpod/provider").resources[kind].create(inputs);
    },
    async read(id, props) {
      return require("pulumi-runpod/provider").resources[kind].read(id, props);
    },
    async update(id, olds, news) {
      return require("pulumi-runpod/provider").resources[kind].update(id, olds, news);
    },
    async delete(id, props) {
      return require("pulumi-runpod/provider").resources[kind].delete(id, props);
    },
  };
}

/** The `Endpoint` stub. */
export const endpointProviderStub = providerStub("endpoint");

/** The `Template` stub. */
export const templateProviderStub = providerStub("template");

/** The `ContainerRegistryAuth` stub. */
export const registryAuthProviderStub = providerStub("registryAuth");
