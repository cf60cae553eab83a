/**
 * The providers on REST v2 (`runpod:api v2`) against the emulator over HTTP: each kind's lifecycle
 * through its v2 port, PATCH bodies carrying only what changed, inputs the path cannot express failing
 * at `check` (naming field and path), and resources made on one path read on the other without a diff
 * (the emulator serves both over one state).
 */
import type { RunningEmulator } from "../../emulator";
import { NotFoundError, type PlatformClient } from "../../src/api";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { RegistryAuthProvider } from "../../src/provider/registryAuth/provider";
import { PlatformSession } from "../../src/provider/session";
import { TemplateProvider } from "../../src/provider/template/provider";
import { emulatorPerFile, uniqueName } from "./harness";

let emu: RunningEmulator;
let client: PlatformClient;
emulatorPerFile((e, c) => ([emu, client] = [e, c]));

const on = (api: "v2" | "graphql") => new PlatformSession(() => client, { api });

/** check, failing the test on failures. */
async function checked(
  p: { check(o: unknown, n: Record<string, unknown>): Promise<{ inputs?: Record<string, unknown>; failures?: unknown[] }> },
  args: Record<string, unknown>,
) {
  const r = await p.check(undefined, args);
  expect(r.failures).toEqual([]);
  return r.inputs!;
}

