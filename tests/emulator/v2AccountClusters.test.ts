/**
 * The REST v2 operations the emulator serves beyond endpoints, templates, registries, volumes and pods
 * (docs/spec/rest-v2-openapi.json): ECR delegations, the account's SSH keys, clusters with their member pods and
 * billing (per cluster and aggregate), plus two rules of every v2 path: 401 before 404/405 without a valid key, and
 * a required request body refused when empty. The conformance tier validates these exchanges against the document
 * (tests/conformance/v2Traffic.test.ts runs this file with recording on).
 */
import type { RunningEmulator } from "../../emulator";
import { rest, start } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const call = (method: string, path: string, body?: unknown, key: string | undefined = emu.apiKey) => rest(method, `${emu.urls.restV2}/v2${path}`, key, body);
const H100 = "NVIDIA H100 80GB HBM3";
const HOUR = 3_600_000;
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILXGDN/SclOozk1xsDztpmhGiKkkrfQB9SKoO8dSIQQZ me@example.com";

test("an unserved /v2 path or method answers 401 without a valid key, 404/405 with one", async () => {
  expect((await rest("GET", `${emu.urls.restV2}/v2/no-such-thing`, undefined)).status).toBe(401);
  expect((await call("PUT", "/templates", {}, "rpa_not_a_key")).status).toBe(401);
  expect((await call("GET", "/no-such-thing")).status).toBe(404);
  const wrongMethod = await call("PUT", "/registries/delegations", {});
  expect(wrongMethod.status).toBe(405);
  // Only the delegations' own methods: the path is not `/registries/{id}`.
  expect(wrongMethod.headers.get("allow")).toBe("GET, POST");
});

test("a PATCH without a body is refused (422), as the document's required request body says", async () => {
  const t = await call("POST", "/templates", { name: "t", image: "busybox:1" });
  const res = await call("PATCH", `/templates/${t.body.id}`);
  expect(res.status).toBe(422);
  expect(res.body.errors).toEqual(["$: the request body is required (a JSON object)"]);
  expect((await call("PATCH", `/templates/${t.body.id}`, {})).status).toBe(200);
});

test("ECR delegations are created from a repository ARN, listed and revoked", async () => {
  const created = await call("POST", "/registries/delegations", { resource: "arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment", name: "d" });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    name: "d",
    delegatorUserId: expect.any(String),
    awsUser: "418399314813",
    repository: "runpod/deployment",
    tag: "latest",
    awsRegion: "us-east-2",
    dockerRegistryUri: "418399314813.dkr.ecr.us-east-2.amazonaws.com",
  });
  const bad = await call("POST", "/registries/delegations", { resource: "not-an-arn" });
  expect(bad.status).toBe(400);
  expect(bad.body.detail).toMatch(/^resource: must be an ECR repository ARN/);
  expect((await call("GET", "/registries/delegations")).body.delegations.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
  // Another user neither sees nor revokes it.
  expect((await call("GET", "/registries/delegations", undefined, emu.otherUserApiKey)).body.delegations).toEqual([]);
  expect((await call("DELETE", `/registries/delegations/${created.body.id}`, undefined, emu.otherUserApiKey)).status).toBe(404);
  expect((await call("DELETE", `/registries/delegations/${created.body.id}`)).status).toBe(204);
  expect((await call("DELETE", `/registries/delegations/${created.body.id}`)).status).toBe(404);
});

test("SSH keys are replaced whole, checked, and provisioned into pods created with startSsh", async () => {
  expect((await call("PUT", "/account/ssh-keys", { keys: ["not a key"] })).status).toBe(422);
  const put = await call("PUT", "/account/ssh-keys", { keys: [KEY, "ssh-rsa AAAAB3Nza other"] });
  expect(put.status).toBe(200);
  expect(put.body).toEqual({ keys: [KEY, "ssh-rsa AAAAB3Nza other"] });
  expect((await call("PUT", "/account/ssh-keys", { keys: [KEY] })).body).toEqual({ keys: [KEY] });
  expect((await call("GET", "/account/ssh-keys")).body).toEqual({ keys: [KEY] });
  const pod = await call("POST", "/pods", { name: "p", image: "busybox:1", gpu: { id: "NVIDIA GeForce RTX 4090" }, startSsh: true });
  expect(pod.body.env.PUBLIC_KEY).toBe(KEY);
  await call("DELETE", `/pods/${pod.body.id}`);
  expect((await call("PUT", "/account/ssh-keys", { keys: [] })).body).toEqual({ keys: [] });
});

