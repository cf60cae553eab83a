/**
 * The Endpoint provider's operations against the emulator over real HTTP (issue #4 "Done when";
 * create/delete guarantees of issue #6).
 */
import type { RunningEmulator } from "../../emulator";
import type { EndpointRecord, PlatformClient, SaveEndpointInput } from "../../src/api/types";
import { EndpointInitError, EndpointProvider } from "../../src/provider/endpoint/provider";
import { createClient, explainError, resolveClientConfig } from "../../src/api";
import { PULUMI_HINTS } from "../../src/provider/providerConfig";
import { PlatformSession } from "../../src/provider/session";
import { fieldsOf, saveEndpointInputSchema } from "../../src/api/schemas";
import { emulatorAddresses, emulatorClient, emulatorPerFile, uniqueName } from "./harness";

// This file checks the GraphQL path's requests (saveEndpoint, myself, REST v1 create), so it pins
// runpod:api to graphql; the default path (v2) is covered by v2Path.integration.test.ts.
process.env.RUNPOD_API = "graphql";

let emu: RunningEmulator;
let client: PlatformClient;
/** A client used "behind the provider's back", like a colleague in the console. */
let outside: PlatformClient;
let provider: EndpointProvider;
emulatorPerFile((e, c) => ([emu, client, outside] = [e, c, emulatorClient(e)]));
beforeEach(() => {
  emu.setFaults({});
  provider = new EndpointProvider(new PlatformSession(() => client));
});

const onPlatform = (id: string): EndpointRecord | undefined => emu.endpoints(emu.apiKey).find((e) => e.id === id);

/** Deletes an endpoint outside Pulumi (scale to zero first, as the platform requires). */
async function deleteOutside(id: string): Promise<void> {
  const rec = onPlatform(id)!;
  await outside.saveEndpoint({ id, name: rec.name, templateId: rec.templateId, gpuIds: rec.gpuIds, workersMin: 0, workersMax: 0 });
  await outside.deleteEndpoint(id);
}

/** check + create, as the engine does; fails the test on check failures. */
async function createChecked(args: Record<string, unknown>) {
  const checked = await provider.check(undefined, args);
  expect(checked.failures).toEqual([]);
  const created = await provider.create(checked.inputs);
  return { inputs: checked.inputs as Record<string, unknown>, ...created };
}

