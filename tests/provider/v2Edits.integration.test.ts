/**
 * Ordinary edits on REST v2 (`runpod:api v2`, the default) against the emulator over HTTP, each done as
 * the engine does it (check, diff, then update or create-and-delete as the diff says) and read back
 * without a diff: a CUDA set swapped for a floor and back in one PATCH, a template's volume removed, a
 * template renamed in place, a public template, registry credentials replaced while a template uses them.
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { RegistryAuthProvider } from "../../src/provider/registryAuth/provider";
import { PlatformSession } from "../../src/provider/session";
import { TemplateProvider } from "../../src/provider/template/provider";
import { emulatorPerFile, uniqueName } from "./harness";

type Props = Record<string, unknown>;

let emu: RunningEmulator;
let client: PlatformClient;
emulatorPerFile((e, c) => ([emu, client] = [e, c]));

const on = (api: "v2" | "graphql") => new PlatformSession(() => client, { api });
const inUse = { deadlineMs: 3000, firstPauseMs: 50 };

async function checked(p: { check(o: unknown, n: Props): Promise<{ inputs?: Props; failures?: unknown[] }> }, args: Props, olds?: Props) {
  const r = await p.check(olds, args);
  expect(r.failures).toEqual([]);
  return r.inputs!;
}

/** The provider's read of `id`, then its diff against `inputs`: no changes expected after an edit. */
async function expectNoDrift(p: TemplateProvider | EndpointProvider | RegistryAuthProvider, id: string, outs: Props, inputs: Props) {
  const read = await p.read(id, outs);
  expect((await p.diff(id, read.props as Props, inputs)).changes).toBe(false);
  return read.props as Props;
}

describe("an endpoint's CUDA constraint on REST v2", () => {
  it("moves from an exact set to a floor and back, each in one PATCH that clears the other", async () => {
    const provider = new EndpointProvider(on("v2"));
    const base = { name: uniqueName("cuda-swap"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] };
    const setArgs = { ...base, allowedCudaVersions: ["12.4"] };
    const first = await checked(provider, setArgs);
    const { id, outs } = await provider.create(first);
    expect((await client.v2.getEndpoint(id)).gpu).toMatchObject({ allowedCudaVersions: ["12.4"], minCudaVersion: null });
    let stored = await expectNoDrift(provider, id, outs as Props, first);

    const floor = await checked(provider, { ...base, minCudaVersion: "12.4" }, stored);
    expect(await provider.diff(id, stored, floor)).toMatchObject({ changes: true, replaces: [] });
    emu.resetStats();
    const toFloor = await provider.update(id, stored, floor);
    expect(emu.stats().byOperation.updateEndpoint).toBe(1);
    expect((await client.v2.getEndpoint(id)).gpu).toMatchObject({ allowedCudaVersions: [], minCudaVersion: "12.4" });
    stored = await expectNoDrift(provider, id, toFloor.outs as Props, floor);

    const back = await checked(provider, setArgs, stored);
    const toSet = await provider.update(id, stored, back);
    expect((await client.v2.getEndpoint(id)).gpu).toMatchObject({ allowedCudaVersions: ["12.4"], minCudaVersion: null });
    stored = await expectNoDrift(provider, id, toSet.outs as Props, back);
    await provider.delete(id, stored);
  });
});

describe("a fractional queue delay on REST v2", () => {
  it("is sent as is and reads back without rounding or drift; GraphQL and REQUEST_COUNT take integers only", async () => {
    const provider = new EndpointProvider(on("v2"));
    const args = { name: uniqueName("qdelay"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], scalerType: "QUEUE_DELAY", scalerValue: 2.5 };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect((await client.v2.getEndpoint(id)).scaling).toEqual({ type: "QUEUE_DELAY", queueDelay: 2.5 });
    const stored = await expectNoDrift(provider, id, outs as Props, inputs);
    expect(stored.scalerValue).toBe(2.5);

    const onGraphql = await new EndpointProvider(on("graphql")).check(undefined, args);
    expect(onGraphql.failures).toEqual([
      { property: "scalerValue", reason: "scalerValue must be an integer from 1 to 3600 on API path graphql (runpod:api); got 2.5" },
    ]);
    const requests = await provider.check(undefined, { ...args, scalerType: "REQUEST_COUNT" });
    expect(requests.failures?.map((f) => f.property)).toEqual(["scalerValue"]);
    expect((await provider.check(undefined, { ...args, scalerValue: 0.4 })).failures?.[0].reason).toBe("scalerValue must be a number at least 0.5; got 0.4");
    await provider.delete(id, stored);
  });
});

describe("a template's volume on REST v2", () => {
  it("removing it (volumeInGb to 0) replaces the template, created first; resizing it stays in place", async () => {
    const provider = new TemplateProvider(on("v2"), inUse);
    const args = { name: uniqueName("vol-off"), imageName: "me/worker:1", volumeInGb: 20 };
    const inputs = await checked(provider, args);
    const made = await provider.create(inputs);
    const stored = await expectNoDrift(provider, made.id, made.outs as Props, inputs);

    const bigger = await checked(provider, { ...args, volumeInGb: 30 }, stored);
    expect(await provider.diff(made.id, stored, bigger)).toMatchObject({ changes: true, replaces: [] });

    const none = await checked(provider, { ...args, volumeInGb: 0 }, stored);
    // The PATCH cannot remove a mount (omitting `mounts` keeps it), so the change is a replacement; v2
    // names are not unique, so the new template is created before the old one is deleted.
    expect(await provider.diff(made.id, stored, none)).toMatchObject({ changes: true, replaces: ["volumeInGb"], deleteBeforeReplace: false });
    const replacement = await provider.create(none);
    await provider.delete(made.id, stored);
    expect((await client.v2.getTemplate(replacement.id)).mounts?.persistent).toBeUndefined();
    const after = await expectNoDrift(provider, replacement.id, replacement.outs as Props, none);
    expect(after).toMatchObject({ name: args.name, volumeInGb: 0 });

    // On GraphQL, saveTemplate carries volumeInGb 0: in place.
    expect(await new TemplateProvider(on("graphql")).diff(made.id, stored, none)).toMatchObject({ changes: true, replaces: [] });
    await provider.delete(replacement.id, after);
  });
});