describe("Endpoint on REST v2", () => {
  it("create, read without drift, PATCH of only the changed fields, scale to zero and delete", async () => {
    const provider = new EndpointProvider(on("v2"));
    const inputs = await checked(provider, {
      name: uniqueName("v2-ep"),
      templateId: "tpl_vllm",
      gpuIds: ["ADA_24", "AMPERE_24"],
      idleTimeout: 30,
      workersMax: 2,
    });
    emu.resetStats();
    const { id, outs } = await provider.create(inputs);
    // A chosen name: one listing of what existed before (the create-once guarantee), one create.
    expect(emu.stats().byOperation).toEqual({ listEndpoints: 1, createEndpoint: 1 });
    expect(outs).toMatchObject({ endpointId: id, templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], idleTimeout: 30, workersMax: 2, type: "QB" });

    const read = await provider.read(id, outs);
    expect((await provider.diff(id, read.props as Record<string, unknown>, inputs)).changes).toBe(false);

    const next = await checked(provider, { ...inputs, __autonamed: undefined, workersMax: 4 });
    emu.resetStats();
    const updated = await provider.update(id, read.props as Record<string, unknown>, next);
    // The release listing: a release nobody followed would be followed by this update.
    expect(emu.stats().byOperation).toEqual({ listEndpointReleases: 1, updateEndpoint: 1 });
    expect(updated.outs).toMatchObject({ workersMax: 4, idleTimeout: 30, templateId: "tpl_vllm" });
    expect((await client.v2.getEndpoint(id)).workers).toMatchObject({ max: 4, idleTimeout: 30 });

    emu.resetStats();
    await provider.delete(id, updated.outs as Record<string, unknown>);
    // Idle: a look at the workers, then the DELETE; no scale-down (the DELETE cancels nothing then).
    expect(emu.stats().byOperation).toEqual({ listWorkers: 1, deleteEndpoint: 1 });
    expect(await provider.read(id, updated.outs as Record<string, unknown>)).toEqual({});
  });

  it("inputs REST v2 cannot express fail at check, naming the field and the path", async () => {
    const provider = new EndpointProvider(on("v2"));
    const r = await provider.check(undefined, { name: "x", templateId: "tpl_vllm", gpuIds: ["ADA_24"], locations: ["RO"] });
    expect(r.failures).toEqual([
      {
        property: "locations",
        reason: "Endpoint.locations cannot be expressed on API path v2 (runpod:api); only on graphql: unset it, or set runpod:api to graphql",
      },
    ]);
    const types = await provider.check(undefined, { name: "x", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA GeForce RTX 4090"] });
    expect(types.failures?.map((f) => f.property)).toEqual(["gpuTypeIds"]);
  });

  it("an endpoint made on GraphQL reads on v2 with no diff, and the other way round", async () => {
    const graphql = new EndpointProvider(on("graphql"));
    const v2 = new EndpointProvider(on("v2"));
    const args = {
      name: uniqueName("cross"),
      templateId: "tpl_vllm",
      gpuIds: ["ADA_24"],
      idleTimeout: 20,
      workersMax: 3,
      scalerType: "REQUEST_COUNT",
      scalerValue: 3,
    };
    const inputs = await checked(graphql, args);
    const made = await graphql.create(inputs);
    // Fresh providers: each session shares one listing per burst, taken before the other path's create.
    const onV2 = await new EndpointProvider(on("v2")).read(made.id, made.outs);
    expect((await v2.diff(made.id, onV2.props as Record<string, unknown>, await checked(v2, args))).changed).toEqual([]);

    const fromV2 = await v2.create(await checked(v2, { ...args, name: uniqueName("cross2"), type: "QB", scalerType: "QUEUE_DELAY" }));
    const onGraphql = await new EndpointProvider(on("graphql")).read(fromV2.id, fromV2.outs);
    const diff = await graphql.diff(
      fromV2.id,
      onGraphql.props as Record<string, unknown>,
      await checked(graphql, { ...args, name: fromV2.outs!.name, scalerType: "QUEUE_DELAY" }),
    );
    // v2 copies the template into one bound to the endpoint (a snapshot): GraphQL shows that template.
    expect(diff.changed.filter((f) => f !== "templateId")).toEqual([]);
    await graphql.delete(made.id, made.outs);
    await v2.delete(fromV2.id, fromV2.outs);
  });
});

describe("v2-only Endpoint inputs: excludedGpuTypes, dataCenterIds", () => {
  it("are sent on create, read back without drift, PATCHed with the whole GPU selection, and fail check on graphql", async () => {
    const [type] = (await client.v2.listGpuTypes()).filter((t) => t.pool === "ADA_24").map((t) => t.id);
    const [dc] = (await client.v2.listDataCenters()).map((d) => d.id);
    expect(type && dc).toBeTruthy();
    const provider = new EndpointProvider(on("v2"));
    const args = { name: uniqueName("v2-sel"), templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], excludedGpuTypes: [type], dataCenterIds: [dc] };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect(outs).toMatchObject({ excludedGpuTypes: [type], dataCenterIds: [dc] });
    expect((await client.v2.getEndpoint(id)).gpu).toMatchObject({ pools: ["ADA_24", "AMPERE_24"], excludedTypes: [type] });
    const read = await new EndpointProvider(on("v2")).read(id, outs);
    expect((await provider.diff(id, read.props as Record<string, unknown>, inputs)).changes).toBe(false);

    // Only the tiers' order changes: the PATCH restates the exclusions, so they survive.
    const next = await checked(provider, { ...args, gpuIds: ["AMPERE_24", "ADA_24"] });
    await provider.update(id, read.props as Record<string, unknown>, next);
    expect((await client.v2.getEndpoint(id)).gpu).toMatchObject({ pools: ["AMPERE_24", "ADA_24"], excludedTypes: [type] });

    const onGraphql = await new EndpointProvider(on("graphql")).check(undefined, args);
    expect(onGraphql.failures?.map((f) => f.property)).toEqual(["excludedGpuTypes", "dataCenterIds"]);
    expect(onGraphql.failures?.[0].reason).toMatch(/Endpoint\.excludedGpuTypes cannot be expressed on API path graphql \(runpod:api\); only on v2/);
    await provider.delete(id, outs as Record<string, unknown>);
  });
});

