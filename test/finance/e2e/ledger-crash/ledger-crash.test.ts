import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../lib/logger';
import { openStore } from '../../../../lib/database';
import { projectRoot } from '../../../../lib/paths';
import { ledgerStore } from '../../../../subgraphs/finance/ledger/store';
import { TEST_ADMIN_KEY } from '../../../support/platform/app';
import { TEST_MASTER_KEY } from '../../../support/platform/keys';
import { assertBuilt } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { invariants } from '../../../support/finance/ledger';

/**
 * The node killed with SIGKILL in the middle of a transfer load (linked two-leg batches among 10
 * wallets, 16 at a time): afterwards every batch the node acknowledged is there, no batch is
 * half-applied, the sum is conserved, no wallet is below zero, every counter equals its transfers.
 */
const CHILD = `
require('reflect-metadata');
const { randomUUID } = require('node:crypto');
const { startApp } = require('./dist/bin/app.js');
const { loadConfig } = require('./dist/subgraphs/products.js');
const { createLogger } = require('./dist/lib/logger.js');
(async () => {
  const config = loadConfig(process.env);
  const app = await startApp(config, createLogger('silent'), { databaseUrl: config.DATABASE_URL, randomPorts: true });
  const ledger = app.services.ledger.ledger;
  const wallets = [];
  for (let i = 0; i < 10; i++) {
    const owner = randomUUID();
    await ledger.fund(owner, 'EUR', 100000n, randomUUID());
    wallets.push((await ledger.wallet(owner, 'EUR')).id);
  }
  process.stdout.write('LOADING\\n');
  const worker = async () => {
    for (;;) {
      const [a, b, c] = [0, 1, 2].map(() => wallets[Math.floor(Math.random() * 10)]);
      if (a === b || b === c) continue;
      const ids = [randomUUID(), randomUUID()];
      try {
        await ledger.createTransfers([
          { id: ids[0], debitAccountId: a, creditAccountId: b, amount: BigInt(1 + Math.floor(Math.random() * 5000)), code: 'load' },
          { id: ids[1], debitAccountId: b, creditAccountId: c, amount: BigInt(1 + Math.floor(Math.random() * 5000)), code: 'load' },
        ]);
        process.stdout.write('ACK ' + ids.join(',') + '\\n');
      } catch (err) {
        if (err.code !== 'INSUFFICIENT_FUNDS') { process.stderr.write(String(err.stack) + '\\n'); process.exit(2); }
      }
    }
  };
  for (let i = 0; i < 16; i++) void worker();
})().catch((err) => { process.stderr.write(String(err && err.stack || err) + '\\n'); process.exit(1); });
`;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  assertBuilt('dist/bin/app.js');
  db = await createTestDatabase();
});
afterAll(() => db?.release());

it('keeps every invariant after a kill -9 of the node mid-load', async () => {
  const child = spawn(process.execPath, ['-e', CHILD], {
    cwd: projectRoot(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      // the template database's sealed secrets open with the test master key
      MASTER_KEY: TEST_MASTER_KEY,
      DB_POOL_SIZE: '16',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ledger-crash-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const acknowledged: string[][] = [];
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      buffered += String(d);
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line.startsWith('ACK ')) acknowledged.push(line.slice(4).split(','));
      if (acknowledged.length >= 300) resolve();
    });
    void exited.then(([code]) => reject(new Error(`the node exited (${code}) before the kill:\n${stderr}`)));
  });
  child.kill('SIGKILL');
  const [, signal] = await exited;
  expect(signal).toBe('SIGKILL');

  const store = await openStore(ledgerStore, { url: db.url, poolSize: 2, logger: createLogger('silent'), migrate: false });
  try {
    const ids = acknowledged.flat();
    const { rows: found } = await store.pool.query('SELECT count(*)::int AS n FROM ledger.transfer WHERE id = ANY($1::uuid[])', [ids]);
    expect(found[0].n).toBe(ids.length);
    // linked batches: both legs or neither, also for the batches in flight at the kill
    const { rows: batches } = await store.pool.query(`SELECT batch_id, count(*)::int AS legs FROM ledger.transfer WHERE code = 'load' GROUP BY batch_id`);
    expect(batches.length).toBeGreaterThanOrEqual(acknowledged.length);
    expect(batches.filter((b) => b.legs !== 2)).toEqual([]);
    expect(await invariants(store, 'EUR')).toBeGreaterThanOrEqual(11);
  } finally {
    await store.close();
  }
}, 120_000);
