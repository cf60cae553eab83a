/**
 * The endpoint as REST v2 defines it (issue 39), against the emulator over HTTP, each step as the engine
 * runs it (check, diff, create / update / read): its own container (`imageName`, `env`, …) with or
 * without a template, CPU workers (`cpuFlavorIds`, `vcpuCount`), the cross-field rules refused at
 * check naming the fields, the release last followed to health kept in the outputs (a newer one shows
 * in diff; the next update follows it and rolls a failing one back to the container the state holds),
 * the platform's request URLs, and adoption of every kind of endpoint with inputs that diff clean.
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { PlatformSession } from "../../src/provider/session";
import { emulatorPerFile, uniqueName } from "./harness";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;
const SECRET = "sk_container-secret-1618033988";

let emu: RunningEmulator;
let client: PlatformClient;

emulatorPerFile((e, c) => ([emu, client] = [e, c]), { workerStartMs: 100, logIntervalMs: 5000 });
afterEach(() => emu.setFaults({}));

const provider = (api: "v2" | "graphql" = "v2") => new EndpointProvider(new PlatformSession(() => client, { api }));

async function checked(p: EndpointProvider, args: Props, olds?: Props): Promise<Props> {
  const r = await p.check(olds, args);
  expect(r.failures).toEqual([]);
  return r.inputs!;
}

const failuresOf = async (p: EndpointProvider, args: Props) => (await p.check(undefined, { name: uniqueName("bad"), ...args })).failures ?? [];

/** The provider's read of `id`, then its diff against `inputs`: no changes expected. */
async function expectNoDrift(p: EndpointProvider, id: string, outs: Props, inputs: Props): Promise<Props> {
  const read = await p.read(id, outs);
  const d = await p.diff(id, read.props as Props, inputs);
  expect({ changes: d.changes, changed: d.changed }).toEqual({ changes: false, changed: [] });
  return read.props as Props;
}

const CPU = { imageName: "me/cpu:1", env: { MODE: "fast", API_TOKEN: SECRET }, cpuFlavorIds: ["cpu3c", "cpu5c"], vcpuCount: 4, workersMax: 1 };

describe("an image-only CPU endpoint", () => {
  it("is created with its own container and CPU selection, priced per vCPU, and reads back without drift", async () => {
    const p = provider();
    const inputs = await checked(p, { name: uniqueName("cpu"), ...CPU });
    // The catalog's serverless per-vCPU price of the dearer flavor (cpu5c: 0.04) × 4 vCPUs, one worker.
    expect(inputs).toMatchObject({ workerHourlyCost: 0.16, maxHourlyCost: 0.16, idleHourlyCost: 0 });
    const { id, outs } = await p.create(inputs);
    const record = await client.v2.getEndpoint(id);
    expect(record).toMatchObject({ image: "me/cpu:1", env: { MODE: "fast", API_TOKEN: SECRET }, gpu: null });
    expect(record.cpu?.map((c) => [c.id, c.vcpuCount])).toEqual([
      ["cpu3c", 4],
      ["cpu5c", 4],
    ]);
    expect(outs).toMatchObject({ imageName: "me/cpu:1", cpuFlavorIds: ["cpu3c", "cpu5c"], vcpuCount: 4, gpuIds: [] });
    // The create's release, taken with no request of its own: null, the oldest (here the only) one listed.
    expect((outs as Props).releaseVersion).toBeNull();
    expect((await client.v2.listEndpointReleases(id)).releases).toHaveLength(1);
    expect((outs as Props).requestUrls).toEqual(record.requestUrls);
    await expectNoDrift(p, id, outs as Props, inputs);
    await p.delete(id, outs as Props);
  });

  it("changes vcpuCount and the image in place (the image as a release followed to health); a change outside Pulumi shows after a read", async () => {
    const p = provider();
    const args = { name: uniqueName("cpu-edit"), ...CPU, workersMin: 1 };
    const inputs = await checked(p, args);
    const { id, outs } = await p.create(inputs);
    let stored = outs as Props;

    const next = await checked(p, { ...args, vcpuCount: 8, imageName: "me/cpu:2" }, stored);
    const d = await p.diff(id, stored, next);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect([...d.changed].sort()).toEqual(["imageName", "vcpuCount"]);
    const updated = await p.update(id, stored, next);
    const record = await client.v2.getEndpoint(id);
    expect(record.image).toBe("me/cpu:2");
    expect(record.cpu?.map((c) => c.vcpuCount)).toEqual([8, 8]);
    const releases = await client.v2.listEndpointReleases(id);
    expect(releases.rollout.inProgress).toBe(false);
    expect((updated.outs as Props).releaseVersion).toBe(releases.releases[0].version);
    stored = await expectNoDrift(p, id, updated.outs as Props, next);

    await client.v2.updateEndpoint(id, { image: "someone/else:9" });
    // A refresh is a new provider process (a session of its own).
    const drifted = (await provider().read(id, stored)).props as Props;
    expect(drifted.imageName).toBe("someone/else:9");
    expect((await p.diff(id, drifted, next)).changed).toContain("imageName");
    await p.update(id, drifted, next);
    expect((await client.v2.getEndpoint(id)).image).toBe("me/cpu:2");
    await p.delete(id, stored);
  });

  it("GPU ↔ CPU replaces the endpoint: the document makes the compute family immutable", async () => {
    const p = provider();
    const args = { name: uniqueName("cpu-gpu"), ...CPU };
    const inputs = await checked(p, args);
    const { id, outs } = await p.create(inputs);
    const { cpuFlavorIds: _f, vcpuCount: _v, ...rest } = args;
    const gpu = await checked(p, { ...rest, gpuIds: ["ADA_24"] }, outs as Props);
    const d = await p.diff(id, outs as Props, gpu);
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual(expect.arrayContaining(["cpuFlavorIds"]));
    await p.delete(id, outs as Props);
  });
});

