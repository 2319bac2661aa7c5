const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const durations = require('./durations.json');

/**
 * Seconds of other files' work (single-file times, longest first) queued before the first container
 * test: the images that `.ci/run` builds in the background meanwhile are ready by then (a first run on
 * a machine, base images included, took 261 s; two workers get through 600 s of files in about 350 s
 * after a lint that the build overlaps too). A container test queued earlier only waits longer.
 */
const CONTAINERS_AFTER = 600;

/**
 * The longest files first, the container tests spread among the rest.
 *
 * Longest first: by the seconds jest recorded for a file on this machine, or else those of
 * test/support/platform/durations.json (a whole run's, committed: a clean clone has no record, and jest would
 * order by file size, which put the hostile-input sweep, a short file, in the middle of the run). A
 * worker's heap grows with every file it runs (test files' modules are not all released), so a file
 * run late pays for it in garbage collection.
 *
 * Container tests run one at a time (a lock, test/support/platform/containers.ts) and mostly wait on podman, so
 * one worker runs them while the other goes on with the other files: the first once CONTAINERS_AFTER
 * seconds of files are queued ahead of it, each next one after more files than the last one's own
 * duration and a half (the other worker is through them by the time the lock is free, so no worker
 * sits waiting for it). Queued last, they ran alone at the end of a run: 294 s with one core idle.
 */
class LongestFirstContainersSpread extends Sequencer {
  async sort(tests) {
    // jest's order, which also records each file's last duration on the test (test.duration, ms)
    const sorted = await super.sort(tests);
    const name = (test) => relative(test.context.config.rootDir, test.path).split('\\').join('/');
    const containers = (test) => /[\\/]e2e[\\/]containers[\\/]/.test(test.path);
    // a container test's recorded time includes its wait for the lock: the committed figure is its own
    const seconds = (test) => (containers(test) ? (durations[name(test)] ?? 60) : Math.max((test.duration ?? 0) / 1000, durations[name(test)] ?? 0));
    const order = new Map(sorted.map((test, i) => [test, i]));
    const byLength = [...sorted].sort((a, b) => seconds(b) - seconds(a) || order.get(a) - order.get(b));
    return spread(byLength, containers, seconds);
  }
}

/**
 * The files in `ordered` (longest first) with those `isContainer` picks moved to their places: the
 * first once CONTAINERS_AFTER seconds of other files are ahead of it, each next one after 1.5× the
 * previous one's seconds of other files more; those with no room left go last.
 */
function spread(ordered, isContainer, seconds) {
  const waiting = ordered.filter(isContainer);
  const queue = [];
  let queued = 0;
  let nextAt = CONTAINERS_AFTER;
  for (const test of ordered.filter((t) => !isContainer(t))) {
    if (waiting.length > 0 && queued >= nextAt) {
      const container = waiting.shift();
      queue.push(container);
      nextAt = queued + 1.5 * seconds(container);
    }
    queue.push(test);
    queued += seconds(test);
  }
  return [...queue, ...waiting];
}

module.exports = LongestFirstContainersSpread;
module.exports.spread = spread;
module.exports.CONTAINERS_AFTER = CONTAINERS_AFTER;
