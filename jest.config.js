/**
 * ESM-only dependencies (jose, otplib, …) are compiled to CommonJS for jest, which cannot require ES
 * modules on Node 20; the built code (dist/) loads them natively (require(esm), Node ≥ 20.19).
 */
const ESM_ONLY = ['jose', 'otplib', '@otplib', '@scure', '@noble'];

const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // specs sit beside the code they specify (gateway plugins, REST core, lib); the rest lives in test/
  roots: ['<rootDir>/test', '<rootDir>/gateway', '<rootDir>/rest-adapter', '<rootDir>/lib', '<rootDir>/subgraphs', '<rootDir>/bot', '<rootDir>/clients'],
  testMatch: ['**/*.test.ts', '**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    '^.+\.m?js$': ['babel-jest', { babelrc: false, configFile: false, plugins: ['@babel/plugin-transform-modules-commonjs'] }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  setupFiles: ['reflect-metadata', '<rootDir>/test/support/platform/fresh-metadata.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/support/platform/stop-apps.ts'],
  globalSetup: '<rootDir>/test/support/platform/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/platform/global-teardown.ts',
  // the longest files first, the container tests (which wait for the images .ci/run builds) spread among them
  testSequencer: '<rootDir>/test/support/platform/sequencer.js',
  testTimeout: 120000,
  // two files at once even on a 2-core machine (jest's default there is one): with each file booting only
  // its own product and workers replaced above workerIdleMemoryLimit, 20 finance contract files took 92 s
  // on two workers and 140 s on one (the machine's busy cores 1.75 vs 1.10). JEST_MAX_WORKERS overrides
  maxWorkers: process.env.JEST_MAX_WORKERS ?? Math.max(2, availableParallelism() - 1),
  // a test file's modules are not all released when it ends (each file loads its own copy of the stack),
  // so a long run's heap grows by tens of MB per file and every later file pays for it in garbage
  // collection (the hostile-input sweep took 4–5× as long late in a run as alone): files run in a worker
  // process, replaced after any file that leaves it above this much memory (1 GB: every ~8 files; 14
  // finance contract files took 197 s with it and 217 s with 2 GB, one run each on an idle machine)
  workerIdleMemoryLimit: '1GB',
};