describe("Endpoint flashboot", () => {
  it("PRIORITY_FLASHBOOT is sent on create and PATCHed, reads back without drift, and fails check on graphql naming field and path", async () => {
    const provider = new EndpointProvider(on("v2"));
    const args = { name: uniqueName("v2-fb"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], flashboot: "PRIORITY_FLASHBOOT" };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect(outs).toMatchObject({ flashboot: "PRIORITY_FLASHBOOT", fastBootType: "FASTBOOT", fastBoot: true });
    expect((await client.v2.getEndpoint(id)).flashboot).toBe("PRIORITY_FLASHBOOT");
    const read = await new EndpointProvider(on("v2")).read(id, outs);
    expect((await provider.diff(id, read.props as Record<string, unknown>, inputs)).changes).toBe(false);

    // The deprecated boolean still works: true is FLASHBOOT.
    const next = await checked(provider, { ...args, flashboot: undefined, fastBoot: true });
    await provider.update(id, read.props as Record<string, unknown>, next);
    expect((await client.v2.getEndpoint(id)).flashboot).toBe("FLASHBOOT");

    const onGraphql = await new EndpointProvider(on("graphql")).check(undefined, args);
    expect(onGraphql.failures).toEqual([
      {
        property: "flashboot",
        reason: expect.stringMatching(/Endpoint\.flashboot "PRIORITY_FLASHBOOT" cannot be expressed on API path graphql \(runpod:api\); only on v2/),
      },
    ]);
    expect((await new EndpointProvider(on("graphql")).check(undefined, { ...args, flashboot: "FLASHBOOT" })).failures ?? []).toEqual([]);
    await provider.delete(id, outs as Record<string, unknown>);
  });
});

describe("Endpoint minCudaVersion", () => {
  it("is sent on create, reads back without drift, is cleared by unsetting it, and fails check on graphql", async () => {
    const provider = new EndpointProvider(on("v2"));
    const args = { name: uniqueName("v2-cuda"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], minCudaVersion: "12.4" };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect(outs).toMatchObject({ minCudaVersion: "12.4" });
    expect((await client.v2.getEndpoint(id)).gpu).toMatchObject({ minCudaVersion: "12.4", allowedCudaVersions: [] });
    const read = await new EndpointProvider(on("v2")).read(id, outs);
    expect((await provider.diff(id, read.props as Record<string, unknown>, inputs)).changes).toBe(false);

    const next = await checked(provider, { ...args, minCudaVersion: undefined });
    const diff = await provider.diff(id, read.props as Record<string, unknown>, next);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    await provider.update(id, read.props as Record<string, unknown>, next);
    expect((await client.v2.getEndpoint(id)).gpu?.minCudaVersion).toBeNull();

    const onGraphql = await new EndpointProvider(on("graphql")).check(undefined, args);
    expect(onGraphql.failures).toEqual([
      {
        property: "minCudaVersion",
        reason: expect.stringMatching(/Endpoint\.minCudaVersion cannot be expressed on API path graphql \(runpod:api\); only on v2/),
      },
    ]);
    await provider.delete(id, outs as Record<string, unknown>);
  });
});

