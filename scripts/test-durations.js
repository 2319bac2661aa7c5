#!/usr/bin/env node
'use strict';
/**
 * Writes test/support/platform/durations.json, the seconds of each test file that the sequencer
 * (test/support/platform/sequencer.js) orders a clean clone's run by, from the output of a whole run
 * (`npm test` or `bash .ci/run`, saved to a file): jest prints `PASS <file> (<n> s)` for a file of 5 s
 * or more, and `PASS <file>` for a shorter one (recorded as 1 s). A container test's time includes its
 * wait for the others' lock, so the committed figure stays unless --containers is given.
 *
 * Usage: node scripts/test-durations.js <log> [--containers]
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const [log, ...flags] = process.argv.slice(2);
if (!log) throw new Error('usage: node scripts/test-durations.js <log of a whole run> [--containers]');
const file = join(__dirname, '..', 'test', 'support', 'platform', 'durations.json');
const previous = JSON.parse(readFileSync(file, 'utf8'));
const seen = {};
// eslint-disable-next-line no-control-regex
for (const line of readFileSync(log, 'utf8')
  .replace(/\x1b\[[0-9;]*m/g, '')
  .split('\n')) {
  const m = /^(?:PASS|FAIL) (\S+\.(?:test|spec)\.tsx?)(?: \(([\d.]+) s\))?/.exec(line.trim());
  if (m) seen[m[1]] = m[2] ? Math.round(Number(m[2])) : 1;
}
if (Object.keys(seen).length < 100) throw new Error(`${log}: ${Object.keys(seen).length} files: not the log of a whole run`);
const containers = (name) => /\/e2e\/containers\//.test(name);
const next = {};
for (const [name, seconds] of Object.entries(seen))
  next[name] = containers(name) && !flags.includes('--containers') && previous[name] ? previous[name] : seconds;
const sorted = Object.fromEntries(Object.entries(next).sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
const total = Object.values(sorted).reduce((t, s) => t + s, 0);
console.log(`test-durations: ${Object.keys(sorted).length} files, ${total} s in all (was ${Object.keys(previous).length} files)`);
