/**
 * The api client's template and registry-credential operations against the emulator over real HTTP:
 * create, modify, list, find, delete by name, the in-use refusal, updateEndpointTemplate, registry
 * credentials with their write-only password, and what happens to a create whose answer is lost.
 */
import type { RunningEmulator } from "../../emulator";
import { GraphQLRequestError, NotFoundError, type PlatformClient } from "../../src/api";
import { clientFor, startFastEmulator, thrown } from "./helpers";

let emu: RunningEmulator;
let client: PlatformClient;
beforeAll(async () => {
  emu = await startFastEmulator();
  client = clientFor(emu);
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

let seq = 0;
const name = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

describe("templates", () => {
  test("saveTemplate creates and modifies; listTemplates and findTemplate see it; deleteTemplate removes it by name", async () => {
    const created = await client.saveTemplate({
      name: name("api-tpl"),
      imageName: "acme/llm:1.0",
      containerDiskInGb: 20,
      env: [
        { key: "MODEL", value: "llama" },
        { key: "TOKEN", value: "s3cret" },
      ],
      ports: "8000/http",
      isServerless: true,
    });
    expect(created).toMatchObject({ imageName: "acme/llm:1.0", containerDiskInGb: 20, ports: "8000/http", isServerless: true });
    expect(created.env).toEqual([
      { key: "MODEL", value: "llama" },
      { key: "TOKEN", value: "s3cret" },
    ]);

    const modified = await client.saveTemplate({ id: created.id, name: created.name, imageName: "acme/llm:1.1", containerDiskInGb: 20, isServerless: true });
    expect(modified).toMatchObject({ id: created.id, imageName: "acme/llm:1.1" });
    expect(emu.templates("user_1").find((t) => t.id === created.id)!.templateVersion).toBe(2);

    expect((await client.listTemplates()).map((t) => t.id)).toContain(created.id);
    expect(await client.findTemplate(created.id)).toMatchObject({ name: created.name, imageName: "acme/llm:1.1" });
    expect(await client.findTemplate("tpl_nope")).toBeUndefined();

    await client.deleteTemplate(created.name);
    expect(await client.findTemplate(created.id)).toBeUndefined();
    expect(await thrown(() => client.deleteTemplate(created.name))).toBeInstanceOf(NotFoundError);
  });

  test("a template in use is refused with FAILED_PRECONDITION naming the endpoint; updateEndpointTemplate moves the endpoint", async () => {
    const a = await client.saveTemplate({ name: name("api-a"), imageName: "acme/a:1", isServerless: true });
    const b = await client.saveTemplate({ name: name("api-b"), imageName: "acme/b:1", isServerless: true });
    const ep = await client.saveEndpoint({ name: name("api-ep"), templateId: a.id, gpuIds: "AMPERE_24" });
    const refused = await thrown(() => client.deleteTemplate(a.name));
    expect(refused).toBeInstanceOf(GraphQLRequestError);
    expect((refused as GraphQLRequestError).codes).toContain("FAILED_PRECONDITION");
    expect(refused.message).toContain(ep.id);

    expect(await client.updateEndpointTemplate({ endpointId: ep.id, templateId: b.id })).toEqual({ id: ep.id, templateId: b.id });
    expect((await client.findEndpoint(ep.id))!.templateId).toBe(b.id);
    await client.deleteTemplate(a.name);
    await client.scaleDownAndDeleteEndpoint({ id: ep.id, name: ep.name, templateId: b.id, gpuIds: ep.gpuIds });
    await client.deleteTemplate(b.name);
  });

  test("a duplicate name is refused naming the field; a create whose answer is lost is not repeated", async () => {
    const first = await client.saveTemplate({ name: name("api-dup"), imageName: "acme/x:1" });
    const dup = await thrown(() => client.saveTemplate({ name: first.name, imageName: "acme/x:2" }));
    expect(dup).toBeInstanceOf(GraphQLRequestError);
    expect(dup.message).toMatch(/name/);

    const lost = name("api-lost");
    emu.setFaults({ dropAfterRate: 1, match: ["saveTemplate"] });
    const err = await thrown(() => client.saveTemplate({ name: lost, imageName: "acme/x:1" }));
    emu.setFaults({});
    expect((err as { outcomeUnknown?: boolean }).outcomeUnknown).toBe(true);
    expect((await client.listTemplates()).filter((t) => t.name === lost)).toHaveLength(1);
  });

  test("modifies are retried through a 5xx and a 429", async () => {
    const t = await client.saveTemplate({ name: name("api-retry"), imageName: "acme/r:1" });
    emu.setFaults({ errorRate: 0.5, seed: 7, match: ["saveTemplate"] });
    const first = await client.saveTemplate({ id: t.id, name: t.name, imageName: "acme/r:1b" });
    expect(first.imageName).toBe("acme/r:1b");
    emu.setFaults({ force429: 1, retryAfterSeconds: 0, match: ["saveTemplate"] });
    const modified = await client.saveTemplate({ id: t.id, name: t.name, imageName: "acme/r:2" });
    expect(modified.imageName).toBe("acme/r:2");
    expect(emu.stats().faultsByKind.force429).toBeGreaterThanOrEqual(1);
  });
});

describe("registry credentials", () => {
  test("save, list, update (password write-only), refused while a template uses them, delete", async () => {
    const saved = await client.saveRegistryAuth({ name: name("api-reg"), username: "bot", password: "pa55word" });
    expect(saved).toMatchObject({ name: saved.name });
    expect(JSON.stringify(saved)).not.toContain("pa55word");
    expect((await client.listRegistryAuths()).map((r) => r.id)).toContain(saved.id);
    expect(emu.registryAuthPasswordMatches(saved.id, "pa55word")).toBe(true);

    const updated = await client.updateRegistryAuth({ id: saved.id, username: "bot2", password: "n3w" });
    expect(updated).toMatchObject({ id: saved.id, name: saved.name });
    expect(emu.registryAuthPasswordMatches(saved.id, "n3w")).toBe(true);
    expect(emu.registryAuths("user_1").find((r) => r.id === saved.id)!.username).toBe("bot2");

    const t = await client.saveTemplate({ name: name("api-private"), imageName: "ghcr.io/acme/p:1", containerRegistryAuthId: saved.id });
    const refused = await thrown(() => client.deleteRegistryAuth(saved.id));
    expect((refused as GraphQLRequestError).codes).toContain("FAILED_PRECONDITION");
    expect(refused.message).toContain(t.name);
    await client.deleteTemplate(t.name);
    await client.deleteRegistryAuth(saved.id);
    expect((await client.listRegistryAuths()).map((r) => r.id)).not.toContain(saved.id);
    expect(await thrown(() => client.deleteRegistryAuth(saved.id))).toBeInstanceOf(NotFoundError);
  });

  test("a password never appears in an error the client throws", async () => {
    const first = await client.saveRegistryAuth({ name: name("api-reg-dup"), username: "bot", password: "first-pw" });
    const err = await thrown(() => client.saveRegistryAuth({ name: first.name, username: "bot", password: "leak-me-not" }));
    expect(err).toBeInstanceOf(GraphQLRequestError);
    expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain("leak-me-not");
    await client.deleteRegistryAuth(first.id);
  });
});
