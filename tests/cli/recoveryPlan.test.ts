/**
 * `recover`'s decisions (src/cli/stack/recoveryPlan.ts) from exported states and the emulator's real
 * endpoint listing (over HTTP): which pending create is adopted, dropped or left undecided, and the
 * state edit that carries the decisions out. The real CLI and engine are exercised in tests/interrupted.
 */
import type { EndpointRecord, SaveEndpointInput } from "../../src/api/types";
import type { Checkpoint, PendingOperation, StateResource } from "../../src/cli/stack/checkpoint";
import { endpointKind } from "../../src/cli/stack/endpointKind";
import { ownershipFrom } from "../../src/cli/stack/ownership";
import { applyRecovery, kindsToList, planRecovery, type Listings, type RecoveryAction } from "../../src/cli/stack/recoveryPlan";
import { startHarness, type Harness } from "./harness";

const STACK = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
const PROVIDER = "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default";
const PROVIDER_ID = "0b9f5c1e-6d2a-4f7b-9c3e-1a2b3c4d5e6f";
const urnOf = (name: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/runpod:Endpoint::${name}`;

/** Checked inputs as the provider records them in a pending create. */
function inputs(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    __provider: "exports.handler = __f0;",
    name,
    templateId: "tpl_vllm",
    gpuIds: ["AMPERE_16"],
    type: "QB",
    idleTimeout: 5,
    locations: [],
    fastBootType: null,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    workersMin: 0,
    workersMax: 1,
    networkVolumeId: null,
    waitForWorkers: false,
    workersReadyTimeout: 600,
    ...extra,
  };
}

function creating(resourceName: string, props: Record<string, unknown>, dependencies: string[] = []): PendingOperation {
  return {
    type: "creating",
    resource: {
      urn: urnOf(resourceName),
      custom: true,
      type: endpointKind.type,
      inputs: props,
      parent: STACK,
      provider: `${PROVIDER}::${PROVIDER_ID}`,
      dependencies,
    },
  };
}

function checkpoint(resources: StateResource[], pending: PendingOperation[]): Checkpoint {
  return {
    version: 3,
    deployment: {
      manifest: { time: "2026-01-01T00:00:00.123456789Z" },
      resources: [
        { urn: STACK, custom: false, type: "pulumi:pulumi:Stack" },
        { urn: PROVIDER, custom: true, id: PROVIDER_ID, type: "pulumi:providers:pulumi-nodejs" },
        ...resources,
      ],
      pending_operations: pending,
    },
  };
}

const summary = (actions: RecoveryAction[]) =>
  actions.map((a) => [
    a.op.resource.urn.split("::").pop(),
    a.action,
    a.action === "adopt" ? a.object.id : a.action === "ambiguous" ? a.objects.map((o) => o.id).sort() : undefined,
  ]);

let h: Harness;
let listings: Listings;

function make(name: string, extra: Partial<SaveEndpointInput> = {}): Promise<EndpointRecord> {
  return h.client.saveEndpoint({ name, templateId: "tpl_vllm", gpuIds: "AMPERE_16", workersMax: 1, ...extra });
}

// Each path lists endpoints its own way (GraphQL myself, REST v2 GET /v2/serverless); the plan is the same.
describe.each(["v2", "graphql"] as const)("on API path %s", (api) => {
  // A platform of its own per path: the tests reuse endpoint names.
  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  test("a pending create whose endpoint landed is adopted, one that never reached the platform is dropped", async () => {
    const landed = await make("api-3f9a2c1");
    listings = new Map([[endpointKind.type, await endpointKind.list(h.client, api)]]);
    const state = checkpoint(
      [],
      [creating("api", inputs("api-3f9a2c1", { __autonamed: true })), creating("web", inputs("web-00aa11b", { __autonamed: true }))],
    );
    expect(kindsToList(state)).toEqual([endpointKind]);
    expect(summary(planRecovery(state, listings))).toEqual([
      ["api", "adopt", landed.id],
      ["web", "drop", undefined],
    ]);
  });

  test("a chosen name is matched on the settings the create sent too; an auto-name on name and template alone", async () => {
    // Another stack's endpoint with the same chosen name and template, but other settings: not ours.
    const someoneElses = await make("shared-name", { workersMax: 3 });
    const ours = await make("shared-name", { workersMax: 1, idleTimeout: 5 });
    const listing = await endpointKind.list(h.client, api);
    const objectOf = (r: EndpointRecord) => listing.find((o) => o.id === r.id)!;
    expect(endpointKind.madeBy(objectOf(ours), inputs("shared-name"))).toBe(true);
    expect(endpointKind.madeBy(objectOf(someoneElses), inputs("shared-name"))).toBe(false);
    // v2 reports no template (templateId is a snapshot at create), so there name and settings decide.
    expect(endpointKind.madeBy(objectOf(ours), inputs("shared-name", { templateId: "tpl_comfy" }))).toBe(api === "v2");
    // A REST v1 create (GPU type names) sends only workers and idle timeout; the rest may not have followed.
    expect(endpointKind.madeBy(objectOf(ours), inputs("shared-name", { gpuIds: undefined, gpuTypeIds: ["NVIDIA L4"], scalerValue: 9 }))).toBe(true);
    // A drawn name belongs to nothing else: the other settings are not compared.
    const drawn = await make("job-1a2b3c4", { workersMax: 3 });
    const drawnObject = (await endpointKind.list(h.client, api)).find((o) => o.id === drawn.id)!;
    expect(endpointKind.madeBy(drawnObject, inputs("job-1a2b3c4", { __autonamed: true }))).toBe(true);
    expect(endpointKind.madeBy(drawnObject, inputs("job-1a2b3c4"))).toBe(false);
  });

  test("several candidates leave the create pending; an endpoint the stack already holds is never a candidate", async () => {
    const first = await make("twin");
    const second = await make("twin");
    const held = await make("held-name");
    listings = new Map([[endpointKind.type, await endpointKind.list(h.client, api)]]);
    const state = checkpoint(
      [{ urn: urnOf("other"), custom: true, type: endpointKind.type, id: held.id, parent: STACK, provider: `${PROVIDER}::${PROVIDER_ID}` }],
      [creating("twin", inputs("twin")), creating("copy", inputs("held-name"))],
    );
    expect(summary(planRecovery(state, listings))).toEqual([
      ["twin", "ambiguous", [first.id, second.id].sort()],
      ["copy", "drop", undefined],
    ]);
  });

  test("an endpoint another stack of the backend holds is never adopted; where other stacks cannot be read, only a confirmed id is", async () => {
    const theirs = await make("theirs-4c4c4c4");
    const ours = await make("ours-5d5d5d5");
    listings = new Map([[endpointKind.type, await endpointKind.list(h.client, api)]]);
    const state = checkpoint(
      [],
      [creating("theirs", inputs("theirs-4c4c4c4", { __autonamed: true })), creating("ours", inputs("ours-5d5d5d5", { __autonamed: true }))],
    );
    const other = ownershipFrom({
      stack: "proj/dev",
      current: state,
      earlier: [],
      others: [
        {
          stack: "other/dev",
          checkpoint: { version: 3, deployment: { resources: [{ urn: "urn:pulumi:dev::other::x::y", type: endpointKind.type, custom: true, id: theirs.id }] } },
        },
      ],
    });
    const seen = planRecovery(state, listings, { ownership: other, confirmed: [] });
    expect(summary(seen)).toEqual([
      ["theirs", "drop", undefined],
      ["ours", "adopt", ours.id],
    ]);
    expect(seen[0]).toMatchObject({ heldElsewhere: { object: { id: theirs.id }, holder: { stack: "other/dev", as: "resource y" } } });
    const unseen = { ownership: { ...other, otherHolderOf: other.otherHolderOf, unseen: "not a file backend" }, confirmed: [] as string[] };
    expect(planRecovery(state, listings, unseen)[1]).toMatchObject({ action: "confirm", object: { id: ours.id }, unseen: "not a file backend" });
    expect(summary(planRecovery(state, listings, { ...unseen, confirmed: [ours.id] }))[1]).toEqual(["ours", "adopt", ours.id]);
  });

  test("two pending creates never adopt the same endpoint; pending deletes are read back; other providers' operations are left", async () => {
    const one = await make("dup-name");
    listings = new Map([[endpointKind.type, await endpointKind.list(h.client, api)]]);
    const deleting: PendingOperation = { type: "deleting", resource: { urn: urnOf("gone"), custom: true, type: endpointKind.type, id: "x1" } };
    const foreign: PendingOperation = {
      type: "creating",
      resource: { urn: "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b", custom: true, type: "aws:s3/bucket:Bucket" },
    };
    const state = checkpoint([], [creating("p", inputs("dup-name")), creating("q", inputs("dup-name")), deleting, foreign]);
    expect(summary(planRecovery(state, listings))).toEqual([
      ["p", "adopt", one.id],
      ["q", "drop", undefined],
      ["gone", "refresh", undefined],
      ["b", "foreign", undefined],
    ]);
  });

  test("the state edit: adopted resources join with their id, a replaced one is marked for deletion, dropped creates leave", async () => {
    const replacement = await make("svc-7777777");
    const fresh = await make("new-1234567");
    listings = new Map([[endpointKind.type, await endpointKind.list(h.client, api)]]);
    const old: StateResource = { urn: urnOf("svc"), custom: true, type: endpointKind.type, id: "old1", parent: STACK, provider: `${PROVIDER}::${PROVIDER_ID}` };
    const state = checkpoint(
      [old],
      [
        creating("svc", inputs("svc-7777777", { __autonamed: true, type: "QB" })),
        creating("lost", inputs("lost-0000000", { __autonamed: true })),
        creating("new", inputs("new-1234567", { __autonamed: true }), [urnOf("lost"), STACK]),
      ],
    );
    const actions = planRecovery(state, listings);
    expect(actions.map((a) => a.action === "adopt" && a.replaces)).toEqual([true, false, false]);
    const edited = applyRecovery(state, actions);
    const resources = edited.deployment.resources!;
    expect(resources.filter((r) => r.urn === urnOf("svc")).map((r) => [r.id, r.delete === true])).toEqual([
      ["old1", true],
      [replacement.id, false],
    ]);
    const adopted = resources.find((r) => r.urn === urnOf("new"))!;
    expect(adopted).toMatchObject({ id: fresh.id, custom: true, type: endpointKind.type, parent: STACK, provider: `${PROVIDER}::${PROVIDER_ID}` });
    // The recorded inputs are what the read gets as properties (with the serialized provider it runs).
    expect(adopted.outputs).toEqual(adopted.inputs);
    expect(adopted.dependencies).toEqual([STACK]); // the dropped create is no longer referred to
    expect(edited.deployment.pending_operations).toEqual([]);
    expect(state.deployment.pending_operations).toHaveLength(3); // the input is not changed
  });

  test("adopting needs the provider the create was recorded with in the state", async () => {
    await make("orphaned-9999999");
    listings = new Map([[endpointKind.type, await endpointKind.list(h.client, api)]]);
    const op = creating("x", inputs("orphaned-9999999", { __autonamed: true }));
    op.resource.provider = `${PROVIDER}::not-in-state`;
    const state = checkpoint([], [op]);
    expect(() => applyRecovery(state, planRecovery(state, listings))).toThrow(/cannot adopt .*::x: its provider .*::not-in-state is not in the stack's state/);
  });
});

test("auto-names: `<resource name>-<7 hex digits>` and nothing else", () => {
  expect(endpointKind.isAutoNameOf("api-3f9a2c1", "api")).toBe(true);
  expect(endpointKind.isAutoNameOf("api-v2-3f9a2c1", "api-v2")).toBe(true);
  expect(endpointKind.isAutoNameOf("api-v2-3f9a2c1", "api")).toBe(false);
  expect(endpointKind.isAutoNameOf("api-by-hand", "api")).toBe(false);
  expect(endpointKind.isAutoNameOf("api-3F9A2C1", "api")).toBe(false);
  expect(endpointKind.isAutoNameOf("api-3f9a2c12", "api")).toBe(false);
  expect(endpointKind.isAutoNameOf("api", "api")).toBe(false);
});