describe("rules across fields, refused at check naming the fields", () => {
  it("exactly one of gpuIds and cpuFlavorIds", async () => {
    const both = await failuresOf(provider(), { ...CPU, gpuIds: ["ADA_24"] });
    expect(both).toHaveLength(1);
    expect(both[0].reason).toMatch(/gpuIds/);
    expect(both[0].reason).toMatch(/cpuFlavorIds/);
    const { cpuFlavorIds: _f, vcpuCount: _v, ...none } = CPU;
    const neither = await failuresOf(provider(), none);
    expect(neither.map((f) => f.reason).join("\n")).toMatch(/gpuIds.*cpuFlavorIds|cpuFlavorIds.*gpuIds/);
  });

  it("imageName or templateId", async () => {
    const { imageName: _i, ...noImage } = CPU;
    const failures = await failuresOf(provider(), noImage);
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toMatch(/imageName/);
    expect(failures[0].reason).toMatch(/templateId/);
  });

  it("vcpuCount is a power of two valid for every listed flavor; no CUDA inputs on CPU", async () => {
    expect((await failuresOf(provider(), { ...CPU, vcpuCount: 6 })).map((f) => f.property)).toEqual(["vcpuCount"]);
    // cpu3c goes up to 32 vCPUs, cpu5c to 64 (the emulator's catalog).
    const tooMany = await failuresOf(provider(), { ...CPU, vcpuCount: 64 });
    expect(tooMany.map((f) => f.property)).toEqual(["vcpuCount"]);
    expect(tooMany[0].reason).toMatch(/cpu3c/);
    for (const cuda of [{ allowedCudaVersions: ["12.4"] }, { minCudaVersion: "12.4" }, { gpuCount: 2 }, { excludedGpuTypes: ["NVIDIA L4"] }]) {
      const f = await failuresOf(provider(), { ...CPU, ...cuda });
      expect(f.map((x) => x.property)).toEqual(Object.keys(cuda));
    }
    const noFlavors = await failuresOf(provider(), { imageName: "me/x:1", gpuIds: ["ADA_24"], vcpuCount: 4 });
    expect(noFlavors.map((f) => f.property)).toEqual(["vcpuCount"]);
  });

  it("a template whose category does not match the endpoint's compute", async () => {
    const cpuTemplate = await client.v2.createTemplate({ name: uniqueName("cpu-tpl"), image: "me/cpu-tpl:1", category: "CPU", serverless: true });
    const onGpu = await failuresOf(provider(), { templateId: cpuTemplate.id, gpuIds: ["ADA_24"] });
    expect(onGpu.map((f) => f.property)).toEqual(["templateId"]);
    expect(onGpu[0].reason).toMatch(/CPU/);
    const onCpu = await failuresOf(provider(), { templateId: "tpl_vllm", cpuFlavorIds: ["cpu3c"], vcpuCount: 2 });
    expect(onCpu.map((f) => f.property)).toEqual(["templateId"]);
    expect(await failuresOf(provider(), { templateId: cpuTemplate.id, cpuFlavorIds: ["cpu3c"], vcpuCount: 2 })).toEqual([]);
  });

  it("container inputs on `runpod:api graphql` are refused saying saveEndpoint carries no container", async () => {
    const f = await failuresOf(provider("graphql"), { templateId: "tpl_vllm", gpuIds: ["ADA_24"], imageName: "me/x:1" });
    expect(f.map((x) => x.property)).toEqual(["imageName"]);
    expect(f[0].reason).toMatch(/saveEndpoint carries no container/);
  });
});

