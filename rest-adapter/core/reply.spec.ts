import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DomainError } from '../../lib/errors';
import { createLogger } from '../../lib/logger';
import { listen, type RunningServer } from '../../lib/server';
import { envelopeErrorShape } from './errors';
import { inProcessExecutor } from './executor';
import type { Route } from './route';
import { createSurfaceApp, parseRange, type Surface } from './surface';
import { startTestApp, type TestApp } from '../../test/support/platform/app';
import { http } from '../../test/support/platform/http';

/**
 * The REST core's answers beyond JSON (rest-adapter/core): bodies streamed from storage (HEAD, one
 * Range, If-None-Match, If-Range, Content-Length, ETag, filename), routes answered without a
 * GraphQL operation, and raw bodies left for a route to stream. Spec for every surface that uses them.
 */
const BODY = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const ETAG = createHash('sha256').update(BODY).digest('hex');
let opened: { start: number; end: number }[] = [];
// the same bytes on disk: a body that names its local file is sent from it (lib/file-send.ts), not through open()
const dir = mkdtempSync(join(tmpdir(), 'reply-spec-'));
writeFileSync(join(dir, 'data.bin'), BODY);

const routes: Route<string>[] = [
  {
    method: 'GET',
    path: '/files/:name',
    summary: 'A streamed file',
    security: 'none',
    credentials: [],
    operationId: 'GetFile',
    reply: async ({ params }) => {
      if (params.name !== 'data.bin' && params.name !== 'disk.bin') throw new DomainError('NOT_FOUND', 404, 'No such file.');
      return {
        kind: 'stream',
        body: {
          size: BODY.length,
          contentType: 'application/octet-stream',
          filename: 'data.bin',
          etag: ETAG,
          lastModified: new Date('2025-01-01T00:00:00Z'),
          headers: { 'x-extra': 'yes' },
          open: (range) => {
            opened.push(range ?? { start: 0, end: BODY.length - 1 });
            return Readable.from([range ? BODY.subarray(range.start, range.end + 1) : BODY]);
          },
          file: params.name === 'disk.bin' ? join(dir, 'data.bin') : undefined,
        },
      };
    },
    response: { description: 'The bytes' },
  },
  {
    method: 'GET',
    path: '/report',
    summary: 'A generated file',
    security: 'none',
    credentials: [],
    operationId: 'Report',
    reply: async () => ({ kind: 'file', body: 'a: 1\n', contentType: 'application/yaml; charset=utf-8', filename: 'report.yaml' }),
    response: { description: 'YAML' },
  },
  {
    method: 'PUT',
    path: '/upload',
    summary: 'A raw body',
    security: 'none',
    credentials: [],
    operationId: 'Upload',
    consumes: 'binary',
    reply: async ({ req }) => {
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of req) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      return { kind: 'json', body: { size, sha256: hash.digest('hex'), type: req.headers['content-type'] } };
    },
    response: { description: 'What arrived' },
  },
];

let t: TestApp;
let server: RunningServer;
beforeAll(async () => {
  t = await startTestApp();
  const surface: Surface = {
    product: 'registry',
    title: 'Stream spec',
    version: '0.0.0',
    description: '',
    routes,
    credentials: [],
    catalogue: {},
    errorShape: envelopeErrorShape,
    cors: { origins: '*', allowHeaders: [] },
  };
  const app = createSurfaceApp(surface, { executor: inProcessExecutor(t.app.gateway), logger: createLogger('silent'), bodyLimit: '100kb', config: t.config });
  server = await listen(app, '127.0.0.1', 0);
});
afterAll(async () => {
  await server?.close();
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  opened = [];
});