describe("Endpoint provider lifecycle", () => {
  it("create → read → update → drift → read shows it → delete with workers > 0 → gone", async () => {
    const name = uniqueName("life");
    const args = { name, templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], locations: ["US", "FR"], workersMin: 1, workersMax: 2 };

    // create
    const { id, outs, inputs } = await createChecked(args);
    const rec = onPlatform(id)!;
    expect(rec).toMatchObject({ name, templateId: "tpl_vllm", gpuIds: "ADA_24,AMPERE_24", type: "QB", workersMin: 1, workersMax: 2 });
    expect(rec.locations!.split(",").sort()).toEqual(["FR", "US"]);
    expect(outs!.endpointId).toBe(id);
    expect(outs!.jobUrl).toBe(`${emu.urls.inference}/v2/${id}/`);
    expect(outs!.gpuIds).toEqual(["ADA_24", "AMPERE_24"]);
    expect(await provider.diff(id, outs as never, inputs)).toMatchObject({ changes: false });

    // read (refresh) right after create: same outputs, still no diff
    const read1 = await provider.read(id, outs as never);
    expect(read1.id).toBe(id);
    expect(read1.props).toEqual(outs);
    expect(await provider.diff(id, read1.props as never, inputs)).toMatchObject({ changes: false });

    // update in place
    const changedArgs = { ...args, workersMax: 4, idleTimeout: 30, locations: ["FR", "US"] };
    const next = (await provider.check(inputs, changedArgs)).inputs as Record<string, unknown>;
    const d = await provider.diff(id, read1.props as never, next);
    expect(d).toMatchObject({ changes: true, replaces: [], changed: ["idleTimeout", "workersMax"] });
    const updated = await provider.update(id, read1.props as never, next);
    expect(updated.outs).toMatchObject({ endpointId: id, workersMax: 4, idleTimeout: 30, workersMin: 1 });
    expect(onPlatform(id)).toMatchObject({ id, workersMax: 4, idleTimeout: 30, name });

    // drift behind the provider's back
    // (the whole record, as a modify must be on a platform that resets omitted fields)
    // (only what saveEndpoint takes: the record also holds read-only fields such as createdAt)
    const live = fieldsOf(saveEndpointInputSchema, onPlatform(id) as unknown as SaveEndpointInput);
    await outside.saveEndpoint({ ...live, scalerValue: 9, workersMax: 6 });
    const read2 = await provider.read(id, updated.outs as never);
    expect(read2.props).toMatchObject({ scalerValue: 9, workersMax: 6 });
    const drift = await provider.diff(id, read2.props as never, next);
    expect(drift).toMatchObject({ changes: true, replaces: [], changed: ["scalerValue", "workersMax"] });

    // delete with workers > 0 (workersMin 1): scaled to zero, then deleted
    expect(onPlatform(id)!.workersMin).toBe(1);
    await provider.delete(id, read2.props as never);
    expect(onPlatform(id)).toBeUndefined();

    // an endpoint deleted outside Pulumi drops from the stack on refresh
    expect(await provider.read(id, read2.props as never)).toEqual({});
  });

  it("refresh does not show a diff for an endpoint created with defaults only", async () => {
    const { id, outs, inputs } = await createChecked({ name: uniqueName("defaults"), templateId: "tpl_comfy", gpuIds: ["AMPERE_16"] });
    const read = await provider.read(id, outs as never);
    expect(await provider.diff(id, read.props as never, inputs)).toMatchObject({ changes: false });
    await provider.delete(id, outs as never);
  });

  it("update of an endpoint deleted outside Pulumi says to refresh", async () => {
    const { id, outs, inputs } = await createChecked({ name: uniqueName("gone"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    await deleteOutside(id);
    await expect(provider.update(id, outs as never, { ...inputs, workersMax: 5 })).rejects.toThrow(/no longer exists.*pulumi refresh/);
  });
});

describe("Endpoint provider: GPU type names (REST v1 create)", () => {
  it("creates through REST v1 and sets the fields the REST body lacks with one saveEndpoint", async () => {
    emu.resetStats();
    const name = uniqueName("types");
    const args = {
      name,
      templateId: "tpl_vllm",
      gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA RTX A5000"],
      type: "LB",
      locations: ["NO"],
      scalerValue: 7,
      workersMax: 2,
    };
    const { id, outs, inputs } = await createChecked(args);
    expect(onPlatform(id)).toMatchObject({ name, gpuIds: "ADA_24,AMPERE_24", type: "LB", locations: "NO", scalerValue: 7, workersMax: 2 });
    expect(outs).toMatchObject({ gpuTypeIds: args.gpuTypeIds, gpuIds: ["ADA_24", "AMPERE_24"] });
    const ops = emu.stats().byOperation;
    expect(ops.restCreateEndpoint).toBe(1);
    expect(ops.saveEndpoint).toBe(1);

    const read = await provider.read(id, outs as never);
    expect(read.props).toMatchObject({ gpuTypeIds: args.gpuTypeIds });
    expect(await provider.diff(id, read.props as never, inputs)).toMatchObject({ changes: false });

    // an in-place change of a type-named endpoint keeps the platform's tiers
    const next = { ...inputs, workersMax: 3 };
    const up = await provider.update(id, read.props as never, next);
    expect(up.outs).toMatchObject({ workersMax: 3, gpuIds: ["ADA_24", "AMPERE_24"], gpuTypeIds: args.gpuTypeIds });
    await provider.delete(id, up.outs as never);
    expect(onPlatform(id)).toBeUndefined();
  });

  it("skips the follow-up saveEndpoint when the REST body carried everything", async () => {
    emu.resetStats();
    const { id, outs } = await createChecked({
      name: uniqueName("types-only"),
      templateId: "tpl_vllm",
      gpuTypeIds: ["NVIDIA L4"],
      workersMax: 1,
      idleTimeout: 9,
    });
    expect(emu.stats().byOperation.restCreateEndpoint).toBe(1);
    expect(emu.stats().byOperation.saveEndpoint ?? 0).toBe(0);
    expect(onPlatform(id)).toMatchObject({ gpuIds: "AMPERE_24", workersMax: 1, idleTimeout: 9 });
    await provider.delete(id, outs as never);
  });

  it("a refresh that sees the tiers changed outside Pulumi clears gpuTypeIds so the next up restores them by replacement", async () => {
    const { id, outs, inputs } = await createChecked({ name: uniqueName("types-drift"), templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"] });
    const rec = onPlatform(id)!;
    await outside.saveEndpoint({ id, name: rec.name, templateId: rec.templateId, gpuIds: "AMPERE_80" });
    const read = await provider.read(id, outs as never);
    expect(read.props).toMatchObject({ gpuIds: ["AMPERE_80"], gpuTypeIds: null });
    expect(await provider.diff(id, read.props as never, inputs)).toMatchObject({ changes: true, replaces: ["gpuTypeIds"] });
    await provider.delete(id, read.props as never);
  });

  it("a failed follow-up saveEndpoint reports the created endpoint so the engine keeps it (no leak)", async () => {
    const name = uniqueName("types-half");
    emu.setFaults({ errorRate: 1, match: ["saveEndpoint"] });
    const checked = await provider.check(undefined, { name, templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"], type: "LB" });
    const err = await provider.create(checked.inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    emu.setFaults({});
    expect(err).toBeInstanceOf(EndpointInitError);
    const init = err as EndpointInitError;
    expect(onPlatform(init.id)).toMatchObject({ name, type: "QB" });
    expect(init.properties).toMatchObject({ endpointId: init.id, type: "QB" });
    expect(init.message).toMatch(/pulumi up/);
    // the next `up` diffs the recorded outputs and finishes in place
    const d = await provider.diff(init.id, init.properties as never, checked.inputs as never);
    expect(d).toMatchObject({ changes: true, changed: ["type"] });
    await provider.delete(init.id, init.properties as never);
  });
});

describe("Endpoint provider: create is not blindly repeated", () => {
  it.each([
    ["saveEndpoint", { gpuIds: ["ADA_24"] }],
    ["restCreateEndpoint", { gpuTypeIds: ["NVIDIA L4"] }],
  ])("connection dropped after %s took effect → exactly one endpoint, adopted", async (operation, gpu) => {
    const name = uniqueName(`drop-${operation}`);
    const checked = await provider.check(undefined, { name, templateId: "tpl_vllm", ...gpu });
    emu.resetStats();
    emu.setFaults({ dropAfterRate: 1, match: [operation] });
    const created = await provider.create(checked.inputs);
    emu.setFaults({});
    expect(emu.stats().faultsByKind.dropAfter).toBeGreaterThanOrEqual(1);
    const mine = emu.endpoints(emu.apiKey).filter((e) => e.name === name);
    expect(mine).toHaveLength(1);
    expect(created.id).toBe(mine[0].id);
    await provider.delete(created.id, created.outs as never);
  });

  it("an endpoint with the same name and template that existed before is never adopted", async () => {
    const name = uniqueName("twin");
    const older = await outside.saveEndpoint({ name, templateId: "tpl_vllm", gpuIds: "ADA_24" });
    const checked = await provider.check(undefined, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint"] });
    const created = await provider.create(checked.inputs);
    emu.setFaults({});
    expect(created.id).not.toBe(older.id);
    expect(emu.endpoints(emu.apiKey).filter((e) => e.name === name)).toHaveLength(2);
    await provider.delete(created.id, created.outs as never);
    await provider.delete(older.id, {});
  });

  it("when the look for it fails too, the error says the endpoint may exist and how to adopt it", async () => {
    provider = new EndpointProvider(new PlatformSession(() => client, { lookupWindowMs: 60_000 }));
    const name = uniqueName("lost");
    const checked = await provider.check(undefined, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    await provider.directory.list();
    emu.setFaults({ dropAfterRate: 1, match: ["saveEndpoint", "myself"] });
    const err = (await provider.create(checked.inputs).catch((e: unknown) => e)) as Error;
    emu.setFaults({});
    expect(err.message).toMatch(new RegExp(`"${name}" got no answer.*looking for it failed too.*import`));
    expect(err.message).not.toContain(emu.apiKey);
    const left = emu.endpoints(emu.apiKey).filter((e) => e.name === name);
    expect(left).toHaveLength(1);
    await provider.delete(left[0].id, {});
  });

  it("a create dropped before taking effect is tried once more → one endpoint", async () => {
    const name = uniqueName("drop-before");
    const checked = await provider.check(undefined, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    emu.resetStats();
    // Injected 5xx answers come before the effect; the client cannot know that, so the outcome is unknown.
    emu.setFaults({ force429: 0, errorRate: 1, match: ["saveEndpoint"] });
    const first = provider.create(checked.inputs);
    await expect(first).rejects.toMatchObject({ outcomeUnknown: true });
    expect(emu.endpoints(emu.apiKey).filter((e) => e.name === name)).toHaveLength(0);
    // one attempt, a look for the endpoint, exactly one more attempt
    expect(emu.stats().byOperation.saveEndpoint).toBe(2);
    emu.setFaults({});
    const created = await provider.create(checked.inputs);
    expect(emu.endpoints(emu.apiKey).filter((e) => e.name === name)).toHaveLength(1);
    await provider.delete(created.id, created.outs as never);
  });
});

describe("Endpoint provider: delete", () => {
  it("an endpoint already deleted (or never existing) counts as deleted", async () => {
    const { id, outs } = await createChecked({ name: uniqueName("deleted"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    await deleteOutside(id);
    expect(onPlatform(id)).toBeUndefined();
    await expect(provider.delete(id, outs as never)).resolves.toBeUndefined();
    await expect(provider.delete("doesnotexist00", {})).resolves.toBeUndefined();
  });

  it("a failed delete changes nothing; the next destroy finishes, also from a scaled-down endpoint", async () => {
    const { id, outs } = await createChecked({ name: uniqueName("resume"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 2 });
    emu.setFaults({ errorRate: 1, match: ["deleteEndpoint"] });
    await expect(provider.delete(id, outs as never)).rejects.toThrow(/deleteEndpoint/);
    emu.setFaults({});
    expect(onPlatform(id)).toMatchObject({ workersMin: 2 });
    // Left scaled to zero but not deleted (e.g. by a platform taking one mutation per request); the
    // engine keeps the old state (workers 2) and calls delete again.
    await outside.saveEndpoint({ id, name: outs!.name, templateId: "tpl_vllm", gpuIds: "ADA_24", workersMin: 0, workersMax: 0 });
    emu.resetStats();
    await provider.delete(id, outs as never);
    expect(onPlatform(id)).toBeUndefined();
    // A look at the workers (no job running), then the delete alone.
    expect(emu.stats().requests).toBe(2);
  });

  it("scales down again when workers were raised between the two steps", async () => {
    // A listing that stays fresh for the whole test, so the provider sees the stale 0/0 below.
    provider = new EndpointProvider(new PlatformSession(() => client, { lookupWindowMs: 60_000 }));
    const { id, outs } = await createChecked({ name: uniqueName("race"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMax: 0 });
    await provider.directory.list();
    // Someone raises the workers after the provider's listing said 0/0 (no scale-down needed).
    await outside.saveEndpoint({ id, name: outs!.name, templateId: "tpl_vllm", gpuIds: "ADA_24", workersMin: 1, workersMax: 1 });
    emu.resetStats();
    await provider.delete(id, outs as never);
    expect(onPlatform(id)).toBeUndefined();
    // refused once (FAILED_PRECONDITION), scaled down, deleted
    expect(emu.stats().byOperation).toMatchObject({ deleteEndpoint: 2, saveEndpoint: 1 });
  });
});

describe("Endpoint provider: read and import", () => {
  it("Endpoint.get / import: empty props → outputs and inputs rebuilt from the platform's record, no diff", async () => {
    const rec = await outside.saveEndpoint({
      name: uniqueName("imported"),
      templateId: "tpl_comfy",
      gpuIds: "AMPERE_48,ADA_48_PRO",
      locations: "RO,CZ",
      fastBootType: "FASTBOOT",
      networkVolumeId: "nv_cache01",
      workersMax: 5,
    });
    const read = await provider.read(rec.id, {});
    expect(read.id).toBe(rec.id);
    expect(read.props).toMatchObject({
      endpointId: rec.id,
      name: rec.name,
      gpuIds: ["AMPERE_48", "ADA_48_PRO"],
      locations: ["RO", "CZ"],
      fastBoot: true,
      networkVolumeId: "nv_cache01",
      jobUrl: `${emu.urls.inference}/v2/${rec.id}/`,
    });
    // The engine checks the rebuilt inputs and diffs them against the read outputs: nothing may differ.
    const checked = await provider.check(undefined, read.inputs as never);
    expect(checked.failures).toEqual([]);
    expect(await provider.diff(rec.id, read.props as never, checked.inputs as never)).toMatchObject({ changes: false });
    expect(read.props).not.toHaveProperty("gpuTypeIds");

    // `import` resource option: the program's own args must match the endpoint for the import to pass
    const args = {
      name: rec.name,
      templateId: "tpl_comfy",
      gpuIds: ["AMPERE_48", "ADA_48_PRO"],
      locations: ["CZ", "RO"],
      fastBoot: true,
      networkVolumeId: "nv_cache01",
      workersMax: 5,
    };
    const fromArgs = await provider.read(rec.id, args);
    const news = await provider.check(undefined, args);
    expect(await provider.diff(rec.id, fromArgs.props as never, news.inputs as never)).toMatchObject({ changes: false });
    await provider.delete(rec.id, {});
  });

  it("concurrent reads share one endpoint listing", async () => {
    const made = await Promise.all([1, 2, 3].map((i) => outside.saveEndpoint({ name: uniqueName(`many${i}`), templateId: "tpl_vllm", gpuIds: "ADA_24" })));
    const before = provider.directory.listingCount;
    emu.resetStats();
    const reads = await Promise.all([...made.map((e) => provider.read(e.id, {})), provider.read("nonexistent000", {})]);
    expect(reads.map((r) => r.id)).toEqual([...made.map((e) => e.id), undefined]);
    expect(provider.directory.listingCount - before).toBe(1);
    expect(emu.stats().byOperation.myself).toBe(1);
    for (const e of made) await provider.delete(e.id, {});
  });
});

describe("Endpoint provider: check against the platform", () => {
  it("an unknown networkVolumeId fails at check, listing the volumes that exist", async () => {
    const r = await provider.check(undefined, { name: "n", templateId: "tpl_vllm", gpuIds: ["ADA_24"], networkVolumeId: "nv_nope" });
    expect(r.failures).toHaveLength(1);
    expect(r.failures![0]).toMatchObject({ property: "networkVolumeId" });
    expect(r.failures![0].reason).toMatch(/nv_nope.*nv_models01 \(models\).*nv_cache01 \(cache\)/);
  });

  it("another user's volume is unknown too; a volume of the caller passes", async () => {
    const r1 = await provider.check(undefined, { name: "n", templateId: "tpl_vllm", gpuIds: ["ADA_24"], networkVolumeId: "nv_other01" });
    expect(r1.failures!.map((f) => f.property)).toEqual(["networkVolumeId"]);
    const r2 = await provider.check(undefined, { name: "n", templateId: "tpl_vllm", gpuIds: ["ADA_24"], networkVolumeId: "nv_models01" });
    expect(r2.failures).toEqual([]);
  });

  it("bad input creates nothing: check fails before any request", async () => {
    emu.resetStats();
    const r = await provider.check(undefined, { name: "", templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 3, workersMax: 1 });
    expect(r.failures!.map((f) => f.property).sort()).toEqual(["name", "workersMin"]);
    expect(emu.stats().requests).toBe(0);
  });
});

describe("Endpoint provider: authentication", () => {
  it("no API key: check (preview) fails naming the setting and RUNPOD_API_KEY; nothing is sent (the module adds the runpod:apiKey hint)", async () => {
    const keyless = new EndpointProvider(new PlatformSession(() => createClient(resolveClientConfig({ ...emulatorAddresses(emu) }, {}))));
    emu.resetStats();
    const err = (await keyless.check(undefined, { name: "n", templateId: "tpl_vllm", gpuIds: ["ADA_24"] }).catch((e: unknown) => e)) as Error;
    expect(err.name).toBe("ConfigurationError");
    expect(err.message).toMatch(/apiKey.*RUNPOD_API_KEY/);
    expect(explainError(err, { hints: PULUMI_HINTS })).toMatch(/Set it with `pulumi config set --secret runpod:apiKey <key>`$/);
    expect(emu.stats().requests).toBe(0);
  });

  it("a read-only key: create fails with a 403 that says what to fix, nothing is created", async () => {
    const ro = new EndpointProvider(new PlatformSession(() => emulatorClient(emu, emu.readOnlyApiKey)));
    const name = uniqueName("readonly");
    const checked = await ro.check(undefined, { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    const err = (await ro.create(checked.inputs).catch((e: unknown) => e)) as Error;
    expect(err.name).toBe("PermissionError");
    expect(err.message).toMatch(/permission/i);
    expect(err.message).not.toContain(emu.readOnlyApiKey);
    expect(emu.endpoints(emu.apiKey).filter((e) => e.name === name)).toHaveLength(0);
  });

  it("an invalid key: 401; the Pulumi front end's hint names the config key", async () => {
    const bad = new EndpointProvider(new PlatformSession(() => emulatorClient(emu, "rpa_not_a_key")));
    const err = (await bad.read("abc", {}).catch((e: unknown) => e)) as Error;
    expect(err.name).toBe("AuthenticationError");
    expect(err.message).toMatch(/\(HTTP 401, /);
    expect(explainError(err, { hints: PULUMI_HINTS })).toContain("pulumi config set --secret runpod:apiKey <key>");
    expect(err.message).not.toContain("rpa_not_a_key");
  });
});

describe("Endpoint flashboot on graphql", () => {
  it("on graphql, FLASHBOOT is saved as fastBootType FASTBOOT and reads back as FLASHBOOT", async () => {
    const provider = new EndpointProvider(new PlatformSession(() => client, { api: "graphql" }));
    const { inputs } = (await provider.check(undefined, {
      name: uniqueName("gql-fb"),
      templateId: "tpl_vllm",
      gpuIds: ["ADA_24"],
      flashboot: "FLASHBOOT",
    })) as { inputs: Record<string, unknown> };
    const { id, outs } = await provider.create(inputs as never);
    expect(outs).toMatchObject({ flashboot: "FLASHBOOT", fastBootType: "FASTBOOT" });
    const read = await new EndpointProvider(new PlatformSession(() => client, { api: "graphql" })).read(id, outs);
    expect((await provider.diff(id, read.props as never, inputs as never)).changes).toBe(false);
    // The same endpoint read through REST v2 (a stack moving paths) shows no drift either.
    const viaV2 = await new EndpointProvider(new PlatformSession(() => client, { api: "v2" })).read(id, outs);
    expect((viaV2.props as Record<string, unknown>).flashboot).toBe("FLASHBOOT");
    await provider.delete(id, outs as never);
  });
});
