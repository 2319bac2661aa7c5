import { createHash } from 'node:crypto';
import { demoImage } from '../../../../subgraphs/registry/licensing/domain/demo';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { demoReleases, gql, registryClient, type RegistryClient } from '../../../support/registry/registry';
import { http } from '../../../support/platform/http';
import { startLocalS3, type LocalS3 } from '../../../support/platform/s3';

/**
 * The registry with OBJECT_STORE=s3, against s3rver on 127.0.0.1: artifacts live in the bucket and
 * downloads redirect to S3 presigned links (SigV4), which carry no credential of ours.
 */
let s3: LocalS3;
let t: TestApp;
let client: RegistryClient;
beforeAll(async () => {
  s3 = await startLocalS3('registry-artifacts');
  t = await startTestApp({
    OBJECT_STORE: 's3',
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  });
  client = registryClient(t, (await t.app.services.licensing.demoLicence()).licenceKey);
}, 90_000);
afterAll(async () => {
  await t?.stop();
  await s3?.stop();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

it('stores the demo artifacts in the bucket and redirects downloads to presigned S3 links', async () => {
  const artifact = (await demoReleases(client))['1.1.0'].artifacts[0];
  const { token } = (await client.post(`/api/v1/artifacts/${artifact.id}/authorize`)).body.data;
  const res = await http(`${t.urls.registry}/api/v1/artifacts/${artifact.id}/download?token=${token}`);
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expect(location.origin).toBe(s3.endpoint);
  expect(location.pathname).toBe(`/${s3.bucket}/artifacts/${artifact.id}/finance-node-backend-1.1.0.docker.tar.gz`);
  expect(location.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
  expect(Number(location.searchParams.get('X-Amz-Expires'))).toBe(300);
  const file = await fetch(location);
  const bytes = Buffer.from(await file.arrayBuffer());
  expect(file.status).toBe(200);
  expect(file.headers.get('content-disposition')).toBe('attachment; filename="finance-node-backend-1.1.0.docker.tar.gz"');
  expect(file.headers.get('content-type')).toBe('application/gzip');
  expect([bytes.length, sha256(bytes)]).toEqual([artifact.size, artifact.sha256]);
  const part = await fetch(location, { headers: { range: 'bytes=0-15' } });
  expect([part.status, (await part.arrayBuffer()).byteLength]).toEqual([206, 16]);
  // the filesystem links do not exist in this mode
  expect((await http(`${t.urls.registry}/api/v1/objects/x`)).status).toBe(404);
});

it('uploads through an S3 presigned PUT link; completing it reads the bytes back for their SHA-256 and image', async () => {
  const licensing = t.app.services.licensing;
  await licensing.releases.create({ product: 'finance-node', version: '1.3.0', channel: 'stable' }, 'test');
  const image = demoImage('1.3.0', 'frontend', new Date('2026-02-01T00:00:00Z'));
  const created = await gql(
    t,
    'mutation { createArtifactUpload(input: { release: "finance-node@1.3.0", component: "frontend" }) { uploadUrl contentType artifact { id } } }',
  );
  const { uploadUrl, contentType, artifact } = created.data.createArtifactUpload;
  expect(new URL(uploadUrl).origin).toBe(s3.endpoint);
  expect((await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': contentType }, body: image.archive })).status).toBe(200);
  const done = await gql(t, 'mutation($a: ID!) { completeArtifactUpload(artifactId: $a) { status size sha256 imageId } }', { a: artifact.id });
  expect(done.data.completeArtifactUpload).toEqual({ status: 'uploaded', size: image.archive.length, sha256: sha256(image.archive), imageId: image.imageId });
  // streamed uploads (the CLI's) go through the same store
  const backend = demoImage('1.3.0', 'backend', new Date('2026-02-01T00:00:00Z'));
  const row = await licensing.artifacts.upload(
    { release: 'finance-node@1.3.0', component: 'backend' },
    backend.archive,
    { size: backend.archive.length },
    'test',
  );
  expect(row.sha256).toBe(sha256(backend.archive));
  expect((await licensing.releases.publish('finance-node@1.3.0', 'test')).status).toBe('published');
});
