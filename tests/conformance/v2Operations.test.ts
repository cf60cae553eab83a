/**
 * Conformance of the emulator's REST v2 with the vendored document: drives every v2 operation the emulator serves
 * (successes and the document's error statuses) and validates each exchange with the document's own schemas
 * (v2Validator.ts: Ajv 2020-12, answers closed against unlisted fields). The same exchanges, recorded by the emulator
 * (RUNPOD_EMULATOR_V2_TRAFFIC), are validated again from the file, so the recording path is checked too.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { V2Validator, type Exchange } from "./v2Validator";

const validator = new V2Validator();

/** Operations of the document the emulator serves (emulator/README.md, REST v2). */
export const SERVED = [
  "listEndpoints",
  "createEndpoint",
  "getEndpoint",
  "updateEndpoint",
  "deleteEndpoint",
  "listEndpointWorkers",
  "listEndpointReleases",
  "getWorkerLogs",
  "listTemplates",
  "createTemplate",
  "getTemplate",
  "updateTemplate",
  "deleteTemplate",
  "listRegistries",
  "createRegistry",
  "getRegistry",
  "deleteRegistry",
  "listNetworkVolumes",
  "getNetworkVolume",
  "createNetworkVolume",
  "updateNetworkVolume",
  "deleteNetworkVolume",
  "listGpuTypes",
  "getGpuType",
  "listCpuTypes",
  "getCpuType",
  "listDataCenters",
  "getDataCenter",
  "listPublicTemplates",
  "listServerlessBilling",
  "listEndpointBilling",
  "listNetworkVolumeBilling",
];

let emu: RunningEmulator;
let dir: string;
const seen: { x: Exchange; problems: string[]; operationId?: string }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "v2-traffic-"));
  const before = process.env.RUNPOD_EMULATOR_V2_TRAFFIC;
  process.env.RUNPOD_EMULATOR_V2_TRAFFIC = dir;
  try {
    emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 20, jobDurationMs: 100, logIntervalMs: 20 });
  } finally {
    if (before === undefined) delete process.env.RUNPOD_EMULATOR_V2_TRAFFIC;
    else process.env.RUNPOD_EMULATOR_V2_TRAFFIC = before;
  }
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

function headersOf(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, key) => (out[key] = value));
  return out;
}

/** Call the emulator and validate the exchange at once; returns the parsed answer. */
async function call(method: string, path: string, body?: unknown, key: string | null = emu.apiKey): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${emu.urls.restV2}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const parsed = text === "" ? undefined : JSON.parse(text);
  const [p, q = ""] = path.split("?");
  const x: Exchange = {
    method,
    path: p,
    query: q,
    status: res.status,
    contentType: res.headers.get("content-type"),
    authenticated: key !== null && res.status !== 401,
    requestBody: body,
    responseBody: parsed,
    headers: headersOf(res.headers),
  };
  seen.push({ x, problems: validator.exchangeProblems(x), operationId: validator.find(method, p)?.operationId });
  return { status: res.status, body: parsed };
}

const expectClean = () => {
  const bad = seen.filter((s) => s.problems.length > 0).map((s) => ({ call: `${s.x.method} ${s.x.path}?${s.x.query} → ${s.x.status}`, problems: s.problems }));
  expect(bad).toEqual([]);
};

test("the document's own response examples pass the closed answer schemas (the closing is not stricter than the document)", () => {
  const failures: string[] = [];
  for (const op of validator.operations) {
    for (const [status, response] of Object.entries<any>(op.spec.responses)) {
      const r = response.$ref ? validator.doc.components.responses[response.$ref.split("/").pop()] : response;
      for (const [type, media] of Object.entries<any>(r.content ?? {})) {
        for (const [name, example] of Object.entries<any>(media.examples ?? {})) {
          const x: Exchange = {
            method: op.method,
            path: op.template,
            query: "",
            status: status === "default" ? 500 : Number(status),
            contentType: type,
            authenticated: false,
            responseBody: example.value,
            headers: { "retry-after": "1" },
          };
          const problems = validator.responseProblems(op, x);
          if (problems.length > 0) failures.push(`${op.operationId} ${status} ${name}: ${problems.join("; ")}`);
        }
      }
    }
  }
  expect(failures).toEqual([]);
});