describe("a template with the endpoint's own values", () => {
  it("runs the template's container with the endpoint's values winning; unset values follow the template without diff", async () => {
    const p = provider();
    const args = { name: uniqueName("tpl-own"), templateId: "tpl_vllm", imageName: "me/override:1", gpuIds: ["ADA_24"] };
    const inputs = await checked(p, args);
    const { id, outs } = await p.create(inputs);
    const template = await client.v2.getTemplate("tpl_vllm");
    expect(await client.v2.getEndpoint(id)).toMatchObject({ image: "me/override:1", disk: template.disk });
    await expectNoDrift(p, id, outs as Props, inputs);
    await p.delete(id, outs as Props);
  });
});

describe("releases kept in state", () => {
  it("a release made outside Pulumi shows in diff; the next update follows it and rolls a failing one back to the container the state holds", async () => {
    const p = provider();
    const args = { name: uniqueName("rel"), imageName: "me/rel:1", gpuIds: ["ADA_24"], workersMin: 1, waitForWorkers: true, rolloutTimeout: 30 };
    const inputs = await checked(p, args);
    const { id, outs } = await p.create(inputs);
    const stored = outs as Props;
    emu.setFaults({ failingImages: ["me/rel:bad"] });
    // The release a killed `up` leaves: the platform took the image, nobody followed it; a read (recover, refresh) sees the image.
    await client.v2.updateEndpoint(id, { image: "me/rel:bad" });
    const readBack = (await p.read(id, stored)).props as Props;
    expect(readBack.releaseVersion).toBe(stored.releaseVersion);
    const declared = await checked(p, { ...args, imageName: "me/rel:bad" }, readBack);
    const d = await p.diff(id, readBack, declared);
    expect(d.changes).toBe(true);
    expect(d.changed).toContain("releaseVersion");
    const unfollowed = (await client.v2.listEndpointReleases(id)).releases[0];
    await expect(p.update(id, readBack, declared)).rejects.toThrow(new RegExp(`the rollout of release ${unfollowed.id}`));
    expect((await client.v2.getEndpoint(id)).image).toBe("me/rel:1");
    const workers = (await client.v2.listEndpointWorkers(id)).workers;
    expect([...new Set(workers.map((w) => w.image))]).toEqual(["me/rel:1"]);
    // Still a change: the stack's release is not the platform's.
    expect((await p.diff(id, readBack, declared)).changes).toBe(true);
    emu.setFaults({});
    await p.delete(id, stored);
  });
});

describe("request URLs", () => {
  it("a queue-based endpoint's job URLs, a load-balancing endpoint's base and health", async () => {
    const p = provider();
    const qb = await p.create(await checked(p, { name: uniqueName("urls-qb"), imageName: "me/q:1", gpuIds: ["ADA_24"] }));
    const lbInputs = await checked(p, {
      name: uniqueName("urls-lb"),
      imageName: "me/lb:1",
      gpuIds: ["ADA_24"],
      type: "LB",
      scalerType: "REQUEST_COUNT",
      scalerValue: 4,
    });
    const lb = await p.create(lbInputs);
    const q = qb.outs as Props;
    const l = lb.outs as Props;
    expect(q.requestUrls).toMatchObject({ run: `${emu.urls.inference}/v2/${qb.id}/run`, runSync: `${emu.urls.inference}/v2/${qb.id}/runsync` });
    expect(Object.keys(l.requestUrls as object).sort()).toEqual(["base", "health"]);
    expect(l.requestUrls).toEqual((await client.v2.getEndpoint(lb.id)).requestUrls);
    expect(l.jobUrl).toBe((l.requestUrls as { base: string }).base);
    await p.delete(qb.id, q);
    await p.delete(lb.id, l);
  });
});

