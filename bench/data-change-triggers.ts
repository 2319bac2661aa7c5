/**
 * What the response cache's change announcements cost the writes (lib/cache-policy.ts): the same bulk
 * statements on a table without triggers (the baseline), with the first form (one trigger per
 * statement) and with the row form (a trigger per changed row), in the same run.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/data-change-triggers.js [--rows 50000] [--rounds 5]
 *
 * Uses a scratch database on DATABASE_URL's server (else 127.0.0.1:5432, user postgres), dropped at
 * the end. Each round, for each form in turn: INSERT of `rows` rows, UPDATE changing every row,
 * UPDATE leaving every row as it was, DELETE of every row, each its own transaction. Figures: the
 * median milliseconds per statement over the rounds, and the ratio to the baseline.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { dataChangeTriggers, type DataChangeTriggerForm } from '../lib/cache-policy';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '50000' }, rounds: { type: 'string', default: '5' } } });
const ROWS = Number(args.rows);
const ROUNDS = Number(args.rounds);
const FORMS: ('none' | DataChangeTriggerForm)[] = ['none', 'statement', 'row'];
const STATEMENTS = {
  insert: `INSERT INTO bench.t (match_id, confidence, outcome) SELECT i, random(), 'H' FROM generate_series(1, ${ROWS}) i`,
  'update (changes)': 'UPDATE bench.t SET confidence = confidence / 2',
  'update (no change)': 'UPDATE bench.t SET outcome = outcome',
  delete: 'DELETE FROM bench.t',
};

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `bench_triggers_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const times = new Map<string, number[]>();
  try {
    await db.query('CREATE SCHEMA bench');
    await db.query('CREATE TABLE bench.t (id serial PRIMARY KEY, match_id integer NOT NULL, confidence double precision NOT NULL, outcome text NOT NULL)');
    for (let round = 0; round <= ROUNDS; round++) {
      for (const form of FORMS) {
        const sql = form === 'none' ? dataChangeTriggers('bench', ['t'], 'row').down.slice(0, -1) : dataChangeTriggers('bench', ['t'], form).up;
        for (const statement of sql) await db.query(statement);
        for (const [label, statement] of Object.entries(STATEMENTS)) {
          const started = process.hrtime.bigint();
          await db.query(statement);
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          // round 0 warms up
          if (round > 0) times.set(`${label} ${form}`, [...(times.get(`${label} ${form}`) ?? []), ms]);
        }
      }
    }
  } finally {
    await db.end();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`${ROWS} rows, median of ${ROUNDS} rounds, ms per statement (ratio to no trigger)\n`);
  console.log(['statement'.padEnd(20), ...FORMS.map((f) => f.padStart(18))].join(''));
  for (const label of Object.keys(STATEMENTS)) {
    const base = median(times.get(`${label} none`)!);
    const cells = FORMS.map((f) => {
      const m = median(times.get(`${label} ${f}`)!);
      return `${m.toFixed(1)} (${(m / base).toFixed(2)}×)`.padStart(18);
    });
    console.log([label.padEnd(20), ...cells].join(''));
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
