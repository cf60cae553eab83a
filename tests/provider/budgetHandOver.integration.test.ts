/**
 * The budget refusal's total with and without the program's hand-over of the declared endpoints and pods
 * (src/resources/stackMembers.ts; docs/cost.md "Stack budget"), against the emulator: handed over, the
 * endpoints not checked yet count; without one (the provider plugin's programs hand none) the refusal
 * says that it counts the checked ones alone.
 */
import type { PlatformClient } from "../../src/api";
import { STACK_MEMBERS_PROPERTY, type StackMember } from "../../src/provider/catalog/stackMembers";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { CHECKED_ONLY } from "../../src/provider/kindSession";
import { NAME_PREFIX_PROPERTY } from "../../src/provider/reserved";
import { PlatformSession } from "../../src/provider/session";
import { emulatorPerFile } from "./harness";

let client: PlatformClient;
emulatorPerFile((_emu, c) => (client = c));

const endpoints = () => new EndpointProvider(new PlatformSession(() => client, { catalogSettings: { maxHourlyCost: "0.5" } }));
const args = (resource: string, extra: Record<string, unknown> = {}) => ({
  [NAME_PREFIX_PROPERTY]: resource,
  name: resource,
  templateId: "tpl_vllm",
  gpuIds: ["ADA_24"],
  workersMax: 1,
  ...extra,
});

test("without a hand-over the refusal counts the checked endpoints and says so", async () => {
  const r = await endpoints().check(undefined, args("big"));
  expect(r.failures).toEqual([{ property: "", reason: expect.stringMatching(/^the stack would cost up to \$\d+\.\d\d\/h .*: big \$\d+\.\d\d\/h = 100%; /) }]);
  expect(r.failures![0].reason.endsWith(`; ${CHECKED_ONLY}`)).toBe(true);
});

test("with the program's hand-over the refusal counts the endpoint declared after the crossing one, and makes no such note", async () => {
  const members: StackMember[] = [
    { kind: "endpoint", key: "big", args: { gpuIds: ["ADA_24"], workersMax: 1 } },
    { kind: "endpoint", key: "later", args: { gpuIds: ["ADA_24"], workersMax: 1 } },
  ];
  const r = await endpoints().check(undefined, { ...args("big"), [STACK_MEMBERS_PROPERTY]: members });
  expect(r.failures).toEqual([{ property: "", reason: expect.stringMatching(/: big \$(\d+\.\d\d)\/h = 50%, later \$\1\/h = 50%$/) }]);
});
