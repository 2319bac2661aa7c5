import { holdRunLease } from '../../../../subgraphs/predictions/predictions/store/prediction-store';
import pg from 'pg';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { gql, http } from '../../../support/platform/http';
import { COMPETITIONS, fileMatches, isResult, outcomeOfScore } from '../../../support/predictions/football-files';
import { trainingGate, type TrainingGate } from '../../../support/predictions/training-gate';
import { trainingJob } from '../../../../rest-adapter/predictions/schemas';

/**
 * Retraining end to end: the REST job (202, status URL, one at a time), the GraphQL model versions
 * (activation, backtest pages, match predictions) and the job's failure paths. Every run is held at
 * its start by a test hook (test/support/predictions/training-gate.ts), so `running`, the 409 it causes and a
 * failed run are states the test sets up, not ones a poll happens to catch.
 */

let t: TestApp;
let db: pg.Client;
let gate: TrainingGate;
let client: string;
// a retrain on a busy 2-core machine: the bounds are generous, nothing asserts a duration
jest.setTimeout(120_000);
beforeAll(async () => {
  // a one-season evaluation window (2024-25 of each league) keeps a retrain to seconds
  t = await startTestApp({ BACKTEST_SEASONS: '1' });
  gate = trainingGate(t.app.services.predictions.training);
  client = await t.createKey('pro');
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const retrain = (body?: unknown, key = t.adminKey) =>
  http(`${t.urls.predictions}/api/retrain/`, {
    method: 'POST',
    key,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
const job = (id: string) => http(`${t.urls.predictions}/api/retrain/${id}/`, { key: t.adminKey });

/** Follows a released run through its status URL until it ends; returns every status seen. */
async function untilEnded(id: string) {
  const seen: { status: string; progress: number }[] = [];
  for (;;) {
    const res = await job(id);
    expect(res.status).toBe(200);
    trainingJob.parse(res.body);
    seen.push({ status: res.body.status, progress: res.body.progress });
    if (res.body.status === 'succeeded' || res.body.status === 'failed') return { last: res.body, seen };
    await new Promise((r) => setTimeout(r, 200));
  }
}

const JOB_FIELDS = 'id kind status phase progress versionNumber error createdAt startedAt finishedAt';
const VERSION_FIELDS = 'number name kind active accuracy evaluation';

/** The backtest of the 2024-25 season, as the files have it: what a one-season window must predict. */
const window = fileMatches({ season: '2024-25' }).filter(isResult);

describe('a retrain through REST', () => {
  let jobId: string;

  it('accepts exactly one of four concurrent requests (202 with its status URL); the others are 409', async () => {
    const first = await Promise.all([1, 2, 3, 4].map(() => retrain({ model: 'elo' })));
    const accepted = first.filter((r) => r.status === 202);
    expect(accepted).toHaveLength(1);
    const conflicts = first.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(3);
    for (const conflict of conflicts) expect(conflict.body).toEqual({ detail: 'A retrain is already queued or running.', code: 'conflict' });
    const body = trainingJob.parse(accepted[0].body);
    expect(body).toMatchObject({ status: 'queued', model: 'elo', progress: 0, version: null, error: null, started_at: null, finished_at: null });
    expect(body.status_url).toBe(`/api/retrain/${body.job_id}/`);
    expect(accepted[0].headers.get('location')).toBe(body.status_url);
    jobId = body.job_id;
  });

  it('reports the run in progress, and refuses another retrain (409) while it runs, over REST and GraphQL', async () => {
    await gate.reached(jobId);
    const running = await job(jobId);
    expect(running.body).toMatchObject({ job_id: jobId, status: 'running', model: 'elo', version: null, error: null, finished_at: null });
    expect(running.body.started_at).toEqual(expect.any(String));
    const again = await retrain();
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    const viaGraphql = await gql(t, 'mutation { retrainModel { id } }');
    expect(viaGraphql.status).toBe(409);
    expect(viaGraphql.body.errors[0].extensions.code).toBe('CONFLICT');
    // trainingJobs: newest first, this one running, version 1's (the template's first training) before it
    const jobs = await gql(t, `{ trainingJobs { ${JOB_FIELDS} } }`);
    expect(jobs.body.data.trainingJobs[0]).toMatchObject({ id: jobId, status: 'RUNNING', kind: 'elo', versionNumber: null, error: null });
    expect(jobs.body.data.trainingJobs.slice(1).map((j: { status: string }) => j.status)).toEqual(['SUCCEEDED']);
    expect((await gql(t, '{ trainingJobs(first: 1) { id } }')).body.data.trainingJobs).toEqual([{ id: jobId }]);
    expect((await gql(t, '{ trainingJobs(first: 0) { id } }')).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('runs once released: progress only moves forward, then version_2 is active and predicts the fixtures', async () => {
    gate.release(jobId);
    const { last, seen } = await untilEnded(jobId);
    expect(last).toMatchObject({ status: 'succeeded', progress: 1, version: 'version_2', error: null, model: 'elo', phase: 'done' });
    expect(last.finished_at).toEqual(expect.any(String));
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const versions = await http(`${t.urls.predictions}/api/dashboard/compare_versions/`, { key: client });
    expect(Object.keys(versions.body)).toEqual(['version_1', 'version_2']);
    expect(versions.body.version_2).toMatchObject({ model: 'elo', active: true, backtest_matches: window.length });
    expect(versions.body.version_1.active).toBe(false);
    // what the retrain changed: the model family at least, each field named; the first version has no previous
    expect(versions.body.version_1.changed_from_previous).toBeNull();
    expect(versions.body.version_2.changed_from_previous).toEqual(expect.arrayContaining(['model']));
    for (const f of versions.body.version_2.changed_from_previous) expect(versions.body.version_2[f]).not.toEqual(versions.body.version_1[f]);
    const active = await gql(t, `{ activeModelVersion { ${VERSION_FIELDS} } }`, { key: client });
    expect(active.body.data.activeModelVersion).toMatchObject({ number: 2, name: 'version_2', kind: 'elo', active: true });
    const upcoming = await gql(t, '{ upcomingPredictions(first: 100) { versionNumber } }', { key: client });
    expect(new Set(upcoming.body.data.upcomingPredictions.map((p: { versionNumber: number }) => p.versionNumber))).toEqual(new Set([2]));
  }, 300_000);

  it('is refused to a client key (403) and to no key (401), and accepted again once the last run ended', async () => {
    expect((await retrain(undefined, client)).status).toBe(403);
    expect((await http(`${t.urls.predictions}/api/retrain/`, { method: 'POST' })).status).toBe(401);
    expect((await gql(t, `{ trainingJobs { id } }`, { key: client })).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const next = await retrain();
    expect(next.status).toBe(202);
    // not needed further: it fails at once, which also frees the slot for the next test
    gate.fail(next.body.job_id, 'not needed');
    expect((await untilEnded(next.body.job_id)).last.status).toBe('failed');
  });
});

describe('model versions over GraphQL', () => {
  it('backtestPredictions: the active version by default, in pages, exactly the 2024-25 results of each league', async () => {
    type Page = {
      nodes: { matchId: number; versionNumber: number; kickoff: string; competition: string; source: string }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
    const pageOf = async (args: string) =>
      (
        await gql(t, `{ backtestPredictions(${args}) { nodes { matchId versionNumber kickoff competition source } pageInfo { hasNextPage endCursor } } }`, {
          key: client,
        })
      ).body.data.backtestPredictions as Page;
    const all: Page['nodes'] = [];
    let page: Page | undefined;
    let pages = 0;
    do {
      page = await pageOf(`first: 500${page ? `, after: "${page.pageInfo.endCursor}"` : ''}`);
      pages++;
      all.push(...page.nodes);
      expect(page.pageInfo.endCursor).toEqual(expect.any(String));
    } while (page.pageInfo.hasNextPage && pages <= window.length / 500);
    expect(page.pageInfo.hasNextPage).toBe(false);
    expect(all).toHaveLength(window.length);
    expect(pages).toBe(Math.ceil(window.length / 500));
    expect(new Set(all.map((p) => p.matchId)).size).toBe(all.length);
    expect(new Set(all.map((p) => p.versionNumber))).toEqual(new Set([2]));
    expect(new Set(all.map((p) => p.source))).toEqual(new Set(['BACKTEST']));
    // by kick-off, ties by match id
    const keys = all.map((p) => [Date.parse(p.kickoff), p.matchId]);
    expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    // per league: every played match of the season, nothing else
    for (const competition of COMPETITIONS) {
      expect(all.filter((p) => p.competition === competition)).toHaveLength(window.filter((m) => m.competition === competition).length);
    }
    // an explicit version gives the same first page; version 1 has its own
    const explicit = await pageOf('version: 2, first: 5');
    expect(explicit.nodes).toEqual(all.slice(0, 5));
    expect(new Set((await pageOf('version: 1, first: 5')).nodes.map((p) => p.versionNumber))).toEqual(new Set([1]));
    const competition = await pageOf('competition: "en.1", first: 500');
    expect(competition.nodes).toHaveLength(380);
    expect(competition.pageInfo.hasNextPage).toBe(false);
    const unknown = await gql(t, '{ backtestPredictions(version: 99) { nodes { matchId } } }', { key: client });
    expect(unknown.body.errors[0]).toMatchObject({ message: 'No model version 99.', extensions: { code: 'NOT_FOUND' } });
    expect((await gql(t, '{ backtestPredictions(first: 501) { nodes { matchId } } }', { key: client })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('Match.predictionHistory holds both versions; Match.prediction is the active one; a resolved backtest is right exactly when its outcome matches the score', async () => {
    const [fixture] = (await gql(t, '{ upcomingPredictions(first: 1) { matchId } }', { key: client })).body.data.upcomingPredictions;
    const match = await gql(
      t,
      `query($id: Int!) { match(id: $id) { id status prediction { matchId versionNumber source } predictionHistory { versionNumber source actualOutcome correct } } }`,
      { key: client, variables: { id: fixture.matchId } },
    );
    expect(match.body.data.match).toEqual({
      id: fixture.matchId,
      status: 'SCHEDULED',
      prediction: { matchId: fixture.matchId, versionNumber: 2, source: 'UPCOMING' },
      predictionHistory: [
        { versionNumber: 1, source: 'UPCOMING', actualOutcome: null, correct: null },
        { versionNumber: 2, source: 'UPCOMING', actualOutcome: null, correct: null },
      ],
    });
    // a played match of the window: both versions predicted it from earlier matches only
    const [played] = (await gql(t, '{ backtestPredictions(competition: "de.1", first: 1) { nodes { matchId } } }', { key: client })).body.data
      .backtestPredictions.nodes;
    const history = (
      await gql(
        t,
        `query($id: Int!) { match(id: $id) { score { home away } prediction { versionNumber } predictionHistory { versionNumber source predictedOutcome actualOutcome correct } } }`,
        {
          key: client,
          variables: { id: played.matchId },
        },
      )
    ).body.data.match;
    const actual = outcomeOfScore(history.score.home, history.score.away);
    expect(history.prediction.versionNumber).toBe(2);
    expect(history.predictionHistory.map((p: { versionNumber: number }) => p.versionNumber)).toEqual([1, 2]);
    for (const p of history.predictionHistory) {
      expect(p).toMatchObject({ source: 'BACKTEST', actualOutcome: actual, correct: p.predictedOutcome === actual });
    }
    // a match nobody predicted (before every window): no prediction, an empty history
    const old = (
      await gql(t, '{ matches(first: 1, filter: {season: "2010-11"}) { nodes { id prediction { matchId } predictionHistory { matchId } } } }', { key: client })
    ).body.data.matches.nodes[0];
    expect(old).toEqual({ id: expect.any(Number), prediction: null, predictionHistory: [] });
  });

  it('activateModelVersion rolls back to version 1: it becomes the active one everywhere and re-predicts the fixtures', async () => {
    const res = await gql(t, `mutation { activateModelVersion(number: 1) { ${VERSION_FIELDS} } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.activateModelVersion).toMatchObject({ number: 1, name: 'version_1', active: true });
    expect((await gql(t, '{ activeModelVersion { number } }', { key: client })).body.data.activeModelVersion).toEqual({ number: 1 });
    const versions = (await gql(t, '{ modelVersions { number active } }', { key: client })).body.data.modelVersions;
    expect(versions).toEqual([
      { number: 1, active: true },
      { number: 2, active: false },
    ]);
    const compare = await http(`${t.urls.predictions}/api/dashboard/compare_versions/`, { key: client });
    expect([compare.body.version_1.active, compare.body.version_2.active]).toEqual([true, false]);
    const upcoming = await gql(t, '{ upcomingPredictions(first: 100) { versionNumber } }', { key: client });
    expect(new Set(upcoming.body.data.upcomingPredictions.map((p: { versionNumber: number }) => p.versionNumber))).toEqual(new Set([1]));
    const [first] = (await gql(t, '{ backtestPredictions(first: 1) { nodes { versionNumber } } }', { key: client })).body.data.backtestPredictions.nodes;
    expect(first.versionNumber).toBe(1);
  });

  it('activateModelVersion: an unknown version is 404 NOT_FOUND and changes nothing; a client key is refused', async () => {
    const unknown = await gql(t, 'mutation { activateModelVersion(number: 99) { number } }');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ message: 'No model version 99.', extensions: { code: 'NOT_FOUND' } });
    const refused = await gql(t, 'mutation { activateModelVersion(number: 2) { number } }', { key: client });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(t, '{ activeModelVersion { number } }', { key: client })).body.data.activeModelVersion).toEqual({ number: 1 });
  });
});

describe('failed and abandoned runs', () => {
  it('records a failed run with its error; the active version stays; the next retrain is accepted', async () => {
    const accepted = await retrain({ model: 'pi-ratings' });
    expect(accepted.status).toBe(202);
    const id = accepted.body.job_id;
    await gate.reached(id);
    gate.fail(id, 'the results could not be read');
    const { last } = await untilEnded(id);
    expect(last).toMatchObject({ job_id: id, status: 'failed', error: 'the results could not be read', version: null, model: 'pi-ratings' });
    expect(last.finished_at).toEqual(expect.any(String));
    expect(last.progress).toBeLessThan(1);
    const jobs = (await gql(t, `{ trainingJobs(first: 1) { ${JOB_FIELDS} } }`)).body.data.trainingJobs;
    expect(jobs).toEqual([expect.objectContaining({ id, status: 'FAILED', error: 'the results could not be read', versionNumber: null })]);
    expect((await gql(t, '{ activeModelVersion { number } modelVersions { number } }')).body.data).toEqual({
      activeModelVersion: { number: 1 },
      modelVersions: [{ number: 1 }, { number: 2 }],
    });
    const next = await retrain();
    expect(next.status).toBe(202);
    gate.fail(next.body.job_id, 'not needed');
    await untilEnded(next.body.job_id);
  });

  /** A run as a process that died (crash, kill -9) leaves it: never finished, its owner gone. */
  const abandonedRun = async (status: 'running' | 'queued', silentFor: string) => {
    const { rows } = await db.query(
      `INSERT INTO predictions.training_run (kind, status, phase, progress, requested_by, owner, started_at, created_at, heartbeat_at)
       VALUES ('elo', $1, $2, 0.4, 'another process', CASE WHEN $1 = 'running' THEN 'elsewhere:1' END,
               CASE WHEN $1 = 'running' THEN now() - $3::interval END, now() - $3::interval, now() - $3::interval)
       RETURNING id`,
      [status, status === 'running' ? 'walk-forward backtest' : null, silentFor],
    );
    return rows[0].id as string;
  };

  it('a run whose process died stops blocking retrains at once: it is recorded as failed, and a new one is accepted', async () => {
    // a run whose owner is alive holds its lease (a session advisory lock, as holdRunLease takes it): a conflict
    const alive = await abandonedRun('running', '5 seconds');
    const lease = holdRunLease(t.databaseUrl, alive, () => undefined);
    await lease.held;
    try {
      expect((await retrain()).status).toBe(409);
      expect((await job(alive)).body.status).toBe('running');
    } finally {
      // the owner's connection goes (its process died): PostgreSQL drops the lease with it
      await lease.release();
    }
    const accepted = await retrain();
    expect(accepted.status).toBe(202);
    const abandoned = (await job(alive)).body;
    expect(abandoned).toMatchObject({ status: 'failed', error: expect.stringMatching(/stopped before it finished/), version: null });
    expect(abandoned.finished_at).toEqual(expect.any(String));
    gate.fail(accepted.body.job_id, 'not needed');
    await untilEnded(accepted.body.job_id);
  });

  it('a queued run that no worker ever started stops blocking retrains too', async () => {
    const never = await abandonedRun('queued', '11 minutes');
    const accepted = await retrain();
    expect(accepted.status).toBe(202);
    expect((await job(never)).body).toMatchObject({ status: 'failed', error: expect.stringMatching(/\S/) });
    gate.fail(accepted.body.job_id, 'not needed');
    await untilEnded(accepted.body.job_id);
  });
});

describe('results arriving after the prediction', () => {
  it('resolve the prediction (correct or not) and take the match off the latest predictions', async () => {
    const latest = await http(`${t.urls.predictions}/api/predictions/latest/?limit=1`, { key: t.adminKey });
    const matchId = latest.body[0].match_id;
    const { rows } = await db.query(
      `SELECT c.code, m.season, m.match_date::text AS date, h.name AS home, a.name AS away FROM football.match m
         JOIN football.competition c ON c.id = m.competition_id JOIN football.team h ON h.id = m.home_team_id JOIN football.team a ON a.id = m.away_team_id
        WHERE m.id = $1`,
      [matchId],
    );
    const m = rows[0];
    const file = { matches: [{ round: 'Matchday 1', date: m.date, team1: m.home, team2: m.away, score: { ft: [2, 1] } }] };
    const imported = await gql(t, 'mutation($c: String!, $s: String!, $d: JSON!) { importMatches(competition: $c, season: $s, data: $d) { updated } }', {
      variables: { c: m.code, s: m.season, d: file },
    });
    expect(imported.body.data.importMatches.updated).toBe(1);
    // the predictions subgraph hears of it (NOTIFY) and resolves the open predictions of that match
    let history: { actualOutcome: string | null; correct: boolean | null; predictedOutcome: string }[] = [];
    for (let i = 0; i < 300; i++) {
      history = (
        await gql(t, `query($id: Int!) { match(id: $id) { predictionHistory { actualOutcome correct predictedOutcome } } }`, { variables: { id: matchId } })
      ).body.data.match.predictionHistory;
      if (history.length && history.every((p) => p.actualOutcome)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(history).toHaveLength(2);
    for (const p of history) expect(p).toEqual({ actualOutcome: 'HOME_WIN', correct: p.predictedOutcome === 'HOME_WIN', predictedOutcome: p.predictedOutcome });
    const after = await http(`${t.urls.predictions}/api/predictions/latest/?limit=5`, { key: t.adminKey });
    expect(after.body.map((p: { match_id: number }) => p.match_id)).not.toContain(matchId);
  });
});
