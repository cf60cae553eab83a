/**
 * runpod-python (PyPI `runpod`), unchanged, as an oracle for the emulator (issue 15 §2): every public function
 * of the client that touches the user, GPU types, registry credentials, templates, endpoints or jobs runs against
 * the in-process emulator over real HTTP (tests/conformance/clients/runpod_python.py); each result is checked here.
 * Skipped, with the reason printed, only where python3 is absent.
 */
import { spawn } from "child_process";
import { join } from "path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { pythonUnavailable, runpodPython } from "./pythonClient";

const unavailable = pythonUnavailable();
if (unavailable) console.warn(`skipping runpod-python conformance: ${unavailable}`);
const describeIfPython = unavailable ? describe.skip : describe;

type Result = { ok?: any; error?: string };

function runDriver(python: string, emu: RunningEmulator): Promise<Record<string, Result>> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [join(__dirname, "clients", "runpod_python.py")], {
      env: {
        PATH: process.env.PATH,
        // A fresh HOME keeps the user's ~/.runpod credentials out of the run.
        HOME: join(__dirname, "clients"),
        RUNPOD_API_KEY: emu.apiKey,
        RUNPOD_API_BASE_URL: new URL(emu.urls.graphql).origin,
        RUNPOD_ENDPOINT_BASE_URL: `${emu.urls.inference}/v2`,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`runpod_python.py exited ${code}:\n${stderr}`));
      try {
        resolve(JSON.parse(stdout.trim().split("\n").pop()!));
      } catch {
        reject(new Error(`runpod_python.py printed no JSON:\n${stdout}\n${stderr}`));
      }
    });
  });
}

