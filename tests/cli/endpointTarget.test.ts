/**
 * What `workers`, `logs` and `run` take from the Pulumi project they run in (src/cli/stack/endpointTarget.ts):
 * an endpoint's resource name in the stack, of the dynamic provider or the provider plugin, stands for
 * its id; the environment comes before the stack's settings; a project is found where `pulumi` finds it.
 * The commands against real Python and YAML stacks: tests/multilang/cli.test.ts.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { UsageError } from "../../src/cli/errors";
import type { Checkpoint, StateResource } from "../../src/cli/stack/checkpoint";
import { behindEnvironment, endpointIdIn, inPulumiProject } from "../../src/cli/stack/endpointTarget";

const STACK = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
const resource = (type: string, name: string, id: string, extra: Partial<StateResource> = {}): StateResource => ({
  urn: `urn:pulumi:dev::proj::${type}::${name}`,
  custom: true,
  type,
  id,
  ...extra,
});
const checkpoint = (resources: StateResource[]): Checkpoint => ({
  version: 3,
  deployment: { resources: [{ urn: STACK, custom: false, type: "pulumi:pulumi:Stack" }, ...resources] },
});

test("an endpoint's resource name stands for its id, served by the plugin or the dynamic provider", () => {
  const state = checkpoint([
    resource("runpod:index:Endpoint", "inference", "ep_plugin"),
    resource("pulumi-nodejs:dynamic/runpod:Endpoint", "batch", "ep_dynamic"),
    resource("runpod:index:Template", "llm", "tpl_1"),
    resource("runpod:index:Endpoint", "old", "ep_replaced", { delete: true }),
  ]);
  expect(endpointIdIn(state, "inference")).toBe("ep_plugin");
  expect(endpointIdIn(state, "batch")).toBe("ep_dynamic");
  // Not an endpoint, a replaced one, or no resource at all: taken as an id.
  expect(endpointIdIn(state, "llm")).toBe("llm");
  expect(endpointIdIn(state, "old")).toBe("old");
  expect(endpointIdIn(state, "flux-1-schnell")).toBe("flux-1-schnell");
  expect(endpointIdIn(checkpoint([]), "inference")).toBe("inference");
});

test("two endpoints of one name (under different parents) are a usage error naming both", () => {
  const state = checkpoint([
    resource("runpod:index:Endpoint", "api", "ep_a"),
    { ...resource("runpod:index:Endpoint", "api", "ep_b"), urn: "urn:pulumi:dev::proj::my:Component$runpod:index:Endpoint::api" },
  ]);
  expect(() => endpointIdIn(state, "api")).toThrow(UsageError);
  expect(() => endpointIdIn(state, "api")).toThrow(/ep_a.*ep_b/);
});

test("the environment comes before the stack: a setting it holds is taken out of the stack's", () => {
  const stack = { apiKey: "stack-key", graphqlUrl: "http://127.0.0.1:1/graphql", restV2Url: "http://127.0.0.1:1", timeoutMs: 5000 };
  expect(behindEnvironment(stack, { RUNPOD_API_KEY: "env-key", RUNPOD_REST_V2_URL: "http://127.0.0.1:2" })).toEqual({
    graphqlUrl: "http://127.0.0.1:1/graphql",
    timeoutMs: 5000,
  });
  // An empty variable counts as unset, as resolveClientConfig reads it.
  expect(behindEnvironment(stack, { RUNPOD_API_KEY: " " })).toEqual(stack);
});

test("a project is found in the directory or one above it, as `pulumi` finds it", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-project-"));
  try {
    const nested = path.join(root, "program", "src");
    fs.mkdirSync(nested, { recursive: true });
    expect(inPulumiProject(nested)).toBe(false);
    fs.writeFileSync(path.join(root, "program", "Pulumi.yaml"), "name: p\nruntime: yaml\n");
    expect(inPulumiProject(nested)).toBe(true);
    expect(inPulumiProject(root)).toBe(false);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
