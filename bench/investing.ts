/**
 * `npm run bench:investing`: the investing module's figures, each beside a baseline measured in the same run.
 *
 *  1. Quote-to-order latency (p50, p99): GET /api/v1/instruments/<symbol>/quote/ then POST /api/v1/orders/
 *     (a fractional market buy by notional, filled by the local Alpaca-compatible server) through the
 *     REST surface → gateway → investing subgraph → provider and ledger;  vs  the same two calls made
 *     straight to the provider server (the floor the node adds its work to).
 *  2. Instrument sync throughput (instruments/s) for 10,000 provider assets (finance:sync-instruments'
 *     work: fetch, upsert, deactivate-missing);  vs  fetching and parsing the assets alone.
 *
 * Everything runs in this process against DATABASE_URL's server (database matchday_bench_investing).
 * Options: --orders <n> (300), --assets <n> (10000), --rounds <n> (3).
 */
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startApp } from '../bin/app';
import { activateDemoNode } from '../subgraphs/finance/demo';
import { registryDemoLicence } from '../subgraphs/registry/demo';
import { loadConfig } from '../subgraphs/products';
import { createLogger } from '../lib/logger';
import { startAlpacaSandbox, type SandboxAsset } from '../subgraphs/finance/investing/sandbox/servers';

const { values: args } = parseArgs({
  options: { orders: { type: 'string', default: '300' }, assets: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '3' } },
});
const ORDERS = Number(args.orders);
const ASSETS = Number(args.assets);
const ROUNDS = Number(args.rounds);

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = 'matchday_bench_investing';
  const admin = new pg.Client({ connectionString: server.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  const { rows: version } = await admin.query<{ server_version: string }>('SHOW server_version');
  await admin.end();
  const databaseUrl = server.replace(/\/[^/]*$/, `/${dbName}`);

  const assets: SandboxAsset[] = Array.from({ length: ASSETS }, (_, i) => ({ symbol: `S${String(i).padStart(5, '0')}`, name: `Bench asset ${i}` }));
  const provider = await startAlpacaSandbox({
    assets: [{ symbol: 'AAPL', name: 'Apple Inc. Common Stock' }, ...assets],
    quotes: { AAPL: { bid: '199.90', ask: '200.10' } },
    autoFill: true,
  });
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-investing-')),
    BROKERAGE_TRADING_URL: provider.url,
    BROKERAGE_DATA_URL: provider.url,
    MARKET_DATA_URL: provider.url,
  });
  const app = await startApp(config, createLogger('silent', 'bench-investing'), { databaseUrl, randomPorts: true });
  try {
    await activateDemoNode(config, app.services.node, app.urls.registry, await registryDemoLicence(config, app.services.licensing));
    console.log(
      `Investing benchmark: Node ${process.version}, PostgreSQL ${version[0].server_version}; ${ORDERS} orders, ${ASSETS} assets, ${ROUNDS} sync rounds`,
    );

    // ── 2. sync throughput (first: it also creates AAPL) ──
    const syncRates: number[] = [];
    const fetchRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let t0 = performance.now();
      const r = await app.services.investing.investing.syncInstruments({ provider: 'equities', deactivateMissing: true, trigger: 'bench' });
      syncRates.push(r.synced / ((performance.now() - t0) / 1000));
      t0 = performance.now();
      const listed = (await (await fetch(`${provider.url}/v2/assets?status=active&asset_class=us_equity`)).json()) as unknown[];
      fetchRates.push(listed.length / ((performance.now() - t0) / 1000));
    }
    const median = (xs: number[]) => quantile(xs, 0.5);
    console.log(`\n2. Instrument sync, ${ASSETS + 1} assets (median of ${ROUNDS} rounds; upsert in batches of 1,000)`);
    console.log(`   A: finance:sync-instruments work   ${Math.round(median(syncRates)).toLocaleString('en')} instruments/s`);
    console.log(`   B: fetch + parse the assets only   ${Math.round(median(fetchRates)).toLocaleString('en')} instruments/s`);

    // ── 1. quote-to-order latency ──
    const user = await app.services.identity.identity.createUser(
      { username: 'bench', password: 'bench password 0123456789', email: 'bench@example.com' },
      { replace: true },
    );
    await app.services.identity.identity.setKycLevel(user.id, 'basic');
    await app.services.ledger.ledger.fund(user.id, 'USD', 100_000_000n, 'b0000000-0000-4000-8000-0000000000a1');
    const login = (await (
      await fetch(`${app.urls.finance}/api/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bench', password: 'bench password 0123456789' }),
      })
    ).json()) as { access: string };
    const auth = { authorization: `Bearer ${login.access}`, 'content-type': 'application/json' };
    const node = async () => {
      const q = await fetch(`${app.urls.finance}/api/v1/instruments/AAPL/quote/`, { headers: auth });
      if (q.status !== 200) throw new Error(`quote ${q.status}`);
      await q.text();
      const o = await fetch(`${app.urls.finance}/api/v1/orders/`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ symbol: 'AAPL', side: 'buy', notional: '1' }),
      });
      if (o.status !== 201) throw new Error(`order ${o.status} ${await o.text()}`);
      await o.text();
    };
    const direct = async () => {
      await (await fetch(`${provider.url}/v2/stocks/AAPL/quotes/latest`)).text();
      const o = await fetch(`${provider.url}/v2/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ symbol: 'AAPL', side: 'buy', type: 'market', time_in_force: 'day', notional: '1' }),
      });
      await o.text();
    };
    const measure = async (fn: () => Promise<void>) => {
      for (let i = 0; i < 20; i++) await fn(); // warm-up
      const xs: number[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const t0 = performance.now();
        await fn();
        xs.push(performance.now() - t0);
      }
      return xs;
    };
    const quoteOnly = await measure(async () => {
      await (await fetch(`${app.urls.finance}/api/v1/instruments/AAPL/quote/`, { headers: auth })).text();
    });
    const balanceOnly = await measure(async () => {
      await (await fetch(`${app.urls.finance}/api/balance/`, { headers: auth })).text();
    });
    const a = await measure(node);
    const b = await measure(direct);
    console.log(`\n1. Quote-to-order latency, ${ORDERS} sequential quote + market buy by notional (after 20 warm-up)`);
    console.log(`   A: through the REST surface         p50 ${ms(quantile(a, 0.5))}   p99 ${ms(quantile(a, 0.99))}`);
    console.log(`   B: straight to the provider server  p50 ${ms(quantile(b, 0.5))}   p99 ${ms(quantile(b, 0.99))}`);
    console.log(`   (the quote alone through REST: p50 ${ms(quantile(quoteOnly, 0.5))}; GET /api/balance/ for scale: p50 ${ms(quantile(balanceOnly, 0.5))})`);
  } finally {
    await app.stop();
    await provider.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
