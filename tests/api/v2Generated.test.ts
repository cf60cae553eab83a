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
let fresh: Map<string, string>;
let changed: Map<string, string>;
// Both runs of the generator at once, as two processes: the file then takes about one run's time.
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "v2-generated-"));
  const doc = JSON.parse(readFileSync(DOCUMENT, "utf8"));
  doc.components.schemas.Registry.properties.driftCheckField = { type: "string" };
  const changedDoc = join(scratch, "changed.json");
  writeFileSync(changedDoc, JSON.stringify(doc));
  [fresh, changed] = await Promise.all([generate(join(scratch, "fresh")), generate(join(scratch, "changed"), changedDoc)]);
}, 120_000);
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

test("regenerating from the vendored document changes nothing in src/api/generated", () => {
  const kept = committed();
  expect([...kept.keys()]).toEqual([...fresh.keys()]);
  for (const [file, text] of fresh) {
    // Compare per file so a failure names the file that drifted.
    expect({ file, same: kept.get(file) === text }).toEqual({ file, same: true });
  }
});

test("a change of the document changes the generated shapes (the comparison above can fail)", () => {
  expect(changed.get("zod.gen.ts")).toContain("driftCheckField");
  expect(committed().get("zod.gen.ts")).not.toContain("driftCheckField");
});
