/**
 * Test order: files of the slow tiers (those outside FAST_TIERS, which run the Pulumi CLI: minutes per file)
 * start first, those of WAITING_TIERS (mostly waiting, not computing) first of all, so the longest files never
 * begin near the end of a run with the other workers idle; within each group, Jest's own order (failed first, then the last run's durations, longest first). A fresh clone has no
 * durations of its own: there every file takes its own from tests/fileDurations.json (a full run's, written by
 * `RUNPOD_TEST_RECORD_DURATIONS=1 npm test`), since by file size a 40 s file of few lines started in the last minute
 * with the other workers idle.
 * The files of the tiers that need the multi-language tooling (TOOLS_TIERS), which `npm test` builds while Jest
 * runs, come after the first FIRST_ROUND slow files (no worker starts the run waiting for that build), in one
 * order with the other slow files.
 * After that first round the fast files are spread among the remaining slow ones instead of all coming last:
 * most of a fast file's time is waiting (timers, sockets; measured: 96 s of CPU in 379 s of files), which the
 * CLI files beside it fill, where at the end of the run the cores would idle through it.
 * Plain JS: jest.config.js names it before any transform.
 */
const Sequencer = require("@jest/test-sequencer").default;
const { FAST_TIERS, ROOT, TOOLS_TIERS, WAITING_TIERS, tierOf } = require("./tiers");
const path = require("path");
const { seconds: RECORDED } = require("./fileDurations.json");

/** The workers of a full run on two cores (jest.config.js): the files that start at once. */
const FIRST_ROUND = 6;

/** `test`'s path from the repository root, with `/`: how tiers.js and fileDurations.json name files. */
const relative = (test) => path.relative(ROOT, test.path).split(path.sep).join("/");
const tier = (test) => tierOf(relative(test));
const slow = (test) => !FAST_TIERS.includes(tier(test));
const needsTools = (test) => TOOLS_TIERS.includes(tier(test));
const waits = (test) => WAITING_TIERS.includes(tier(test));

/** `fast` spread evenly among `slow`, each slow file first: after the k-th slow file, the fast files up to its share. */
function spread(slowFiles, fastFiles) {
  const out = [];
  let taken = 0;
  slowFiles.forEach((file, k) => {
    out.push(file);
    const upTo = Math.round(((k + 1) * fastFiles.length) / (slowFiles.length + 1));
    out.push(...fastFiles.slice(taken, upTo));
    taken = Math.max(taken, upTo);
  });
  return [...out, ...fastFiles.slice(taken)];
}

class SlowTiersFirst extends Sequencer {
  /** Jest's duration of `test`'s last run here (ms), else the recorded one; undefined for a file never measured. */
  time(test) {
    const own = super.time(test);
    if (own != null) return own;
    const recorded = RECORDED[relative(test)];
    return recorded == null ? undefined : recorded * 1000;
  }

  sort(tests) {
    const ordered = super.sort(tests);
    const other = [...ordered.filter(waits), ...ordered.filter((t) => slow(t) && !needsTools(t) && !waits(t))];
    const fast = ordered.filter((t) => !slow(t));
    // After the first round, the tooling tiers' files and the other slow ones in one order, longest first.
    const rest = super.sort([...ordered.filter(needsTools), ...other.slice(FIRST_ROUND)]);
    return [...other.slice(0, FIRST_ROUND), ...spread(rest, fast)];
  }
}

module.exports = SlowTiersFirst;
