/**
 * Keeps the `merge` pass honest (MERGE_PASS in tests/tiers.js). Runs before every test file: watches each emulator
 * the file starts without its own `saveSemantics` (so it follows RUNPOD_EMULATOR_SAVE_SEMANTICS) and, after the
 * file, fails it when such an emulator saw a save whose outcome depends on the semantics (a modify leaving out a
 * field whose stored value differs from its default) and the file is not listed, or when a listed file saw none.
 */
import * as path from "path";
import { onEmulatorStarted, type RunningEmulator } from "../emulator";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JS shared with jest.config.js
const { MERGE_PASS, ROOT } = require("./tiers") as { MERGE_PASS: string[]; ROOT: string };
const watched: RunningEmulator[] = [];
onEmulatorStarted((emu) => {
  if (emu.saveSemantics().fromEnvironment) watched.push(emu);
});

/** The tests (full names) during which a watched emulator saw a semantics-dependent save, with how many. */
const dependentByTest = new Map<string, number>();
let seen = 0;
const dependentSoFar = () => watched.reduce((n, emu) => n + emu.saveSemantics().dependentSaves, 0);
afterEach(() => {
  const now = dependentSoFar();
  if (now > seen) dependentByTest.set(expect.getState().currentTestName ?? "(hook)", now - seen);
  seen = now;
});

interface CircusState {
  testNamePattern?: RegExp | null;
  hasFocusedTests?: boolean;
}

afterAll(() => {
  const file = path
    .relative(ROOT, expect.getState().testPath ?? "")
    .split(path.sep)
    .join("/");
  const dependent = dependentSoFar();
  const where = [...dependentByTest].map(([name, n]) => `"${name}" (${n})`).join(", ");
  const listed = MERGE_PASS.includes(file);
  if (dependent > 0 && !listed) {
    throw new Error(
      `${file}: ${dependent} save(s) whose outcome depends on the save semantics, on an emulator that follows RUNPOD_EMULATOR_SAVE_SEMANTICS. ` +
        `Tests: ${where || "none (in hooks)"}. Add the file to MERGE_PASS in tests/tiers.js (the merge pass runs it again) or give startEmulator a saveSemantics.`,
    );
  }
  // Only a whole-file run can tell that a listed file no longer needs the second pass.
  const circus = (globalThis as Record<symbol, CircusState | undefined>)[Symbol.for("JEST_STATE_SYMBOL")];
  const whole = !circus?.testNamePattern && !circus?.hasFocusedTests;
  if (listed && dependent === 0 && whole) {
    throw new Error(`${file} is in MERGE_PASS (tests/tiers.js) but made no save whose outcome depends on the save semantics: remove it from the list.`);
  }
});