describe("Endpoint networkVolumeIds", () => {
  it("mounts several volumes, reads back without drift, PATCHes the list, and needs v2 only for two or more", async () => {
    const mine = (await client.v2.listNetworkVolumes()).map((v) => v.id);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const [a, b] = mine;
    const provider = new EndpointProvider(on("v2"));
    const args = { name: uniqueName("v2-vols"), templateId: "tpl_vllm", gpuIds: ["ADA_24"], networkVolumeIds: [a, b] };
    const inputs = await checked(provider, args);
    const { id, outs } = await provider.create(inputs);
    expect(outs).toMatchObject({ networkVolumeIds: [a, b], networkVolumeId: null });
    expect((await client.v2.getEndpoint(id)).networkVolumes).toEqual([a, b]);
    const read = await new EndpointProvider(on("v2")).read(id, outs);
    expect((await provider.diff(id, read.props as Record<string, unknown>, inputs)).changes).toBe(false);

    // Down to one volume: kept as networkVolumeId, so the same endpoint reads back alike on both paths.
    const one = await checked(provider, { ...args, networkVolumeIds: [b] });
    expect(one).toMatchObject({ networkVolumeId: b, networkVolumeIds: [] });
    await provider.update(id, read.props as Record<string, unknown>, one);
    expect((await client.v2.getEndpoint(id)).networkVolumes).toEqual([b]);
    const reread = await new EndpointProvider(on("v2")).read(id, outs);
    expect((await provider.diff(id, reread.props as Record<string, unknown>, one)).changes).toBe(false);

    const onGraphql = new EndpointProvider(on("graphql"));
    expect((await onGraphql.check(undefined, { ...args, networkVolumeIds: [b] })).failures ?? []).toEqual([]);
    expect((await onGraphql.check(undefined, args)).failures).toEqual([
      {
        property: "networkVolumeIds",
        reason: expect.stringMatching(/Endpoint\.networkVolumeIds cannot be expressed on API path graphql \(runpod:api\); only on v2/),
      },
    ]);
    const both = await provider.check(undefined, { ...args, networkVolumeId: a });
    expect(both.failures).toEqual([
      { property: "networkVolumeIds", reason: expect.stringMatching(/either networkVolumeId .* or networkVolumeIds .* not both/) },
    ]);
    const unknownVolume = await provider.check(undefined, { ...args, networkVolumeIds: [a, "nv_nope99"] });
    expect(unknownVolume.failures).toEqual([
      { property: "networkVolumeIds", reason: expect.stringMatching(/\["nv_nope99"\]: not among your network volumes; yours: /) },
    ]);
    await provider.delete(id, outs as Record<string, unknown>);
  });
});

describe("Template category", () => {
  it("is sent on create and PATCHed, reads back without drift, and other than NVIDIA fails check on graphql", async () => {
    const provider = new TemplateProvider(on("v2"));
    const args = { name: uniqueName("v2-cat"), imageName: "me/worker:1", category: "AMD" };
    const inputs = (await provider.check(undefined, args)).inputs as Record<string, unknown>;
    expect(inputs.category).toBe("AMD");
    const { id, outs } = await provider.create(inputs as never);
    expect(outs).toMatchObject({ category: "AMD" });
    expect((await client.v2.getTemplate(id)).category).toBe("AMD");
    const read = await new TemplateProvider(on("v2")).read(id, outs);
    expect((await provider.diff(id, read.props as never, inputs as never)).changes).toBe(false);

    const next = (await provider.check(read.props as never, { ...args, category: "CPU" })).inputs as Record<string, unknown>;
    expect(await provider.diff(id, read.props as never, next as never)).toMatchObject({ changes: true, replaces: [] });
    await provider.update(id, read.props as never, next as never);
    expect((await client.v2.getTemplate(id)).category).toBe("CPU");

    // Unset is NVIDIA, the document's default.
    expect(((await provider.check(undefined, { name: "t", imageName: "me/worker:1" })).inputs as Record<string, unknown>).category).toBe("NVIDIA");
    const onGraphql = new TemplateProvider(on("graphql"));
    expect((await onGraphql.check(undefined, { ...args, category: "NVIDIA" })).failures ?? []).toEqual([]);
    expect((await onGraphql.check(undefined, args)).failures).toEqual([
      { property: "category", reason: expect.stringMatching(/Template\.category cannot be expressed on API path graphql \(runpod:api\); only on v2/) },
    ]);
    await provider.delete(id, outs as never);
  });
});

