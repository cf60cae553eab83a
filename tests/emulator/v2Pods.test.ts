/**
 * REST v2 pods as the document specifies them (docs/spec/rest-v2-openapi.json, tag Pods): create of GPU and CPU
 * pods (placement on the catalog's stock, templates, mounts), get and list, PATCH, podAction by status, the log
 * stream and pod billing. Every exchange here is validated against the document by the conformance tier
 * (tests/conformance/v2Traffic.test.ts runs this file with recording on).
 */
import type { RunningEmulator } from "../../emulator";
import { readSse, rest, start } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const call = (method: string, path: string, body?: unknown) => rest(method, `${emu.urls.restV2}/v2${path}`, emu.apiKey, body);
const HOUR = 3_600_000;
const RTX4090 = "NVIDIA GeForce RTX 4090";

const gpuPod = (extra: Record<string, unknown> = {}) => ({
  name: "trainer",
  image: "runpod/pytorch:2.4.0",
  gpu: { id: RTX4090, count: 2 },
  ports: ["8888/http", "22/tcp"],
  env: { MODEL: "llama" },
  mounts: { persistent: { size: 20, path: "/workspace" } },
  ...extra,
});

test("a GPU pod is created PROVISIONING, then runs with an SSH endpoint, its placement and its cost", async () => {
  const created = await call("POST", "/pods", gpuPod({ dataCenterIds: ["EU-RO-1"] }));
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ status: "PROVISIONING", actions: ["stop", "terminate"], template: null, gpu: { id: RTX4090, count: 2 } });
  expect(created.body.dataCenterId).toBe("EU-RO-1");
  const price = (await call("GET", `/catalog/gpus/${encodeURIComponent(RTX4090)}`)).body.price.secure;
  expect(created.body.cost).toBeCloseTo(2 * price, 6);

  const got = await call("GET", `/pods/${created.body.id}`);
  expect(got.status).toBe(200);
  expect(got.body).toMatchObject({ status: "RUNNING", actions: ["stop", "restart", "terminate"], env: { MODEL: "llama" }, cloud: "SECURE" });
  expect(got.body.mounts).toEqual({ persistent: { size: 20, path: "/workspace" } });
  expect(got.body.ssh.proxy.command).toMatch(/^ssh \S+@ssh\.runpod\.io$/);
  expect(got.body.ssh.direct.command).toBe(`ssh root@${got.body.ssh.direct.host} -p ${got.body.ssh.direct.port}`);
  expect(got.body.runtime.ports).toContainEqual(expect.objectContaining({ private: 22, type: "tcp", public: got.body.ssh.direct.port }));
  expect(got.body.cudaVersion).toMatch(/^\d+\.\d+$/);

  expect((await call("GET", "/pods")).body.pods.map((p: { id: string }) => p.id)).toContain(created.body.id);
  expect((await call("DELETE", `/pods/${created.body.id}`)).status).toBe(204);
  expect((await call("GET", `/pods/${created.body.id}`)).status).toBe(404);
});

test("a CPU pod: memory from the flavor, no CUDA, no persistent mount", async () => {
  const created = await call("POST", "/pods", { name: "cpu", image: "alpine:3", cpu: { id: "cpu3c", vcpuCount: 4 } });
  expect(created.status).toBe(201);
  expect(created.body.cpu).toEqual({ id: "cpu3c", vcpuCount: 4, memory: 8 });
  expect(created.body.gpu).toBeUndefined();
  expect(created.body.cudaVersion).toBeNull();
  expect(created.body.ssh.direct).toBeNull();
  const refused = await call("POST", "/pods", {
    name: "cpu",
    image: "alpine:3",
    cpu: { id: "cpu3c", vcpuCount: 4 },
    mounts: { persistent: { size: 20, path: "/w" } },
  });
  expect(refused.status).toBe(400);
  expect(refused.body.detail).toMatch(/mounts\.persistent/);
  const odd = await call("POST", "/pods", { name: "cpu", image: "alpine:3", cpu: { id: "cpu3c", vcpuCount: 6 } });
  expect(odd.status).toBe(400);
  expect(odd.body.detail).toMatch(/power of two from 2 to 32; got 6/);
  await call("DELETE", `/pods/${created.body.id}`);
});

