/**
 * Issue #6 through the real Pulumi CLI and engine (tests/reliability/fixtures/program, declared by
 * stack config): bad input stops `pulumi preview`; key problems say what to fix; `pulumi up` under
 * injected 429s, latency and dropped creates yields each endpoint exactly once; `pulumi destroy`
 * resumes; and the key is absent from state, the serialized provider, the stack's files, the
 * `-v=9 --logtostderr` output and Pulumi's own (encrypted) automatic logs.
 *
 * One finding is upstream: at `-v=9` the Pulumi engine (3.259) logs the plaintext of every secret
 * provider configuration value it sends in `Configure` (sdk/go/common/resource/plugin/rpc.go marshals
 * the secret envelope `{sig, value}` as an ordinary map, logging `value`), and the dynamic provider
 * receives the whole stack config (its default provider's inputs, stored in state encrypted). Its
 * encrypted automatic log also stores those inputs whole. Those lines are the engine's, not this
 * package's: the scan allows exactly the engine's lines about the default provider's configuration
 * while the key is a stack secret (or still in that provider's stored inputs), and allows nothing at
 * all once the key comes from RUNPOD_API_KEY only.
 */
import * as fs from "fs";
import * as path from "path";
import { ENDPOINT_TYPE, LocalStack, copyProgram, randomSuffix, tempDir, type StateResource } from "../../../scripts/exampleStack";
import { pulumiRoot, type RunPulumiResult } from "../../../scripts/pulumiCli";
import { relClient, startRelEmulator, type RelEmulator } from "../harness";
import { linesWithSecret } from "../scan";

const FIXTURE = path.resolve(__dirname, "../fixtures/program");

/**
 * A line in which the engine logs the configuration of the default dynamic provider (see the file
 * comment): its Configure/CheckConfig marshaling, or — in the encrypted automatic log, which stores
 * property maps whole — any line about the `pulumi:providers:pulumi-nodejs::default` resource.
 */
function isEngineProviderConfigLine(line: string): boolean {
  return (
    /Marshaling property for RPC\[Provider\[0x[0-9a-f]+\]\.(Configure\(\)\.inputs|CheckConfig\(urn:pulumi:[^)]*::pulumi:providers:pulumi-nodejs::default\)\.news)\]/.test(
      line,
    ) || /urn:pulumi:[^ ]*::pulumi:providers:pulumi-nodejs::default/.test(line)
  );
}

type Spec = Record<string, unknown>;

/** Exit codes of a failed `pulumi` command (1; 255 in some versions). */
const FAILED = [1, 255];

