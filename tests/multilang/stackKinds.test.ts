/**
 * The stack commands (`recover`, `orphans`, `import`) know a resource of the provider plugin
 * (`runpod:index:Endpoint`) as the same kind as the dynamic provider's: a pending plugin create is
 * settled against the platform's listing, and an object the stack holds under a plugin token is held.
 */
import type { Checkpoint, PendingOperation, StateResource } from "../../src/cli/stack/checkpoint";
import { planRecovery } from "../../src/cli/stack/recoveryPlan";
import { canonicalType, isPluginType, kindOf } from "../../src/cli/stack/registry";
import { AUTONAMED_PROPERTY } from "../../src/provider";

const endpointKind = kindOf("pulumi-nodejs:dynamic/runpod:Endpoint")!;
const registryAuthKind = kindOf("pulumi-nodejs:dynamic/runpod:ContainerRegistryAuth")!;
const templateKind = kindOf("pulumi-nodejs:dynamic/runpod:Template")!;

const STACK = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
const PROVIDER = "urn:pulumi:dev::proj::pulumi:providers:runpod::default_0_1_0::5f0c1d2e-0000-4000-8000-000000000001";
const urnOf = (name: string) => `urn:pulumi:dev::proj::runpod:index:Endpoint::${name}`;

const record = (id: string, name: string) => ({
  id,
  name,
  summary: "",
  record: { id, name, templateId: "tpl_vllm", gpuIds: "AMPERE_16", workersMin: 0, workersMax: 1 },
});

function creating(name: string): PendingOperation {
  return {
    type: "creating",
    resource: {
      urn: urnOf(name),
      custom: true,
      type: "runpod:index:Endpoint",
      inputs: { name: `${name}-1a2b3c4`, templateId: "tpl_vllm", gpuIds: ["AMPERE_16"], [AUTONAMED_PROPERTY]: true },
      parent: STACK,
      provider: PROVIDER,
    },
  };
}

function checkpoint(resources: StateResource[], pending: PendingOperation[]): Checkpoint {
  return {
    version: 3,
    deployment: {
      manifest: { time: "2026-01-01T00:00:00.123456789Z" },
      resources: [{ urn: STACK, custom: false, type: "pulumi:pulumi:Stack" }, ...resources],
      pending_operations: pending,
    },
  } as Checkpoint;
}

test("plugin tokens name the same kinds as the dynamic ones", () => {
  expect(kindOf("runpod:index:Endpoint")).toBe(endpointKind);
  expect(kindOf("runpod:index:Template")).toBe(templateKind);
  expect(kindOf("runpod:index:ContainerRegistryAuth")).toBe(registryAuthKind);
  expect(kindOf(endpointKind.type)).toBe(endpointKind);
  expect(kindOf("runpod:index:Cluster")).toBeUndefined();
  expect(canonicalType("runpod:index:Endpoint")).toBe(endpointKind.type);
  expect(isPluginType("runpod:index:Endpoint")).toBe(true);
  expect(isPluginType(endpointKind.type)).toBe(false);
});

test("recover adopts the object a pending plugin create made, and never one the stack holds under a plugin token", () => {
  const held: StateResource = { urn: urnOf("other"), custom: true, type: "runpod:index:Endpoint", id: "ep-held", provider: PROVIDER };
  const listings = new Map([[endpointKind.type, [record("ep-held", "api-1a2b3c4"), record("ep-new", "api-1a2b3c4")]]]);
  const [action] = planRecovery(checkpoint([held], [creating("api")]), listings);
  expect(action.action).toBe("adopt");
  expect(action.action === "adopt" && action.object.id).toBe("ep-new");
  const [none] = planRecovery(checkpoint([{ ...held, id: "ep-new" }], [creating("api")]), new Map([[endpointKind.type, [record("ep-new", "api-1a2b3c4")]]]));
  expect(none.action).toBe("drop");
});
