import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';
import { createLogger } from '../../../lib/logger';
import { projectRoot } from '../../../lib/paths';
import { listen } from '../../../lib/server';
import { inProcessExecutor } from '../../../rest-adapter/core/executor';
import type { Route } from '../../../rest-adapter/core/route';
import { createSurfaceApp, type Surface } from '../../../rest-adapter/core/surface';
import { predictionSurface } from '../../../rest-adapter/predictions';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql, http, surface } from '../../support/platform/http';

/**
 * GraphQL `predict`: a forecast for any pairing, teams by name, alias or id, through the gateway; and
 * what every prediction answers while no model version is active yet (503 model_not_ready).
 */

let t: TestApp<'predictions'>;
let key: string;
beforeAll(async () => {
  t = await startTestApp({}, { products: ['predictions'] });
  key = await t.createKey('free');
});
afterAll(() => t?.stop());

const FIELDS = `homeTeam { id name } awayTeam { id name } competition versionNumber predictedOutcome outcomeLabel confidence confidenceBand
  probabilities { home draw away } expectedGoals { home away } expectedGoalDifference`;
const predict = (home: string, away: string, competition?: string) =>
  gql(t, `query($home: String!, $away: String!, $competition: String) { predict(home: $home, away: $away, competition: $competition) { ${FIELDS} } }`, {
    key,
    variables: { home, away, competition: competition ?? null },
  });
const teamId = async (name: string) =>
  (await gql(t, 'query($name: String!) { resolveTeam(name: $name) { team { id } } }', { key, variables: { name } })).body.data.resolveTeam.team.id as number;

/** The documented rules of a forecast (README "The model"; ConfidenceBand: high ≥ 0.60, medium 0.45–0.60, low < 0.45). */
function expectConsistent(p: any) {
  const { home, draw, away } = p.probabilities;
  expect(home + draw + away).toBeCloseTo(1, 9);
  const best = Math.max(home, draw, away);
  const outcome = best === home ? 'HOME_WIN' : best === draw ? 'DRAW' : 'AWAY_WIN';
  expect(p.predictedOutcome).toBe(outcome);
  expect(p.outcomeLabel).toBe({ HOME_WIN: 'Home Win', DRAW: 'Draw', AWAY_WIN: 'Away Win' }[outcome]);
  expect(p.confidence).toBe(best);
  expect(p.confidenceBand).toBe(best >= 0.6 ? 'HIGH' : best >= 0.45 ? 'MEDIUM' : 'LOW');
  expect(p.expectedGoalDifference).toBeCloseTo(p.expectedGoals.home - p.expectedGoals.away, 12);
}

