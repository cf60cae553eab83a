/**
 * Settling a template's or registry credentials' create whose answer was lost, on REST v2, where names are not
 * unique (CreateTemplateRequest / CreateRegistryRequest: `name` minLength 1 only): a same-named record made outside
 * the stack before the create is never adopted; the record the lost create made is, and no second one is made.
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api";
import { RegistryAuthProvider } from "../../src/provider/registryAuth/provider";
import { PlatformSession } from "../../src/provider/session";
import { TemplateProvider } from "../../src/provider/template/provider";
import { emulatorPerFile, uniqueName } from "./harness";

let emu: RunningEmulator;
let client: PlatformClient;
emulatorPerFile((e, c) => ([emu, client] = [e, c]));
afterEach(() => emu.setFaults({}));
const v2Session = () => new PlatformSession(() => client, { api: "v2" });

test("template: a lost create answer adopts the template it made, not a same-named one made outside the stack", async () => {
  const name = uniqueName("shared-name");
  const outside = await client.v2.createTemplate({ name, image: "someone/else:1" } as never);
  const provider = new TemplateProvider(v2Session());
  const checked = await provider.check(undefined, { name, imageName: "me/mine:1" });
  expect(checked.failures).toEqual([]);
  emu.setFaults({ dropAfterRate: 1, match: ["createTemplate"] });
  const made = await provider.create(checked.inputs!);
  emu.setFaults({});
  const same = emu.templates("user_1").filter((t) => t.name === name);
  expect(same.map((t) => t.id).sort()).toEqual([outside.id, made.id].sort());
  expect(made.id).not.toBe(outside.id);
  expect(same.find((t) => t.id === made.id)?.imageName).toBe("me/mine:1");
});

test("registry credentials: a lost create answer adopts the record it made, not a same-named one made outside the stack", async () => {
  const name = uniqueName("shared-reg");
  const outside = await client.v2.createRegistry({ name, username: "u", password: "p" } as never);
  const provider = new RegistryAuthProvider(v2Session());
  const checked = await provider.check(undefined, { name, username: "bot", password: "pw-123" });
  expect(checked.failures).toEqual([]);
  emu.setFaults({ dropAfterRate: 1, match: ["createRegistry"] });
  const made = await provider.create(checked.inputs!);
  emu.setFaults({});
  const same = emu.registryAuths("user_1").filter((r) => r.name === name);
  expect(same.map((r) => r.id).sort()).toEqual([outside.id, made.id].sort());
  expect(same.find((r) => r.id === made.id)?.username).toBe("bot");
});

test("template: an auto-named create settles a lost answer without a listing before it", async () => {
  const provider = new TemplateProvider(v2Session());
  const checked = await provider.check(undefined, { __namePrefix: "auto", imageName: "me/auto:1" } as never);
  expect(checked.failures).toEqual([]);
  emu.resetStats();
  emu.setFaults({ dropAfterRate: 1, match: ["createTemplate"] });
  const made = await provider.create(checked.inputs!);
  emu.setFaults({});
  expect(
    emu
      .templates("user_1")
      .filter((t) => t.name === made.outs?.name)
      .map((t) => t.id),
  ).toEqual([made.id]);
  // The create, then one listing that finds it.
  expect(emu.stats().byOperation).toMatchObject({ createTemplate: 1, listTemplates: 1 });
});
