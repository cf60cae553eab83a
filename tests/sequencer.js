/**
 * Test order: files of the slow tiers (those outside FAST_TIERS, which run the Pulumi CLI: minutes per file)
 * start first, so the longest files never begin near the end of a run with the other workers idle; within each
 * group, Jest's own order (failed first, then the last run's durations, else file size). A fresh clone has no
 * durations, and there file size alone would start a five-minute file after dozens of small ones.
 * Plain JS: jest.config.js names it before any transform.
 */
const Sequencer = require("@jest/test-sequencer").default;
const { FAST_TIERS, ROOT, tierOf } = require("./tiers");
const path = require("path");

const slow = (test) => !FAST_TIERS.includes(tierOf(path.relative(ROOT, test.path).split(path.sep).join("/")));

class SlowTiersFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    return [...ordered.filter(slow), ...ordered.filter((t) => !slow(t))];
  }
}

module.exports = SlowTiersFirst;
