/**
 * The REST v2 shapes in src/api/generated are the generator's output for the vendored document
 * (docs/spec/rest-v2-openapi.json), byte for byte: regenerating into a temporary folder must give the
 * same files. When this fails, run `npm run generate:api` and commit the result.
 */
import { execFile } from "child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { promisify } from "util";

const ROOT = resolve(__dirname, "../..");
const COMMITTED = join(ROOT, "src/api/generated");
const DOCUMENT = join(ROOT, "docs/spec/rest-v2-openapi.json");
const run = promisify(execFile);

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "v2-generated-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the project's generator (the script behind `npm run generate:api`) into `out`. */
async function generate(out: string, document = DOCUMENT): Promise<Map<string, string>> {
  await run(process.execPath, [join(ROOT, "scripts/generate-api.mjs"), out, document], { cwd: ROOT, timeout: 120_000 });
  return new Map(
    readdirSync(out)
      .sort()
      .map((f) => [f, readFileSync(join(out, f), "utf8")]),
  );
}

function committed(): Map<string, string> {
  return new Map(
    readdirSync(COMMITTED)
      .sort()
      .map((f) => [f, readFileSync(join(COMMITTED, f), "utf8")]),
  );
}

test("regenerating from the vendored document changes nothing in src/api/generated", async () => {
  const fresh = await generate(join(scratch, "fresh"));
  const kept = committed();
  expect([...kept.keys()]).toEqual([...fresh.keys()]);
  for (const [file, text] of fresh) {
    // Compare per file so a failure names the file that drifted.
    expect({ file, same: kept.get(file) === text }).toEqual({ file, same: true });
  }
});

test("a change of the document changes the generated shapes (the comparison above can fail)", async () => {
  const doc = JSON.parse(readFileSync(DOCUMENT, "utf8"));
  doc.components.schemas.Registry.properties.driftCheckField = { type: "string" };
  const changedDoc = join(scratch, "changed.json");
  writeFileSync(changedDoc, JSON.stringify(doc));
  const changed = await generate(join(scratch, "changed"), changedDoc);
  expect(changed.get("zod.gen.ts")).toContain("driftCheckField");
  expect(committed().get("zod.gen.ts")).not.toContain("driftCheckField");
});