describe('predict', () => {
  it('resolves aliases ("Man Utd", "spurs") to the clubs, in the competition both play in, with the active version', async () => {
    const res = await predict('Man Utd', 'spurs');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const p = res.body.data.predict;
    expect(p).toMatchObject({
      homeTeam: { name: 'Manchester United FC' },
      awayTeam: { name: 'Tottenham Hotspur FC' },
      competition: 'en.1',
      versionNumber: 1,
    });
    expectConsistent(p);
    // the same pairing by canonical names and by ids: the same forecast
    const byName = (await predict('Manchester United FC', 'Tottenham Hotspur FC')).body.data.predict;
    const byId = (await predict(String(await teamId('Manchester United FC')), String(await teamId('Tottenham Hotspur FC')))).body.data.predict;
    expect(byName).toEqual(p);
    expect(byId).toEqual(p);
  });

  it('takes the competition asked for, and the order of the teams as home and away', async () => {
    const p = (await predict('Bayern', 'Dortmund', 'de.1')).body.data.predict;
    expect(p).toMatchObject({ homeTeam: { name: 'Bayern München' }, awayTeam: { name: 'Borussia Dortmund' }, competition: 'de.1' });
    expectConsistent(p);
    const reversed = (await predict('Dortmund', 'Bayern', 'de.1')).body.data.predict;
    expect(reversed).toMatchObject({ homeTeam: { name: 'Borussia Dortmund' }, awayTeam: { name: 'Bayern München' } });
    expect(reversed.probabilities).not.toEqual(p.probabilities);
  });

  it('answers an ambiguous name with 400 BAD_USER_INPUT naming the candidates, and predicts nothing', async () => {
    const res = await predict('Manchester', 'Arsenal');
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    const [error] = res.body.errors;
    expect(error.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { home: expect.arrayContaining(['Manchester City FC', 'Manchester United FC']) },
    });
    expect(error.extensions.details.home).toHaveLength(2);
    expect(error.message).toMatch(/^"Manchester" is ambiguous: Manchester (City|United) FC, Manchester (City|United) FC\.$/);
  });

  it('answers an unknown name with 400, with the closest spellings when there are any', async () => {
    const unknown = await predict('Arsenal', 'Hogwarts FC');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ message: 'No team matches "Hogwarts FC".', extensions: { code: 'BAD_USER_INPUT', details: { away: [] } } });
    const typo = await predict('Cheslea', 'Arsenal');
    expect(typo.status).toBe(400);
    expect(typo.body.errors[0].message).toMatch(/^No team matches "Cheslea"; did you mean Chelsea FC/);
    expect(typo.body.errors[0].extensions.details.home[0]).toBe('Chelsea FC');
  });

  it('refuses a team against itself, an unknown id, a blank name, and a request without a key', async () => {
    const itself = await predict('Arsenal', 'arsenal fc');
    expect(itself.status).toBe(400);
    expect(itself.body.errors[0].message).toBe('A team cannot play itself (Arsenal FC).');
    const id = await predict('999999', 'Arsenal');
    expect(id.body.errors[0]).toMatchObject({
      message: 'No team with id 999999.',
      extensions: { code: 'BAD_USER_INPUT', details: { home: ['unknown team id 999999'] } },
    });
    expect((await predict('Arsenal', '  ')).body.errors[0].message).toBe('away team is required.');
    const anonymous = await gql(t, '{ predict(home: "Arsenal", away: "Chelsea") { confidence } }', { key: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('while no model version is active yet (the first training still running)', () => {
  let db: pg.Client;
  let opsRoot: string;
  let surfaceUrl: string;
  let closeSurface: () => Promise<void>;

  beforeAll(async () => {
    // the state of a first start before its training ended: versions exist only once trained, none is active
    db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    await db.query('UPDATE predictions.model_version SET is_active = false');
    t.app.services.predictions.active.invalidate();
    // no route of the prediction surface runs `predict` (the bot does, through GraphQL): a route of the
    // surface's own conventions that does shows how the REST side answers the error
    opsRoot = mkdtempSync(join(tmpdir(), 'matchday-predict-'));
    mkdirSync(join(opsRoot, 'operations'));
    writeFileSync(
      join(opsRoot, 'operations', 'Predict.graphql'),
      'query Predict($home: String!, $away: String!) { predict(home: $home, away: $away) { outcomeLabel } }',
    );
    const route: Route = {
      method: 'GET',
      path: '/api/predict/',
      summary: 'A pairing',
      security: 'apiKey',
      operation: 'Predict',
      variables: () => ({ home: 'Arsenal', away: 'Chelsea' }),
      response: { description: 'The forecast' },
    };
    const surface: Surface = { ...predictionSurface, product: relative(join(projectRoot(), 'rest-adapter'), opsRoot), routes: [route], pages: undefined };
    const server = await listen(
      createSurfaceApp(surface, {
        config: t.config,
        executor: inProcessExecutor(t.app.gateway),
        logger: createLogger('silent'),
        bodyLimit: t.config.REST_BODY_LIMIT,
      }),
      '127.0.0.1',
      0,
    );
    surfaceUrl = server.url;
    closeSurface = () => server.close();
  });
  afterAll(async () => {
    await closeSurface?.();
    await db?.end();
    if (opsRoot) rmSync(opsRoot, { recursive: true, force: true });
  });

  it('predict answers 503 MODEL_NOT_READY over GraphQL', async () => {
    const res = await predict('Arsenal', 'Chelsea');
    expect(res.status).toBe(503);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0]).toMatchObject({
      message: 'No model version is active yet: the first training is still running.',
      extensions: { code: 'MODEL_NOT_READY' },
    });
  });

  it('a REST route of the prediction surface answers 503 {detail, code: "model_not_ready"} with Retry-After', async () => {
    const res = await http(`${surfaceUrl}/api/predict/`, { key });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.body).toEqual({ detail: 'No model version is active yet: the first training is still running.', code: 'model_not_ready' });
  });

  it('the REST endpoints answer with nothing to show rather than an error', async () => {
    const rest = surface(() => t.urls.predictions, { key: () => key });
    expect((await rest.get('/api/predictions/latest/')).body).toEqual([]);
    expect((await rest.get('/dashboard/predictions/')).body).toEqual([]);
    expect((await rest.get('/api/dashboard/overview/')).body).toEqual({ total_predictions: 0, accuracy: 0, average_confidence: 0 });
    expect((await rest.get('/api/dashboard/confidence/')).body).toEqual({ high_confidence: 0, medium_confidence: 0, low_confidence: 0 });
    expect((await gql(t, '{ activeModelVersion { number } }', { key })).body.data).toEqual({ activeModelVersion: null });
  });
});
