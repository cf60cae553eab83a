/**
 * One named Jest project per tier (a folder of tests/, see tests/tiers.js) plus `merge`, the second
 * save-semantics pass. TypeScript is transpiled only, by SWC (@swc/jest; ts-jest took ~50 s more CPU on a cold cache):
 * `npm run lint` type-checks the tests once with tsconfig.test.json. Tests that need the packaged provider load
 * it from dist/ (built by `npm test` and `npm run test:fast`).
 *
 * RUNPOD_TEST_TIERS=fast (npm run test:fast) keeps the tiers that need no Pulumi CLI; a comma-separated list
 * of tier names keeps those.
 */
const os = require("os");
const path = require("path");
const { FAST_TIERS, MERGE_PASS, ROOT_TIER, TOOLS_TIERS, tiers } = require("./tests/tiers");

// The same output as tsconfig.json's (ES2022 class fields, CommonJS with ES-module interop), per file.
const swc = {
  swcrc: false,
  sourceMaps: "inline",
  module: { type: "commonjs" },
  jsc: { parser: { syntax: "typescript" }, target: "es2022", transform: { useDefineForClassFields: true } },
};
const transform = { "^.+\\.ts$": ["@swc/jest", swc] };

function project(name, testMatch, extra = {}) {
  return {
    displayName: name,
    rootDir: __dirname,
    roots: ["<rootDir>/tests"],
    testEnvironment: "node",
    testMatch,
    transform,
    setupFilesAfterEnv: ["<rootDir>/tests/testFileEnv.ts", "<rootDir>/tests/saveSemanticsProbe.ts"],
    // While the whole suite records its REST v2 traffic, the traffic check runs once afterwards on all of it
    // (`npm run test:v2-traffic`), not in the middle on a part.
    ...(process.env.RUNPOD_EMULATOR_V2_TRAFFIC ? { testPathIgnorePatterns: ["/node_modules/", "/tests/conformance/v2Traffic\\.test\\.ts$"] } : {}),
    ...extra,
  };
}

function tierProject(tier) {
  const pattern = tier === ROOT_TIER ? "<rootDir>/tests/*.test.{ts,js}" : `<rootDir>/tests/${tier}/**/*.test.{ts,js}`;
  const waitForTools = TOOLS_TIERS.includes(tier) ? ["<rootDir>/tests/toolsReady.ts"] : [];
  return project(tier, [pattern], {
    setupFilesAfterEnv: ["<rootDir>/tests/testFileEnv.ts", ...waitForTools, "<rootDir>/tests/saveSemanticsProbe.ts"],
  });
}

function selected() {
  const wanted = process.env.RUNPOD_TEST_TIERS;
  const all = [...tiers(), "merge"];
  if (!wanted) return all;
  const names = wanted === "fast" ? FAST_TIERS : wanted.split(",").map((s) => s.trim());
  const unknown = names.filter((n) => n !== "merge" && !all.includes(n) && !FAST_TIERS.includes(n));
  if (unknown.length) throw new Error(`RUNPOD_TEST_TIERS names unknown tiers ${unknown.join(", ")}; tiers are ${all.join(", ")} (or "fast")`);
  return all.filter((t) => names.includes(t));
}

// Each Pulumi CLI run of the harness appends a line here (scripts/pulumiCli.ts recordCliRun); the summary reporter
// counts them per tier. Set before Jest starts its workers, which inherit it.
process.env.RUNPOD_TEST_CLI_LOG ??= path.join(os.tmpdir(), `runpod-cli-runs-${process.pid}-${Date.now()}.jsonl`);

const chosen = selected();
const onlyFast = chosen.every((t) => FAST_TIERS.includes(t));

module.exports = {
  testTimeout: 60000,
  // Most files wait on sockets, timers and child processes, not the CPU (docs/testing.md). Measured on two cores:
  // the fast tiers alone use ~90 s of CPU in ~420 s of files, so seven workers per core (Jest took 73 s with 6, 50 s
  // with 14, no less with more). A full run is bound by the CPU of its Pulumi CLI runs, which a file of the slow tiers
  // leaves idle while it waits on the engine: three workers per core keep both cores busy (1.93 cores on average, the
  // run 655 s; with two per core 1.79 and 724 s). `--maxWorkers` on the command line overrides either.
  maxWorkers: Math.max(2, Math.min(onlyFast ? 14 : 6, os.cpus().length * (onlyFast ? 7 : 3))),
  reporters: ["default", "<rootDir>/tests/summaryReporter.js"],
  testSequencer: "<rootDir>/tests/sequencer.js",
  projects: chosen.map((t) =>
    t === "merge"
      ? project(
          "merge",
          MERGE_PASS.map((f) => `<rootDir>/${f}`),
          { setupFiles: ["<rootDir>/tests/mergeSemantics.js"] },
        )
      : tierProject(t),
  ),
};
