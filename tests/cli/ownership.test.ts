/**
 * The ownership rule of the stack commands (src/cli/stack/ownership.ts) decided from exported states
 * and the emulator's real template and endpoint listings (over HTTP): what proves an object this
 * stack's, which stack holds one, and that a name's form proves nothing. The files of a real file
 * backend and the commands built on the rule: tests/interrupted/ownership.test.ts.
 */
import type { Checkpoint, PendingOperation, StateResource } from "../../src/cli/stack/checkpoint";
import { ownershipFrom } from "../../src/cli/stack/ownership";
import type { PlatformObject } from "../../src/cli/stack/stackKind";
import { startHarness, type Harness } from "./harness";
import { kindOf } from "../../src/cli/stack/registry";

const endpointKind = kindOf("pulumi-nodejs:dynamic/runpod:Endpoint")!;
const templateKind = kindOf("pulumi-nodejs:dynamic/runpod:Template")!;

const urn = (project: string, type: string, name: string) => `urn:pulumi:dev::${project}::${type}::${name}`;
const template = (project: string, name: string, id: string | undefined, platformName: string): StateResource => ({
  urn: urn(project, templateKind.type, name),
  type: templateKind.type,
  custom: true,
  ...(id !== undefined && { id }),
  inputs: { name: platformName, imageName: "alpine:3" },
  outputs: { name: platformName, imageName: "alpine:3" },
});
const checkpoint = (resources: StateResource[], pending: PendingOperation[] = []): Checkpoint => ({
  version: 3,
  deployment: { resources, pending_operations: pending },
});

let h: Harness;
let templates: PlatformObject[];
const byName = (name: string) => templates.find((t) => t.name === name)!;

beforeAll(async () => {
  h = await startHarness();
  for (const name of ["shared-1a2b3c4", "shared-5d6e7f8", "shared-0000aaa", "gone-from-state", "shared-bbbb111", "by-hand"]) {
    await h.client.saveTemplate({ name, imageName: "alpine:3", isServerless: true });
  }
  templates = await templateKind.list(h.client, "v2");
});

afterAll(async () => {
  await h?.close();
});

test("a name of this stack's auto-name form proves nothing; another project's resource of the same name holds its object", () => {
  const ownership = ownershipFrom({
    stack: "first/dev",
    current: checkpoint([template("first", "shared", byName("shared-1a2b3c4").id, "shared-1a2b3c4")]),
    earlier: [],
    others: [{ stack: "second/dev", checkpoint: checkpoint([template("second", "shared", byName("shared-5d6e7f8").id, "shared-5d6e7f8")]) }],
  });
  const theirs = byName("shared-5d6e7f8");
  expect(ownership.proofOf(templateKind, theirs)).toBeUndefined();
  expect(ownership.holderOf(templateKind, theirs)).toEqual({ stack: "second/dev", self: false, as: "resource shared" });
  expect(ownership.otherHolderOf(templateKind, byName("shared-1a2b3c4"))).toBeUndefined();
  expect(ownership.holderOf(templateKind, byName("shared-1a2b3c4"))).toEqual({ stack: "first/dev", self: true, as: "resource shared" });
  // Neither held nor recorded anywhere: no stack's, whatever its name looks like.
  for (const name of ["shared-0000aaa", "by-hand"]) {
    expect(ownership.proofOf(templateKind, byName(name))).toBeUndefined();
    expect(ownership.holderOf(templateKind, byName(name))).toBeUndefined();
  }
  expect(ownership.unseen).toBeUndefined();
});

test("proof: an id an earlier checkpoint records, a pending operation's id, a pending create's exact name (now or earlier)", () => {
  const recorded = byName("gone-from-state");
  const unrecorded = byName("shared-0000aaa");
  const cleared = byName("shared-bbbb111");
  const pendingCreate = (name: string, platformName: string): PendingOperation => ({
    type: "creating",
    resource: { urn: urn("first", templateKind.type, name), type: templateKind.type, custom: true, inputs: { name: platformName, imageName: "alpine:3" } },
  });
  const ownership = ownershipFrom({
    stack: "first/dev",
    current: checkpoint([], [pendingCreate("shared", "shared-0000aaa")]),
    earlier: [checkpoint([template("first", "old", recorded.id, "gone-from-state")], [pendingCreate("shared", "shared-bbbb111")])],
    others: [],
  });
  expect(ownership.proofOf(templateKind, recorded)).toBe("recorded resource old");
  expect(ownership.proofOf(templateKind, cleared)).toBe("pending create of shared");
  // A create still pending now: this stack holds its object (recover settles it), so it is no orphan.
  expect(ownership.holderOf(templateKind, unrecorded)).toEqual({ stack: "first/dev", self: true, as: "pending create of shared" });
  expect(ownership.holderOf(templateKind, cleared)).toBeUndefined();
  // Only the exact name: an object of another name is not that create's.
  expect(ownership.proofOf(templateKind, byName("shared-1a2b3c4"))).toBeUndefined();
  // A pending delete or update names its object by id.
  const deleting = ownershipFrom({
    stack: "first/dev",
    current: checkpoint([], [{ type: "deleting", resource: template("first", "old", recorded.id, "gone-from-state") }]),
    earlier: [],
    others: [],
  });
  expect(deleting.holderOf(templateKind, recorded)).toEqual({ stack: "first/dev", self: true, as: "pending delete of old" });
});

test("another stack's pending create holds the object it may have made; for an endpoint of a chosen name, its settings must match too", async () => {
  const made = await h.client.saveEndpoint({ name: "chosen", templateId: "tpl_vllm", gpuIds: "AMPERE_16", workersMax: 1 });
  const endpoint = (await endpointKind.list(h.client, "v2")).find((e) => e.id === made.id)!;
  const pending = (workersMax: number): PendingOperation => ({
    type: "creating",
    resource: {
      urn: urn("second", endpointKind.type, "api"),
      type: endpointKind.type,
      custom: true,
      inputs: {
        name: "chosen",
        templateId: "tpl_vllm",
        gpuIds: ["AMPERE_16"],
        workersMin: 0,
        workersMax,
        idleTimeout: 5,
        scalerType: "QUEUE_DELAY",
        scalerValue: 4,
      },
    },
  });
  const heldBy = (workersMax: number) =>
    ownershipFrom({
      stack: "first/dev",
      current: checkpoint([]),
      earlier: [],
      others: [{ stack: "second/dev", checkpoint: checkpoint([], [pending(workersMax)]) }],
    }).holderOf(endpointKind, endpoint);
  expect(heldBy(1)).toEqual({ stack: "second/dev", self: false, as: "pending create of api" });
  expect(heldBy(3)).toBeUndefined();
});

test("a stack that could not be read is said so", () => {
  const ownership = ownershipFrom({ stack: "first/dev", current: checkpoint([]), earlier: [], others: [], unseen: "cannot read the state of x/y" });
  expect(ownership.unseen).toBe("cannot read the state of x/y");
});
