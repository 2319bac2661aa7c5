import { RUN_ENV, TEST_SERVER_ENV, admin } from './database';

export default async function globalTeardown() {
  const server = process.env[TEST_SERVER_ENV];
  if (server) {
    // databases of test files that crashed before dropping theirs
    await admin(server, async (c) => {
      const { rows } = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`mdtest\\_${process.env[RUN_ENV]}\\_%`]);
      for (const r of rows) await c.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
    }).catch(() => undefined);
  }
  const embedded = (globalThis as { __embeddedPg?: { stop(): Promise<void> } }).__embeddedPg;
  await embedded?.stop();
}