export function cliSuite(): void {
  describe("the real Pulumi CLI", () => {
    let emu: RelEmulator;
    let work: string;
    let stack: LocalStack;
    const logsDir = path.join(pulumiRoot(), "home", "logs");
    const runs: { label: string; keyFrom: "config" | "env"; result: RunPulumiResult }[] = [];
    /** Automatic log files of this stack, and whether the engine had the key (stack config or stored provider inputs) then. */
    const autoLogs = new Map<string, "config" | "env">();
    let keyFrom: "config" | "env" = "config";
    /** The default provider's stored inputs still hold the key (until an `up` without it in config). */
    let providerStateHasKey = true;

    const ownLogs = () => (fs.existsSync(logsDir) ? fs.readdirSync(logsDir).filter((f) => f.includes(`+${stack.name}-`)) : []);

    async function pulumi(label: string, args: string[], expectCodes = [0]): Promise<RunPulumiResult> {
      const before = new Set(ownLogs());
      const env: Record<string, string> = keyFrom === "env" ? { RUNPOD_API_KEY: emu.apiKey } : {};
      const result = await withEnv(env, () => stack.run(args, { expectCodes }));
      for (const f of ownLogs()) if (!before.has(f)) autoLogs.set(f, keyFrom === "config" || providerStateHasKey ? "config" : "env");
      runs.push({ label, keyFrom, result });
      return result;
    }

    /** LocalStack's environment is fixed at creation; this adds variables for one run. */
    async function withEnv<T>(extra: Record<string, string>, fn: () => Promise<T>): Promise<T> {
      const env = stack.env as Record<string, string | undefined>;
      const saved = Object.fromEntries(Object.keys(extra).map((k) => [k, env[k]]));
      Object.assign(env, extra);
      try {
        return await fn();
      } finally {
        for (const [k, v] of Object.entries(saved)) {
          if (v === undefined) delete env[k];
          else env[k] = v;
        }
      }
    }

    const declare = (endpoints: Record<string, Spec>) => stack.setConfig("endpoints", JSON.stringify(endpoints));
    const output = (r: RunPulumiResult) => `${r.stdout}\n${r.stderr}`;
    const named = (name: string) => emu.endpoints().filter((e) => e.name === name);

    beforeAll(async () => {
      emu = await startRelEmulator();
      work = tempDir("pulumi-runpod-rel-");
      const programDir = copyProgram(FIXTURE, path.join(work, "program"));
      stack = await LocalStack.create({ programDir, stackName: `rel-${randomSuffix()}`, stateDir: path.join(work, "state"), timeoutMs: 180_000 });
      await stack.usePlatform(emu.urls, emu.apiKey);
      await stack.setConfig("runpod:api", "graphql"); // counts and faults name the GraphQL path's operations
    });

    afterAll(async () => {
      // Only what a failed test left: the destroy tests empty the stack, and a destroy of nothing still starts the engine.
      if (stack) await withEnv(keyFrom === "env" ? { RUNPOD_API_KEY: emu.apiKey } : {}, () => stack.destroyLeftovers());
      await emu?.close();
      if (stack) for (const f of ownLogs()) fs.rmSync(path.join(logsDir, f), { force: true });
      if (work) fs.rmSync(work, { recursive: true, force: true });
    });

    it("bad inputs stop `pulumi preview` with one message per bad field; nothing is created", async () => {
      // The engine stops a preview at the first resource whose check fails, so each preview has one bad resource.
      await declare({ many: { name: "rel-many", templateId: "tpl_vllm", gpuIds: ["H100"], gpuTypeIds: ["NVIDIA L4"], workersMin: -1, type: "BATCH" } });
      const first = output(await pulumi("preview with bad inputs", ["preview"], FAILED));
      expect(first).toMatch(/Endpoint resource 'many': property workersMin value \{-1\} has a problem: workersMin must be an integer at least 0; got -1/);
      expect(first).toMatch(
        /Endpoint resource 'many': property gpuIds value .* has a problem: gpuIds must be a non-empty list of distinct GPU tiers.*got \["H100"\]/,
      );
      expect(first).toMatch(/Endpoint resource 'many': property gpuTypeIds value .* has a problem: set exactly one of gpuIds \(GPU tiers\) and gpuTypeIds/);
      expect(first).toMatch(/Endpoint resource 'many': property type value \{BATCH\} has a problem: type must be one of QB, LB; got "BATCH"/);

      await declare({
        lookups: { name: "rel-lookups", templateId: "tpl_vllm", gpuIds: ["ADA_24"], networkVolumeId: "nv_doesnotexist", workersMin: 5, workersMax: 2 },
      });
      const second = output(await pulumi("preview with an unknown volume", ["preview"], FAILED));
      expect(second).toMatch(
        /property networkVolumeId value \{nv_doesnotexist\} has a problem: networkVolumeId "nv_doesnotexist" is not one of your network volumes; yours: nv_models01 \(models\), nv_cache01 \(cache\)/,
      );
      expect(second).toMatch(/property workersMin value \{5\} has a problem: workersMin \(5\) must not exceed workersMax \(2\)/);

      expect(emu.endpoints()).toEqual([]);
      expect(emu.stats().byOperation.saveEndpoint ?? 0).toBe(0);
      expect(emu.stats().byOperation.restCreateEndpoint ?? 0).toBe(0);
    });

    it("no key at all: `pulumi preview` says to set runpod:apiKey (as a secret) or RUNPOD_API_KEY", async () => {
      await declare({ one: { name: "rel-one", templateId: "tpl_vllm", gpuIds: ["ADA_24"] } });
      await stack.removeConfig("runpod:apiKey");
      emu.resetStats();
      const text = output(await pulumi("preview without a key", ["preview"], FAILED));
      expect(text).toMatch(
        /No API key configured \(runpod:apiKey or the environment variable RUNPOD_API_KEY\)\. Set it with `pulumi config set --secret runpod:apiKey <key>`/,
      );
      expect(text).toContain("RUNPOD_API_KEY");
      expect(emu.stats().requests).toBe(0);
    });

    it("an invalid key: `pulumi preview` fails with 401 and says to check the key", async () => {
      await stack.setConfig("runpod:apiKey", "rpa_invalid_key_for_the_cli_test", { secret: true });
      await declare({ one: { name: "rel-one", templateId: "tpl_vllm", gpuIds: ["ADA_24"], networkVolumeId: "nv_models01" } });
      const text = output(await pulumi("preview with an invalid key", ["preview"], FAILED));
      expect(text).toMatch(/AuthenticationError|401/);
      expect(text).toMatch(/Check the API key: set it with `pulumi config set --secret runpod:apiKey <key>`/);
      expect(linesWithSecret(text, "rpa_invalid_key_for_the_cli_test")).toEqual([]);
      expect(emu.endpoints()).toEqual([]);
    });

    it("a read-only key: `pulumi up` fails with 403 asking for a read/write key; nothing is created", async () => {
      await stack.setConfig("runpod:apiKey", emu.readOnlyApiKey, { secret: true });
      const text = output(await pulumi("up with a read-only key", ["up", "--yes"], FAILED));
      expect(text).toMatch(/403/);
      expect(text).toMatch(/lacks permission for this action; use a key with read\/write access/);
      expect(linesWithSecret(text, emu.readOnlyApiKey)).toEqual([]);
      expect(emu.endpoints()).toEqual([]);
      expect(await stack.resources(ENDPOINT_TYPE)).toEqual([]);
    });

    it("`pulumi up -v=9` under 429s, latency and creates whose answers are lost: each endpoint exactly once", async () => {
      await stack.setConfig("runpod:apiKey", emu.apiKey, { secret: true });
      await declare({
        gql: { name: "rel-gql", templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], workersMax: 2, customTimeouts: { create: "1s" } },
        rest: { name: "rel-rest", templateId: "tpl_comfy", gpuTypeIds: ["NVIDIA GeForce RTX 4090"], workersMax: 2 },
      });
      emu.resetStats();
      emu.setFaults({ force429: 2, retryAfterSeconds: 1, dropAfterRate: 1, latencyMs: 1500, match: ["saveEndpoint", "restCreateEndpoint"] });
      const r = await pulumi("up -v=9 under faults", ["up", "--yes", "-v=9", "--logtostderr"]);
      emu.setFaults({});
      expect(r.stdout).toMatch(/\+ 2 created/);
      expect(emu.stats().faultsByKind).toMatchObject({ force429: 2, dropAfter: 2 });
      const gql = named("rel-gql");
      const rest = named("rel-rest");
      expect(gql).toHaveLength(1);
      expect(rest).toHaveLength(1);
      expect(rest[0].gpuIds).toBe("ADA_24");
      const outs = (await stack.outputs()) as Record<string, { id: string }>;
      expect(outs.gql.id).toBe(gql[0].id);
      expect(outs.rest.id).toBe(rest[0].id);
      emu.expectedAtEnd = 2;

      // customTimeouts reached the engine (create: 1s), yet the 1.5 s create completed: not enforced for dynamic providers.
      expect(r.stderr).toMatch(/RegisterResource received: t=pulumi-nodejs:dynamic\/runpod:Endpoint, name=gql,.*customTimeouts=create:\\"1s\\"/);
    });

    it("state, the serialized provider and the stack's files hold no key (in state it exists only encrypted, as the engine's provider config)", async () => {
      expect(linesWithSecret(await stack.exportText(), emu.apiKey)).toEqual([]);
      // Decrypted, the key shows up in exactly one place: the engine-managed default provider's inputs and
      // outputs, which are the stack config and carry runpod:apiKey as a secret. No Endpoint holds it.
      const decrypted = JSON.parse(await stack.exportText({ showSecrets: true })) as { deployment: { resources: StateResource[] } };
      for (const res of decrypted.deployment.resources) {
        const holders = res.type === "pulumi:providers:pulumi-nodejs" ? stripSecretConfig(res, "runpod:apiKey") : res;
        expect({ urn: res.urn, lines: linesWithSecret(JSON.stringify(holders), emu.apiKey) }).toEqual({ urn: res.urn, lines: [] });
      }
      const endpoints = await stack.resources(ENDPOINT_TYPE);
      expect(endpoints).toHaveLength(2);
      for (const res of endpoints) {
        const provider = String(res.inputs?.__provider ?? res.outputs?.__provider ?? "");
        expect(provider).toContain('require("pulumi-runpod/provider")');
        expect(provider.length).toBeLessThan(4096);
        expect(provider).not.toContain(emu.apiKey);
      }
      const config = fs.readFileSync(stack.configFile, "utf8");
      expect(config).toMatch(/runpod:apiKey:\s*\n\s*secure: /);
      expect(linesWithSecret(config, emu.apiKey)).toEqual([]);
      for (const file of listFiles(stack.stateDir).concat(listFiles(stack.programDir))) {
        expect({ file, lines: linesWithSecret(fs.readFileSync(file, "latin1"), emu.apiKey) }).toEqual({ file, lines: [] });
      }
    });

    it("the key from RUNPOD_API_KEY instead: `pulumi up -v=9` keeps both endpoints as they are", async () => {
      // From here on the key is no stack secret, so verbose output and logs must be entirely free of it.
      // (This `up` also drops the key from the default provider's stored inputs, which `destroy` reuses.)
      await stack.removeConfig("runpod:apiKey");
      keyFrom = "env";
      const before = emu
        .endpoints()
        .map((e) => e.id)
        .sort();
      emu.resetStats();
      const r = await pulumi("up -v=9 with the key from the environment", ["up", "--yes", "-v=9", "--logtostderr"]);
      expect(r.stdout).not.toMatch(/created|replaced|deleted/);
      expect(
        emu
          .endpoints()
          .map((e) => e.id)
          .sort(),
      ).toEqual(before);
      expect(emu.stats().byOperation.saveEndpoint ?? 0).toBe(0);
      providerStateHasKey = false;
    });

    it("`pulumi destroy`: deleteEndpoint refused (429) → destroy fails and changes nothing; one deleted outside; the next destroy finishes", async () => {
      const [gqlBefore] = named("rel-gql");
      const [restBefore] = named("rel-rest");
      emu.setFaults({ force429: 10, retryAfterSeconds: 600, match: ["deleteEndpoint"] });
      const failed = await pulumi("destroy with deleteEndpoint failing", ["destroy", "--yes", "-v=9", "--logtostderr"], FAILED);
      emu.setFaults({});
      expect(output(failed)).toMatch(/deleteEndpoint/);
      expect(output(failed)).toMatch(/429/);
      const [gql] = named("rel-gql");
      const [rest] = named("rel-rest");
      expect(gql).toEqual(gqlBefore);
      expect(rest).toEqual(restBefore);
      expect(await stack.resources(ENDPOINT_TYPE)).toHaveLength(2);

      await relClient(emu).scaleDownAndDeleteEndpoint({ id: rest.id, name: rest.name, templateId: rest.templateId, gpuIds: rest.gpuIds });
      emu.resetStats();
      const r = await pulumi("destroy resumed", ["destroy", "--yes", "-v=9", "--logtostderr"]);
      expect(r.stdout).toMatch(/- 3 deleted/);
      expect(named("rel-gql")).toEqual([]);
      expect(named("rel-rest")).toEqual([]);
      const ops = emu.stats().byOperation;
      // A look at each one's workers: rel-rest's answers "not found" (nothing left to do); rel-gql's finds no job
      // running, so one request carries its scale-down and delete.
      expect({ listWorkers: ops.listWorkers ?? 0, saveEndpoint: ops.saveEndpoint ?? 0, deleteEndpoint: ops.deleteEndpoint ?? 0 }).toEqual({
        listWorkers: 2,
        saveEndpoint: 1,
        deleteEndpoint: 1,
      });
      expect(await stack.resources(ENDPOINT_TYPE)).toEqual([]);
      emu.expectedAtEnd = 0;
    });

    it("no run printed the key, except the engine's own Configure logging of a secret stack config at -v=9", () => {
      expect(runs.filter((r) => r.keyFrom === "env")).toHaveLength(3);
      for (const run of runs) {
        const hits = linesWithSecret(output(run.result), emu.apiKey);
        const foreign = run.keyFrom === "config" ? hits.filter((l) => !isEngineProviderConfigLine(l)) : hits;
        expect({ run: run.label, foreign }).toEqual({ run: run.label, foreign: [] });
      }
      // The upstream leak is real (documented above), and only where the key was a stack secret.
      const verbose = runs.find((r) => r.label === "up -v=9 under faults")!;
      expect(linesWithSecret(output(verbose.result), emu.apiKey).length).toBeGreaterThan(0);
    });

    it("Pulumi's automatic logs of this stack (decrypted) hold the key only in the engine's lines about the provider config", async () => {
      // "env" logs: written once neither the config nor the stored provider inputs held the key (the destroys).
      expect([...autoLogs.values()].filter((v) => v === "env")).toHaveLength(2);
      for (const [file, from] of autoLogs) {
        const decrypted = await stack.run(["logs", "decrypt", path.join(logsDir, file)], { quiet: true });
        expect(decrypted.stdout.length).toBeGreaterThan(0);
        const hits = linesWithSecret(decrypted.stdout, emu.apiKey);
        const foreign = from === "config" ? hits.filter((l) => !isEngineProviderConfigLine(l)) : hits;
        expect({ file, foreign }).toEqual({ file, foreign: [] });
        expect(linesWithSecret(fs.readFileSync(path.join(logsDir, file), "latin1"), emu.apiKey)).toEqual([]);
      }
    });
  });
}

/** `res` without the `key` member of its inputs and outputs, after checking that member is a secret envelope. */
function stripSecretConfig(res: StateResource, key: string): StateResource {
  const copy = JSON.parse(JSON.stringify(res)) as StateResource;
  for (const part of [copy.inputs, copy.outputs]) {
    if (!part || !(key in part)) continue;
    expect(Object.keys(part[key] as object)).toContain("4dabf18193072939515e22adb298388d");
    delete part[key];
  }
  return copy;
}

/** Regular files under `dir`, following no symlinks (node_modules links to the repository). */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(p));
    else if (entry.isFile()) out.push(p);
  }
  return out;
}
