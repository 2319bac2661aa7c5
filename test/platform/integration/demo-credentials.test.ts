// the module object itself (a namespace import would be a frozen copy that no spy can wrap)
// eslint-disable-next-line @typescript-eslint/no-require-imports
import fs = require('node:fs');
import { join } from 'node:path';
import { demoCredentials } from '../../../subgraphs/predictions/demo';
import type { AccessServices } from '../../../subgraphs/predictions/access/services';
import { startTestApp, type TestApp } from '../../support/platform/app';

/**
 * `npm start`'s demo credentials file holds working keys: it must never exist readable by others,
 * not even between its creation and a chmod. Every write is observed the moment it returns.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

it('creates DATA_DIR/demo-credentials.json with mode 600 from the start, also over an older file readable by others', async () => {
  const file = join(t.config.dataDir, 'demo-credentials.json');
  const modes: string[] = [];
  const write = fs.writeFileSync;
  const spy = jest.spyOn(fs, 'writeFileSync').mockImplementation((...args: Parameters<typeof fs.writeFileSync>) => {
    write(...args);
    const path = String(args[0]);
    if (path.startsWith(file)) modes.push((fs.statSync(path).mode & 0o777).toString(8));
  });
  const umask = process.umask(0o022);
  try {
    const access = t.app.services.access as AccessServices;
    const first = await demoCredentials(t.config, access, {});
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    // a file left by an older version, readable by everyone: replaced, never rewritten in place
    fs.chmodSync(file, 0o644);
    const second = await demoCredentials(t.config, access, {});
    expect(second.freeKey).toBe(first.freeKey);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  } finally {
    process.umask(umask);
    spy.mockRestore();
  }
  expect(modes.length).toBeGreaterThanOrEqual(2);
  expect(new Set(modes)).toEqual(new Set(['600']));
  expect(fs.readdirSync(t.config.dataDir).filter((f) => f.startsWith('demo-credentials'))).toEqual(['demo-credentials.json']);
});
