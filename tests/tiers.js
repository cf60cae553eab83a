/**
 * The test tiers: one per folder of tests/, found on disk so a new folder is run without registering it.
 * jest.config.js makes one named project per tier (plus the `merge` pass); the summary reporter prints each
 * tier's wall time. Plain JS: jest.config.js and the reporter load it before any transform.
 */
const fs = require("fs");
const path = require("path");

const TESTS = __dirname;
const ROOT = path.dirname(TESTS);
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

/** Tiers that need neither the Pulumi CLI (.pulumi/bin) nor a packed tarball: `npm run test:fast`. Only dist/ (the build). */
const FAST_TIERS = ["api", "emulator", "conformance", "provider", "resources", "cli", "suite"];

/**
 * Tiers that need the multi-language test tooling (`npm run tools`). `npm test` builds it while Jest runs
 * (scripts/test.sh); each file of these tiers waits for that build first (tests/toolsReady.ts).
 */
const TOOLS_TIERS = ["multilang", "tooling"];

/**
 * Slow tiers whose files mostly wait (the emulator's rate-limit windows, a minute each) rather than use the CPU: they
 * start first (tests/sequencer.js), so their waits pass beside the CPU-bound files instead of ending the run; a
 * file's wall time (the order of the rest) does not tell waiting from computing. Ordered by file size, these small
 * files once started last (tests/reliability's two files ran the last 95 s of a 719 s run nearly alone).
 */
const WAITING_TIERS = ["reliability"];

/** Test files directly in tests/ (not in a tier folder) form this tier. */
const ROOT_TIER = "root";

/**
 * The second save-semantics pass (`merge`, RUNPOD_EMULATOR_SAVE_SEMANTICS=merge): exactly the files whose emulator
 * follows the environment's save semantics and that modify a record leaving out a field whose stored value differs
 * from its default, the only case where `merge` and `replace` answer differently (emulator/platform.ts, templates.ts).
 * Kept honest by tests/saveSemanticsProbe.ts, which fails a file that does such a save and is missing here, or is
 * listed here and no longer does one. Files that pin `saveSemantics` per emulator cover both semantics themselves;
 * a slow file whose semantics-dependent saves are few pins `replace` and covers the `merge` reading in those steps
 * (tests/e2e/lifecycle.test.ts), rather than running whole again here.
 */
const MERGE_PASS = [
  "tests/api/graphql.test.ts",
  "tests/api/templates.test.ts",
  "tests/provider/endpointProvider.integration.test.ts",
  "tests/provider/endpointReadiness.integration.test.ts",
  "tests/provider/requestCounts.test.ts",
  "tests/provider/v2Path.integration.test.ts",
];

function walk(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (TEST_FILE.test(entry.name)) out.push(full);
  }
  return out;
}

/** Every test file under tests/, as a path relative to the repository root with forward slashes. */
function testFiles() {
  return walk(TESTS)
    .map((f) => path.relative(ROOT, f).split(path.sep).join("/"))
    .sort();
}

/** The tier of a test file (path relative to the repository root): its first folder under tests/. */
function tierOf(file) {
  const parts = file.split("/");
  return parts.length > 2 ? parts[1] : ROOT_TIER;
}

/** Tier names in run order: the fast ones first, then every other folder that holds a test file. */
function tiers() {
  const found = new Set(testFiles().map(tierOf));
  const rest = [...found].filter((t) => !FAST_TIERS.includes(t)).sort();
  return [...FAST_TIERS.filter((t) => found.has(t)), ...rest];
}

module.exports = { ROOT, FAST_TIERS, TOOLS_TIERS, WAITING_TIERS, ROOT_TIER, MERGE_PASS, testFiles, tierOf, tiers };