test("a cluster places identical member pods in one data center, renames, bills, and deletes them", async () => {
  emu.freezeClock();
  const created = await call("POST", "/clusters", {
    name: "train",
    type: "SLURM",
    compute: { gpuTypeId: H100, gpuCountPerPod: 2, podCount: 3 },
    image: "runpod/pytorch:2.4.0",
    ports: ["22/tcp"],
    dataCenterIds: ["US-TX-3"],
  });
  expect(created.status).toBe(201);
  const id = created.body.id;
  expect(created.body).toMatchObject({
    name: "train",
    type: "SLURM",
    compute: { gpuTypeId: H100, gpuCountPerPod: 2, podCount: 3 },
    dataCenterId: "US-TX-3",
    pods: { total: 3 },
    network: { cidr: "10.65.0.0/16", vxlanPort: 4789 },
  });

  const members = (await call("GET", `/clusters/${id}/pods`)).body.pods;
  expect(members.map((p: any) => [p.cluster.rank, p.cluster.role, p.cluster.ip])).toEqual([
    [0, "SLURM_CONTROLLER", "10.65.0.2"],
    [1, "SLURM_COMPUTE", "10.65.0.3"],
    [2, "SLURM_COMPUTE", "10.65.0.4"],
  ]);
  expect(new Set(members.map((p: any) => p.dataCenterId))).toEqual(new Set(["US-TX-3"]));
  const got = (await call("GET", `/clusters/${id}`)).body;
  expect(got.pods).toEqual({ total: 3, byStatus: { RUNNING: 3 } });
  expect(got.primary).toEqual({ podId: members[0].id, status: "RUNNING", sshEndpoint: `${members[0].ssh.direct.host}:${members[0].ssh.direct.port}` });

  // Members are the cluster's: hidden from listPods by default, and the pod operations refuse to change them (409).
  const ids = (q: string) => call("GET", `/pods${q}`).then((r) => r.body.pods.map((p: { id: string }) => p.id));
  expect(await ids("")).not.toContain(members[0].id);
  expect(await ids("?includeClusterPods=true")).toContain(members[0].id);
  expect((await call("GET", "/pods?includeClusterPods=maybe")).status).toBe(422);
  expect((await call("PATCH", `/pods/${members[1].id}`, { name: "x" })).status).toBe(409);
  expect((await call("DELETE", `/pods/${members[1].id}`)).status).toBe(409);
  expect((await call("POST", `/pods/${members[1].id}/action`, { action: "stop" })).status).toBe(409);

  expect((await call("PATCH", `/clusters/${id}`, {})).status).toBe(422);
  expect((await call("PATCH", `/clusters/${id}`, { name: "renamed" })).body.name).toBe("renamed");
  expect((await call("GET", `/clusters/${id}`, undefined, emu.otherUserApiKey)).status).toBe(404);

  // An hour of the cluster: price × GPUs per pod × pods, GPU only; the aggregate carries it as clusterGpuAmount.
  const price = (await call("GET", `/catalog/gpus/${encodeURIComponent(H100)}`)).body.price.secure;
  emu.advanceClock(HOUR);
  const bill = (await call("GET", `/billing/clusters?clusterId=${id}&bucketSize=year`)).body;
  expect(bill.records).toHaveLength(1);
  expect(bill.records[0].clusterId).toBe(id);
  expect(bill.metadata.totals.gpuAmount).toBeCloseTo(price * 2 * 3, 6);
  expect(bill.metadata.totals).toMatchObject({ diskAmount: 0, networkingAmount: 0 });
  expect(bill.metadata.uniqueClusterCount).toBe(1);
  const all = (await call("GET", "/billing?bucketSize=year")).body;
  expect(all.metadata.totals.clusterGpuAmount).toBeCloseTo(price * 2 * 3, 6);
  expect(all.metadata.totals.totalAmount).toBeGreaterThanOrEqual(all.metadata.totals.clusterGpuAmount);

  expect((await call("DELETE", `/clusters/${id}`)).status).toBe(204);
  emu.resumeClock();
  expect((await call("GET", `/clusters/${id}`)).status).toBe(404);
  expect(await ids("?includeClusterPods=true")).not.toContain(members[0].id);
});

test("a cluster is refused with the field named: unknown GPU type, more GPUs per pod than the type has", async () => {
  const body = (compute: Record<string, unknown>) => ({
    name: "c",
    type: "TRAINING",
    compute: { gpuTypeId: H100, gpuCountPerPod: 1, podCount: 2, ...compute },
  });
  const unknown = await call("POST", "/clusters", body({ gpuTypeId: "NVIDIA Nothing" }));
  expect([unknown.status, unknown.body.detail]).toEqual([400, expect.stringMatching(/^compute\.gpuTypeId: unknown GPU type/)]);
  const many = await call("POST", "/clusters", body({ gpuCountPerPod: 99 }));
  expect([many.status, many.body.detail]).toEqual([400, expect.stringMatching(/^compute\.gpuCountPerPod: at most \d+/)]);
  expect((await call("POST", "/clusters", body({ podCount: 1 }))).status).toBe(422);
});
