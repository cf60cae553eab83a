/**
 * The packaged bin, run as `node dist/emulator/cli.js`.
 * Needs dist/ (`npx tsc -p tsconfig.json`; `npm test` builds first).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "child_process";
import { existsSync, mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";

const ROOT = join(__dirname, "..", "..");
const BIN = join(ROOT, "dist", "emulator", "cli.js");

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error("dist/ is missing: run `npx tsc -p tsconfig.json` first");
});

function run(args: string[]): { child: ChildProcessWithoutNullStreams; firstLines: (n: number) => Promise<string[]>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT });
  let out = "";
  const waiters: (() => void)[] = [];
  child.stdout.on("data", (d) => {
    out += d;
    waiters.splice(0).forEach((w) => w());
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const firstLines = async (n: number) => {
    while (out.split("\n").length <= n) await new Promise<void>((r) => waiters.push(r));
    return out.split("\n").slice(0, n);
  };
  return { child, firstLines, exit };
}

test("--json prints one line with the URLs and keys; the server answers; SIGTERM stops it", async () => {
  const { child, firstLines, exit } = run(["--port", "0", "--json"]);
  try {
    const [line] = await firstLines(1);
    const info = JSON.parse(line);
    expect(Object.keys(info.urls).sort()).toEqual(["admin", "graphql", "inference", "restV1", "restV2"]);
    expect(info.urls.graphql).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect(info.apiKey).toBeTruthy();
    expect(info.readOnlyApiKey).toBeTruthy();
    const res = await fetch(`${info.urls.restV2}/v2/network-volumes`, { headers: { authorization: `Bearer ${info.apiKey}` } });
    expect(res.status).toBe(200);
  } finally {
    child.kill("SIGTERM");
  }
  expect(await exit).toBe(0);
});

test("the banner lists the four URLs, admin, keys, and ends with READY (with --data)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-cli-"));
  const { child, firstLines, exit } = run(["--port", "0", "--data", join(dir, "db.sqlite")]);
  try {
    const lines = await firstLines(11);
    const text = lines.join("\n");
    for (const label of ["GraphQL", "REST v1", "REST v2", "Inference", "Admin", "read-write", "read-only"]) expect(text).toContain(label);
    const ready = /^READY (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[10]);
    expect(ready).not.toBeNull();
    const key = /read-write\)\s+(\S+)/.exec(text)![1];
    const res = await fetch(`${ready![1]}/graphql?api_key=${key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ myself { id } }" }),
    });
    expect((await res.json()).data.myself.id).toBe("user_1");
  } finally {
    child.kill("SIGINT");
  }
  expect(await exit).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

test("an unreadable seed file exits 1 with a message", async () => {
  const child = spawn(process.execPath, [BIN, "--seed", "/nonexistent/seed.json"], { cwd: ROOT });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  expect(code).toBe(1);
  expect(err).toMatch(/cannot read seed file/);
});

test("--env prints ready-to-paste export lines the client reads, and --help shows the defaults", async () => {
  const { child, firstLines, exit } = run(["--port", "0", "--env"]);
  try {
    const lines = await firstLines(8);
    expect(lines[7]).toMatch(/^# READY http:\/\/127\.0\.0\.1:\d+$/);
    const env: Record<string, string> = {};
    for (const line of lines.filter((l) => l.startsWith("export "))) {
      const m = /^export ([A-Z0-9_]+)='([^']*)'$/.exec(line);
      expect(m).not.toBeNull();
      env[m![1]] = m![2];
    }
    // The emulator states the names on its own side; they must be the ones the client reads.
    const { ENV_VARS, createClient, resolveClientConfig } = await import("../../src/api");
    expect(Object.keys(env).sort()).toEqual([ENV_VARS.apiKey, ENV_VARS.graphqlUrl, ENV_VARS.restV1Url, ENV_VARS.restV2Url, ENV_VARS.inferenceUrl].sort());
    const client = createClient(resolveClientConfig({}, env));
    expect((await client.myself()).id).toBeTruthy();
    expect(Array.isArray(await client.listNetworkVolumes())).toBe(true);
  } finally {
    child.kill("SIGTERM");
  }
  expect(await exit).toBe(0);

  const help = spawnSync(process.execPath, [BIN, "--help"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, COLUMNS: "200" } });
  const text = help.stdout.replace(/\s+/g, " ");
  expect(text).toContain("--worker-start <ms> time a worker takes to become READY (default: 500)");
  expect(text).toContain("(default: 1800000)");
  expect(text).toContain("--env");
});