test("every served operation answers as the document says, successes and errors", async () => {
  // Serverless: create (GPU, CPU, from a template), read, patch, releases, workers, logs, delete.
  const tpl = await call("POST", "/v2/templates", {
    name: "conf-tpl",
    image: "me/t:1",
    serverless: true,
    env: { A: "1" },
    ports: ["8000/http"],
    mounts: { persistent: { size: 20, path: "/data" } },
  });
  expect(tpl.status).toBe(201);
  const gpu = await call("POST", "/v2/serverless", {
    name: "conf-gpu",
    templateId: tpl.body.id,
    type: "QUEUE",
    gpu: { pools: ["ADA_24", "AMPERE_24"], excludedTypes: ["NVIDIA L4"], count: 1, minCudaVersion: "12.1" },
    workers: { min: 1, max: 2, idleTimeout: 5 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 0.5 },
    dataCenterIds: ["EU-RO-1"],
    networkVolumes: ["nv_models01"],
    flashboot: "PRIORITY_FLASHBOOT",
  });
  expect(gpu.status).toBe(201);
  const cpu = await call("POST", "/v2/serverless", {
    name: "conf-cpu",
    image: "python:3.11-slim",
    type: "QUEUE",
    cpu: [{ id: "cpu5c", vcpuCount: 4 }],
    scaling: { type: "REQUEST_COUNT", requestCount: 2 },
  });
  expect(cpu.status).toBe(201);
  const lb = await call("POST", "/v2/serverless", {
    name: "conf-lb",
    image: "me/lb:1",
    type: "LOAD_BALANCER",
    gpu: { pools: ["AMPERE_16"] },
    scaling: { type: "REQUEST_COUNT", requestCount: 4 },
  });
  expect(lb.status).toBe(201);
  await call("GET", "/v2/serverless");
  await call("GET", `/v2/serverless/${gpu.body.id}`);
  expect((await call("PATCH", `/v2/serverless/${gpu.body.id}`, { image: "me/t:2", workers: { max: 3 } })).status).toBe(200);
  await call("PATCH", `/v2/serverless/${cpu.body.id}`, {
    cpu: [
      { id: "cpu5g", vcpuCount: 8 },
      { id: "cpu3c", vcpuCount: 2 },
    ],
  });
  await call("GET", `/v2/serverless/${gpu.body.id}/releases`);
  let workers: any;
  for (let i = 0; i < 100; i++) {
    workers = (await call("GET", `/v2/serverless/${gpu.body.id}/workers`)).body;
    if (workers.workers.some((w: any) => w.status === "IDLE")) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const logs = await fetch(`${emu.urls.restV2}/v2/serverless/${gpu.body.id}/workers/${workers.workers[0].id}/logs?tail=1`, {
    headers: { authorization: `Bearer ${emu.apiKey}` },
    signal: AbortSignal.timeout(300),
  }).catch(() => undefined);
  expect(logs?.headers.get("content-type")).toMatch(/^text\/event-stream/);
  await logs?.body?.cancel().catch(() => undefined);
  await call("GET", `/v2/serverless/nope/workers/nope/logs`);

  // Errors: 400, 401, 403, 404, 405, 422, 429.
  expect((await call("PATCH", `/v2/serverless/${gpu.body.id}`, { type: "LOAD_BALANCER" })).status).toBe(400);
  expect((await call("POST", "/v2/serverless", { name: "x", image: "i", type: "QUEUE", scaling: { type: "QUEUE_DELAY", queueDelay: 1 } })).status).toBe(400);
  expect(
    (
      await call("POST", "/v2/serverless", {
        name: "x",
        image: "i",
        type: "QUEUE",
        gpu: { pools: ["ADA_24"] },
        scaling: { type: "QUEUE_DELAY", queueDelay: 1 },
        extra: 1,
      })
    ).status,
  ).toBe(422);
  expect((await call("GET", "/v2/serverless", undefined, null)).status).toBe(401);
  expect((await call("POST", "/v2/templates", { name: "ro", image: "x" }, emu.readOnlyApiKey)).status).toBe(403);
  expect((await call("GET", "/v2/serverless/nope")).status).toBe(404);
  expect((await call("DELETE", "/v2/serverless/nope")).status).toBe(404);
  expect((await call("PATCH", "/v2/registries/nope", {})).status).toBe(405);
  emu.setFaults({ force429: 1, match: ["getEndpoint"] });
  expect((await call("GET", `/v2/serverless/${gpu.body.id}`)).status).toBe(429);
  emu.setFaults({});

  // Templates and registries.
  await call("GET", "/v2/templates");
  await call("GET", `/v2/templates/${tpl.body.id}`);
  await call("GET", "/v2/templates/tpl_vllm");
  await call("PATCH", `/v2/templates/${tpl.body.id}`, { name: "conf-tpl-renamed", category: "AMD", public: true });
  const reg = await call("POST", "/v2/registries", { name: "conf-reg", username: "u", password: "p" });
  expect(reg.status).toBe(201);
  await call("GET", "/v2/registries");
  await call("GET", `/v2/registries/${reg.body.id}`);
  expect((await call("POST", "/v2/registries", { name: "conf-reg", username: "u" })).status).toBe(422);
  expect((await call("DELETE", `/v2/registries/${reg.body.id}`)).status).toBe(204);
  expect((await call("DELETE", "/v2/templates/tpl_vllm")).status).toBe(204);

  // Network volumes.
  await call("GET", "/v2/network-volumes");
  await call("GET", "/v2/network-volumes/nv_models01");
  expect((await call("GET", "/v2/network-volumes/nope")).status).toBe(404);
  const vol = await call("POST", "/v2/network-volumes", { name: "conf-vol", size: 10, dataCenter: "EU-RO-1" });
  expect(vol.status).toBe(201);
  expect((await call("PATCH", `/v2/network-volumes/${vol.body.id}`, { name: "conf-vol-2", size: 20 })).status).toBe(200);
  expect((await call("PATCH", `/v2/network-volumes/${vol.body.id}`, { size: 10 })).status).toBe(400);
  expect((await call("PATCH", `/v2/network-volumes/${vol.body.id}`, {})).status).toBe(422);
  expect((await call("POST", "/v2/network-volumes", { name: "x", size: 5, dataCenter: "EU-RO-1" })).status).toBe(422);
  expect((await call("POST", "/v2/network-volumes", { name: "x", size: 10, dataCenter: "US-CA-2", type: "HIGH_PERFORMANCE" })).status).toBe(400);
  expect((await call("DELETE", "/v2/network-volumes/nv_models01")).status).toBe(400); // mounted by the GPU endpoint

  // Catalog, with and without availability and its filters.
  await call("GET", "/v2/catalog/gpus");
  await call("GET", "/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS");
  await call("GET", "/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS,POD&count=2&cloud=SECURE&countryCodes=RO,US&minCudaVersion=12.4");
  await call("GET", "/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS&cudaVersions=12.8");
  await call("GET", `/v2/catalog/gpus/${encodeURIComponent("NVIDIA GeForce RTX 4090")}?include=AVAILABILITY&product=SERVERLESS`);
  expect((await call("GET", "/v2/catalog/gpus?include=AVAILABILITY")).status).toBe(400);
  expect((await call("GET", "/v2/catalog/gpus/nope")).status).toBe(404);
  await call("GET", "/v2/catalog/cpus");
  await call("GET", "/v2/catalog/cpus?include=AVAILABILITY&product=SERVERLESS&vcpuCount=4");
  await call("GET", "/v2/catalog/cpus/cpu3c");
  await call("GET", "/v2/catalog/datacenters");
  await call("GET", "/v2/catalog/datacenters?include=GPU_AVAILABILITY,CPU_AVAILABILITY&regions=EUROPE&networkVolumeTypes=STANDARD");
  await call("GET", "/v2/catalog/datacenters/EU-RO-1?include=GPU_AVAILABILITY");
  await call("GET", "/v2/catalog/templates");
  await call("GET", "/v2/catalog/templates?source=community");
  expect((await call("GET", "/v2/catalog/templates?source=all")).status).toBe(422);
  emu.setFaults({ availability: { ADA_24: { "*": "NONE" } } });
  await call("GET", "/v2/catalog/gpus?include=AVAILABILITY&product=SERVERLESS");
  emu.setFaults({});

  // Billing.
  emu.advanceClock(3_600_000);
  await call("GET", "/v2/billing/serverless?bucketSize=hour&lastN=3");
  await call("GET", `/v2/billing/serverless?serverlessId=${gpu.body.id}`);
  await call("GET", "/v2/billing/serverless?startTime=2026-01-01T00:00:00Z&bucketSize=month");
  expect((await call("GET", "/v2/billing/serverless?lastN=2&startTime=2026-01-01T00:00:00Z")).status).toBe(400);
  await call("GET", "/v2/billing/endpoints?bucketSize=day&lastN=2");
  await call("GET", `/v2/billing/network-volumes?bucketSize=hour&lastN=3&networkVolumeId=${vol.body.id}`);
  await call("GET", "/v2/billing/network-volumes?bucketSize=day&lastN=2");

  // Deletes last.
  expect((await call("DELETE", `/v2/serverless/${gpu.body.id}`)).status).toBe(204);
  expect((await call("DELETE", `/v2/serverless/${cpu.body.id}`)).status).toBe(204);
  expect((await call("DELETE", `/v2/templates/${tpl.body.id}`)).status).toBe(204);
  expect((await call("DELETE", `/v2/network-volumes/${vol.body.id}`)).status).toBe(204);

  expectClean();
  const succeeded = new Set(seen.filter((s) => s.x.status < 300).map((s) => s.operationId));
  succeeded.add("getWorkerLogs"); // streamed above; its errors are validated as exchanges
  expect(SERVED.filter((op) => !succeeded.has(op))).toEqual([]);
  const statuses = new Set(seen.map((s) => s.x.status));
  for (const s of [200, 201, 204, 400, 401, 403, 404, 405, 422, 429]) expect(statuses).toContain(s);
});

test("the emulator recorded the same exchanges, and each passes the validator from the file", () => {
  const lines = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean));
  const recorded: Exchange[] = lines.map((l) => JSON.parse(l));
  // The log stream's 200 is a stream, not recorded; every other call was.
  expect(recorded.length).toBe(seen.length);
  const bad = recorded
    .map((x) => ({ call: `${x.method} ${x.path}?${x.query} → ${x.status}`, problems: x.fault ? [] : validator.exchangeProblems(x) }))
    .filter((b) => b.problems.length > 0);
  expect(bad).toEqual([]);
  expect(recorded.filter((x) => x.fault).map((x) => x.status)).toEqual([429]);
});
