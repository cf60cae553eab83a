/**
 * Regenerates what derives from the provider plugin's schema: `schema.json` (the package schema,
 * src/plugin/schema.ts), the Python SDK `sdk/python` and the Go SDK `sdk/go/runpod` (the Pulumi code
 * generator, built as `.pulumi/tools/pulumi-sdkgen` by scripts/build-pulumi-tools.sh; the Go SDK's
 * go.mod and go.sum by `go mod tidy`). `npm run gen:plugin`; a test (tests/multilang/schema.test.ts)
 * fails when any is stale.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { packageVersion } from "../src/plugin/main";
import { packageSchema } from "../src/plugin/schema";
import { repoRoot } from "./pulumiCli";

/** The schema as committed: two-space JSON with a final newline. */
export function schemaText(): string {
  return `${JSON.stringify(packageSchema(packageVersion()), null, 2)}\n`;
}

/** Path of the code generator CLI, built by scripts/build-pulumi-tools.sh. */
export function sdkgenBinary(): string {
  return path.join(repoRoot(), ".pulumi", "tools", "pulumi-sdkgen");
}

/** Generates the Python SDK of `schemaFile` into `outDir` (replaced). */
export function generatePythonSdk(schemaFile: string, outDir: string): void {
  execFileSync(sdkgenBinary(), [schemaFile, outDir, "python"], { stdio: ["ignore", "inherit", "inherit"] });
}

/** The Go SDK's module path: the schema's `language.go.importBasePath` (src/plugin/schema.ts). */
export const GO_MODULE = "github.com/pulumi-runpod/pulumi-runpod/sdk/go/runpod";

/** The version of github.com/pulumi/pulumi/sdk/v3 the Go SDK requires: the Pulumi SDK the package is built with. */
function pulumiSdkVersion(): string {
  return (JSON.parse(fs.readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
}

/**
 * Generates the Go SDK of `schemaFile` into `outDir` (replaced): the package in `outDir/runpod`, a
 * module of its own (go.mod, go.sum resolved by `go mod tidy` from the Go module proxy or cache).
 */
export function generateGoSdk(schemaFile: string, outDir: string): void {
  execFileSync(sdkgenBinary(), [schemaFile, outDir, "go"], { stdio: ["ignore", "inherit", "inherit"] });
  const moduleDir = path.join(outDir, "runpod");
  fs.writeFileSync(path.join(moduleDir, "go.mod"), `module ${GO_MODULE}\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${pulumiSdkVersion()}\n`);
  execFileSync("go", ["mod", "tidy"], {
    cwd: moduleDir,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" },
  });
}

if (require.main === module) {
  const root = repoRoot();
  const schemaFile = path.join(root, "schema.json");
  fs.writeFileSync(schemaFile, schemaText());
  generatePythonSdk(schemaFile, path.join(root, "sdk", "python"));
  generateGoSdk(schemaFile, path.join(root, "sdk", "go"));
  process.stdout.write("wrote schema.json, sdk/python and sdk/go\n");
}
