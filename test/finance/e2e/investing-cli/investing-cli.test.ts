import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { assertBuilt } from '../../../support/platform/child-app';
import { createTestDatabase } from '../../../support/platform/database';
import { DEMO_EQUITIES } from '../../../../subgraphs/finance/investing/sandbox/fixture';
import { runCli } from '../../../support/finance/node';
import { startProviders, type Providers } from '../../../support/finance/investing';

/**
 * The contract's two commands, run as the compiled CLI against this file's own database and the
 * local provider servers: `finance:sync-instruments --provider <equities|dex> [--limit <n>]
 * [--deactivate-missing]` and `finance:refresh-prices [--verbose]` (non-zero exit when any failed).
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let p: Providers;
let env: Record<string, string>;
let client: pg.Client;

beforeAll(async () => {
  assertBuilt('dist/bin/cli.js');
  db = await createTestDatabase();
  p = await startProviders();
  env = { DATABASE_URL: db.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'investing-cli-')), ...p.env };
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await p?.close();
  await db?.release();
});

const rows = async (provider: string) =>
  (
    await client.query<{ symbol: string; active: boolean; last_price: string | null }>(
      'SELECT symbol, active, trim_scale(last_price)::text AS last_price FROM investing.instrument WHERE provider = $1 ORDER BY symbol',
      [provider],
    )
  ).rows;

it('syncs equities with --limit, then all, then deactivates what the provider no longer lists', async () => {
  const limited = await runCli(['finance:sync-instruments', '--provider', 'equities', '--limit', '2'], env);
  expect([limited.code, limited.stdout.trim()]).toEqual([0, 'Synced 2 instruments of equities_brokerage.']);
  expect((await rows('equities_brokerage')).map((r) => r.symbol)).toEqual(['AAPL', 'TSLA']);

  expect((await runCli(['finance:sync-instruments', '--provider', 'equities'], env)).code).toBe(0);
  expect((await rows('equities_brokerage')).map((r) => r.symbol)).toEqual(['AAPL', 'BRK.A', 'TSLA']);

  // --limit caps what is written; what is missing is judged on the provider's whole list
  const capped = await runCli(['finance:sync-instruments', '--provider', 'equities', '--limit', '1', '--deactivate-missing'], env);
  expect([capped.code, capped.stdout.trim()]).toEqual([0, 'Synced 1 instruments of equities_brokerage; deactivated 0 missing.']);
  expect((await rows('equities_brokerage')).every((r) => r.active)).toBe(true);

  // TSLA delisted at the provider
  p.alpaca.assets.find((a) => a.symbol === 'TSLA')!.status = 'inactive';
  try {
    const res = await runCli(['finance:sync-instruments', '--provider', 'equities', '--deactivate-missing'], env);
    expect([res.code, res.stdout.trim()]).toEqual([0, 'Synced 2 instruments of equities_brokerage; deactivated 1 missing.']);
    expect((await rows('equities_brokerage')).map((r) => [r.symbol, r.active])).toEqual([
      ['AAPL', true],
      ['BRK.A', true],
      ['TSLA', false],
    ]);
  } finally {
    p.alpaca.assets.find((a) => a.symbol === 'TSLA')!.status = 'active';
  }
});

it('syncs the DEX registry, warning about the entries it skips', async () => {
  const res = await runCli(['finance:sync-instruments', '--provider', 'dex'], env);
  expect(res.code).toBe(0);
  expect(res.stdout).toContain('warning: entry 3 (NOISS): skipped, no issuer address');
  expect(res.stdout).toContain('warning: entry 4 (BADISS): skipped, the issuer "GNOTANADDRESS" is not a valid account id');
  expect(res.stdout).toContain('Synced 2 instruments of decentralized_exchange.');
  expect((await rows('decentralized_exchange')).map((r) => r.symbol)).toEqual(['NVDAX', 'TSLAX']);
});

it('refuses a bad provider or limit as a usage error', async () => {
  expect((await runCli(['finance:sync-instruments', '--provider', 'crypto'], env)).code).toBe(2);
  expect((await runCli(['finance:sync-instruments', '--provider', 'dex', '--limit', 'ten'], env)).code).toBe(2);
});

it('refreshes prices, fills the missing ones, prints each outcome with --verbose and exits 1 when any failed', async () => {
  expect((await rows('equities_brokerage')).every((r) => r.last_price === null)).toBe(true);
  // NVDAX's order book is empty: its refresh fails
  const res = await runCli(['finance:refresh-prices', '--verbose'], env);
  expect(res.code).toBe(1);
  expect(res.stdout.split('\n').filter(Boolean)).toEqual([
    'decentralized_exchange NVDAX: failed: The order book of NVDAX is empty: no price.',
    'decentralized_exchange TSLAX: ok 251 (first price)',
    'equities_brokerage AAPL: ok 200 (first price)',
    'equities_brokerage BRK.A: ok 600100 (first price)',
    'Refreshed 3 of 4 instruments; 1 failed.',
  ]);
  expect((await rows('equities_brokerage')).map((r) => [r.symbol, r.last_price])).toEqual([
    ['AAPL', '200'],
    ['BRK.A', '600100'],
    ['TSLA', null],
  ]);
  // with a price on the book, every instrument refreshes: exit 0, one summary line without --verbose
  p.horizon.books.set(`NVDAX:${(await client.query('SELECT issuer FROM investing.instrument WHERE symbol = $1', ['NVDAX'])).rows[0].issuer}`, {
    bids: ['99'],
    asks: ['101'],
  });
  const again = await runCli(['finance:refresh-prices'], env);
  expect([again.code, again.stdout.trim()]).toEqual([0, 'Refreshed 4 of 4 instruments; 0 failed.']);
  const runs = await client.query('SELECT kind, trigger, ok, failed FROM investing.run ORDER BY id');
  expect(runs.rows.filter((r) => r.kind === 'refresh')).toEqual([
    { kind: 'refresh', trigger: 'cli', ok: 3, failed: 1 },
    { kind: 'refresh', trigger: 'cli', ok: 4, failed: 0 },
  ]);
});

it('in development without a configured brokerage, reads the offline brokerage the node trades against (the same rule as the node)', async () => {
  const own = await createTestDatabase();
  try {
    const dev = { DATABASE_URL: own.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'investing-cli-dev-')), NODE_ENV: 'development' };
    const synced = await runCli(['finance:sync-instruments', '--provider', 'equities'], dev);
    expect([synced.code, synced.stdout.trim(), synced.stderr]).toEqual([0, `Synced ${DEMO_EQUITIES.length} instruments of equities_brokerage.`, '']);
    const refreshed = await runCli(['finance:refresh-prices'], dev);
    expect([refreshed.code, refreshed.stdout.trim()]).toEqual([0, `Refreshed ${DEMO_EQUITIES.length} of ${DEMO_EQUITIES.length} instruments; 0 failed.`]);
    const db = new pg.Client({ connectionString: own.url });
    await db.connect();
    try {
      const { rows: listed } = await db.query<{ symbol: string; last_price: string }>(
        "SELECT symbol, trim_scale(last_price)::text AS last_price FROM investing.instrument WHERE provider = 'equities_brokerage' AND symbol = 'AAPL'",
      );
      // the fixture's mid price, as the node's own offline brokerage quotes it
      expect(listed).toEqual([{ symbol: 'AAPL', last_price: '229.95' }]);
    } finally {
      await db.end();
    }
  } finally {
    await own.release();
  }
});