test("the document's rules: one of gpu or cpu, image unless templateId, one mount kind, a known GPU type with stock", async () => {
  const both = await call("POST", "/pods", { ...gpuPod(), cpu: { id: "cpu3c", vcpuCount: 2 } });
  expect(both.status).toBe(400);
  expect(both.body.detail).toBe("Set exactly one of gpu or cpu.");
  const noImage = await call("POST", "/pods", { name: "x", gpu: { id: RTX4090 } });
  expect(noImage.status).toBe(422);
  expect(noImage.body.errors).toContain("$.image: required unless templateId is given");
  const extra = await call("POST", "/pods", { ...gpuPod(), colour: "red" });
  expect(extra.status).toBe(422);
  const twoMounts = await call(
    "POST",
    "/pods",
    gpuPod({ mounts: { persistent: { size: 20, path: "/a" }, network: [{ volumeId: "nv_cache01", path: "/b" }] } }),
  );
  expect(twoMounts.status).toBe(400);
  const unknown = await call("POST", "/pods", gpuPod({ gpu: { id: "NVIDIA Nonexistent" } }));
  expect(unknown.status).toBe(400);
  expect(unknown.body.detail).toMatch(/unknown GPU type "NVIDIA Nonexistent"/);
  const notOffered = await call("POST", "/pods", gpuPod({ gpu: { id: "NVIDIA L4" }, cloud: "COMMUNITY" }));
  expect(notOffered.status).toBe(400);
  expect(notOffered.body.detail).toMatch(/not offered on COMMUNITY cloud/);
  const nowhere = await call("POST", "/pods", gpuPod({ dataCenterIds: ["NOWHERE-1"] }));
  expect(nowhere.status).toBe(400);
  expect(nowhere.body.detail).toMatch(/No capacity .* in data centers NOWHERE-1/);
});

test("a template gives the container settings, the body wins, env merges per key, and the pod keeps no link", async () => {
  const created = await call("POST", "/pods", {
    name: "from-template",
    templateId: "tpl_official_pytorch",
    gpu: { id: RTX4090 },
    env: { A: "1" },
    args: "sleep infinity",
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ image: "runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404", args: "sleep infinity", template: null });
  expect(created.body.env.A).toBe("1");
  const serverless = await call("POST", "/pods", { name: "x", templateId: "tpl_vllm", gpu: { id: RTX4090 } });
  expect(serverless.status).toBe(422);
  const missing = await call("POST", "/pods", { name: "x", templateId: "tpl_other", gpu: { id: RTX4090 } });
  expect(missing.status).toBe(404);
  await call("DELETE", `/pods/${created.body.id}`);
});

test("a network volume places the pod in the volume's data center; its volume is fixed, its path is not", async () => {
  const created = await call("POST", "/pods", gpuPod({ mounts: { network: [{ volumeId: "nv_cache01", path: "/data" }] } }));
  expect(created.status).toBe(201);
  expect(created.body.dataCenterId).toBe("US-TX-3");
  const otherDc = await call("POST", "/pods", gpuPod({ dataCenterIds: ["EU-RO-1"], mounts: { network: [{ volumeId: "nv_cache01", path: "/data" }] } }));
  expect(otherDc.status).toBe(400);
  const moved = await call("PATCH", `/pods/${created.body.id}`, { mounts: { network: [{ volumeId: "nv_models01", path: "/data" }] } });
  expect(moved.status).toBe(400);
  const path = await call("PATCH", `/pods/${created.body.id}`, { mounts: { network: [{ volumeId: "nv_cache01", path: "/mnt" }] } });
  expect(path.status).toBe(200);
  expect(path.body.mounts).toEqual({ network: [{ volumeId: "nv_cache01", path: "/mnt" }] });
  await call("DELETE", `/pods/${created.body.id}`);
});

test("PATCH changes only what it carries; the mount kind is fixed at create", async () => {
  const id = (await call("POST", "/pods", gpuPod())).body.id;
  const patched = await call("PATCH", `/pods/${id}`, {
    name: "renamed",
    env: { MODEL: "mistral" },
    ports: ["8888/http"],
    mounts: { persistent: { size: 40, path: "/workspace" } },
  });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({ name: "renamed", env: { MODEL: "mistral" }, ports: ["8888/http"], image: "runpod/pytorch:2.4.0", status: "RUNNING" });
  expect(patched.body.mounts.persistent.size).toBe(40);
  expect(patched.body.ssh.direct).toBeNull();
  const network = await call("PATCH", `/pods/${id}`, { mounts: { network: [{ volumeId: "nv_cache01", path: "/d" }] } });
  expect(network.status).toBe(400);
  const cpuField = await call("PATCH", `/pods/${id}`, { gpu: { id: RTX4090 } });
  expect(cpuField.status).toBe(422);
  await call("DELETE", `/pods/${id}`);
});