describe("Template startSsh / startJupyter", () => {
  it("inject their env on the platform, which the outputs leave out: no drift of a declared env", async () => {
    const provider = new TemplateProvider(on("v2"));
    const args = { name: uniqueName("v2-start"), imageName: "me/worker:1", env: { MODEL: "llama" }, startJupyter: true, startSsh: true };
    const inputs = (await provider.check(undefined, args)).inputs as Record<string, unknown>;
    const { id, outs } = await provider.create(inputs as never);
    const onPlatform = await client.v2.getTemplate(id);
    expect(onPlatform).toMatchObject({ startJupyter: true, startSsh: true });
    expect(Object.keys(onPlatform.env ?? {})).toContain("JUPYTER_PASSWORD");
    expect(outs).toMatchObject({ startJupyter: true, startSsh: true, env: { MODEL: "llama" } });
    const read = await new TemplateProvider(on("v2")).read(id, outs);
    expect((read.props as Record<string, unknown>).env).toEqual({ MODEL: "llama" });
    expect((await provider.diff(id, read.props as never, inputs as never)).changes).toBe(false);

    const clash = await provider.check(undefined, { ...args, env: { JUPYTER_PASSWORD: "mine" } });
    expect(clash.failures).toEqual([{ property: "env", reason: expect.stringMatching(/env must not set JUPYTER_PASSWORD while startJupyter is true/) }]);
    // saveTemplate carries startSsh (platform-clients.md); GraphQL has no startJupyter.
    expect((await new TemplateProvider(on("graphql")).check(undefined, args)).failures?.map((f) => f.property)).toEqual(["startJupyter"]);
    await provider.delete(id, outs as never);
  });
});

