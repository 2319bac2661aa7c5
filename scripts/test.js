#!/usr/bin/env node
'use strict';
/**
 * The test run of `npm test` (after its build and supergraph check): the lint (`npm run lint`: ESLint,
 * Prettier's check, the dependency rules) and jest at the same time. The lint is one process on one
 * core for a minute or two; jest's start (the template database) leaves the other core idle and its
 * two workers do not fill both: run one after the other, the lint added ~110 s to a CI run.
 *
 * The lint's output is held and printed when it ends (in the middle of jest's, under a heading) and its
 * verdict again after jest's summary; the exit code is non-zero when either failed. Jest is never
 * stopped for a lint failure: its workers and the processes its tests start end with it, as always.
 *
 * Usage: node scripts/test.js [jest arguments…]   (`npm test -- <path>` passes them on)
 */
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const lint = new Promise((resolve) => {
  const started = Date.now();
  const child = spawn(npm, ['run', '--silent', 'lint'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
  child.on('close', (code, signal) => {
    const ok = code === 0;
    const seconds = Math.round((Date.now() - started) / 1000);
    const verdict = ok ? `lint: passed (${seconds} s)` : `lint: FAILED (exit ${code ?? signal}, ${seconds} s)`;
    process.stdout.write(`\n── npm run lint ──\n${Buffer.concat(output).toString()}${verdict}\n──\n\n`);
    resolve({ ok, verdict });
  });
});

const jest = new Promise((resolve) => {
  const child = spawn(process.execPath, ['--max-old-space-size=12288', join(root, 'node_modules', '.bin', 'jest'), ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
  });
  child.on('error', (err) => {
    console.error(`jest did not start: ${err.message}`);
    resolve(false);
  });
  child.on('close', (code) => resolve(code === 0));
});

Promise.all([lint, jest]).then(([linted, tested]) => {
  console.log(linted.verdict);
  process.exit(linted.ok && tested ? 0 : 1);
});
