import type pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { createLicence, database, registryClient, type RegistryClient } from '../../support/registry/registry';

/**
 * Update checks and the releases list read each product's published releases from memory (the
 * licensing subgraph's ReleaseService), kept while the release table announces its changes (its
 * triggers' NOTIFY data_changed). So every change to the table, by any process or by hand, is seen by
 * the next answers: each statement below is SQL by hand, none passes through the service. Every column
 * of licensing.release is either changed here (and the change checked in the answers) or named as one
 * the answers do not read: a new column fails this file until it is placed.
 */

let t: TestApp;
let client: RegistryClient;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp({ RESPONSE_CACHE: 'off' });
  const { key } = await createLicence(t, { maintenanceUntil: '2099-12-31' });
  client = registryClient(t, key);
  db = await database(t);
}, 120_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

interface Item {
  version: string;
  channel: string;
  changelog: string;
  publishedAt: string;
  backdatedTo: string | null;
  maintenanceCovered: boolean;
}

const list = async (): Promise<Item[]> => {
  const res = await client.get('/api/v1/releases');
  expect(res.status).toBe(200);
  return res.body.data as Item[];
};
const check = async (channel: string, current = '1.0.0') => {
  const res = await client.get(`/api/v1/releases/check-update?product=finance-node&channel=${channel}&current_version=${current}`);
  expect(res.status).toBe(200);
  return res.body.data as { updateAvailable: boolean; latestVersion: string; channel: string; changelog: string; maintenanceCovered: boolean };
};

/** The answers once `ok` holds (a NOTIFY arrives after its commit, asynchronously), or the last ones seen. */
async function when<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const versions = (items: Item[]) => items.map((i) => i.version);
const product = `(SELECT id FROM licensing.product WHERE code = 'finance-node')`;

/** Columns no answer of these routes reads (the manifest route reads the template on its own). */
const NOT_READ = ['id', 'manifest_template', 'yanked_at', 'created_at'];

/** One change by hand per column the answers read, in order (each starts from the state the last one left). */
const CHANGES: { columns: string[]; name: string; sql: string; seen: () => Promise<boolean> }[] = [
  {
    columns: ['changelog'],
    name: 'a changelog rewritten',
    sql: `UPDATE licensing.release SET changelog = 'Rewritten by hand.' WHERE product_id = ${product} AND version = '1.1.0'`,
    seen: async () => (await check('stable')).changelog === 'Rewritten by hand.',
  },
  {
    columns: ['channel'],
    name: 'a release moved to another channel',
    sql: `UPDATE licensing.release SET channel = 'stable' WHERE product_id = ${product} AND version = '1.2.0-rc.1'`,
    seen: async () => (await check('stable')).latestVersion === '1.2.0-rc.1',
  },
  {
    columns: ['status'],
    name: 'a release yanked',
    sql: `UPDATE licensing.release SET status = 'yanked', yanked_at = now() WHERE product_id = ${product} AND version = '1.2.0-rc.1'`,
    seen: async () => !versions(await list()).includes('1.2.0-rc.1') && (await check('stable')).latestVersion === '1.1.0',
  },
  {
    columns: ['version'],
    name: 'a version renamed',
    sql: `UPDATE licensing.release SET version = '1.1.1' WHERE product_id = ${product} AND version = '1.1.0'`,
    seen: async () => (await check('stable')).latestVersion === '1.1.1',
  },
  {
    columns: ['published_at', 'backdated_to'],
    name: 'a release dated after the maintenance end',
    sql: `UPDATE licensing.release SET published_at = '2100-01-02', backdated_to = NULL WHERE product_id = ${product} AND version = '1.1.1'`,
    seen: async () => (await check('stable')).maintenanceCovered === false,
  },
  {
    columns: ['product_id'],
    name: 'a published release inserted',
    sql: `INSERT INTO licensing.release (product_id, version, channel, status, changelog, manifest_template, published_at)
          SELECT product_id, '3.0.0', 'stable', 'published', 'Inserted by hand.', manifest_template, now() FROM licensing.release
           WHERE product_id = ${product} AND version = '1.0.0'`,
    seen: async () => (await check('stable')).latestVersion === '3.0.0' && versions(await list())[0] === '3.0.0',
  },
  {
    columns: [],
    name: 'a release deleted',
    sql: `DELETE FROM licensing.release WHERE product_id = ${product} AND version = '3.0.0'`,
    seen: async () => !versions(await list()).includes('3.0.0'),
  },
];

it('every column of licensing.release is changed below or named as not read', async () => {
  const { rows } = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = 'licensing' AND table_name = 'release' ORDER BY ordinal_position`,
  );
  const placed = new Set([...NOT_READ, ...CHANGES.flatMap((c) => c.columns)]);
  expect(rows.map((r) => r.column_name).filter((c) => !placed.has(c))).toEqual([]);
});

it.each(CHANGES.map((c) => [c.name, c] as const))('%s (SQL by hand): the next answers show it', async (_name, change) => {
  // the answers before are served (and kept in memory) first
  await check('stable');
  await list();
  expect(await change.seen()).toBe(false);
  await db.query(change.sql);
  expect(await when(change.seen, (seen) => seen)).toBe(true);
});
