import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { objectStoreFor } from '../../../lib/object-store';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { createUser, installValidLicence, login } from '../../support/finance/node';

/**
 * KYC documents of real size: the binary upload streams the file (the body, with its
 * Content-Type) to the object store — up to KYC_DOCUMENT_MAX_BYTES (default 10 MiB), 413 beyond —
 * the type decided by the bytes, idempotent like the JSON form, nothing left behind when refused.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await installValidLicence(t);
});
afterAll(() => t?.stop());

const MIB = 1024 * 1024;
const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size - 4)]);

async function openVerification() {
  const user = await createUser(t);
  const token = await login(t, user.username);
  const started = await http(`${t.urls.finance}/api/v1/kyc/verifications/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ level: 'basic', first_name: 'Ada', last_name: 'Smith' }),
  });
  expect(started.status).toBe(201);
  return { token, id: started.body.id as string };
}

const uploadBinary = (token: string | undefined, id: string, file: Buffer, contentType: string, opts: { kind?: string; key?: string } = {}) =>
  http(`${t.urls.finance}/api/v1/kyc/verifications/${id}/documents/upload/?kind=${opts.kind ?? 'passport'}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': contentType, ...(opts.key ? { 'idempotency-key': opts.key } : {}) },
    body: file,
  });

const documents = (id: string) => t.app.services.compliance.store.documents([id]);
/** What the surface streamed and the subgraph has not (yet) taken: empty once every upload is answered. */
const staged = () => {
  const dir = join(t.config.dataDir, 'objects', 'data', 'kyc', 'uploads');
  return existsSync(dir) ? readdirSync(dir) : [];
};

it('stores a 5 MB photo sent as the body, once per Idempotency-Key, and submits it', async () => {
  const { token, id } = await openVerification();
  const file = jpeg(5 * 1000 * 1000);
  const key = randomUUID();
  const res = await uploadBinary(token, id, file, 'image/jpeg', { key });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ kind: 'passport', content_type: 'image/jpeg', size: file.length, sha256: createHash('sha256').update(file).digest('hex') });
  const [row] = await documents(id);
  expect(Buffer.concat(await (await objectStoreFor(t.config).get(row.objectKey)).toArray()).equals(file)).toBe(true);
  // the retry answers the first outcome and stores nothing twice
  const again = await uploadBinary(token, id, file, 'image/jpeg', { key });
  expect([again.status, again.body]).toEqual([201, res.body]);
  expect(await documents(id)).toHaveLength(1);
  expect(staged()).toEqual([]);
  // the type comes from the bytes, whatever the client declared among the accepted ones
  const pdf = Buffer.from('%PDF-1.7\nutility bill\n%%EOF');
  expect((await uploadBinary(token, id, pdf, 'image/png', { kind: 'proof_of_address' })).body.content_type).toBe('application/pdf');
  const submitted = await http(`${t.urls.finance}/api/v1/kyc/verifications/${id}/submit/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  expect([submitted.status, submitted.body.state, submitted.body.documents.length]).toEqual([200, 'verified', 2]);
});

it('refuses a file over KYC_DOCUMENT_MAX_BYTES with 413, and other bytes or types with 400 and 415, keeping nothing', async () => {
  const { token, id } = await openVerification();
  const tooLarge = await uploadBinary(token, id, jpeg(10 * MIB + 1), 'image/jpeg');
  expect([tooLarge.status, tooLarge.body.code]).toEqual([413, 'request_too_large']);
  expect(tooLarge.body.detail).toMatch(/10485760 bytes/);
  const exactly = await uploadBinary(token, id, jpeg(10 * MIB), 'image/jpeg');
  expect(exactly.status).toBe(201);

  const notAnImage = await uploadBinary(token, id, Buffer.from('GIF89a not accepted'), 'image/png');
  expect([notAnImage.status, notAnImage.body.detail]).toEqual([400, 'The document must be a JPEG, PNG or PDF file.']);
  expect((await uploadBinary(token, id, jpeg(100), 'text/plain')).status).toBe(415);
  expect((await uploadBinary(token, id, jpeg(100), 'image/jpeg', { kind: 'diary' })).status).toBe(400);
  // no credential: refused before a byte is stored
  expect((await uploadBinary(undefined, id, jpeg(100), 'image/jpeg')).status).toBe(401);
  // another user's verification is not found
  const other = await openVerification();
  expect((await uploadBinary(other.token, id, jpeg(100), 'image/jpeg')).status).toBe(404);
  expect(await documents(id)).toHaveLength(1);
  expect(staged()).toEqual([]);
});
