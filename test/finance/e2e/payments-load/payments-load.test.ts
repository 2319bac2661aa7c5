import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../lib/logger';
import { openStore } from '../../../../lib/database';
import { projectRoot } from '../../../../lib/paths';
import { ledgerStore } from '../../../../subgraphs/finance/ledger/store';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../../../support/platform/app';
import { surface } from '../../../support/platform/http';
import { assertBuilt } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { createUser, installValidLicence, licenceKeys, licenceToken, login, loginAt, PASSWORD, runCli } from '../../../support/finance/node';
import { TEST_MASTER_KEY } from '../../../support/platform/keys';
import { invariants } from '../../../support/finance/ledger';

/**
 * Money movement under load through the REST surface (POST /api/v1/transfers/ with Idempotency-Key):
 * 100 concurrent clients among 20 users in three currencies for PAYMENTS_LOAD_SECONDS (default 30),
 * some requests retried with their key; then the node killed with SIGKILL mid-load, restarted, and
 * reconciled (finance:reconcile) with zero drift.
 */
const CURRENCIES = ['EUR', 'GBP', 'USD'];
const LOAD_SECONDS = Number(process.env.PAYMENTS_LOAD_SECONDS ?? 30);

interface Sent {
  key: string;
  id?: string;
}

/** One client: sends transfers between random users until `until`, re-sending every 7th with its key. */
async function client(url: string, users: { username: string; token: string }[], until: number, acks: Sent[], retries: { key: string; ids: string[] }[]) {
  const finance = surface(() => url);
  let n = 0;
  while (Date.now() < until) {
    const from = users[Math.floor(Math.random() * users.length)];
    let to = users[Math.floor(Math.random() * users.length)];
    if (to === from) to = users[(users.indexOf(from) + 1) % users.length];
    const key = randomUUID();
    const body = {
      recipient: to.username,
      amount: `${1 + Math.floor(Math.random() * 20)}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`,
      currency: CURRENCIES[n % 3],
    };
    // as a careful client does: 503 (overload, Retry-After) and 409 (the first is in flight) are retried with the same key
    const transferRetried = async () => {
      for (let attempt = 1; ; attempt++) {
        const res = await finance.post('/api/v1/transfers/', from.token, body, { 'idempotency-key': key });
        if ((res.status !== 503 && res.status !== 409) || attempt === 30) return res;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 400));
      }
    };
    const res = await transferRetried();
    n++;
    if (res.status === 201) acks.push({ key, id: res.body.id });
    else if (res.status !== 422 || res.body.code !== 'insufficient_funds') throw new Error(`unexpected ${res.status} ${JSON.stringify(res.body)}`);
    if (n % 7 === 0) {
      const again = await transferRetried();
      retries.push({ key, ids: [res.body.id, again.body.id] });
      expect(again.status).toBe(res.status);
    }
  }
}

describe('100 concurrent clients, 20 users, 3 currencies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await installValidLicence(t);
  });
  afterAll(() => t?.stop());

  it(
    'conserves every currency, keeps every balance ≥ 0, applies every retried key once',
    async () => {
      const users: { username: string; token: string }[] = [];
      for (let i = 0; i < 20; i++) {
        const u = await createUser(t);
        await t.app.services.identity.identity.setKycLevel(u.id, 'enhanced');
        for (const c of CURRENCIES) await t.app.services.ledger.ledger.fund(u.id, c, 500_00n, randomUUID());
        users.push({ ...u, token: await login(t, u.username) });
      }
      const acks: Sent[] = [];
      const retries: { key: string; ids: string[] }[] = [];
      const until = Date.now() + LOAD_SECONDS * 1000;
      await Promise.all(Array.from({ length: 100 }, () => client(t.urls.finance, users, until, acks, retries)));
      expect(acks.length).toBeGreaterThan(100);
      const store = t.app.services.ledger.store.store;
      for (const c of CURRENCIES) await invariants(store, c);
      // every acknowledged transfer is in the ledger once; a retried key answered the same transfer
      for (const r of retries) expect(r.ids[1]).toBe(r.ids[0]);
      const ids = acks.map((a) => a.id!);
      expect(new Set(ids).size).toBe(ids.length);
      const { rows } = await store.pool.query(`SELECT count(*)::int AS n FROM ledger.transfer WHERE code = 'transfer' AND id = ANY($1::uuid[])`, [ids]);
      expect(rows[0].n).toBe(ids.length);
      const { rows: all } = await store.pool.query(`SELECT count(*)::int AS n FROM ledger.transfer WHERE code = 'transfer'`);
      expect(all[0].n).toBe(ids.length);
    },
    (LOAD_SECONDS + 120) * 1000,
  );
});

