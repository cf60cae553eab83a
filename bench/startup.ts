/**
 * Provider start-up: the time a fresh dynamic provider process spends before it can serve its first
 * `Endpoint` — loading the serialized stub, `require("pulumi-runpod/provider")`, then loading the api
 * client's modules and building the client at the first check. Measured in fresh node processes (startupProbe.ts); the median of
 * several runs is reported.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { repoRoot } from "../scripts/pulumiCli";
import { median } from "./median";

/** One probe run, in milliseconds. */
export interface StartupTiming {
  /** Node's own start before the probe's first line (not part of the provider's cost). */
  bootMs: number;
  /** Loading the host's own modules (gRPC, Pulumi runtime, protobuf), before any provider code: for scale. */
  hostModulesMs: number;
  /** Deserializing the stub (`require-from-string` of `__provider`, as the host does). */
  stubMs: number;
  /** `configure`: loads `pulumi-runpod/provider` (the api client's modules load later, at the first check). */
  providerModuleMs: number;
  /** First `check`: loads the api client's modules, resolves the configuration and builds the client (no request). */
  clientMs: number;
  /** stub + provider module + client. */
  totalMs: number;
  /** Spawn to exit of the whole probe process. */
  processMs: number;
}

export interface StartupResult {
  runs: StartupTiming[];
  /** Median of each field over the runs. */
  median: StartupTiming;
  /** Size of the serialized stub, in bytes. */
  stubBytes: number;
}

/** The text Pulumi stores as `__provider` for every `Endpoint` (what `pulumi.dynamic.Resource` serializes). */
export async function serializedEndpointStub(): Promise<string> {
  // Loaded here only: @pulumi/pulumi is heavy and the rest of the benchmark does not need it.
  const { runtime } = await import("@pulumi/pulumi");
  const { endpointProviderStub } = await import("../src/provider/serializable");
  const fn = await runtime.serializeFunction(() => endpointProviderStub, { allowSecrets: true });
  return fn.text;
}

/**
 * Runs the probe (dist/bench/startupProbe.js: build first) `runs` times in `programDir` (a program
 * directory whose `node_modules` reaches this package, e.g. a benchmark stack's copy).
 * @param config the `runpod:*` settings handed to `configure` (the key is written to a private temp file, removed after).
 * @throws Error when a probe fails (its stderr is in the message).
 */
export async function measureStartup(programDir: string, config: Record<string, string>, runs = 5): Promise<StartupResult> {
  const text = await serializedEndpointStub();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-startup-"));
  try {
    const textFile = path.join(dir, "provider.js");
    const configFile = path.join(dir, "config.json");
    fs.writeFileSync(textFile, text);
    fs.writeFileSync(configFile, JSON.stringify(config), { mode: 0o600 });
    // The compiled probe, also when this module runs from its TypeScript source (tests).
    const probe = path.join(repoRoot(), "dist", "bench", "startupProbe.js");
    const timings: StartupTiming[] = [];
    for (let i = 0; i < runs; i++) {
      const start = process.hrtime.bigint();
      const { stdout } = await promisify(execFile)(process.execPath, [probe, textFile, configFile], { cwd: programDir });
      const processMs = Number(process.hrtime.bigint() - start) / 1e6;
      timings.push({ ...(JSON.parse(stdout.trim()) as Omit<StartupTiming, "processMs">), processMs });
    }
    const keys = Object.keys(timings[0]) as (keyof StartupTiming)[];
    const med = Object.fromEntries(keys.map((k) => [k, median(timings.map((t) => t[k]))])) as unknown as StartupTiming;
    return { runs: timings, median: med, stubBytes: Buffer.byteLength(text) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
