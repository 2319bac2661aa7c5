import { TEST_SERVER_ENV, admin, runDatabasesPattern } from './database';

export default async function globalTeardown() {
  await (globalThis as { __stopReaper?: () => Promise<void> }).__stopReaper?.();
  const server = process.env[TEST_SERVER_ENV];
  if (server) {
    // what the reaper had not dropped yet, and the databases of test files that crashed before releasing theirs
    await admin(server, async (c) => {
      const { rows } = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [runDatabasesPattern()]);
      for (const r of rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    }).catch(() => undefined);
  }
  const embedded = (globalThis as { __embeddedPg?: { stop(): Promise<void> } }).__embeddedPg;
  await embedded?.stop();
}