describe("adoption (import, refresh) of every endpoint the platform can hold", () => {
  const base = { workers: { min: 0, max: 1 }, scaling: { type: "QUEUE_DELAY" as const, queueDelay: 4 } };
  const cases: [string, () => Promise<{ id: string }>][] = [
    ["CPU", () => client.v2.createEndpoint({ ...base, name: uniqueName("a-cpu"), type: "QUEUE", image: "me/a:1", cpu: [{ id: "cpu5c", vcpuCount: 2 }] })],
    [
      "own container",
      () =>
        client.v2.createEndpoint({
          ...base,
          name: uniqueName("a-own"),
          type: "QUEUE",
          image: "me/a:1",
          env: { K: "v" },
          args: "serve",
          disk: 20,
          ports: ["8000/http"],
          gpu: { pools: ["ADA_24"] },
        }),
    ],
    [
      "load-balancing",
      () =>
        client.v2.createEndpoint({
          name: uniqueName("a-lb"),
          type: "LOAD_BALANCER",
          image: "me/a:1",
          gpu: { pools: ["ADA_24"] },
          workers: { min: 0, max: 1 },
          scaling: { type: "REQUEST_COUNT", requestCount: 3 },
        }),
    ],
    [
      "template-based",
      () => client.v2.createEndpoint({ ...base, name: uniqueName("a-tpl"), type: "QUEUE", templateId: "tpl_vllm", gpu: { pools: ["ADA_24"] } }),
    ],
  ];
  it.each(cases)("%s: the read's inputs check and diff clean", async (_kind, make) => {
    const p = provider();
    const made = await make();
    const adopted = await p.read(made.id, {});
    expect(adopted.id).toBe(made.id);
    const inputs = await checked(p, adopted.inputs as Props, adopted.inputs as Props);
    const d = await p.diff(made.id, adopted.props as Props, inputs);
    expect({ changes: d.changes, changed: d.changed }).toEqual({ changes: false, changed: [] });
    await p.delete(made.id, adopted.props as Props);
  });

  it("a template-based endpoint declared with its template (which the platform does not report) diffs clean", async () => {
    const p = provider();
    const made = await client.v2.createEndpoint({ ...base, name: uniqueName("a-tpl2"), type: "QUEUE", templateId: "tpl_vllm", gpu: { pools: ["ADA_24"] } });
    const adopted = await p.read(made.id, {});
    const declared = await checked(
      p,
      { name: (adopted.props as Props).name, templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMax: 1, idleTimeout: 10 },
      adopted.inputs as Props,
    );
    const d = await p.diff(made.id, adopted.props as Props, declared);
    expect({ changes: d.changes, changed: d.changed }).toEqual({ changes: false, changed: [] });
    await p.delete(made.id, adopted.props as Props);
  });

  it("a template declared for an adopted image-based endpoint whose image differs names the image", async () => {
    const p = provider();
    const made = await client.v2.createEndpoint({ ...base, name: uniqueName("a-img"), type: "QUEUE", image: "ghcr.io/acme/old:1", gpu: { pools: ["ADA_24"] } });
    const adopted = await p.read(made.id, {});
    const declared = await checked(
      p,
      { name: (adopted.props as Props).name, templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMax: 1 },
      adopted.inputs as Props,
    );
    const d = await p.diff(made.id, adopted.props as Props, declared);
    expect(d.changes).toBe(true);
    expect(d.changed).toEqual(expect.arrayContaining(["templateId", "imageName"]));
    expect((await client.v2.getEndpoint(made.id)).image).toBe("ghcr.io/acme/old:1");
    await p.delete(made.id, adopted.props as Props);
  });
});
