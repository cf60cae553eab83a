/**
 * Runs before each file of the tiers that need the multi-language tooling (TOOLS_TIERS, tests/tiers.js). Under
 * `npm test` the tooling is built while Jest runs (scripts/test.sh): RUNPOD_TOOLS_STATUS names the file its exit
 * code is written to when the build ends, and the file waits for it. Unset (the tooling built beforehand with
 * `npm run tools`), there is nothing to wait for.
 */
import * as fs from "fs";

const status = process.env.RUNPOD_TOOLS_STATUS;
// A cold build compiles Go programs against the Pulumi SDK: minutes on two busy cores.
const LONGEST_BUILD_MS = 30 * 60_000;

beforeAll(async () => {
  if (!status) return;
  while (!fs.existsSync(status)) await new Promise((resolve) => setTimeout(resolve, 1000));
  const code = fs.readFileSync(status, "utf8").trim();
  if (code !== "0") throw new Error(`\`npm run tools\` failed (exit ${code}); npm test prints its output after Jest's`);
}, LONGEST_BUILD_MS);
