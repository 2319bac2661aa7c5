import pg from 'pg';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import * as schemas from '../../../rest-adapter/predictions/schemas';
import { DASHBOARD_CSP } from '../../../rest-adapter/predictions/dashboard';
import type { PredictionServices } from '../../../subgraphs/predictions/predictions/services';

/** The dashboard's JSON routes (documented additions to the contract's paths) and its page. */

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('pro');
});
afterAll(() => t?.stop());

const { get } = surface(() => t.urls.predictions, { key: () => key });

describe('calibration: each version records a reliability table and its expected calibration error', () => {
  it('GET /api/dashboard/versions/: every version with backtest metrics, calibration and live ratings', async () => {
    const res = await get('/api/dashboard/versions/');
    expect(res.status).toBe(200);
    schemas.modelVersion.array().parse(res.body);
    expect(res.body.map((v: { version: string }) => v.version)).toEqual(['version_1']);
    const v = res.body[0];
    expect(v).toMatchObject({ number: 1, model: 'ensemble', active: true, live: { results: 0 } });
    const c = v.calibration;
    for (const table of [c.home, c.draw, c.away, c.confidence]) {
      expect(table.bins).toHaveLength(10);
      expect(table.bins.reduce((s: number, b: { count: number }) => s + b.count, 0)).toBe(v.backtest.matches);
      expect(table.ece).toBeGreaterThanOrEqual(0);
      expect(table.ece).toBeLessThan(0.1);
    }
    expect(c.ece).toBeCloseTo((c.home.ece + c.draw.ece + c.away.ece) / 3, 3);
    // a well-calibrated model: where there are many forecasts, the observed frequency is near the predicted one
    for (const b of c.home.bins.filter((x: { count: number }) => x.count >= 200)) expect(Math.abs(b.observed - b.predicted)).toBeLessThan(0.06);
    expect(v.backtest.bands.high.count + v.backtest.bands.medium.count + v.backtest.bands.low.count).toBe(v.backtest.matches);
  });

  it('compare_versions: the contract fields, plus created_at, ece and the reliability table in each entry', async () => {
    const [res, versions] = await Promise.all([get('/api/dashboard/compare_versions/'), get('/api/dashboard/versions/')]);
    schemas.versionComparison.parse(res.body);
    const entry = res.body.version_1;
    expect(Object.keys(entry)).toEqual(
      expect.arrayContaining([
        'accuracy',
        'rps',
        'brier',
        'log_loss',
        'backtest_matches',
        'model',
        'active',
        'trained_through',
        'created_at',
        'ece',
        'calibration',
        'training_from',
        'training_matches',
        'live_results',
        'live_ratings_through',
        'changed_from_previous',
      ]),
    );
    const { confidence: _, ...calibration } = versions.body[0].calibration;
    expect(entry.calibration).toEqual(calibration);
    expect(entry.ece).toBe(calibration.ece);
    expect(entry.rps).toBe(versions.body[0].backtest.rps);
    // what a retrain changes, beside the figures: the data range, the matches used, the live ratings
    expect(entry).toMatchObject({
      training_from: versions.body[0].training_from,
      trained_through: versions.body[0].trained_through,
      training_matches: versions.body[0].training_matches,
      live_results: versions.body[0].live.results,
      live_ratings_through: versions.body[0].live.ratings_through,
      changed_from_previous: null,
    });
  });

  it('a version trained before calibration was recorded gets it from its stored backtest forecasts', async () => {
    const db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const stored = async () => (await db.query(`SELECT metrics->'calibration' AS c FROM predictions.model_version WHERE number = 1`)).rows[0].c;
      const recorded = await stored();
      await db.query(`UPDATE predictions.model_version SET metrics = metrics - 'calibration' WHERE number = 1`);
      expect((await get('/api/dashboard/compare_versions/')).body.version_1).toMatchObject({ ece: null, calibration: null });
      await (t.app.services.predictions as PredictionServices).statistics.recordMissingCalibration();
      const rebuilt = await stored();
      expect(rebuilt.ece).toBeCloseTo(recorded.ece, 12);
      expect(rebuilt.outcomes.D.bins.map((b: { count: number }) => b.count)).toEqual(recorded.outcomes.D.bins.map((b: { count: number }) => b.count));
    } finally {
      await db.end();
    }
  });

  it('GraphQL exposes the same table on ModelVersion.metrics.calibration', async () => {
    const query = () =>
      http(`${t.urls.gateway}/graphql`, {
        method: 'POST',
        key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ activeModelVersion { metrics { calibration { ece binWidth draw { count predicted observed ece } } } } }' }),
      });
    // the test before rebuilt version 1's calibration in its table: the service's view of the active version
    // follows that write through the database's change notification, a moment later
    let res = await query();
    for (let tries = 0; res.body.data?.activeModelVersion?.metrics?.calibration === null && tries < 50; tries++) {
      await new Promise((r) => setTimeout(r, 200));
      res = await query();
    }
    expect(res.body.errors).toBeUndefined();
    const c = res.body.data.activeModelVersion.metrics.calibration;
    expect(c.binWidth).toBe(0.1);
    expect(c.draw.count).toHaveLength(10);
    const versions = await get('/api/dashboard/versions/');
    expect(c.ece).toBeCloseTo(versions.body[0].calibration.ece, 4);
  });
});

