const Sequencer = require('@jest/test-sequencer').default;

/**
 * Jest's order (failed first, then the longest first), with the container tests last: they wait for
 * the images that `.ci/run` builds in the background while every other file runs
 * (test/support/containers.ts).
 */
class ContainerTestsLast extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const containers = (test) => /[\\/]e2e[\\/]containers[\\/]/.test(test.path);
    return [...sorted.filter((t) => !containers(t)), ...sorted.filter(containers)];
  }
}

module.exports = ContainerTestsLast;
