const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const durations = require('./durations.json');

/**
 * The longest files first, the container tests last.
 *
 * Longest first: by the seconds jest recorded for a file on this machine, or else those of
 * test/support/durations.json (a whole run's, committed: a clean clone has no record, and jest would
 * order by file size, which put the hostile-input sweep, a short file, in the middle of the run). A
 * worker's heap grows with every file it runs (test files' modules are not all released), so a file
 * run late pays for it in garbage collection: the sweep took 346 s early in a run and 492 s after
 * 106 other files.
 *
 * Container tests last: they wait for the images that `.ci/run` builds in the background while every
 * other file runs (test/support/containers.ts).
 */
class LongestFirstContainersLast extends Sequencer {
  async sort(tests) {
    // jest's order, which also records each file's last duration on the test (test.duration, ms)
    const sorted = await super.sort(tests);
    const seconds = (test) => Math.max((test.duration ?? 0) / 1000, durations[relative(test.context.config.rootDir, test.path).split('\\').join('/')] ?? 0);
    const order = new Map(sorted.map((test, i) => [test, i]));
    const byLength = [...sorted].sort((a, b) => seconds(b) - seconds(a) || order.get(a) - order.get(b));
    const containers = (test) => /[\\/]e2e[\\/]containers[\\/]/.test(test.path);
    return [...byLength.filter((t) => !containers(t)), ...byLength.filter(containers)];
  }
}

module.exports = LongestFirstContainersLast;
