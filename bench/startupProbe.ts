/**
 * Child process of startup.ts; not a module to import. Does what the dynamic provider host does the
 * first time it meets an `Endpoint` — after loading the host's own modules — turn the serialized provider (`__provider`) back into an object,
 * `configure` it (which loads `pulumi-runpod/provider`), answer the first `check` (which loads and builds
 * the api client) — and prints how long each step took as one JSON line.
 *
 * Runs with the Pulumi program's directory as cwd, like the host, so the stub's
 * `require("pulumi-runpod/provider")` resolves the same way.
 *
 * argv: <file with the serialized provider text> <file with the runpod:* config as JSON>
 */
import * as fs from "fs";
import * as path from "path";
import { performance } from "perf_hooks";

/** The heavy modules the dynamic provider host (`@pulumi/pulumi/cmd/dynamic-provider`) requires at start. */
const HOST_MODULES = [
  "@grpc/grpc-js",
  "@pulumi/pulumi/runtime",
  "@pulumi/pulumi/proto/provider_grpc_pb",
  "@pulumi/pulumi/proto/provider_pb",
  "google-protobuf/google/protobuf/struct_pb",
];

async function main(): Promise<void> {
  const bootMs = performance.now();
  const [textFile, configFile] = process.argv.slice(2);
  const text = fs.readFileSync(textFile, "utf8");
  const config = JSON.parse(fs.readFileSync(configFile, "utf8")) as Record<string, string>;
  // The host deserializes with require-from-string (a dependency of @pulumi/pulumi), resolving from cwd.
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [process.cwd()] }));
  // Resolved from the program's @pulumi/pulumi at run time, as the host does: not an import of ours.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const requireFromString = require(require.resolve("require-from-string", { paths: [pulumiDir] })) as (code: string) => {
    handler(): Record<string, (...args: unknown[]) => Promise<unknown>>;
  };

  // What the host itself loads before it runs any provider code (cmd/dynamic-provider/index.js), so
  // modules shared with it are not counted as ours, and for scale.
  const h0 = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const m of HOST_MODULES) require(require.resolve(m, { paths: [pulumiDir] }));
  const hostModulesMs = performance.now() - h0;

  const t0 = performance.now();
  const provider = requireFromString(text).handler();
  const t1 = performance.now();
  await provider.configure({ config: { get: (key: string) => config[key] } });
  const t2 = performance.now();
  // A check of an existing endpoint (olds with the same templateId): it builds the client and looks no
  // template up (a new templateId would be, in a listing); its olds carry no cost estimate, so it reads
  // the catalog once (three requests).
  const endpoint = { name: "startup-probe", templateId: "tpl_vllm", gpuIds: ["ADA_24"] };
  const checked = (await provider.check(endpoint, { ...endpoint })) as { failures: unknown[] };
  const t3 = performance.now();
  if (checked.failures.length > 0) throw new Error(`probe check failed: ${JSON.stringify(checked.failures)}`);
  process.stdout.write(`${JSON.stringify({ bootMs, hostModulesMs, stubMs: t1 - t0, providerModuleMs: t2 - t1, clientMs: t3 - t2, totalMs: t3 - t0 })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
