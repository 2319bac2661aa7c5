/**
 * A test file's database outlives its file only until the run's reaper (startReaper, started by
 * globalSetup in jest's main process) sees it released: released databases are dropped, the ones still
 * in use are left alone.
 */
import { admin, createTestDatabase, serverUrl } from './database';
import { waitFor } from './wait';

const exists = (url: string) =>
  admin(serverUrl(), async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [new URL(url).pathname.slice(1)])).rowCount === 1);

it('drops a released database, and only a released one', async () => {
  const [released, inUse] = [await createTestDatabase(), await createTestDatabase()];
  try {
    await released.release();
    await waitFor('the released database dropped', 60_000, async () => ((await exists(released.url)) ? undefined : true));
    // the reaper passes every second: several passes went by without touching the one in use
    await new Promise((r) => setTimeout(r, 3000));
    expect(await exists(inUse.url)).toBe(true);
  } finally {
    await inUse.release();
  }
  await waitFor('the second database dropped once released', 60_000, async () => ((await exists(inUse.url)) ? undefined : true));
});
