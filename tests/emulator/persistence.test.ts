import { mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { DEFAULT_SEED, startEmulator } from "../../emulator";
import { createEndpoint, gql, inFreshMinute, rateLimitWindows, rest, start, until } from "./harness";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const minuteRemaining = (h: Headers) => rateLimitWindows(h.get("ratelimit")).minute.r;

test("with a data file, endpoints, jobs, workers and rate-limit counters survive a restart", async () => {
  const dataFile = join(dir, "state.sqlite");
  const first = await start({ dataFile });
  const ep = await createEndpoint(first, { name: "persisted", workersMin: 1, locations: "US" });
  const job = await rest("POST", `${first.urls.inference}/v2/${ep.id}/runsync`, first.apiKey, { input: { keep: true } });
  expect(job.body.status).toBe("COMPLETED");
  // The per-minute counts compared below must belong to one window: the restart and the requests in
  // between take a few seconds, so this request waits for a minute with ample time left.
  const before = await inFreshMinute(() => rest("GET", `${first.urls.restV2}/v2/network-volumes`, first.apiKey), 15);
  await first.close();

  const second = await start({ dataFile });
  try {
    const mine = await gql(second, `{ myself { endpoints { id name locations workersMin } } }`);
    expect(mine.body.data.myself.endpoints).toEqual([{ id: ep.id, name: "persisted", locations: "US", workersMin: 1 }]);
    const status = await rest("GET", `${second.urls.inference}/v2/${ep.id}/status/${job.body.id}`, second.apiKey);
    expect(status.body).toMatchObject({ id: job.body.id, status: "COMPLETED", output: { echo: { keep: true } } });
    const workers = await until(async () => {
      const r = await rest("GET", `${second.urls.restV2}/v2/serverless/${ep.id}/workers`, second.apiKey);
      return r.body.workers.length === 1 && r.body.workers;
    });
    expect(workers[0]).toMatchObject({ isStale: false, version: 1 });
    const after = await rest("GET", `${second.urls.restV2}/v2/network-volumes`, second.apiKey);
    // Requests in between: the GraphQL query above, the status poll and the worker polls all counted.
    expect(minuteRemaining(after.headers)).toBeLessThan(minuteRemaining(before.headers) - 2);
  } finally {
    await second.close();
  }
});

test("without a data file, state starts empty", async () => {
  const first = await start();
  await createEndpoint(first, { name: "ephemeral" });
  await first.close();
  const second = await start();
  try {
    expect(second.endpoints()).toEqual([]);
  } finally {
    await second.close();
  }
});

test("a JSON seed file is loaded and validated", async () => {
  const file = join(dir, "seed.json");
  writeFileSync(
    file,
    JSON.stringify({
      ...DEFAULT_SEED,
      users: [
        { id: "alice", email: "alice@example.com" },
        { id: "bob", email: "bob@example.com" },
      ],
      apiKeys: [
        { key: "rpa_alice_rw_key", userId: "alice", scopes: ["read", "write"] },
        { key: "rpa_alice_ro_key", userId: "alice", scopes: ["read"] },
        { key: "rpa_bob_rw_key_0", userId: "bob", scopes: ["read", "write"] },
      ],
      networkVolumes: [{ id: "nv_a", userId: "alice", name: "a", size: 10, dataCenter: "EU-RO-1" }],
      templates: [{ id: "tpl_a", name: "a", imageName: "x/y:1" }],
    }),
  );
  const emu = await startEmulator({ seed: file, port: 0, quiet: true });
  try {
    expect([emu.apiKey, emu.readOnlyApiKey, emu.otherUserApiKey]).toEqual(["rpa_alice_rw_key", "rpa_alice_ro_key", "rpa_bob_rw_key_0"]);
    const me = await gql(emu, `{ myself { id email serverlessDiscount { type } } }`);
    expect(me.body.data.myself).toEqual({ id: "alice", email: "alice@example.com", serverlessDiscount: null });
    const vols = await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, emu.apiKey);
    expect(vols.body.networkVolumes).toEqual([{ id: "nv_a", name: "a", size: 10, dataCenter: "EU-RO-1", type: "STANDARD" }]);
    // A template without owner is public: both users may use it.
    expect((await createEndpoint(emu, { templateId: "tpl_a" }, emu.otherUserApiKey)).templateId).toBe("tpl_a");
  } finally {
    await emu.close();
  }
});

test("an invalid seed is refused with every problem named", async () => {
  const file = join(dir, "bad-seed.json");
  writeFileSync(file, JSON.stringify({ ...DEFAULT_SEED, apiKeys: [{ key: "rpa_bad_scope", userId: "user_1", scopes: ["admin"] }], gpuTypes: [] }));
  await expect(startEmulator({ seed: file, quiet: true })).rejects.toThrow(/apiKeys\.0\.scopes\.0[\s\S]*gpuTypes/);
  await expect(
    startEmulator({ seed: { ...DEFAULT_SEED, apiKeys: [{ key: "rpa_orphan_key", userId: "ghost", scopes: ["read"] }] }, quiet: true }),
  ).rejects.toThrow(/apiKeys\.0\.userId: unknown user "ghost"/);
  await expect(startEmulator({ seed: join(dir, "missing.json"), quiet: true })).rejects.toThrow(/cannot read seed file/);
});
