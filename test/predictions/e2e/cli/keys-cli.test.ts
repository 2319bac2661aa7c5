/**
 * `npm run cli -- keys …` against the database of a running system: keys created by the CLI work
 * at once, and a revocation or plan change made by the CLI (another process) reaches the running
 * system's key cache at once (NOTIFY).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../../../lib/paths';
import { assertBuilt } from '../../../support/platform/child-app';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';

const exec = promisify(execFile);
let t: TestApp;
beforeAll(async () => {
  assertBuilt('dist/bin/cli.js');
  t = await startTestApp();
});
afterAll(() => t?.stop());

const cli = (...args: string[]) =>
  exec(process.execPath, [join(projectRoot(), 'dist/bin/cli.js'), ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' },
  })
    .then((r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }))
    .catch((e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }));

const api = (key: string) => http(`${t.urls.predictions}/api/`, { key });

it('creates, lists, re-plans and revokes keys', async () => {
  const created = await cli('keys', 'create', '--name', 'Acme Ltd', '--plan', 'pro', '--email', 'ops@acme.test');
  expect(created.code).toBe(0);
  const key = created.stdout.trim().split('\n').pop()!;
  expect(key).toMatch(/^mpk_[0-9A-Za-z]{48}$/);
  const prefix = key.slice(0, 12);

  const first = await api(key);
  expect(first.status).toBe(200);
  expect(first.headers.get('x-ratelimit-limit')).toBe('5000');

  const list = await cli('keys', 'list');
  expect(list.stdout).toMatch(new RegExp(`${prefix}\\s+client\\s+pro\\s+limit=5000 today=1\\s+Acme Ltd <ops@acme.test>`));
  expect(list.stdout).not.toContain(key);

  expect((await cli('keys', 'plan', prefix, 'enterprise', '--daily-limit', '7')).code).toBe(0);
  // the running system learns of the change at once, though it had the key cached
  const replanned = await api(key);
  expect(replanned.headers.get('x-ratelimit-limit')).toBe('7');

  expect((await cli('keys', 'revoke', prefix)).code).toBe(0);
  const revoked = await api(key);
  expect(revoked.status).toBe(401);
  expect(revoked.body.detail).toMatch(/revoked/);
  expect((await cli('keys', 'list')).stdout).not.toContain(prefix);
  expect((await cli('keys', 'list', '--all')).stdout).toMatch(new RegExp(`${prefix}.*REVOKED`));
});

it('refuses bad input with a clear message and a non-zero exit, changing nothing', async () => {
  const before = (await cli('keys', 'list', '--all')).stdout;
  const cases: [string[], RegExp, number][] = [
    [['keys', 'create', '--name', 'x', '--plan', 'gold'], /plan must be one of free, pro, enterprise/, 1],
    [['keys', 'create', '--plan', 'pro'], /--name is required/, 2],
    [['keys', 'create', '--name', 'x', '--plan', 'pro', '--daily-limit', '10'], /Only Enterprise keys have a custom daily limit/, 1],
    [['keys', 'revoke', 'mpk_nothere00'], /No API key matches/, 1],
    [['keys', 'fly'], /unknown command/, 2],
  ];
  for (const [args, message, code] of cases) {
    const r = await cli(...args);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
  }
  expect((await cli('keys', 'list', '--all')).stdout).toBe(before);
});
