/**
 * Regenerates what derives from the provider plugin's schema: `schema.json` (the package schema,
 * src/plugin/schema.ts) and the Python SDK `sdk/python` (the Pulumi code generator, built as
 * `.pulumi/tools/pulumi-sdkgen` by scripts/build-pulumi-tools.sh). `npm run gen:plugin`; a test
 * (tests/multilang/schema.test.ts) fails when either is stale.
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
  execFileSync(sdkgenBinary(), [schemaFile, outDir], { stdio: ["ignore", "inherit", "inherit"] });
}

if (require.main === module) {
  const root = repoRoot();
  const schemaFile = path.join(root, "schema.json");
  fs.writeFileSync(schemaFile, schemaText());
  generatePythonSdk(schemaFile, path.join(root, "sdk", "python"));
  process.stdout.write("wrote schema.json and sdk/python\n");
}
