/**
 * `pulumi-runpod logs --pod` against the emulator over real HTTP: a pod's log lines (REST v2 getPodLogs) with
 * timestamp and source, source filtering, JSON lines, and an unknown pod; the endpoint form is logs.test.ts's.
 */
import { jsonLines, runInProcess, startHarness, type Harness } from "./harness";

let h: Harness;
let podId: string;

beforeAll(async () => {
  h = await startHarness();
  const pod = await h.client.v2.createPod({ name: "dev", image: "runpod/pytorch:2.4.0", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } });
  podId = pod.id;
  await h.client.v2.getPod(podId);
  await h.client.v2.podAction(podId, { action: "stop" });
});

afterAll(async () => {
  await h?.close();
});

const logs = (args: string[]) => runInProcess(["logs", ...args], { env: h.env });

test("prints the pod's lines in order with timestamp and source", async () => {
  const r = await logs(["--pod", podId]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split("\n");
  expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\S+Z system\s+Pod placed in \S+ on 1 x NVIDIA GeForce RTX 4090$/);
  expect(lines).toContainEqual(expect.stringMatching(/ system\s+Pulling image runpod\/pytorch:2\.4\.0$/));
  expect(lines.at(-1)).toMatch(/ system\s+Stopping the container$/);
});

test("--source and --json: only container lines, one JSON object each naming the pod", async () => {
  const r = await logs(["--pod", podId, "--source", "container", "--json"]);
  expect(r.code).toBe(0);
  const parsed = jsonLines(r.stdout) as unknown as { pod: string; source: string; line: string; id: string; ts: string }[];
  expect(parsed.length).toBeGreaterThan(0);
  for (const l of parsed) expect(l).toMatchObject({ pod: podId, source: "container", id: l.ts });
});

test("an unknown pod fails naming it; --worker does not apply to a pod", async () => {
  const r = await logs(["--pod", "nopod123"]);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/nopod123/);
  const w = await logs(["--pod", podId, "--worker", "w1"]);
  expect(w.code).not.toBe(0);
  expect(w.stderr).toMatch(/--worker applies to endpoints/);
});