describe("Endpoint delete on REST v2", () => {
  it("scales to zero, then waits for the job in progress to finish before the DELETE (which would cancel it)", async () => {
    const provider = new EndpointProvider(on("v2"));
    const inputs = await checked(provider, {
      name: uniqueName("v2-drain"),
      templateId: "tpl_vllm",
      gpuIds: ["ADA_24"],
      workersMin: 1,
      workersMax: 1,
      waitForWorkers: true,
    });
    const { id, outs } = await provider.create(inputs);
    const job = await client.run(id, { executionMs: 1500 });
    for (let i = 0; i < 100 && (await client.jobStatus(id, job.id)).status !== "IN_PROGRESS"; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await client.jobStatus(id, job.id)).status).toBe("IN_PROGRESS");
    const runningSince = Date.now();
    emu.resetStats();
    const deleting = provider.delete(id, outs as Record<string, unknown>);
    // The job ends COMPLETED (not CANCELLED); the endpoint may be gone (404) between two polls once it has.
    let last = "IN_PROGRESS";
    while (last === "IN_PROGRESS" || last === "IN_QUEUE") {
      last = await client.jobStatus(id, job.id).then(
        (s) => s.status,
        (err: unknown) => (err instanceof NotFoundError ? "GONE" : Promise.reject(err)),
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(["COMPLETED", "GONE"]).toContain(last);
    await deleting;
    // A job running: scaled to zero before the wait.
    expect(emu.stats().byOperation.updateEndpoint).toBe(1);
    // A DELETE sent before the job's 1.5 s had run would have cancelled it: the delete waited at least that long.
    expect(Date.now() - runningSince).toBeGreaterThanOrEqual(1400);
    expect(await new EndpointProvider(on("v2")).read(id, outs as Record<string, unknown>)).toEqual({});
  });
});

describe("Template on REST v2", () => {
  it("create without injected env, PATCH of the changed image only, delete", async () => {
    const provider = new TemplateProvider(on("v2"), { deadlineMs: 3000, firstPauseMs: 50 });
    const inputs = await checked(provider, { name: uniqueName("v2-tpl"), imageName: "me/worker:1", env: { A: "1" }, ports: ["8000/http"] });
    emu.resetStats();
    const { id, outs } = await provider.create(inputs);
    // A chosen name is listed once before the process's first create (v2 names are not unique: a lost answer is
    // settled against what existed before, tests/provider/namedCreate.integration.test.ts).
    expect(emu.stats().byOperation).toEqual({ listTemplates: 1, createTemplate: 1 });
    expect(outs).toMatchObject({ imageName: "me/worker:1", env: { A: "1" }, ports: ["8000/http"] });
    const read = await provider.read(id, outs);
    expect((await provider.diff(id, read.props as Record<string, unknown>, inputs)).changes).toBe(false);

    const next = { ...inputs, imageName: "me/worker:2" };
    const updated = await provider.update(id, read.props as Record<string, unknown>, next);
    expect(updated.outs).toMatchObject({ imageName: "me/worker:2", env: { A: "1" } });
    await provider.delete(id, updated.outs as Record<string, unknown>);
    expect(await provider.read(id, outs)).toEqual({});
  });

  it("readme is GraphQL-only: it fails check on v2", async () => {
    const r = await new TemplateProvider(on("v2")).check(undefined, { name: "t", imageName: "me/worker:1", readme: "hello" });
    expect(r.failures?.map((f) => f.property)).toEqual(["readme"]);
  });
});

describe("a template change on REST v2 (templates are snapshots)", () => {
  it("reaches the endpoints made from it in the same run: the endpoint re-applies it (PATCH templateId) and follows the rollout to its end", async () => {
    const session = on("v2");
    const templates = new TemplateProvider(session, { deadlineMs: 3000, firstPauseMs: 50 });
    const endpoints = new EndpointProvider(session);
    const tIn = await checked(templates, { name: uniqueName("snap"), imageName: "me/worker:1", env: { MODEL: "a" } });
    const created = await templates.create(tIn);
    const t = { id: created.id, outs: created.outs as Record<string, unknown> };
    const eIn = await checked(endpoints, {
      name: uniqueName("snap-ep"),
      templateId: t.id,
      gpuIds: ["ADA_24"],
      workersMin: 1,
      workersMax: 2,
      waitForWorkers: true,
    });
    const made = await endpoints.create(eIn);
    const e = { id: made.id, outs: made.outs as Record<string, unknown> };
    expect((await endpoints.diff(e.id, e.outs, eIn)).changes).toBe(false);

    const tNext = { ...tIn, imageName: "me/worker:2" };
    await templates.update(t.id, t.outs, tNext);
    const diff = await endpoints.diff(e.id, e.outs, eIn);
    expect(diff).toMatchObject({ changes: true, changed: ["templateId"], replaces: [] });
    emu.resetStats();
    await endpoints.update(e.id, e.outs, eIn);
    expect(emu.stats().byOperation.updateEndpoint).toBe(1);
    expect(emu.stats().byOperation.listEndpointReleases).toBeGreaterThanOrEqual(1);
    expect((await client.v2.getEndpoint(e.id)).image).toBe("me/worker:2");
    const { workers } = await client.v2.listEndpointWorkers(e.id);
    expect(workers.length).toBeGreaterThan(0);
    expect(workers.every((w) => w.image === "me/worker:2" && !w.isStale)).toBe(true);
    await endpoints.delete(e.id, e.outs);
    await templates.delete(t.id, t.outs);
  });
});

describe("ContainerRegistryAuth on REST v2", () => {
  it("create, read, a changed password replaces (v2 has no update; names are not unique, so it creates first), delete", async () => {
    const provider = new RegistryAuthProvider(on("v2"));
    const inputs = await checked(provider, { name: uniqueName("v2-reg"), username: "me", password: "s3cret-pw" });
    const { id, outs } = await provider.create(inputs);
    const read = await provider.read(id, outs);
    expect(read.props).toMatchObject({ name: inputs.name, username: "me", password: "s3cret-pw" });
    const diff = await provider.diff(id, read.props as Record<string, unknown>, { ...inputs, password: "other-pw" });
    expect(diff).toMatchObject({ changes: true, replaces: ["password"], deleteBeforeReplace: false });
    await provider.delete(id, outs);
    expect(await provider.read(id, outs)).toEqual({});
  });
});
