import { createHash } from 'node:crypto';
import { FilesystemObjectStore, objectStoreFor } from '../../../lib/object-store';
import { demoImage } from '../../../subgraphs/registry/licensing/domain/demo';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { createLicence, database, demoReleases, registryClient, type RegistryClient } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

let t: TestApp;
let client: RegistryClient;
let releases: Awaited<ReturnType<typeof demoReleases>>;
let backend: { id: string; size: number; sha256: string };
beforeAll(async () => {
  t = await startTestApp();
  client = registryClient(t, (await t.app.services.licensing.demoLicence()).licenceKey);
  releases = await demoReleases(client);
  backend = releases['1.1.0'].artifacts.find((a) => a.component === 'backend')!;
});
afterAll(() => t?.stop());

const authorize = async (artifactId: string, key?: string) => (await client.post(`/api/v1/artifacts/${artifactId}/authorize`, undefined, { key })).body.data;
/** A download with the query given and, when `key` is given, the licence header. */
const download = (artifactId: string, query = '', opts: { key?: string; method?: string } = {}) =>
  http(`${t.urls.registry}/api/v1/artifacts/${artifactId}/download${query}`, {
    method: opts.method ?? 'GET',
    headers: opts.key ? { 'x-license-key': opts.key } : {},
  });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('POST /api/v1/artifacts/<artifact_id>/authorize', () => {
  it('answers a single-use token valid 60 s', async () => {
    const res = await client.post(`/api/v1/artifacts/${backend.id}/authorize`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['token', 'expiresAt']);
    expect(res.body.data.token).toMatch(/^dlt_[0-9A-Za-z]{32}$/);
    const db = await database(t);
    try {
      // only its hash is stored, with the answered expiry: 60 s after its creation
      const { rows } = await db.query(
        'SELECT token_hash, expires_at, extract(epoch FROM expires_at - created_at)::float8 AS ttl FROM licensing.download_token',
      );
      const row = rows.find((r) => r.token_hash.equals(createHash('sha256').update(res.body.data.token).digest()));
      expect(row.expires_at.toISOString()).toBe(res.body.data.expiresAt);
      expect(Math.round(row.ttl)).toBe(60);
      expect(JSON.stringify(rows)).not.toContain(res.body.data.token);
    } finally {
      await db.end();
    }
  });

  it('404 for an unknown artifact, 403 FORBIDDEN after the maintenance end', async () => {
    const unknown = await client.post('/api/v1/artifacts/00000000-0000-4000-8000-000000000000/authorize');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'ARTIFACT_NOT_FOUND']);
    const { key } = await createLicence(t, { maintenanceUntil: '2025-03-01' });
    const late = await client.post(`/api/v1/artifacts/${backend.id}/authorize`, undefined, { key });
    expect([late.status, late.body.error.code, late.body.error.details.reason]).toEqual([403, 'FORBIDDEN', 'MAINTENANCE_EXPIRED']);
    const early = releases['1.0.0'].artifacts[0];
    expect((await client.post(`/api/v1/artifacts/${early.id}/authorize`, undefined, { key })).status).toBe(200);
  });
});

