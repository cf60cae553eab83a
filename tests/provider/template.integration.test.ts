/**
 * The Template provider against the emulator over real HTTP (issue #14): lifecycle, full-state modifies
 * under both save semantics, drift and deletion outside Pulumi, a lost create answer not duplicated,
 * deletes refused while in use retried, 429/5xx, env values kept out of errors, and the Endpoint's
 * `templateId` looked up at preview.
 */
import type { RunningEmulator, SaveSemantics } from "../../emulator";
import type { PlatformClient } from "../../src/api/types";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { TemplateProvider } from "../../src/provider/template/provider";
import { emulatorClient, startTestEmulator, uniqueName } from "./harness";
import { PlatformSession } from "../../src/provider/session";

// This file checks the GraphQL path's requests (saveEndpoint, myself, REST v1 create), so it pins
// runpod:api to graphql; the default path (v2) is covered by v2Path.integration.test.ts.
process.env.RUNPOD_API = "graphql";

const SECRET = "hf_s3cr3t-token-value";

async function checkedBy(provider: { check: TemplateProvider["check"] }, args: Record<string, unknown>, olds?: Record<string, unknown>) {
  const r = await provider.check(olds, args);
  expect(r.failures).toEqual([]);
  return r.inputs as Record<string, unknown>;
}

