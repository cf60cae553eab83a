/**
 * The object handed to `pulumi.dynamic.Resource`. Pulumi serializes it into the state of every
 * endpoint (`__provider`) and runs that text in the dynamic provider host, so it must stay tiny and
 * capture nothing: each method loads the installed package's provider module at call time instead of
 * closing over code, configuration or secrets. The module name resolves from the Pulumi program's
 * directory, where `pulumi-runpod` is installed.
 *
 * Keep these methods free of references to anything outside their own bodies (no imports, no helper
 * functions): tests/provider/serialization.test.ts asserts the serialized text stays small and secret-free.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";

/** Module the stub loads; `exports["./provider"]` of package.json. */
export const PROVIDER_MODULE = "pulumi-runpod/provider";

/* eslint-disable @typescript-eslint/no-require-imports */
export const endpointProviderStub: dynamic.ResourceProvider = {
  async configure(req) {
    return require("pulumi-runpod/provider").configure(req);
  },
  async check(olds, news) {
    return require("pulumi-runpod/provider").endpoint.check(olds, news);
  },
  async diff(id, olds, news) {
    return require("pulumi-runpod/provider").endpoint.diff(id, olds, news);
  },
  async create(inputs) {
    return require("pulumi-runpod/provider").endpoint.create(inputs);
  },
  async read(id, props) {
    return require("pulumi-runpod/provider").endpoint.read(id, props);
  },
  async update(id, olds, news) {
    return require("pulumi-runpod/provider").endpoint.update(id, olds, news);
  },
  async delete(id, props) {
    return require("pulumi-runpod/provider").endpoint.delete(id, props);
  },
};