test("podAction follows the status: stop, start, restart, 409 otherwise, locked pods refuse stop, terminate is 204", async () => {
  const id = (await call("POST", "/pods", gpuPod())).body.id;
  await call("GET", `/pods/${id}`);
  const stopped = await call("POST", `/pods/${id}/action`, { action: "stop" });
  expect(stopped.status).toBe(200);
  expect(stopped.body).toMatchObject({ status: "EXITED", actions: ["start", "terminate"], cost: 0, runtime: null });
  const again = await call("POST", `/pods/${id}/action`, { action: "stop" });
  expect(again.status).toBe(409);
  expect(again.body.detail).toMatch(/valid now: start, terminate/);
  const started = await call("POST", `/pods/${id}/action`, { action: "start" });
  expect(started.status).toBe(200);
  expect(started.body.status).toBe("RUNNING");
  expect((await call("POST", `/pods/${id}/action`, { action: "restart" })).body.status).toBe("RUNNING");
  expect((await call("POST", `/pods/${id}/action`, { action: "explode" })).status).toBe(422);
  expect((await call("PATCH", `/pods/${id}`, { locked: true })).body.locked).toBe(true);
  expect((await call("POST", `/pods/${id}/action`, { action: "stop" })).status).toBe(409);
  const terminated = await call("POST", `/pods/${id}/action`, { action: "terminate" });
  expect(terminated.status).toBe(204);
  expect((await call("GET", `/pods/${id}`)).status).toBe(404);
});

test("the pod's log stream carries its lifecycle lines with source filtering and ts ids", async () => {
  const id = (await call("POST", "/pods", gpuPod())).body.id;
  await call("GET", `/pods/${id}`);
  await call("POST", `/pods/${id}/action`, { action: "stop" });
  const all = await readSse(`${emu.urls.restV2}/v2/pods/${id}/logs`, emu.apiKey);
  expect(all.status).toBe(200);
  const lines = all.events.map((e) => e.line);
  expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Pod placed in /), "Pulling image runpod/pytorch:2.4.0", "Stopping the container"]));
  for (const e of all.events) expect(e.id).toBe(e.ts);
  expect(lines.join("\n")).not.toContain("llama");
  const container = await readSse(`${emu.urls.restV2}/v2/pods/${id}/logs?source=container`, emu.apiKey);
  expect(container.events.length).toBeGreaterThan(0);
  expect(container.events.every((e) => e.source === "container")).toBe(true);
  expect((await readSse(`${emu.urls.restV2}/v2/pods/nope/logs`, emu.apiKey)).status).toBe(404);
  await call("DELETE", `/pods/${id}`);
});

describe("pod billing", () => {
  beforeEach(() => emu.freezeClock());
  afterEach(() => emu.resumeClock());

  test("a pod bills price × count while it runs, nothing while stopped", async () => {
    const price = (await call("GET", `/catalog/gpus/${encodeURIComponent(RTX4090)}`)).body.price.secure;
    const id = (await call("POST", "/pods", gpuPod())).body.id;
    await rest("POST", `${emu.urls.admin}/clock`, undefined, { advanceMs: 2 * HOUR });
    await call("POST", `/pods/${id}/action`, { action: "stop" });
    await rest("POST", `${emu.urls.admin}/clock`, undefined, { advanceMs: 5 * HOUR });
    const res = await call("GET", `/billing/pods?bucketSize=day&lastN=2&podId=${id}`);
    expect(res.status).toBe(200);
    const total = res.body.records.reduce((s: number, r: { totalAmount: number }) => s + r.totalAmount, 0);
    expect(total).toBeCloseTo(2 * 2 * price, 9);
    expect(res.body.metadata).toMatchObject({ uniquePodCount: 1, query: { podId: id } });
    expect(res.body.metadata.totals.gpuAmount).toBeCloseTo(2 * 2 * price, 9);
    await call("DELETE", `/pods/${id}`);
  });
});

test("a network volume a pod mounts cannot be deleted; the refusal names the pod", async () => {
  const pod = (await call("POST", "/pods", gpuPod({ name: "mounter", mounts: { network: [{ volumeId: "nv_cache01", path: "/data" }] } }))).body;
  const refused = await call("DELETE", "/network-volumes/nv_cache01");
  expect(refused.status).toBe(400);
  expect(JSON.stringify(refused.body)).toContain(`pod ${pod.id} (mounter)`);
  await call("DELETE", `/pods/${pod.id}`);
});

test("log event ids (the events' ts) are distinct, so a client resuming by id loses no line", async () => {
  const id = (await call("POST", "/pods", gpuPod())).body.id;
  await call("GET", `/pods/${id}`);
  const { events } = await readSse(`${emu.urls.restV2}/v2/pods/${id}/logs`, emu.apiKey);
  expect(events.length).toBeGreaterThanOrEqual(4);
  expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  await call("DELETE", `/pods/${id}`);
});
