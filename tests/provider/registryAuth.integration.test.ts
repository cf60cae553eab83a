/**
 * The ContainerRegistryAuth provider against the emulator over real HTTP (issue #14): lifecycle with a
 * write-only password, refresh blind to a password changed outside Pulumi, a lost create answer not
 * duplicated, a delete refused while a template names the credentials retried until the template moves,
 * 429/5xx, and no password in errors.
 */
import type { RunningEmulator, SaveSemantics } from "../../emulator";
import type { PlatformClient } from "../../src/api/types";
import { RegistryAuthProvider } from "../../src/provider/registryAuth/provider";
import { TemplateProvider } from "../../src/provider/template/provider";
import { emulatorClient, startTestEmulator, uniqueName } from "./harness";
import { PlatformSession } from "../../src/provider/session";

// This file checks the GraphQL path's requests (saveEndpoint, myself, REST v1 create), so it pins
// runpod:api to graphql; the default path (v2) is covered by v2Path.integration.test.ts.
process.env.RUNPOD_API = "graphql";

const PASSWORD = "ghp_registry-secret-123";

describe.each<SaveSemantics>(["replace", "merge"])("ContainerRegistryAuth provider (%s save semantics)", (saveSemantics) => {
  let emu: RunningEmulator;
  let client: PlatformClient;
  let provider: RegistryAuthProvider;
  beforeAll(async () => {
    emu = await startTestEmulator({ saveSemantics });
    client = emulatorClient(emu);
  });
  afterAll(() => emu.close());
  beforeEach(() => {
    emu.setFaults({});
    provider = new RegistryAuthProvider(new PlatformSession(() => client), { deadlineMs: 3000, firstPauseMs: 50 });
  });
  const onPlatform = (id: string) => emu.registryAuths("user_1").find((r) => r.id === id);

  async function created(args: Record<string, unknown>) {
    const { inputs, failures } = await provider.check(undefined, args);
    expect(failures).toEqual([]);
    return { inputs: inputs as Record<string, unknown>, ...(await provider.create(inputs!)) };
  }

  test("create → update username and password in place → refresh cannot see a password changed outside → delete", async () => {
    const { id, outs, inputs } = await created({ name: uniqueName("ghcr"), username: "bot", password: PASSWORD });
    expect(onPlatform(id)).toMatchObject({ username: "bot" });
    expect(emu.registryAuthPasswordMatches(id, PASSWORD)).toBe(true);
    expect(outs).toMatchObject({ name: inputs.name, username: "bot", password: PASSWORD });
    expect(await provider.diff(id, outs as never, inputs)).toMatchObject({ changes: false });

    const next = { ...inputs, username: "bot2", password: "new-pass" };
    expect(await provider.diff(id, outs as never, next)).toMatchObject({ changed: ["username", "password"], replaces: [] });
    await provider.update(id, outs as never, next);
    expect(onPlatform(id)).toMatchObject({ username: "bot2" });
    expect(emu.registryAuthPasswordMatches(id, "new-pass")).toBe(true);

    // Changed outside Pulumi: the platform never reports it, so refresh carries the stored one.
    await emulatorClient(emu).updateRegistryAuth({ id, username: "bot2", password: "changed-outside" });
    const read = await provider.read(id, { ...outs, ...next } as never);
    expect(read.props).toMatchObject({ username: "bot2", password: "new-pass" });

    await provider.delete(id, read.props as never);
    expect(onPlatform(id)).toBeUndefined();
    expect(await provider.read(id, read.props as never)).toEqual({});
  });

  test("a lost create answer is adopted, not repeated; 429 is retried", async () => {
    const name = uniqueName("lost-reg");
    emu.resetStats();
    emu.setFaults({ dropAfterRate: 1, match: ["saveRegistryAuth"] });
    const first = provider.check(undefined, { name, username: "bot", password: PASSWORD }).then((r) => provider.create(r.inputs!));
    const { id } = await first;
    emu.setFaults({});
    expect(
      emu
        .registryAuths("user_1")
        .filter((r) => r.name === name)
        .map((r) => r.id),
    ).toEqual([id]);

    emu.setFaults({ force429: 1, retryAfterSeconds: 0, match: ["updateRegistryAuth"] });
    await provider.update(id, { name, username: "bot", password: PASSWORD }, { name, username: "bot", password: "p2" });
    emu.setFaults({});
    expect(emu.registryAuthPasswordMatches(id, "p2")).toBe(true);
  });

  test("delete refused while a template names the credentials: retried until the template moves off; past the deadline the error names it", async () => {
    const templates = new TemplateProvider(new PlatformSession(() => client));
    const auth = await created({ name: uniqueName("in-use"), username: "bot", password: PASSWORD });
    const t = await templates.check(undefined, { name: uniqueName("private"), imageName: "ghcr.io/acme/p:1", containerRegistryAuthId: auth.id });
    expect(t.failures).toEqual([]);
    const tpl = await templates.create(t.inputs!);

    const short = new RegistryAuthProvider(new PlatformSession(() => client), { deadlineMs: 200, firstPauseMs: 50 });
    const err = (await short.delete(auth.id, auth.outs as never).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("still in use");
    expect(err.message).toContain(tpl.id);
    expect(err.message).not.toContain(PASSWORD);

    // The template moves off while the delete retries (as Pulumi's update of the template does first).
    const refusals = emu.stats().byOperation.deleteRegistryAuth ?? 0;
    const deleting = provider.delete(auth.id, auth.outs as never);
    // Once the platform has refused the delete at least once, so the move happens while it retries.
    while ((emu.stats().byOperation.deleteRegistryAuth ?? 0) <= refusals) await new Promise((r) => setTimeout(r, 5));
    await templates.update(tpl.id, tpl.outs as never, { ...(t.inputs as object), containerRegistryAuthId: null });
    await deleting;
    expect(onPlatform(auth.id)).toBeUndefined();
  });

  test("a refused create never quotes the password", async () => {
    const name = uniqueName("dup-reg");
    await created({ name, username: "bot", password: "first" });
    const r = await provider.check(undefined, { name, username: "bot", password: PASSWORD });
    const err = (await provider.create(r.inputs!).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(`${err.message}\n${err.stack}\n${JSON.stringify(err)}`).not.toContain(PASSWORD);
    const bad = await provider.check(undefined, { name, username: "", password: "x".repeat(5000) });
    expect(bad.failures!.map((f) => f.property)).toEqual(["username", "password"]);
    expect(JSON.stringify(bad.failures)).not.toContain("x".repeat(100));
  });
});
