/**
 * Schemathesis (pinned in scripts/schemathesis-requirements.txt, installed by `npm run tools`) over every operation
 * of the REST v2 document, against a fresh in-process emulator: examples, coverage and fuzzing, bounded (a fixed
 * number of cases per operation, deterministic generation) so the run is short and repeatable. The only findings
 * allowed are the document's prose rules, which no schema states: docs/emulator.md lists each (operation, finding)
 * with the sentence of the document it comes from, and this test keeps that list exact both ways.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";
import { pulumiRoot, repoRoot } from "../../scripts/pulumiCli";

const ROOT = repoRoot();
const DOCUMENT = path.join(ROOT, "docs", "spec", "rest-v2-openapi.json");
const DOCS_PAGE = path.join(ROOT, "docs", "emulator.md");
const ST = path.join(pulumiRoot(), "schemathesis", "bin", "st");
/** The heading of the list in docs/emulator.md. */
const LIST_HEADING = "### Schemathesis findings that are the document's prose rules";

interface Report {
  complete: boolean;
  operations: { selected: number; tested: number; errored: number };
  phases: Record<string, { status: string; skip_reason: string | null }>;
  failures: { code: string; title: string; operations: string[] }[];
  errors: unknown[];
}

interface Listed {
  key: string;
  sentence: string;
}

/** The rows of the list: `| \`METHOD /v2/path\` | STnnn title | rule | "sentence" |`. */
function listedFindings(): Listed[] {
  const page = fs.readFileSync(DOCS_PAGE, "utf8");
  const start = page.indexOf(LIST_HEADING);
  if (start < 0) throw new Error(`docs/emulator.md has no "${LIST_HEADING}" section`);
  const section = page.slice(start + LIST_HEADING.length).split(/\n#{1,3} /)[0];
  const rows: Listed[] = [];
  for (const line of section.split("\n")) {
    const m = /^\| `((?:GET|POST|PUT|PATCH|DELETE) \/v2\/[^`]*)` \| (ST\d{3})\b[^|]*\|[^|]*\| (.+) \|$/.exec(line.trim());
    if (m) rows.push({ key: `${m[2]} ${m[1]}`, sentence: m[3] });
  }
  return rows;
}

/** Every description and summary of the document, and its string examples, for finding a quoted sentence. */
function documentProse(): string {
  const texts: string[] = [];
  const walk = (v: unknown, inExample = false) => {
    if (typeof v === "string" && inExample) texts.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, inExample));
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if ((k === "description" || k === "summary") && typeof x === "string") texts.push(x.replace(/\s+/g, " "));
        else walk(x, inExample || k === "examples" || k === "example");
      }
    }
  };
  walk(JSON.parse(fs.readFileSync(DOCUMENT, "utf8")));
  return texts.join("\n");
}

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { PATH: process.env.PATH, HOME: cwd, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("schemathesis over the whole REST v2 document against the emulator", () => {
  let emu: RunningEmulator;
  let report: Report;
  let output: string;
  let work: string;

  beforeAll(async () => {
    if (!fs.existsSync(ST)) {
      throw new Error(
        `schemathesis is not installed (${ST} is missing): run \`npm run tools\` once (it builds the test tooling; npm test runs it), then this tier again`,
      );
    }
    work = fs.mkdtempSync(path.join(os.tmpdir(), "schemathesis-"));
    // Not recorded for tests/conformance/v2Traffic.test.ts: schemathesis checks every answer against the document itself.
    const recording = process.env.RUNPOD_EMULATOR_V2_TRAFFIC;
    delete process.env.RUNPOD_EMULATOR_V2_TRAFFIC;
    try {
      emu = await startEmulator({ port: 0, quiet: true });
    } finally {
      if (recording !== undefined) process.env.RUNPOD_EMULATOR_V2_TRAFFIC = recording;
    }
    const reportPath = path.join(work, "report.json");
    const result = await run(
      ST,
      [
        "run",
        DOCUMENT,
        "--url",
        emu.urls.restV2,
        "--header",
        `Authorization: Bearer ${emu.apiKey}`,
        "--phases",
        "examples,coverage,fuzzing",
        // Bounded: fuzzing draws this many cases per operation; examples and coverage are finite by nature.
        "--max-examples",
        "10",
        "--generation-deterministic",
        "--seed",
        "40",
        "--continue-on-failure",
        "--no-shrink",
        "--workers",
        "2",
        "--request-timeout",
        "30",
        "--no-color",
        "--report",
        "json",
        "--report-json-path",
        reportPath,
      ],
      work,
    );
    output = result.output;
    if (!fs.existsSync(reportPath)) throw new Error(`schemathesis wrote no report (exit ${result.code}):\n${output}`);
    report = JSON.parse(fs.readFileSync(reportPath, "utf8")) as Report;
  }, 900_000);

  afterAll(async () => {
    await emu?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test("it tests every operation of every tag, in the examples, coverage and fuzzing phases, without errors", () => {
    const document = JSON.parse(fs.readFileSync(DOCUMENT, "utf8")) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(document.paths).flatMap((p) => Object.keys(p).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m)));
    expect(report.complete).toBe(true);
    expect(report.operations).toMatchObject({ selected: operations.length, tested: operations.length, errored: 0 });
    for (const phase of ["examples", "coverage", "fuzzing"]) expect([phase, report.phases[phase]?.status]).not.toEqual([phase, "skip"]);
    expect(report.errors).toEqual([]);
  });

  test("its findings are exactly the prose rules listed in docs/emulator.md", () => {
    const found = report.failures.flatMap((f) => f.operations.map((op) => `${f.code} ${op}`)).sort();
    const listed = [...new Set(listedFindings().map((l) => l.key))].sort();
    const unlisted = found.filter((k) => !listed.includes(k));
    const gone = listed.filter((k) => !found.includes(k));
    if (unlisted.length > 0 || gone.length > 0) {
      console.log(output.slice(-20_000));
    }
    expect({ unlisted, gone }).toEqual({ unlisted: [], gone: [] });
  });

  test("each listed rule quotes a sentence the document states", () => {
    const prose = documentProse();
    const rows = listedFindings();
    expect(rows.length).toBeGreaterThan(0);
    const missing = rows.filter((r) => {
      const quoted = /^"(.+)"$/.exec(r.sentence.trim());
      return !quoted || !prose.includes(quoted[1].replace(/\\\|/g, "|"));
    });
    expect(missing.map((r) => `${r.key}: ${r.sentence}`)).toEqual([]);
  });
});
