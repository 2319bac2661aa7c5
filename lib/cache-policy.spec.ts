import pg from 'pg';
import { DATA_CHANGED, dataChangeTriggers } from './cache-policy';
import { createTestDatabase } from '../test/support/platform/database';

/**
 * The change announcements of the cached tables, as the migrations leave them (a database cloned from
 * the migrated template, no process of the stack attached): which writes announce a change on
 * DATA_CHANGED and which do not. Notifications of different transactions arrive in commit order, so
 * once a marker sent after a write has arrived, everything that write announced has arrived before it.
 */

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let listener: pg.Client;
let writer: pg.Client;
const received: string[] = [];
const waiting = new Map<string, () => void>();
let markers = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  listener = new pg.Client({ connectionString: db.url });
  writer = new pg.Client({ connectionString: db.url });
  await Promise.all([listener.connect(), writer.connect()]);
  listener.on('notification', (n) => {
    const payload = n.payload ?? '';
    if (waiting.has(payload)) waiting.get(payload)!();
    else received.push(payload);
  });
  await listener.query(`LISTEN ${DATA_CHANGED}`);
});
afterAll(async () => {
  await listener?.end();
  await writer?.end();
  await db?.release();
});

/** The schemas `work`'s writes announced, in order (each once per transaction). */
async function announced(work: (c: pg.Client) => Promise<unknown>): Promise<string[]> {
  received.length = 0;
  await work(writer);
  const marker = `marker-${++markers}`;
  const arrived = new Promise<void>((resolve) => waiting.set(marker, resolve));
  await writer.query('SELECT pg_notify($1, $2)', [DATA_CHANGED, marker]);
  await arrived;
  return [...received];
}

const sql =
  (text: string, values: unknown[] = []) =>
  (c: pg.Client) =>
    c.query(text, values);

describe('a write that changes rows announces its schema once per transaction', () => {
  it('an UPDATE of one row, and of a hundred rows', async () => {
    expect(await announced(sql(`UPDATE football.team SET name = name || ' (x)' WHERE id = (SELECT min(id) FROM football.team)`))).toEqual(['football']);
    expect(
      await announced(sql(`UPDATE football.match SET round = coalesce(round, '') || '.' WHERE id IN (SELECT id FROM football.match ORDER BY id LIMIT 100)`)),
    ).toEqual(['football']);
  });

  it('an INSERT, a DELETE, a TRUNCATE, in either schema', async () => {
    expect(await announced(sql(`INSERT INTO football.team (name, country) VALUES ('Spec Rovers', 'eng')`))).toEqual(['football']);
    expect(await announced(sql(`DELETE FROM football.team WHERE name = 'Spec Rovers'`))).toEqual(['football']);
    expect(await announced(sql('TRUNCATE predictions.version_result'))).toEqual(['predictions']);
  });

  it('nothing for a transaction rolled back', async () => {
    expect(
      await announced(async (c) => {
        await c.query('BEGIN');
        await c.query(`UPDATE football.team SET name = name || ' (y)'`);
        await c.query('ROLLBACK');
      }),
    ).toEqual([]);
  });
});

describe('a write that leaves every row as it was announces nothing', () => {
  it('an UPDATE setting the values the rows have, or matching no row', async () => {
    expect(await announced(sql('UPDATE football.match SET home_goals = home_goals, status = status'))).toEqual([]);
    expect(await announced(sql('UPDATE predictions.prediction SET confidence = confidence'))).toEqual([]);
    expect(await announced(sql('UPDATE football.team SET name = name WHERE false'))).toEqual([]);
    expect(await announced(sql('DELETE FROM football.team_alias WHERE false'))).toEqual([]);
  });

  it('the same teams and competitions upserted again (what an import of the same data does)', async () => {
    expect(
      await announced(
        sql(`INSERT INTO football.team (name, country) SELECT name, country FROM football.team
             ON CONFLICT (name) DO UPDATE SET country = EXCLUDED.country`),
      ),
    ).toEqual([]);
    expect(
      await announced(
        sql(`INSERT INTO football.competition (code, name, country, tier) SELECT code, name, country, tier FROM football.competition
             ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, country = EXCLUDED.country, tier = EXCLUDED.tier`),
      ),
    ).toEqual([]);
  });

  it('whereas the first form, a trigger per statement, announced them (the down migration)', async () => {
    const forms = { statement: dataChangeTriggers('football', ['team'], 'statement'), row: dataChangeTriggers('football', ['team'], 'row') };
    for (const statement of forms.statement.up) await writer.query(statement);
    try {
      expect(await announced(sql('UPDATE football.team SET name = name WHERE false'))).toEqual(['football']);
    } finally {
      for (const statement of forms.row.up) await writer.query(statement);
    }
    expect(await announced(sql('UPDATE football.team SET name = name WHERE false'))).toEqual([]);
  });
});