describe.each<SaveSemantics>(["replace", "merge"])("Template provider under %s save semantics", (saveSemantics) => {
  let emu: RunningEmulator;
  let client: PlatformClient;
  let provider: TemplateProvider;
  beforeAll(async () => {
    emu = await startTestEmulator({ saveSemantics });
    client = emulatorClient(emu);
  });
  afterAll(() => emu.close());
  beforeEach(() => {
    emu.setFaults({});
    provider = new TemplateProvider(new PlatformSession(() => client), { deadlineMs: 3000, firstPauseMs: 50 });
  });
  const onPlatform = (id: string) => emu.templates("user_1").find((t) => t.id === id);

  test("create → no-op diff → one-field modify keeps every other field → drift shows → delete", async () => {
    const args = {
      name: uniqueName("tpl"),
      imageName: "ghcr.io/acme/llm:1.4.3",
      containerDiskInGb: 20,
      volumeInGb: 5,
      volumeMountPath: "/models",
      ports: ["8000/http", "22/tcp"],
      dockerArgs: "python serve.py",
      env: { MODEL: "llama", HF_TOKEN: SECRET },
      readme: "LLM worker",
    };
    const inputs = await checkedBy(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect(onPlatform(id)).toMatchObject({
      name: args.name,
      imageName: args.imageName,
      containerDiskInGb: 20,
      volumeInGb: 5,
      isServerless: true,
      ports: "8000/http,22/tcp",
    });
    expect(outs).toMatchObject({ env: { MODEL: "llama", HF_TOKEN: SECRET }, ports: ["8000/http", "22/tcp"] });
    expect(await provider.diff(id, outs as never, inputs)).toMatchObject({ changes: false, replaces: [] });

    const next = await checkedBy(provider, { ...args, imageName: "ghcr.io/acme/llm:1.4.4" }, inputs);
    const d = await provider.diff(id, outs as never, next);
    expect(d).toMatchObject({ changes: true, changed: ["imageName"], replaces: [], deleteBeforeReplace: false });
    emu.resetStats();
    const updated = await provider.update(id, outs as never, next);
    // The save, and the endpoint listing (GraphQL `myself`) that finds the endpoints whose rollout it follows (none here).
    expect(emu.stats().byOperation).toEqual({ saveTemplate: 1, myself: 1 });
    expect(onPlatform(id)).toMatchObject({
      imageName: "ghcr.io/acme/llm:1.4.4",
      containerDiskInGb: 20,
      volumeInGb: 5,
      volumeMountPath: "/models",
      dockerArgs: "python serve.py",
      readme: "LLM worker",
      templateVersion: 2,
    });
    expect(onPlatform(id)!.env).toEqual([
      { key: "MODEL", value: "llama" },
      { key: "HF_TOKEN", value: SECRET },
    ]);

    // Drift made outside Pulumi shows on read and in the next diff.
    await emulatorClient(emu).saveTemplate({
      id,
      name: args.name,
      imageName: "ghcr.io/acme/llm:1.4.4",
      containerDiskInGb: 99,
      env: [{ key: "MODEL", value: "other" }],
      isServerless: true,
    });
    const read = await provider.read(id, updated.outs as never);
    expect(read.props).toMatchObject({ containerDiskInGb: 99, env: { MODEL: "other" } });
    const drift = await provider.diff(id, read.props as never, next);
    expect(drift.changed).toEqual(expect.arrayContaining(["containerDiskInGb", "env"]));

    // Template.get reads it with the lookup marker and its inputs come from the record.
    const got = await provider.read(id, { __lookup: true });
    expect(got.props).toMatchObject({ name: args.name, imageName: "ghcr.io/acme/llm:1.4.4" });

    await provider.delete(id, read.props as never);
    expect(onPlatform(id)).toBeUndefined();
    expect(await provider.read(id, read.props as never)).toEqual({});
    await expect(provider.read(id, { __lookup: true })).rejects.toThrow(`Template.get: no template with id "${id}" exists for the configured API key`);
    await provider.delete(id, read.props as never); // already gone counts as deleted
  });
});

describe("Template provider: faults, in-use deletes, secrets, Endpoint lookups", () => {
  let emu: RunningEmulator;
  let client: PlatformClient;
  let provider: TemplateProvider;
  beforeAll(async () => {
    emu = await startTestEmulator({ templateReleaseMs: 600 });
    client = emulatorClient(emu);
  });
  afterAll(() => emu.close());
  beforeEach(() => {
    emu.setFaults({});
    provider = new TemplateProvider(new PlatformSession(() => client), { deadlineMs: 4000, firstPauseMs: 50 });
  });
  const named = (name: string) => emu.templates("user_1").filter((t) => t.name === name);

  test("a create whose answer is lost is adopted, not repeated (chosen and auto names)", async () => {
    const name = uniqueName("lost");
    const inputs = await checkedBy(provider, { name, imageName: "acme/x:1" });
    emu.resetStats();
    emu.setFaults({ dropAfterRate: 1, match: ["saveTemplate"] });
    const p = provider.create(inputs);
    // Only the create is faulted; the listing that settles it answers.
    const { id } = await p;
    emu.setFaults({});
    expect(emu.stats().faultsByKind.dropAfter).toBe(1);
    expect(named(name).map((t) => t.id)).toEqual([id]);

    const auto = await checkedBy(provider, { imageName: "acme/x:1", __namePrefix: "auto" });
    emu.setFaults({ dropAfterRate: 1, match: ["saveTemplate"] });
    const created = await provider.create(auto);
    emu.setFaults({});
    expect(named(auto.name as string).map((t) => t.id)).toEqual([created.id]);
  });

  test("429 and 5xx are retried (create once, modify)", async () => {
    const name = uniqueName("busy");
    const inputs = await checkedBy(provider, { name, imageName: "acme/x:1" });
    emu.setFaults({ force429: 2, retryAfterSeconds: 0, match: ["saveTemplate"] });
    const { id, outs } = await provider.create(inputs);
    expect(named(name)).toHaveLength(1);
    emu.setFaults({ errorRate: 0.5, seed: 3, match: ["saveTemplate"] });
    const next = await checkedBy(provider, { name, imageName: "acme/x:2" }, inputs);
    await provider.update(id, outs as never, next);
    emu.setFaults({});
    expect(named(name)[0].imageName).toBe("acme/x:2");
    expect(emu.stats().faultsByKind.force429).toBeGreaterThanOrEqual(2);
  });

  test("delete while the platform still counts an endpoint is retried until released; past the deadline it names the endpoint", async () => {
    const endpoints = new EndpointProvider(new PlatformSession(() => client));
    const inputs = await checkedBy(provider, { name: uniqueName("inuse"), imageName: "acme/x:1" });
    const tpl = await provider.create(inputs);
    const epInputs = await checkedBy(endpoints, { name: uniqueName("ep"), templateId: tpl.id, gpuIds: ["AMPERE_24"] });
    const ep = await endpoints.create(epInputs);

    // Still used: the retries run out and the error names the endpoint.
    const short = new TemplateProvider(new PlatformSession(() => client), { deadlineMs: 300, firstPauseMs: 50 });
    const err = (await short.delete(tpl.id, tpl.outs as never).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain("still in use");
    expect(err.message).toContain(ep.id);

    // Endpoint deleted first (Pulumi's order); the release window (600 ms) is waited out.
    await endpoints.delete(ep.id, ep.outs as never);
    emu.resetStats();
    await provider.delete(tpl.id, tpl.outs as never);
    expect(emu.templates("user_1").find((t) => t.id === tpl.id)).toBeUndefined();
    expect(emu.stats().byOperation.deleteTemplate).toBeGreaterThan(1);
  });

  test("no env value in check failures or errors the provider throws", async () => {
    const bad = await provider.check(undefined, { name: uniqueName("bad"), imageName: "acme/x:1", env: { "1BAD": SECRET } });
    expect(bad.failures!.map((f) => f.property)).toEqual(["env"]);
    expect(JSON.stringify(bad.failures)).not.toContain(SECRET);

    // The platform refuses the create (the name is taken): the error carries no env value.
    const taken = await checkedBy(provider, { name: uniqueName("taken"), imageName: "acme/x:1" });
    await provider.create(taken);
    const again = await checkedBy(provider, { name: taken.name, imageName: "acme/x:1", env: { HF_TOKEN: SECRET } });
    const err = (await provider.create(again).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/already exists/);
    expect(`${err.message}\n${err.stack}\n${JSON.stringify(err)}`).not.toContain(SECRET);
  });

  test("validation at preview names the field and the accepted range (GB)", async () => {
    const r = await provider.check(undefined, {
      name: uniqueName("v"),
      imageName: "acme/x:1",
      containerDiskInGb: 2000,
      ports: ["99999/udp"],
      volumeMountPath: "relative",
    });
    const byField = Object.fromEntries(r.failures!.map((f) => [f.property, f.reason]));
    expect(byField.containerDiskInGb).toMatch(/GB from 1 to 1024/);
    expect(byField.ports).toMatch(/port\/protocol/);
    expect(byField.volumeMountPath).toMatch(/absolute path/);
    const missing = await provider.check(undefined, { name: "x" });
    expect(missing.failures).toEqual([{ property: "imageName", reason: expect.stringMatching(/^imageName is required/) }]);
    const auth = await provider.check(undefined, { name: "x", imageName: "a/b:1", containerRegistryAuthId: "nope_1" });
    expect(auth.failures![0]).toMatchObject({ property: "containerRegistryAuthId", reason: expect.stringContaining("not one of your registry credentials") });
  });

  test("Endpoint check: an unknown templateId fails at preview; a known one and an unknown value pass", async () => {
    const endpoints = new EndpointProvider(new PlatformSession(() => client));
    const r = await endpoints.check(undefined, { name: "e", templateId: "tpl_missing", gpuIds: ["AMPERE_24"] });
    expect(r.failures).toEqual([{ property: "templateId", reason: expect.stringContaining('templateId "tpl_missing" is not one of your templates') }]);
    const pod = await endpoints.check(undefined, { name: "e", templateId: "tpl_pod_only", gpuIds: ["AMPERE_24"] });
    expect(pod.failures![0].reason).toContain("pod template");
    expect((await endpoints.check(undefined, { name: "e", templateId: "tpl_vllm", gpuIds: ["AMPERE_24"] })).failures).toEqual([]);
    const { UNKNOWN } = await import("../../src/provider/unknown");
    expect((await endpoints.check(undefined, { name: "e", templateId: UNKNOWN, gpuIds: ["AMPERE_24"] })).failures).toEqual([]);
  });
});
