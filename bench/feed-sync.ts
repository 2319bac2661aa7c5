/**
 * One pass of the football feed over a full season of a league, timed: the fetch from a local HTTP
 * peer, the format read, the validation and the one-transaction import through the loader.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/feed-sync.js [--rounds 3]
 *
 * Uses a scratch database on DATABASE_URL's server (else 127.0.0.1:5432, user postgres), loaded with
 * the shipped data, dropped at the end. The season: the shipped 2025-26 Premier League moved a year
 * on (2026-27, 380 matches the data has not seen), served as football.json and as a football-data.co.uk
 * CSV with two bookmakers' odds. Passes per round and format: the first (every match new), an
 * unchanged one (304), one where every match has a result (380 updated). Figures: the median ms.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStore } from '../lib/database';
import { createLogger } from '../lib/logger';
import { projectRoot } from '../lib/paths';
import { FootballFeed } from '../subgraphs/predictions/football/domain/feed';
import { FootballLoader } from '../subgraphs/predictions/football/domain/loader';
import type { RawSeasonFile } from '../subgraphs/predictions/football/domain/dataset';
import { fetchFeed } from '../subgraphs/predictions/football/store/feed-client';
import { FeedStore } from '../subgraphs/predictions/football/store/feed-store';
import { FootballStore } from '../subgraphs/predictions/football/store/football-store';
import { footballStore } from '../subgraphs/predictions/football/store';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const ROUNDS = Number(args.rounds);
const DATA = join(projectRoot(), 'data', 'football');

const nextYear = (d: string) => `${Number(d.slice(0, 4)) + 1}${d.slice(4)}`;
const ddmmyyyy = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

/** The 2025-26 Premier League a year on; `scored`: every match with a result. */
function season(scored: boolean): RawSeasonFile {
  const file = JSON.parse(readFileSync(join(DATA, '2025-26', 'en.1.json'), 'utf8')) as RawSeasonFile;
  return {
    name: 'English Premier League 2026/27',
    matches: file.matches.map((m, i) => ({
      round: m.round,
      date: nextYear(m.date),
      ...(m.time ? { time: m.time } : {}),
      team1: m.team1,
      team2: m.team2,
      ...(scored ? { score: { ft: [i % 4, (i >> 2) % 3] } } : {}),
    })),
  };
}

function csv(file: RawSeasonFile): string {
  const rows = file.matches.map((m) => {
    const [h, a] = m.score?.ft ?? [];
    const ftr = h === undefined ? '' : h > a! ? 'H' : h < a! ? 'A' : 'D';
    return ['E0', ddmmyyyy(m.date), m.time ?? '', m.team1, m.team2, h ?? '', a ?? '', ftr, '2.10', '3.40', '3.30', '2.12', '3.38', '3.28'].join(',');
  });
  return ['Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,B365H,B365D,B365A,AvgH,AvgD,AvgA', ...rows].join('\n');
}

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_feed_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const logger = createLogger('warn', 'bench');
  const store = await openStore(footballStore, { url: url.toString(), poolSize: 4, logger, migrate: true });
  const served = new Map<string, string>();
  const http = createServer((req, res) => {
    const body = served.get(req.url ?? '') ?? '';
    const etag = `"${body.length}-${body.slice(-40).length}-${Buffer.from(body).reduce((s, b) => (s * 31 + b) >>> 0, 7)}"`;
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { etag, 'content-type': req.url?.endsWith('.csv') ? 'text/csv' : 'application/json' }).end(body);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const times = new Map<string, number[]>();
  try {
    const football = new FootballStore(store);
    const loader = new FootballLoader(football, DATA, logger);
    const loaded = Date.now();
    await loader.loadShipped();
    console.log(`Shipped data loaded in ${((Date.now() - loaded) / 1000).toFixed(1)} s\n`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const format of ['football.json', 'csv'] as const) {
        const path = `/r${round}/en.1.${format === 'csv' ? 'csv' : 'json'}`;
        const feed = new FootballFeed({
          sources: [{ key: `en.1@2026-27`, competition: 'en.1', season: '2026-27', url: `${base}${path}` }],
          intervalMinutes: 60,
          store: new FeedStore(store),
          importSeason: (c, s, f, o) => loader.importSeason(c, s, f, o),
          fetch: (u, v) => fetchFeed(u, v, { timeoutMs: 30_000, retries: 0 }),
          logger,
        });
        await store.pool.query(`DELETE FROM football.match WHERE season = '2026-27'`);
        await store.pool.query(`DELETE FROM football.feed_source`);
        const passes: [string, RawSeasonFile][] = [
          ['first pass (380 new)', season(false)],
          ['unchanged (304)', season(false)],
          ['every result in (380 updated)', season(true)],
        ];
        for (const [label, file] of passes) {
          served.set(path, format === 'csv' ? csv(file) : JSON.stringify(file));
          const started = process.hrtime.bigint();
          const report = await feed.sync('bench');
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          if (report.failed) throw new Error(`${label}: ${report.sources[0].error}`);
          const key = `${format} · ${label}`;
          times.set(key, [...(times.get(key) ?? []), ms]);
        }
      }
    }
  } finally {
    http.close();
    await store.close();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log('| pass | median ms |\n| --- | ---: |');
  for (const [key, xs] of times) console.log(`| ${key} | ${median(xs).toFixed(0)} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
