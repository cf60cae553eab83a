// Generates the REST v2 shapes (TypeScript types and zod schemas) from the vendored OpenAPI document
// with @hey-api/openapi-ts (pinned in package.json, so the output is reproducible).
// Usage: node scripts/generate-api.mjs [outDir] [document]   (defaults: src/api/generated, docs/spec/rest-v2-openapi.json)
// tests/api/v2Generated.test.ts runs it into a temporary folder and compares with the committed files.
import { createClient } from "@hey-api/openapi-ts";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const output = resolve(process.argv[2] ?? resolve(root, "src/api/generated"));
const input = resolve(process.argv[3] ?? resolve(root, "docs/spec/rest-v2-openapi.json"));

await createClient({
  input,
  output: { path: output, clean: true, tsConfigPath: resolve(root, "tsconfig.json") },
  logs: { level: "silent" },
  plugins: [
    "@hey-api/typescript",
    // zod 3 is the project's validation dependency; date-times carry offsets (RFC 3339), as the platform sends them.
    { name: "zod", compatibilityVersion: 3, dates: { offset: true } },
  ],
});