describe('GET /api/v1/artifacts/<artifact_id>/download', () => {
  it('302 to a presigned link with the token; the link streams the archive (length, ETag from the SHA-256, filename)', async () => {
    const { token } = await authorize(backend.id);
    const res = await download(backend.id, `?token=${token}`);
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${t.urls.registry}/api/v1/objects/`)).toBe(true);
    expect(location).toMatch(/[?&]expires=\d+/);
    expect(location).toMatch(/[?&]signature=/);
    expect(location).not.toContain(token);
    const file = await fetch(location);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(file.status).toBe(200);
    expect(bytes.length).toBe(backend.size);
    expect(sha256(bytes)).toBe(backend.sha256);
    expect(file.headers.get('content-length')).toBe(String(backend.size));
    expect(file.headers.get('content-type')).toBe('application/gzip');
    expect(file.headers.get('etag')).toBe(`"${backend.sha256}"`);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename=finance-node-backend-1.1.0.docker.tar.gz');
    expect(file.headers.get('accept-ranges')).toBe('bytes');
    expect(file.headers.get('repr-digest')).toBe(`sha-256=:${Buffer.from(backend.sha256, 'hex').toString('base64')}:`);
  });

  it('the link answers HEAD, Range (206, suffix, 416), If-None-Match (304) and stays valid until it expires', async () => {
    const { token } = await authorize(backend.id);
    const location = (await download(backend.id, `?token=${token}`)).headers.get('location')!;
    const whole = Buffer.from(await (await fetch(location)).arrayBuffer());
    const head = await fetch(location, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, String(backend.size), 0]);
    const part = await fetch(location, { headers: { range: 'bytes=10-109' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-109/${backend.size}`);
    expect(part.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(10, 110));
    const tail = await fetch(location, { headers: { range: 'bytes=-20' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 20));
    const open = await fetch(location, { headers: { range: `bytes=${backend.size - 5}-` } });
    expect(Buffer.from(await open.arrayBuffer())).toEqual(whole.subarray(backend.size - 5));
    const beyond = await fetch(location, { headers: { range: `bytes=${backend.size}-` } });
    expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${backend.size}`]);
    const cached = await fetch(location, { headers: { 'if-none-match': `"${backend.sha256}"` } });
    expect(cached.status).toBe(304);
    const stale = await fetch(location, { headers: { range: 'bytes=0-9', 'if-range': '"something-else"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(backend.size);
  });

  it('a changed link is 403 SIGNATURE_INVALID, an expired one 403 LINK_EXPIRED', async () => {
    const { token } = await authorize(backend.id);
    const location = new URL((await download(backend.id, `?token=${token}`)).headers.get('location')!);
    const tampered = new URL(location);
    tampered.searchParams.set('expires', String(Number(location.searchParams.get('expires')) + 3600));
    const res = await http(tampered.toString());
    expect([res.status, res.body.success, res.body.error.code]).toEqual([403, false, 'SIGNATURE_INVALID']);
    const renamed = new URL(location);
    renamed.searchParams.set('filename', 'evil.sh');
    expect((await http(renamed.toString())).body.error.code).toBe('SIGNATURE_INVALID');
    const store = objectStoreFor(t.config) as FilesystemObjectStore;
    const key = decodeURIComponent(location.pathname.slice('/api/v1/objects/'.length));
    const expired = await store.presign(key, { expiresInSeconds: -1, baseUrl: t.urls.registry });
    expect((await http(expired.url)).body.error.code).toBe('LINK_EXPIRED');
    expect((await http(`${t.urls.registry}/api/v1/objects/${encodeURIComponent(key)}`)).body.error.code).toBe('SIGNATURE_INVALID');
  });

  it('a token is single-use: again 410 DOWNLOAD_TOKEN_USED; expired 410 DOWNLOAD_TOKEN_EXPIRED; unknown 401; malformed 401 UNAUTHORIZED', async () => {
    const { token } = await authorize(backend.id);
    expect((await download(backend.id, `?token=${token}`)).status).toBe(302);
    const again = await download(backend.id, `?token=${token}`);
    expect([again.status, again.body.error.code]).toEqual([410, 'DOWNLOAD_TOKEN_USED']);

    const late = await authorize(backend.id);
    const db = await database(t);
    try {
      await db.query(`UPDATE licensing.download_token SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
        createHash('sha256').update(late.token).digest(),
      ]);
    } finally {
      await db.end();
    }
    const expired = await download(backend.id, `?token=${late.token}`);
    expect([expired.status, expired.body.error.code]).toEqual([410, 'DOWNLOAD_TOKEN_EXPIRED']);

    const unknown = await download(backend.id, `?token=dlt_${'A'.repeat(32)}`);
    expect([unknown.status, unknown.body.error.code]).toEqual([401, 'DOWNLOAD_TOKEN_INVALID']);
    const malformed = await download(backend.id, '?token=abc');
    expect([malformed.status, malformed.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const none = await download(backend.id);
    expect([none.status, none.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it("403 DOWNLOAD_TOKEN_MISMATCH for another artifact's token, which stays usable for its own", async () => {
    const { token } = await authorize(backend.id);
    const frontend = releases['1.1.0'].artifacts.find((a) => a.component === 'frontend')!;
    const res = await download(frontend.id, `?token=${token}`);
    expect([res.status, res.body.error.code]).toEqual([403, 'DOWNLOAD_TOKEN_MISMATCH']);
    expect((await download(backend.id, `?token=${token}`)).status).toBe(302);
  });

  it('302 with the licence header alone; with the header and a token, the token is used (and consumed)', async () => {
    const key = (await t.app.services.licensing.demoLicence()).licenceKey;
    expect((await download(backend.id, '', { key })).status).toBe(302);
    expect((await download(backend.id, `?licenseKey=${key}`)).status).toBe(302);
    const { token } = await authorize(backend.id);
    expect((await download(backend.id, `?token=${token}`, { key })).status).toBe(302);
    expect((await download(backend.id, `?token=${token}`, { key })).body.error.code).toBe('DOWNLOAD_TOKEN_USED');
  });

  it("HEAD answers the archive's headers without a link and without consuming the token", async () => {
    const { token } = await authorize(backend.id);
    const head = await download(backend.id, `?token=${token}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('location')).toBeNull();
    expect(head.headers.get('content-length')).toBe(String(backend.size));
    expect(head.headers.get('etag')).toBe(`"${backend.sha256}"`);
    expect(head.headers.get('content-disposition')).toBe('attachment; filename=finance-node-backend-1.1.0.docker.tar.gz');
    expect((await download(backend.id, `?token=${token}`)).status).toBe(302);
  });

  it("403 FORBIDDEN after the maintenance end (with the header), and the licence's status applies to its tokens", async () => {
    const { key, id } = await createLicence(t, { maintenanceUntil: '2025-03-01' });
    const res = await download(backend.id, '', { key });
    expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const early = releases['1.0.0'].artifacts[0];
    const { token } = await authorize(early.id, key);
    await t.app.services.licensing.licences.suspend(id, 'test');
    const suspended = await download(early.id, `?token=${token}`);
    expect([suspended.status, suspended.body.error.code]).toEqual([403, 'LICENSE_SUSPENDED']);
  });

  it('409 ARTIFACT_NOT_UPLOADED for an artifact whose bytes never arrived', async () => {
    const licensing = t.app.services.licensing;
    const release = await licensing.releases.create({ product: 'finance-node', version: '1.4.0', channel: 'stable' }, 'test');
    for (const component of ['backend', 'frontend'] as const) {
      const image = demoImage('1.4.0', component, new Date('2026-04-01T00:00:00Z'));
      await licensing.artifacts.upload({ release: release.id, component }, image.archive, {}, 'test');
    }
    // an extra component the manifest does not need: its upload link was issued, nothing was sent
    const { artifact } = await licensing.artifacts.createUpload({ release: release.id, component: 'docs', filename: 'docs.tar.gz' }, t.urls.registry);
    await licensing.releases.publish(release.id, 'test');
    const res = await client.post(`/api/v1/artifacts/${artifact.id}/authorize`);
    expect([res.status, res.body.error.code]).toEqual([409, 'ARTIFACT_NOT_UPLOADED']);
    expect((await download(artifact.id, '', { key: (await licensing.demoLicence()).licenceKey })).status).toBe(409);
  });

  it('records downloads in the audit trail', async () => {
    const events = await t.app.services.licensing.audit.list({ actions: ['artifact.downloaded', 'artifact.download_authorized'], first: 200 });
    const downloaded = events.filter((e) => e.action === 'artifact.downloaded' && e.subjectId === backend.id);
    expect(downloaded.length).toBeGreaterThan(3);
    expect(downloaded.map((e) => e.details.via)).toEqual(expect.arrayContaining(['download-token', 'licence']));
    expect(events.some((e) => e.action === 'artifact.download_authorized')).toBe(true);
  });
});