describe.each([
  ['from open()', 'data.bin'],
  ['from the local file it names', 'disk.bin'],
])('stream replies, the bytes %s', (_, name) => {
  const get = (headers: Record<string, string> = {}, method = 'GET') => fetch(`${server.url}/files/${name}`, { method, headers });
  // what open() was asked for: the range, or nothing when the body is sent from its file
  const read = (range: { start: number; end: number }) => (name === 'disk.bin' ? [] : [range]);

  it('GET: the whole body with Content-Length, Content-Type, ETag, Last-Modified, the filename and Accept-Ranges', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(BODY)).toBe(true);
    expect(
      Object.fromEntries(
        ['content-length', 'content-type', 'etag', 'last-modified', 'content-disposition', 'accept-ranges', 'x-extra'].map((h) => [h, res.headers.get(h)]),
      ),
    ).toEqual({
      'content-length': '1000',
      'content-type': 'application/octet-stream',
      etag: `"${ETAG}"`,
      'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT',
      'content-disposition': 'attachment; filename=data.bin',
      'accept-ranges': 'bytes',
      'x-extra': 'yes',
    });
  });

  it('HEAD: the same headers, no body, nothing opened', async () => {
    const res = await get({}, 'HEAD');
    expect([res.status, res.headers.get('content-length'), (await res.arrayBuffer()).byteLength]).toEqual([200, '1000', 0]);
    expect(opened).toEqual([]);
  });

  it('Range: one range → 206 with Content-Range; suffix and open ranges; only that range is read', async () => {
    for (const [range, start, end] of [
      ['bytes=0-0', 0, 0],
      ['bytes=100-199', 100, 199],
      ['bytes=990-', 990, 999],
      ['bytes=-10', 990, 999],
      ['bytes=900-5000', 900, 999],
    ] as const) {
      opened = [];
      const res = await get({ range });
      expect([range, res.status, res.headers.get('content-range'), res.headers.get('content-length')]).toEqual([
        range,
        206,
        `bytes ${start}-${end}/1000`,
        String(end - start + 1),
      ]);
      expect(Buffer.from(await res.arrayBuffer()).equals(BODY.subarray(start, end + 1))).toBe(true);
      expect(opened).toEqual(read({ start, end }));
    }
  });

  it('416 for an unsatisfiable range; several ranges, another unit or nonsense: the whole body', async () => {
    for (const range of ['bytes=1000-', 'bytes=-0', 'bytes=500-100']) {
      const res = await get({ range });
      expect([range, res.status, res.headers.get('content-range')]).toEqual([range, 416, 'bytes */1000']);
    }
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=abc']) {
      const res = await get({ range });
      expect([range, res.status, (await res.arrayBuffer()).byteLength]).toEqual([range, 200, 1000]);
    }
  });

  it('If-None-Match → 304; If-Range with another validator → the whole body', async () => {
    expect((await get({ 'if-none-match': `"${ETAG}"` })).status).toBe(304);
    expect((await get({ 'if-none-match': `"other", W/"${ETAG}"` })).status).toBe(304);
    expect((await get({ 'if-none-match': '"other"' })).status).toBe(200);
    expect((await get({ range: 'bytes=0-9', 'if-range': `"${ETAG}"` })).status).toBe(206);
    expect((await get({ range: 'bytes=0-9', 'if-range': '"stale"' })).status).toBe(200);
  });

  it('parseRange reads one byte range against a length', () => {
    expect(parseRange(undefined, 10)).toBeUndefined();
    expect(parseRange('bytes=2-4', 10)).toEqual({ start: 2, end: 4 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
  });
});

describe('routes answered without GraphQL', () => {
  it("map a thrown DomainError to the surface's error body", async () => {
    const res = await http(`${server.url}/files/other.bin`);
    expect([res.status, res.body]).toEqual([404, { success: false, error: { code: 'NOT_FOUND', message: 'No such file.' } }]);
  });

  it("file replies keep their own Content-Type, whatever the filename's extension suggests", async () => {
    const res = await fetch(`${server.url}/report`);
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=report.yaml');
  });

  it('binary bodies reach the route unread, whatever their type', async () => {
    const big = Buffer.alloc(300_000, 7);
    const res = await http(`${server.url}/upload`, { method: 'PUT', headers: { 'content-type': 'application/gzip' }, body: big });
    expect(res.body).toEqual({ size: big.length, sha256: createHash('sha256').update(big).digest('hex'), type: 'application/gzip' });
  });
});
