import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startTestApp } from '../../support/platform/app';

/** The test harness itself: a test app leaves nothing behind in the temporary folder. */
it('startTestApp removes its data folder (mail outbox, …) when it stops', async () => {
  const t = await startTestApp();
  const dir = t.config.dataDir;
  expect(dir.startsWith(tmpdir())).toBe(true);
  expect(existsSync(dir)).toBe(true);
  await t.stop();
  expect(existsSync(dir)).toBe(false);
  expect(readdirSync(tmpdir())).not.toContain(dir.slice(tmpdir().length + 1));
});