describe('GET /api/dashboard/fixtures/', () => {
  it('the next fixtures in the order of /api/predictions/latest/, with probabilities that sum to 1', async () => {
    const [res, latest] = await Promise.all([get('/api/dashboard/fixtures/?limit=10'), get('/api/predictions/latest/?limit=10')]);
    expect(res.status).toBe(200);
    schemas.fixture.array().parse(res.body);
    expect(res.body.map((f: { match_id: number }) => f.match_id)).toEqual(latest.body.map((p: { match_id: number }) => p.match_id));
    for (const f of res.body) {
      const { home, draw, away } = f.probabilities;
      expect(home + draw + away).toBeCloseTo(1, 3);
      expect(f.confidence).toBeCloseTo(Math.max(home, draw, away), 2);
      expect(f.version).toBe('version_1');
    }
    expect((await get('/api/dashboard/fixtures/?limit=0')).status).toBe(400);
    const english = await get('/api/dashboard/fixtures/?competition=en.1&limit=5');
    expect(english.body.every((f: { competition: string }) => f.competition === 'en.1')).toBe(true);
  });
});

describe('GET /api/dashboard/retrain/', () => {
  it('shows any key the latest retrain (no error text, no job id)', async () => {
    const res = await get('/api/dashboard/retrain/');
    expect(res.status).toBe(200);
    schemas.retrainProgress.parse(res.body);
    expect(res.body.retrain).toMatchObject({ status: 'succeeded', progress: 1, version: 'version_1', model: 'ensemble' });
    expect(Object.keys(res.body.retrain)).not.toContain('error');
  });

  it('keeps the error of a failed job for administrators in GraphQL', async () => {
    const db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    await db.query(
      `INSERT INTO predictions.training_run (kind, status, requested_by, error, finished_at) VALUES ('elo', 'failed', 'test', 'worker crashed', now())`,
    );
    await db.end();
    const query = (k: string) =>
      http(`${t.urls.gateway}/graphql`, {
        method: 'POST',
        key: k,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ currentTrainingJob { status error } }' }),
      });
    expect((await query(key)).body.data.currentTrainingJob).toEqual({ status: 'FAILED', error: null });
    expect((await query(t.adminKey)).body.data.currentTrainingJob).toEqual({ status: 'FAILED', error: 'worker crashed' });
    expect((await get('/api/dashboard/retrain/')).body.retrain).toMatchObject({ status: 'failed', model: 'elo' });
  });
});

describe('GET /dashboard/ (the page)', () => {
  it('is HTML with a strict Content-Security-Policy, no inline script or style, and only same-origin assets, all served', async () => {
    const res = await http(`${t.urls.predictions}/dashboard/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = res.body as string;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]).filter((u) => !u.startsWith('#'));
    expect(urls.sort()).toEqual(['/dashboard/chart.umd.min.js', '/dashboard/dashboard.css', '/dashboard/dashboard.js', '/favicon.svg']);
    for (const url of urls) {
      const asset = await http(`${t.urls.predictions}${url}`);
      expect(asset.status).toBe(200);
      const type = url.endsWith('.css') ? /^text\/css/ : url.endsWith('.svg') ? /^image\/svg\+xml/ : /^(application|text)\/javascript/;
      expect(asset.headers.get('content-type')).toMatch(type);
    }
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toMatch(/<label for="api-key">/);
  });

  it('redirects /dashboard to /dashboard/, and leaves the JSON path /dashboard/predictions/ as it was', async () => {
    const res = await http(`${t.urls.predictions}/dashboard`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/dashboard/');
    expect((await http(`${t.urls.predictions}/dashboard/predictions/`)).status).toBe(401);
  });
});
