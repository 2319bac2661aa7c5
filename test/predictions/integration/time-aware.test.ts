import pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql, surface } from '../../support/platform/http';
import { botUnderTest, onlyMessage } from '../../support/predictions/bot';

/**
 * The lists are the next fixtures from now: a match whose kick-off has passed without a result is
 * awaiting its result and in no upcoming list (nor shown as upcoming by the bot); when no fixture is
 * known the upcoming lists are empty, latest holds the most recent played matches, ratings are flagged
 * stale and /api/ says when each league was last updated; results arriving resolve the predictions that
 * waited for them. The clock is the test's (moved between tests); the response cache is off so
 * that each answer is made at the time set.
 */

let now = new Date('2026-03-01T12:00:00Z');
let t: TestApp;
let key: string;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp({ RESPONSE_CACHE: 'off' }, { clock: () => now });
  key = await t.createKey('pro');
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
}, 90_000);
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const { get } = surface(() => t.urls.predictions, { key: () => key });

async function kickoffs(ids: number[]): Promise<Map<number, Date>> {
  const { rows } = await db.query('SELECT id, kickoff FROM football.match WHERE id = ANY($1::int[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.kickoff]));
}

it('mid-season: the lists start at the first fixture after now; the ones kicked off without a result are awaiting it', async () => {
  const latest = await get('/api/predictions/latest/?limit=100');
  expect(latest.status).toBe(200);
  expect(latest.body.length).toBeGreaterThan(0);
  const at = await kickoffs(latest.body.map((p: { match_id: number }) => p.match_id));
  for (const p of latest.body) expect(at.get(p.match_id)!.getTime()).toBeGreaterThan(now.getTime());
  const { rows: first } = await db.query(`SELECT min(kickoff) AS k FROM football.match WHERE status = 'scheduled' AND home_goals IS NULL AND kickoff > $1`, [
    now,
  ]);
  expect(at.get(latest.body[0].match_id)).toEqual(first[0].k);
  const { rows: awaiting } = await db.query(
    `SELECT count(*)::int AS n FROM football.match WHERE status = 'scheduled' AND home_goals IS NULL AND kickoff <= $1`,
    [now],
  );
  expect(awaiting[0].n).toBeGreaterThan(0);

  const fixtures = await get('/api/dashboard/fixtures/?limit=5');
  for (const f of fixtures.body) expect(new Date(f.kickoff).getTime()).toBeGreaterThan(now.getTime());
  const next = await gql(t, '{ nextMatch { kickoff awaitingResult } }');
  expect(new Date(next.body.data.nextMatch.kickoff).getTime()).toBeGreaterThan(now.getTime());
  expect(next.body.data.nextMatch.awaitingResult).toBe(false);

  const info = await get('/api/');
  const en1 = info.body.data.leagues.find((l: { code: string }) => l.code === 'en.1');
  expect(en1.awaiting_result).toBeGreaterThan(0);
  expect(new Date(en1.next_kickoff).getTime()).toBeGreaterThan(now.getTime());
  expect(info.body.data.notice).toBeNull();
});

it('eleven months on, with no fixture known: latest lists the most recent played matches, the upcoming lists are empty, and /api/ says when each league was last updated', async () => {
  now = new Date('2026-11-27T12:00:00Z');
  const fixtures = await get('/api/dashboard/fixtures/');
  expect(fixtures.status).toBe(200);
  expect(fixtures.body).toEqual([]);
  // latest is never empty while predictions exist: the most recent played matches, latest first, each with its outcome
  const latest = await get('/api/predictions/latest/?limit=10');
  expect(latest.status).toBe(200);
  expect(latest.body).toHaveLength(10);
  const { rows: played } = await db.query(
    `SELECT m.id, m.kickoff FROM football.match m WHERE m.home_goals IS NOT NULL AND m.kickoff <= $1 AND m.id = ANY($2::int[]) ORDER BY m.kickoff DESC, m.id DESC`,
    [now, latest.body.map((p: { match_id: number }) => p.match_id)],
  );
  expect(played.map((r) => r.id)).toEqual(latest.body.map((p: { match_id: number }) => p.match_id));
  // the most recent of the active version's predictions with an outcome (its backtest runs through its training data)
  const { rows: newest } = await db.query(
    `SELECT max(p.kickoff) AS k FROM predictions.prediction p JOIN predictions.model_version v ON v.id = p.version_id WHERE v.is_active AND p.actual_outcome IS NOT NULL`,
  );
  expect(played[0].kickoff).toEqual(newest[0].k);
  const dashboard = await get('/dashboard/predictions/?limit=10');
  expect(dashboard.body.map((p: { match: string }) => p.match)).toEqual(
    latest.body.map((p: { home_team: string; away_team: string }) => `${p.home_team} vs ${p.away_team}`),
  );
  const gq = await gql(t, '{ latestPredictions(first: 3) { state notice predictions { matchId actualOutcome } } }');
  expect(gq.body.data.latestPredictions).toMatchObject({
    state: 'RECENT',
    notice: expect.stringMatching(/^No upcoming fixture is known: these are the most recent played matches' predictions/),
  });
  for (const p of gq.body.data.latestPredictions.predictions) expect(p.actualOutcome).not.toBeNull();

  // the clock everywhere: no past kick-off shown as upcoming by the bot; eleven-month-old ratings are flagged, in predict and /api/
  const bot = botUnderTest(t, key);
  const predicted = onlyMessage(await bot.say('/predict Arsenal vs Chelsea')).payload.text as string;
  expect(predicted).not.toMatch(/kick-off/);
  expect(predicted).toMatch(/not scheduled/);
  expect(predicted).toMatch(/⚠️ Arsenal FC: no match in the data since 2025-12-30/);
  const rest = await get('/api/predict/?home=Arsenal&away=Chelsea');
  expect(rest.body.stale_ratings.map((s: { team: string }) => s.team)).toEqual(['Arsenal FC', 'Chelsea FC']);
  const upcoming = await gql(
    t,
    '{ matches(filter: { competition: "en.1", season: "2025-26", status: SCHEDULED, upcoming: true }, first: 5) { nodes { id } } }',
  );
  expect(upcoming.body.data.matches.nodes).toEqual([]);
  expect((await gql(t, '{ nextMatch { id } }')).body.data.nextMatch).toBeNull();
  const info = await get('/api/');
  for (const l of info.body.data.leagues) {
    expect(l.ratings_stale).toBe(true);
    expect(l.next_kickoff).toBeNull();
    expect(l.upcoming_matches).toBe(0);
    // no feed pass changed it: the shipped data, never updated (not the time it was loaded at start)
    expect(l.updated_at).toBeNull();
  }
  expect(info.body.data.notice).toMatch(/^No upcoming fixture is known/);
  expect(info.body.data.notice).toContain('English Premier League: shipped data, never updated, newest result 2025-12-30');
  expect(info.body.data.notice).toContain('newest result 2025-12-30');
  const match = await gql(t, '{ matches(filter: { competition: "en.1", season: "2025-26", status: SCHEDULED }, first: 1) { nodes { awaitingResult } } }');
  expect(match.body.data.matches.nodes[0].awaitingResult).toBe(true);

  // the bot says so too, with each league's last update
  const reply = onlyMessage(await bot.say('/nextmatch')).payload.text as string;
  expect(reply.split('\n').slice(0, 2)).toEqual(['There is no upcoming match that I know of.', 'The data was last updated:']);
  expect(reply).toMatch(/^English Premier League: shipped data, never updated, newest result 2025-12-30$/m);
  const en2 = onlyMessage(await bot.say('/nextmatch en.2')).payload.text as string;
  expect(en2).toMatch(
    /^There is no upcoming match in English Championship that I know of\.\nThe data was last updated:\nEnglish Championship: shipped data, never updated, newest result 2025-12-29$/,
  );
});

it('results arriving resolve the predictions that awaited them: the track record grows', async () => {
  const before = (await get('/api/dashboard/overview/')).body;
  const { rows } = await db.query(
    `SELECT m.match_date::text AS date, h.name AS home, a.name AS away FROM football.match m
       JOIN football.competition c ON c.id = m.competition_id JOIN football.team h ON h.id = m.home_team_id JOIN football.team a ON a.id = m.away_team_id
      WHERE c.code = 'en.1' AND m.status = 'scheduled' ORDER BY m.kickoff, m.id LIMIT 3`,
  );
  const res = await gql(t, 'mutation($d: JSON!) { importMatches(competition: "en.1", season: "2025-26", data: $d) { updated } }', {
    variables: { d: { matches: rows.map((r, i) => ({ round: 'Matchday', date: r.date, team1: r.home, team2: r.away, score: { ft: [i, 1] } })) } },
  });
  expect(res.body.data.importMatches.updated).toBe(3);
  const started = Date.now();
  let after = before;
  while (after.total_predictions < before.total_predictions + 3 && Date.now() - started < 60_000) {
    await new Promise((r) => setTimeout(r, 250));
    after = (await get('/api/dashboard/overview/')).body;
  }
  expect(after.total_predictions).toBe(before.total_predictions + 3);
});