describeIfPython("runpod-python 1.12.0 against the emulator", () => {
  let emu: RunningEmulator;
  let r: Record<string, Result>;
  beforeAll(async () => {
    const python = runpodPython();
    emu = await startEmulator({ port: 0, quiet: true, jobDurationMs: 1500, workerStartMs: 50, logIntervalMs: 200 });
    r = await runDriver(python, emu);
  }, 600_000);
  afterAll(() => emu?.close());

  const ok = (name: string) => {
    expect(r[name]).toBeDefined();
    expect(r[name].error).toBeUndefined();
    return r[name].ok;
  };

  test("get_user and update_user_settings", () => {
    expect(ok("get_user")).toEqual({
      id: "user_1",
      pubKey: "",
      networkVolumes: [
        { id: "nv_models01", name: "models", size: 100, dataCenterId: "EU-RO-1" },
        { id: "nv_cache01", name: "cache", size: 50, dataCenterId: "US-TX-3" },
      ],
    });
    expect(ok("update_user_settings")).toEqual({ id: "user_1", pubKey: "ssh-ed25519 AAAAC3NzaC1 py@conformance" });
  });

  test("get_gpus and get_gpu", () => {
    expect(ok("get_gpus")).toContainEqual({ id: "NVIDIA GeForce RTX 4090", displayName: "RTX 4090", memoryInGb: 24 });
    const gpu = ok("get_gpu");
    expect(gpu).toMatchObject({ id: "NVIDIA GeForce RTX 4090", manufacturer: "Nvidia", maxGpuCount: 8, secureCloud: true, communityCloud: true });
    for (const price of ["securePrice", "communityPrice", "oneMonthPrice", "threeMonthPrice", "oneWeekPrice", "communitySpotPrice", "secureSpotPrice"]) {
      expect(gpu[price]).toBeGreaterThan(0);
    }
    expect(gpu.lowestPrice).toEqual({ minimumBidPrice: expect.any(Number), uninterruptablePrice: gpu.communityPrice });
    expect(r["get_gpu (unknown)"].error).toMatch(/ValueError: No GPU found/);
  });

  test("create, update and delete container registry auth; the password stays write-only", () => {
    const reg = ok("create_container_registry_auth");
    expect(reg).toEqual({ id: expect.any(String), name: "py-reg" });
    expect(ok("update_container_registry_auth")).toEqual(reg);
    expect(emu.registryAuthPasswordMatches(reg.id, "py-secret-2")).toBe(true);
    expect(emu.registryAuths("user_1").find((a) => a.id === reg.id)).toMatchObject({ username: "bot2" });
    expect(r["delete_container_registry_auth (in use)"].error).toMatch(/QueryError: .*used by template "py-tpl"/);
    expect(ok("delete_container_registry_auth")).toBeNull();
    expect(emu.registryAuths("user_1").map((a) => a.name)).toEqual(expect.arrayContaining(["py-reg"]));
    expect(emu.registryAuths("user_1").map((a) => a.name)).not.toContain("py-reg-unused");
    expect(JSON.stringify(r)).not.toContain("py-secret");
  });

  test("create_template", () => {
    const reg = ok("create_container_registry_auth");
    expect(ok("create_template")).toEqual({
      id: expect.any(String),
      name: "py-tpl",
      imageName: "acme/py-worker:1.0",
      dockerArgs: 'python -u "handler.py"',
      containerDiskInGb: 15,
      volumeInGb: 5,
      volumeMountPath: "/data",
      ports: "8000/http,22/tcp",
      env: [
        { key: "MODEL", value: "m1" },
        { key: "LOG_LEVEL", value: "debug" },
      ],
      isServerless: true,
    });
    expect(emu.templates("user_1").find((t) => t.name === "py-tpl")).toMatchObject({
      containerRegistryAuthId: reg.id,
      startSsh: true,
      isPublic: false,
      readme: "",
    });
    expect(ok("create_template (defaults)")).toMatchObject({
      name: "py-tpl-2",
      containerDiskInGb: 10,
      volumeInGb: 0,
      volumeMountPath: "/workspace",
      ports: "",
      env: [],
      dockerArgs: "",
    });
    expect(r["create_template (duplicate name)"].error).toMatch(/QueryError: A template named "py-tpl" already exists/);
  });

  test("create_endpoint, get_endpoints, update_endpoint_template", () => {
    const tpl = ok("create_template");
    const tpl2 = ok("create_template (defaults)");
    const ep = ok("create_endpoint");
    expect(ep).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{14}$/),
      name: "py-ep",
      templateId: tpl.id,
      gpuIds: "AMPERE_16,ADA_24",
      networkVolumeId: null,
      locations: "",
      idleTimeout: 7,
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
      workersMin: 1,
      workersMax: 2,
      allowedCudaVersions: "12.1,12.2",
      gpuCount: 1,
      flashBootType: "FLASHBOOT",
    });
    expect(emu.endpoints("user_1").find((e) => e.id === ep.id)?.fastBootType).toBe("FASTBOOT");
    expect(r["create_endpoint (bad gpu_ids)"].error).toMatch(/QueryError: Invalid gpuIds "H100".*allowed values are AMPERE_16/);
    const listed = ok("get_endpoints").find((e: any) => e.id === ep.id);
    expect(listed).toEqual({
      aiKey: expect.stringMatching(/^ai_/),
      gpuIds: "AMPERE_16,ADA_24",
      id: ep.id,
      idleTimeout: 7,
      name: "py-ep",
      networkVolumeId: null,
      locations: "",
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
      templateId: tpl.id,
      type: "QB",
      userId: "user_1",
      version: 0,
      workersMax: 2,
      workersMin: 1,
      workersStandby: 0,
      gpuCount: 1,
      env: [
        { key: "MODEL", value: "m1" },
        { key: "LOG_LEVEL", value: "debug" },
      ],
      createdAt: expect.any(String),
      networkVolume: null,
    });
    expect(ok("update_endpoint_template")).toEqual({ id: ep.id, templateId: tpl2.id });
    expect(emu.endpoints("user_1").find((e) => e.id === ep.id)?.templateId).toBe(tpl2.id);
  });

  test("Endpoint.run_sync, Endpoint.run, Job.status, Job.output", () => {
    expect(ok("Endpoint.run_sync")).toEqual({ echo: { prompt: "hello" } });
    expect(ok("Endpoint.run").job_id).toMatch(/-u1$/);
    expect(["IN_QUEUE", "IN_PROGRESS", "COMPLETED"]).toContain(ok("Job.status"));
    expect(ok("Job.output")).toEqual({ echo: { n: 1 } });
  });

  test("Job.stream yields the image model's progress chunks, then the image", () => {
    const chunks = ok("Job.stream");
    expect(chunks.slice(0, 3).map((c: any) => c.progress)).toEqual([0.25, 0.5, 0.75]);
    expect(chunks[3]).toMatchObject({ image_url: expect.any(String), width: 512, height: 512 });
    expect(chunks).toHaveLength(4);
  });

  test("Job.cancel, Endpoint.health, Endpoint.purge_queue", () => {
    expect(ok("Job.cancel")).toEqual({ id: expect.any(String), status: "CANCELLED" });
    expect(ok("Job.status (cancelled)")).toBe("CANCELLED");
    const health = ok("Endpoint.health");
    expect(Object.keys(health.jobs).sort()).toEqual(["completed", "failed", "inProgress", "inQueue", "retried"]);
    expect(health.jobs.completed).toBeGreaterThanOrEqual(2);
    expect(health.workers).toMatchObject({ ready: expect.any(Number), idle: expect.any(Number), running: expect.any(Number) });
    // Of the three jobs sent last, the endpoint's one worker (free again) took the first: two were still queued.
    expect(ok("Endpoint.purge_queue")).toEqual({ removed: 2, status: "completed" });
  });

  test("the asyncio client: run, status, output, stream, cancel, health, purge_queue", () => {
    expect(r["asyncio scenario"]).toBeUndefined();
    expect(ok("AsyncioEndpoint.run").job_id).toMatch(/-u1$/);
    expect(["IN_QUEUE", "IN_PROGRESS", "COMPLETED"]).toContain(ok("AsyncioJob.status"));
    expect(ok("AsyncioJob.output")).toEqual({ echo: { a: 1 } });
    const chunks = ok("AsyncioJob.stream");
    expect(chunks.map((c: any) => c.progress ?? "image")).toEqual([0.25, 0.5, 0.75, "image"]);
    expect(ok("AsyncioJob.cancel")).toEqual({ id: expect.any(String), status: "CANCELLED" });
    expect(ok("AsyncioEndpoint.health").jobs.completed).toBeGreaterThanOrEqual(3);
    // Likewise the worker took the first of the two jobs sent last.
    expect(ok("AsyncioEndpoint.purge_queue")).toEqual({ removed: 1, status: "completed" });
  });
});