describe("a template rename on REST v2", () => {
  it("is in place (PATCH name), keeping the id; on GraphQL it still replaces, created first", async () => {
    const provider = new TemplateProvider(on("v2"), inUse);
    const args = { name: uniqueName("rename-a"), imageName: "me/worker:1" };
    const inputs = await checked(provider, args);
    const made = await provider.create(inputs);
    const stored = await expectNoDrift(provider, made.id, made.outs as Props, inputs);
    const renamed = await checked(provider, { ...args, name: uniqueName("rename-b") }, stored);

    expect(await provider.diff(made.id, stored, renamed)).toEqual({ changes: true, changed: ["name"], replaces: [], deleteBeforeReplace: false });
    expect(await new TemplateProvider(on("graphql")).diff(made.id, stored, renamed)).toMatchObject({ replaces: ["name"], deleteBeforeReplace: false });

    emu.resetStats();
    const updated = await provider.update(made.id, stored, renamed);
    expect(emu.stats().byOperation).toMatchObject({ updateTemplate: 1 });
    expect((await client.v2.getTemplate(made.id)).name).toBe(renamed.name);
    const after = await expectNoDrift(provider, made.id, updated.outs as Props, renamed);
    await provider.delete(made.id, after);
  });
});

describe("a public template on REST v2", () => {
  it("is created public, reads back without drift, turns private in place; GraphQL cannot express it", async () => {
    const provider = new TemplateProvider(on("v2"), inUse);
    const args = { name: uniqueName("public"), imageName: "me/worker:1", isPublic: true };
    const inputs = await checked(provider, args);
    const made = await provider.create(inputs);
    expect((await client.v2.getTemplate(made.id)).public).toBe(true);
    const stored = await expectNoDrift(provider, made.id, made.outs as Props, inputs);

    const privateArgs = await checked(provider, { ...args, isPublic: false }, stored);
    expect(await provider.diff(made.id, stored, privateArgs)).toMatchObject({ changes: true, changed: ["isPublic"], replaces: [] });
    const updated = await provider.update(made.id, stored, privateArgs);
    expect((await client.v2.getTemplate(made.id)).public).toBe(false);
    const after = await expectNoDrift(provider, made.id, updated.outs as Props, privateArgs);

    const onGraphql = await new TemplateProvider(on("graphql")).check(undefined, args);
    expect(onGraphql.failures).toEqual([
      { property: "isPublic", reason: expect.stringMatching(/^Template\.isPublic cannot be expressed on API path graphql/) },
    ]);
    await provider.delete(made.id, after);
  });
});

describe("registry credentials replaced on REST v2", () => {
  it("a new password creates the new credentials first (v2 names are not unique), moves the template, then deletes the old", async () => {
    const session = on("v2");
    const auths = new RegistryAuthProvider(session, inUse);
    const templates = new TemplateProvider(session, inUse);
    const authArgs = { name: uniqueName("reg-swap"), username: "me", password: "first-pw" };
    const authIn = await checked(auths, authArgs);
    const oldAuth = await auths.create(authIn);
    const tArgs = { name: uniqueName("reg-user"), imageName: "ghcr.io/me/private:1", containerRegistryAuthId: oldAuth.id };
    const tIn = await checked(templates, tArgs);
    const t = await templates.create(tIn);

    const next = await checked(auths, { ...authArgs, password: "second-pw" }, oldAuth.outs as Props);
    expect(await auths.diff(oldAuth.id, oldAuth.outs as Props, next)).toMatchObject({ changes: true, replaces: ["password"], deleteBeforeReplace: false });
    // GraphQL's updateRegistryAuth changes the password in place.
    expect(await new RegistryAuthProvider(on("graphql")).diff(oldAuth.id, oldAuth.outs as Props, next)).toMatchObject({ changes: true, replaces: [] });

    // The engine's create-before-delete order: the new credentials under the same name, the template moved, the old deleted.
    const newAuth = await auths.create(next);
    expect(newAuth.id).not.toBe(oldAuth.id);
    const tNext = await checked(templates, { ...tArgs, containerRegistryAuthId: newAuth.id }, t.outs as Props);
    const moved = await templates.update(t.id, t.outs as Props, tNext);
    expect((await client.v2.getTemplate(t.id)).registry).toBe(newAuth.id);
    await auths.delete(oldAuth.id, oldAuth.outs as Props);

    expect((await client.v2.getTemplate(t.id)).registry).toBe(newAuth.id);
    const tAfter = await expectNoDrift(templates, t.id, moved.outs as Props, tNext);
    await templates.delete(t.id, tAfter);
    await auths.delete(newAuth.id, newAuth.outs as Props);
  });
});
