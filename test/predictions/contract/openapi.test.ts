import { DOCS_PATH, OPENAPI_PATH, predictionRoutes } from '../../../rest-adapter/predictions/routes';

import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { validateOpenApi } from '../../support/platform/openapi';

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await startTestApp();
  const res = await http(`${t.urls.predictions}${OPENAPI_PATH}`);
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => t?.stop());

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** The routes OpenAPI describes: all but the pages' assets, which say so (`documented: false`). */
const apiRoutes = predictionRoutes.filter((r) => r.documented !== false);

describe('GET /api/openapi.json', () => {
  it('is served at the documented path as JSON, without a key', async () => {
    const res = await http(`${t.urls.predictions}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validateOpenApi(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.1');
    expect(doc.info).toEqual({ title: 'Match Prediction API', version: expect.stringMatching(/^\d+\.\d+\.\d+$/), description: expect.any(String) });
  });

  it('lists every route of the route table with its exact path and method, and nothing else', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const assets = predictionRoutes.filter((r) => r.documented === false);
    expect(assets.every((r) => r.path.endsWith('.css'))).toBe(true);
    const routed = apiRoutes.map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(documented.sort()).toEqual(routed.sort());
    // the contract's endpoint table (docs/contracts/prediction-api.md §4), byte for byte
    expect(documented).toEqual(
      expect.arrayContaining([
        'GET /api/',
        'POST /api/retrain/',
        'GET /api/dashboard/overview/',
        'GET /api/dashboard/confidence/',
        'GET /api/predictions/latest/',
        'GET /api/dashboard/compare_versions/',
        'GET /dashboard/predictions/',
      ]),
    );
    for (const route of apiRoutes) {
      const op = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
      expect(op.operationId).toBe(route.operationId ?? route.operation);
      expect(op.summary).toBe(route.summary);
      const success = String(route.response.status ?? 200);
      expect(op.responses[success].description).toBe(route.response.description);
      expect(op.responses['500'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    // OpenAPI: operationIds are unique (one persisted operation may serve two routes)
    const ids = apiRoutes.map((r) => doc.paths[openApiPath(r.path)][r.method.toLowerCase()].operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  /** The documented body of a route's success response. */
  const successSchema = (method: string, path: string) => {
    const op = doc.paths[path][method];
    return Object.values(op.responses as Record<string, { content?: Record<string, { schema: any }> }>)[0].content!['application/json'].schema;
  };
  const fraction = { type: 'number', minimum: 0, maximum: 1 };
  const OUTCOMES = ['Home Win', 'Draw', 'Away Win'];

  it("describes the contract's resources (docs/contracts/prediction-api.md §2) with their exact fields and types, all required", () => {
    // written from the contract's tables, not from the code's schemas
    const prediction = successSchema('get', '/api/predictions/latest/');
    expect(prediction.type).toBe('array');
    expect(prediction.items).toMatchObject({
      type: 'object',
      properties: {
        match_id: { type: 'integer' },
        home_team: { type: 'string' },
        away_team: { type: 'string' },
        predicted_outcome: { type: 'string', enum: OUTCOMES },
        predicted_goal_diff: { type: 'number' },
        confidence: fraction,
      },
      additionalProperties: false,
    });
    expect(prediction.items.required.sort()).toEqual(['away_team', 'confidence', 'home_team', 'match_id', 'predicted_goal_diff', 'predicted_outcome']);
    const dashboard = successSchema('get', '/dashboard/predictions/');
    expect(dashboard.items).toMatchObject({ properties: { match: { type: 'string' }, outcome: { type: 'string', enum: OUTCOMES }, confidence: fraction } });
    expect(dashboard.items.required.sort()).toEqual(['confidence', 'match', 'outcome']);
    const overview = successSchema('get', '/api/dashboard/overview/');
    expect(overview).toMatchObject({
      type: 'object',
      properties: { total_predictions: { type: 'integer' }, accuracy: fraction, average_confidence: fraction },
    });
    expect(overview.required.sort()).toEqual(['accuracy', 'average_confidence', 'total_predictions']);
    const confidence = successSchema('get', '/api/dashboard/confidence/');
    expect(confidence).toMatchObject({
      type: 'object',
      properties: { high_confidence: { type: 'integer' }, medium_confidence: { type: 'integer' }, low_confidence: { type: 'integer' } },
    });
    expect(confidence.required.sort()).toEqual(['high_confidence', 'low_confidence', 'medium_confidence']);
    // keys name versions (version_1, version_2, …), each value an object with accuracy, a fraction (null before any result)
    const versions = successSchema('get', '/api/dashboard/compare_versions/');
    expect(versions).toMatchObject({ type: 'object', propertyNames: { pattern: '^version_\\d+$' } });
    expect(versions.additionalProperties).toMatchObject({ type: 'object', properties: { accuracy: { anyOf: [fraction, { type: 'null' }] } } });
    expect(versions.additionalProperties.required).toContain('accuracy');
  });

  it('marks no parameter with a default as required (a client may leave it out), nor any body field with a default', () => {
    const latest = doc.paths['/api/predictions/latest/'].get.parameters;
    expect(latest).toContainEqual(expect.objectContaining({ name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ default: 20 }) }));
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) {
          if (p.schema.default !== undefined)
            expect({ op: `${method} ${path}`, name: p.name, required: p.required }).toEqual({ op: `${method} ${path}`, name: p.name, required: false });
        }
        for (const media of Object.values((op.requestBody?.content ?? {}) as Record<string, { schema: any }>)) {
          const defaulted = Object.entries(media.schema.properties ?? {}).filter(([, prop]: [string, any]) => prop.default !== undefined);
          for (const [name] of defaulted) expect(media.schema.required ?? []).not.toContain(name);
        }
      }
    }
    // the form's fields all have defaults (missing ones are reported together): it documents them as optional
    expect(doc.paths['/apply/'].post.requestBody.content['application/x-www-form-urlencoded'].schema.required).toBeUndefined();
  });

  it('declares the bearer security scheme and requires it on every keyed route, with 401 and 429 documented', () => {
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'http', scheme: 'bearer', description: expect.stringContaining('Authorization: Bearer') });
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const route of apiRoutes) {
      const op = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
      for (const requirement of op.security) for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
      if (route.security === 'none') {
        expect(op.security).toEqual([]);
        continue;
      }
      expect(op.security).toEqual([{ apiKey: [] }]);
      for (const status of ['401', '429']) expect(op.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      const success = op.responses[String(route.response.status ?? 200)];
      expect(Object.keys(success.headers)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
    }
  });

  it('describes the error body {detail, code}', () => {
    const error = doc.components.schemas.Error;
    expect(error.type).toBe('object');
    expect(Object.keys(error.properties).sort()).toEqual(['code', 'detail', 'errors']);
    expect(error.required.sort()).toEqual(['code', 'detail']);
  });
});

describe('GET /api/docs/', () => {
  it('serves an HTML reference that loads only assets of this server', async () => {
    const res = await http(`${t.urls.predictions}${DOCS_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.body as string;
    const urls = [...html.matchAll(/\b(?:src|href|spec-url)="([^"]*)"/g)].map((m) => m[1]);
    expect(urls).toContain(OPENAPI_PATH);
    for (const url of urls) expect(url).toMatch(/^\/(?!\/)/);
    expect(html).not.toMatch(/https?:\/\/|\/\/cdn|fonts\.googleapis/);
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual([`${DOCS_PATH}redoc.standalone.js`]);
  });

  it('serves the ReDoc bundle it references as JavaScript', async () => {
    const res = await http(`${t.urls.predictions}${DOCS_PATH}redoc.standalone.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    expect((res.body as string).length).toBeGreaterThan(100_000);
    expect(res.body).toContain('Redoc');
  });

  it('answers the docs path without its trailing slash with a redirect to it', async () => {
    const res = await http(`${t.urls.predictions}/api/docs`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(DOCS_PATH);
  });
});