/* The node as `npm start` runs it, in a child process we can kill; SEED=1 creates and funds the users. */
const CHILD = `
require('reflect-metadata');
const { randomUUID } = require('node:crypto');
const { startApp } = require('./dist/bin/app.js');
const { loadConfig } = require('./dist/subgraphs/products.js');
const { createLogger } = require('./dist/lib/logger.js');
(async () => {
  const config = loadConfig(process.env);
  const app = await startApp(config, createLogger('silent'), { databaseUrl: config.DATABASE_URL, randomPorts: true });
  const users = [];
  if (process.env.SEED === '1') {
    for (let i = 0; i < 20; i++) {
      const u = await app.services.identity.identity.createUser({ username: 'load_' + i, password: process.env.USER_PASSWORD });
      await app.services.identity.identity.setKycLevel(u.id, 'enhanced');
      for (const c of ['EUR', 'GBP', 'USD']) await app.services.ledger.ledger.fund(u.id, c, 50000n, randomUUID());
      users.push(u.username);
    }
  }
  process.stdout.write('READY ' + JSON.stringify({ urls: app.urls, users }) + '\\n');
})().catch((err) => { process.stderr.write(String(err && err.stack || err) + '\\n'); process.exit(1); });
`;

function startChild(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; exited: Promise<unknown[]>; ready: { urls: { finance: string }; users: string[] }; stderr: () => string }> {
  const child = spawn(process.execPath, ['-e', CHILD], { cwd: projectRoot(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /^READY (.*)$/m.exec(out);
      if (m) resolve({ child, exited, ready: JSON.parse(m[1]), stderr: () => stderr });
    });
    void exited.then(([code]) => reject(new Error(`the node exited (${code}) before it was ready:\n${stderr}`)));
  });
}

describe('kill -9 of the node mid-load', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    assertBuilt('dist/bin/app.js');
    db = await createTestDatabase();
  });
  afterAll(() => db?.release());

  it('loses no acknowledged transfer, half-applies nothing, and reconciles with zero drift after the restart', async () => {
    const keys = licenceKeys();
    const env = {
      PATH: process.env.PATH!,
      HOME: process.env.HOME!,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      MASTER_KEY: TEST_MASTER_KEY,
      DB_POOL_SIZE: '16',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'payments-crash-')),
      VENDOR_LICENSE_TOKEN: await licenceToken(keys),
      VENDOR_PUBLIC_KEY: keys.publicKeyLine,
      USER_PASSWORD: PASSWORD,
    };
    const first = await startChild({ ...env, SEED: '1' });
    const url = first.ready.urls.finance;
    const users: { username: string; token: string }[] = [];
    for (const username of first.ready.users) users.push({ username, token: (await loginAt(url, username)).body.access as string });
    const acks: Sent[] = [];
    const load = Promise.allSettled(Array.from({ length: 32 }, () => client(url, users, Date.now() + 60_000, acks, [])));
    while (acks.length < 300) await new Promise((r) => setTimeout(r, 50));
    first.child.kill('SIGKILL');
    const [, signal] = await first.exited;
    expect(signal).toBe('SIGKILL');
    // the clients end on connection errors
    await load;

    const store = await openStore(ledgerStore, { url: db.url, poolSize: 2, logger: createLogger('silent'), migrate: false });
    try {
      const ids = acks.map((a) => a.id!);
      const { rows } = await store.pool.query('SELECT count(*)::int AS n FROM ledger.transfer WHERE id = ANY($1::uuid[])', [ids]);
      expect(rows[0].n).toBe(ids.length);
      for (const c of ['EUR', 'GBP', 'USD']) await invariants(store, c);
    } finally {
      await store.close();
    }
    // restarted on the same database: it serves, and the reconciliation finds zero drift
    const second = await startChild(env);
    try {
      const restarted = surface(() => second.ready.urls.finance, { idempotent: true });
      const token = (await loginAt(restarted.url(), 'load_0')).body.access as string;
      const sent = await restarted.post('/api/v1/transfers/', token, { recipient: 'load_1', amount: '0.01', currency: 'EUR' });
      expect(sent.status).toBe(201);
      const reconcile = await runCli(['finance:reconcile'], { DATABASE_URL: db.url, DATA_DIR: env.DATA_DIR, MASTER_KEY: TEST_MASTER_KEY });
      expect([reconcile.code, reconcile.stdout]).toEqual([0, expect.stringContaining('zero drift')]);
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  }, 360_000);
});
