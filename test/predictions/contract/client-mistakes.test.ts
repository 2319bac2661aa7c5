import { gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';

/**
 * Client mistakes on the prediction surface are answered with a 4xx and the surface's error body,
 * and its HTML pages carry the security headers. All of it lives once in the REST
 * core (rest-adapter/core), so every surface gets it; the hostile-input suite sweeps every route.
 */

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.createKey('pro');
});
afterAll(() => t?.stop());

const api = (path: string) => `${t.urls.predictions}${path}`;
const application = (fields: Record<string, string>) =>
  JSON.stringify({ name: 'Acme Ltd', usage: 'A weekly newsletter with predictions.', email: 'ops@acme.test', ...fields });

describe('bodies that are not what their headers say', () => {
  it.each(['gzip', 'br', 'deflate'])('answers a JSON body sent as Content-Encoding: %s but not compressed with 400 parse_error', async (encoding) => {
    const res = await http(api('/api/applications/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      body: application({}),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: `Request body is not valid ${encoding} data.`, code: 'parse_error' });
  });

  it('still reads a body that is compressed as it says', async () => {
    const res = await http(api('/api/applications/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(application({ email: 'gzip@acme.test' })),
    });
    expect(res.status).toBe(202);
  });

  it('answers an encoding it does not know with 415', async () => {
    const res = await http(api('/api/applications/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' },
      body: '{}',
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('refuses a body that is not valid UTF-8 instead of storing replacement characters', async () => {
    const body = Buffer.concat([
      Buffer.from('{"name": "Caf'),
      Buffer.from([0xe9]),
      Buffer.from('", "usage": "A weekly newsletter.", "email": "cafe@acme.test"}'),
    ]);
    const res = await http(api('/api/applications/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Request body is not valid UTF-8.', code: 'parse_error' });
    const form = await http(api('/apply/'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Caf%E9&usage=x&email=y',
    });
    expect(form.status).toBe(400);
  });

  it('refuses control characters and broken Unicode in any string, per field', async () => {
    // JSON escapes: a NUL, and half of a surrogate pair
    const body = '{"name": "Acme\\u0000", "usage": "usage \\ud800 text", "email": "ops@acme.test"}';
    const res = await http(api('/api/applications/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail: 'Invalid request body.',
      code: 'invalid',
      errors: { name: ['Contains control characters or invalid Unicode.'], usage: ['Contains control characters or invalid Unicode.'] },
    });
  });
});

describe('paths and parameters', () => {
  it('answers a malformed percent-encoding in the path with 400 and the surface body', async () => {
    for (const path of ['/api/retrain/%ZZ/', '/api/retrain/%E2%82/', '/api/%C0%AF/']) {
      const res = await http(api(path), { key: t.adminKey });
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: { detail: 'Malformed percent-encoding in the request path.', code: 'invalid' },
      });
    }
    const query = await http(api('/api/predictions/latest/?limit=%ZZ'), { key });
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ detail: 'Malformed percent-encoding in the query string.', code: 'invalid' });
  });

  it.each(['0x10', '%205', '5%20', '1e1', '+5', 'Infinity'])('takes limit=%s for no number', async (limit) => {
    const res = await http(api(`/api/predictions/latest/?limit=${limit}`), { key });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ detail: 'Invalid query parameters.', code: 'invalid' });
    expect(res.body.errors.limit).toContain('Expected a number in decimal notation.');
  });

  it('takes limit=5 as five', async () => {
    expect((await http(api('/api/predictions/latest/?limit=5'), { key })).body).toHaveLength(5);
  });
});

describe('names that show nothing', () => {
  it.each([
    ['zero-width spaces', '\u200b\u200b\u200b'],
    ['a zero-width joiner and a BOM', '\u200d\ufeff'],
    ['Hangul fillers', '\u3164\u3164'],
  ])('refuses a name of %s as empty, field by field', async (_what, name) => {
    const res = await http(api('/api/applications/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: application({ name }) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(Object.keys(res.body.errors)).toEqual(['name']);
  });
});

describe('the credential before the input', () => {
  it('answers an anonymous POST /api/retrain/ with an invalid body 401, saying nothing about the body', async () => {
    const res = await http(api('/api/retrain/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": "crystal-ball"}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
  });

  it('answers an unknown key with an invalid body 401 too', async () => {
    const res = await http(api('/api/retrain/'), {
      method: 'POST',
      key: 'mpk_00000000zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
      headers: { 'content-type': 'application/json' },
      body: '{"model": "crystal-ball"}',
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('authentication_failed');
  });

  it('tells a caller with a valid key what is wrong with its input', async () => {
    const res = await http(api('/api/retrain/'), { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: '{"model": "crystal-ball"}' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['model']);
    const query = await http(api('/api/predictions/latest/?limit=0'));
    expect(query.status).toBe(401);
  });
});

describe('HTML pages', () => {
  it.each(['/apply/', '/api/docs/'])('serves %s with a Content-Security-Policy, X-Frame-Options and X-Content-Type-Options', async (path) => {
    const res = await http(api(path));
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the form shown again after a mistake with the same headers', async () => {
    const res = await http(api('/apply/'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=&usage=&email=' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});
