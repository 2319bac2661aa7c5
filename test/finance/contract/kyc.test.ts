import { createHash } from 'node:crypto';
import { objectStoreFor } from '../../../lib/object-store';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import {
  adminSignIn,
  adminPost,
  auditDelivered,
  changeNode,
  createUser,
  graphql,
  installValidLicence,
  login,
  type AdminSession,
} from '../../support/finance/node';

/**
 * KYC with the offline sandbox provider: one verification per user and level, each
 * state transition and each refused one (409 with the current state), document checks, enhanced
 * after basic, the administrators' reviews, expiry, and the user's level — what every money module
 * checks through requiredKycLevel — following verification.
 */
const MAX_BYTES = 4096;
let t: TestApp;
let admin: AdminSession;

beforeAll(async () => {
  t = await startTestApp({ KYC_DOCUMENT_MAX_BYTES: String(MAX_BYTES) });
  await installValidLicence(t);
  admin = await adminSignIn(t, (await createUser(t, undefined, { superuser: true })).username);
});
afterAll(() => t?.stop());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR passport scan')]);
const PDF = Buffer.from('%PDF-1.7\nproof of address\n%%EOF');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('selfie')]);

function api(token: string | undefined, method: string, path: string, body?: unknown) {
  return http(`${t.urls.finance}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function newUser() {
  const user = await createUser(t);
  return { ...user, token: await login(t, user.username) };
}

const start = (token: string, level: string, lastName = 'Smith') =>
  api(token, 'POST', '/api/v1/kyc/verifications/', { level, first_name: 'Ada', last_name: lastName });
const upload = (token: string, id: string, file: Buffer, kind = 'passport') =>
  api(token, 'POST', `/api/v1/kyc/verifications/${id}/documents/`, { kind, content_base64: file.toString('base64') });
const submit = (token: string, id: string) => api(token, 'POST', `/api/v1/kyc/verifications/${id}/submit/`);
const status = async (token: string) =>
  (await api(token, 'GET', '/api/v1/kyc/')).body as { level: string; required_level: string; verifications: { id: string; state: string }[] };
/** The level the user's principal carries on their next request (what money modules read). */
const principalLevel = async (token: string) =>
  (await graphql(t, '{ nodeUser { kycLevel } }', {}, { authorization: `Bearer ${token}` })).body.data.nodeUser.kycLevel as string;

/** Starts, uploads and submits: the sandbox decides from the last name. */
async function verify(token: string, level: string, lastName = 'Smith') {
  const created = await start(token, level, lastName);
  expect(created.status).toBe(201);
  expect((await upload(token, created.body.id, PNG)).status).toBe(201);
  return submit(token, created.body.id);
}

const reviewVerification = (id: string, decision: string, reason = '') =>
  adminPost(t, admin, `/admin/compliance/verification/${id}/review/`, { decision, reason });

describe('GET /api/v1/kyc/', () => {
  it('needs a bearer token, and starts at level none with no verification; the node requires basic by default', async () => {
    expect((await api(undefined, 'GET', '/api/v1/kyc/')).status).toBe(401);
    const { token } = await newUser();
    const res = await api(token, 'GET', '/api/v1/kyc/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ level: 'none', required_level: 'basic', verifications: [] });
  });
});

describe('a basic verification with the sandbox', () => {
  it('goes unverified → pending → verified; the document is in the object store; the level and the principal follow', async () => {
    const { id: userId, token } = await newUser();
    const created = await start(token, 'basic');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      level: 'basic',
      state: 'unverified',
      provider: 'sandbox',
      reason: '',
      submitted_at: null,
      expires_at: null,
      documents: [],
    });

    const doc = await upload(token, created.body.id, PNG);
    expect(doc.status).toBe(201);
    expect(doc.body).toMatchObject({ kind: 'passport', content_type: 'image/png', size: PNG.length, sha256: createHash('sha256').update(PNG).digest('hex') });
    const [row] = await t.app.services.compliance.store.documents([created.body.id]);
    const stored = Buffer.concat(await (await objectStoreFor(t.config).get(row.objectKey)).toArray());
    expect(stored.equals(PNG)).toBe(true);
    expect(row.objectKey.startsWith(`kyc/${userId}/`)).toBe(true);

    expect(await principalLevel(token)).toBe('NONE');
    const submitted = await submit(token, created.body.id);
    expect(submitted.status).toBe(200);
    expect(submitted.body.state).toBe('verified');
    const expires = new Date(submitted.body.expires_at as string).getTime();
    expect(expires - Date.now()).toBeGreaterThan(729 * 86_400_000);
    expect(submitted.body.documents).toHaveLength(1);

    const s = await status(token);
    expect(s.level).toBe('basic');
    expect(s.verifications.map((v) => v.state)).toEqual(['verified']);
    expect(await principalLevel(token)).toBe('BASIC');
  });

  it('refuses what does not apply in the current state with 409 and the state, changing nothing', async () => {
    const { token } = await newUser();
    const verified = await verify(token, 'basic');
    const id = verified.body.id as string;
    const again = await submit(token, id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'kyc_invalid_state', state: 'verified' });
    const more = await upload(token, id, PDF, 'proof_of_address');
    expect(more.status).toBe(409);
    expect(more.body).toMatchObject({ code: 'kyc_invalid_state', state: 'verified' });
    const twice = await start(token, 'basic');
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'kyc_verification_exists', state: 'verified', id });
    // an administrator cannot decide what is not awaiting a decision either
    const decided = await reviewVerification(id, 'rejected', 'no');
    expect(decided.status).toBe(409);
    expect(decided.body).toContain('verified');
    expect((await t.app.services.compliance.store.documents([id])).length).toBe(1);
    expect((await status(token)).verifications.map((v) => v.state)).toEqual(['verified']);
  });

  it('rejected (sandbox last name "Reject") is final: no resubmission, no new documents', async () => {
    const { token } = await newUser();
    const rejected = await verify(token, 'basic', 'Reject');
    expect(rejected.body).toMatchObject({ state: 'rejected' });
    expect(rejected.body.reason).toContain('Reject');
    expect((await submit(token, rejected.body.id)).body).toMatchObject({ code: 'kyc_invalid_state', state: 'rejected' });
    expect((await upload(token, rejected.body.id, PNG)).body).toMatchObject({ code: 'kyc_invalid_state', state: 'rejected' });
    expect((await status(token)).level).toBe('none');
  });

  it('resubmission_required (sandbox "Resubmit") needs a new document before it can be submitted again', async () => {
    const { token } = await newUser();
    const first = await verify(token, 'basic', 'Resubmit');
    expect(first.body.state).toBe('resubmission_required');
    const bare = await submit(token, first.body.id);
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toHaveProperty('documents');
    expect((await upload(token, first.body.id, JPEG, 'selfie')).body.content_type).toBe('image/jpeg');
    const second = await submit(token, first.body.id);
    expect(second.status).toBe(200);
    expect(second.body.state).toBe('resubmission_required');
    expect(second.body.documents).toHaveLength(2);
  });
});

describe('document checks', () => {
  it('takes JPEG, PNG and PDF by their bytes and refuses anything else, an empty or oversized file, bad base64 or an unknown kind (400, nothing stored)', async () => {
    const { token } = await newUser();
    const { body } = await start(token, 'basic');
    expect((await upload(token, body.id, PDF, 'proof_of_address')).body.content_type).toBe('application/pdf');
    const cases: [unknown, string][] = [
      [{ kind: 'passport', content_base64: Buffer.from('MZ\x90\x00 an executable').toString('base64') }, 'content_base64'],
      [{ kind: 'passport', content_base64: Buffer.from('<svg onload=alert(1)>').toString('base64') }, 'content_base64'],
      [{ kind: 'passport', content_base64: Buffer.concat([PNG, Buffer.alloc(MAX_BYTES)]).toString('base64') }, 'content_base64'],
      [{ kind: 'passport', content_base64: 'not base64 at all!' }, 'content_base64'],
      [{ kind: 'passport', content_base64: '' }, 'content_base64'],
      [{ kind: 'tax_return', content_base64: PNG.toString('base64') }, 'kind'],
    ];
    for (const [payload, field] of cases) {
      const res = await api(token, 'POST', `/api/v1/kyc/verifications/${body.id}/documents/`, payload);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid');
      expect(res.body.errors).toHaveProperty(field);
    }
    expect((await t.app.services.compliance.store.documents([body.id])).length).toBe(1);
  });

  it('stores a retried upload once (Idempotency-Key); the key with another file is 422', async () => {
    const { token } = await newUser();
    const { body } = await start(token, 'basic');
    const uploadPassport = (file: Buffer) =>
      http(`${t.urls.finance}/api/v1/kyc/verifications/${body.id}/documents/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'upload-passport-1' },
        body: JSON.stringify({ kind: 'passport', content_base64: file.toString('base64') }),
      });
    const [first, again] = [await uploadPassport(PNG), await uploadPassport(PNG)];
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    const other = await uploadPassport(JPEG);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect((await t.app.services.compliance.store.documents([body.id])).map((d) => d.id)).toEqual([first.body.id]);
  });

  it("answers 404 for another user's verification and for an unknown id", async () => {
    const owner = await newUser();
    const other = await newUser();
    const { body } = await start(owner.token, 'basic');
    expect((await upload(other.token, body.id, PNG)).status).toBe(404);
    expect((await submit(other.token, body.id)).status).toBe(404);
    expect((await submit(owner.token, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.app.services.compliance.store.documents([body.id])).length).toBe(0);
  });
});

describe('enhanced verification and manual review', () => {
  it('refuses enhanced before basic is verified (409), then in_review → approved in the admin console → enhanced', async () => {
    const { token } = await newUser();
    const early = await start(token, 'enhanced');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'kyc_basic_required', state: 'unverified' });

    await verify(token, 'basic');
    const enhanced = await verify(token, 'enhanced', 'Review');
    expect(enhanced.body.state).toBe('in_review');
    expect((await status(token)).level).toBe('basic');

    const list = await http(`${t.urls.finance}/admin/compliance/verification/?state=in_review`, { headers: { cookie: admin.cookie } });
    expect(list.status).toBe(200);
    expect(list.body).toContain('href="/admin/compliance/">← Back to Compliance');
    const app = await http(`${t.urls.finance}/admin/compliance/`, { headers: { cookie: admin.cookie } });
    expect(app.status).toBe(200);
    expect(app.body).toContain('href="/admin/compliance/verification/"');
    expect((await http(`${t.urls.finance}/admin/`, { headers: { cookie: admin.cookie } })).body).toContain('href="/admin/compliance/"');
    expect(list.body).toContain(`/admin/compliance/verification/${enhanced.body.id}/review/`);

    const approved = await reviewVerification(enhanced.body.id, 'verified');
    expect(approved.status).toBe(302);
    expect(approved.headers.get('location')).toBe('/admin/compliance/verification/?saved=1');
    const s = await status(token);
    expect(s.level).toBe('enhanced');
    expect(await principalLevel(token)).toBe('ENHANCED');
    const decided = s.verifications.find((v) => v.id === enhanced.body.id)!;
    expect(decided.state).toBe('verified');
  });

  it('an administrator asks for resubmission (a reason is required), the user resubmits, the administrator rejects', async () => {
    const { token } = await newUser();
    const pending = await verify(token, 'basic', 'Pending');
    expect(pending.body.state).toBe('pending');
    const id = pending.body.id as string;
    // submitted and awaiting a decision: no documents, no second submission
    expect((await upload(token, id, PNG)).body).toMatchObject({ code: 'kyc_invalid_state', state: 'pending' });

    const noReason = await reviewVerification(id, 'resubmission_required');
    expect(noReason.status).toBe(400);
    expect((await reviewVerification(id, 'resubmission_required', 'The photo is blurred.')).status).toBe(302);
    let v = (await status(token)).verifications[0] as { state: string; reason?: string };
    expect(v).toMatchObject({ state: 'resubmission_required', reason: 'The photo is blurred.' });

    expect((await upload(token, id, JPEG)).status).toBe(201);
    expect((await submit(token, id)).body.state).toBe('pending');
    expect((await reviewVerification(id, 'rejected', 'Document forged.')).status).toBe(302);
    v = (await status(token)).verifications[0];
    expect(v).toMatchObject({ state: 'rejected', reason: 'Document forged.' });
    expect((await reviewVerification(id, 'verified')).status).toBe(409);
    expect((await status(token)).level).toBe('none');
  });

  it('shows the reviewer the person by name and handle, and opens the document (its bytes and type, each view audited)', async () => {
    const { username, token } = await newUser();
    const created = await start(token, 'basic', 'Review');
    const doc = await upload(token, created.body.id, PDF, 'proof_of_address');
    expect((await submit(token, created.body.id)).body.state).toBe('in_review');

    const list = await http(`${t.urls.finance}/admin/compliance/verification/?state=in_review`, { headers: { cookie: admin.cookie } });
    expect(list.body).toContain('<strong>Ada Review</strong>');
    expect(list.body).toContain(`@${username}</a>`);
    const link = `/admin/compliance/verification/documents/${doc.body.id}/`;
    expect(list.body).toContain(`href="${link}"`);

    const viewed = async () =>
      (
        await t.app.services.ledger.store.pool.query(`SELECT detail FROM node.audit_log WHERE action = 'kyc.document_viewed' AND detail->>'document' = $1`, [
          doc.body.id,
        ])
      ).rows.length;
    const opened = await http(`${t.urls.finance}${link}`, { headers: { cookie: admin.cookie } });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('application/pdf');
    expect(opened.headers.get('content-disposition')).toMatch(/^inline/);
    expect(opened.body).toBe(PDF.toString('latin1'));
    await auditDelivered(t);
    expect(await viewed()).toBe(1);
    // the audit log names the person and reads as pairs, not raw JSON (the CSV keeps the JSON)
    const log = (await http(`${t.urls.finance}/admin/audit/?action=kyc.document_viewed&q=${doc.body.id}`, { headers: { cookie: admin.cookie } }))
      .body as string;
    expect(log).toContain(`@${username}</a>`);
    expect(log).toContain(`document: <strong>${doc.body.id}</strong>`);
    expect(log).toContain('kind: <strong>proof_of_address</strong>');
    expect(log).not.toContain('&quot;document&quot;');

    // not signed in: the sign-in page, no bytes and no view; an unknown document: 404
    expect((await http(`${t.urls.finance}${link}`)).status).toBe(302);
    expect(
      (await http(`${t.urls.finance}/admin/compliance/verification/documents/${crypto.randomUUID()}/`, { headers: { cookie: admin.cookie } })).status,
    ).toBe(404);
    await auditDelivered(t);
    expect(await viewed()).toBe(1);
  });

  it('keeps the review pages to administrators', async () => {
    const res = await http(`${t.urls.finance}/admin/compliance/verification/`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toContain('/admin/login/');
    const { token } = await newUser();
    const forged = await graphql(
      t,
      'mutation($id: ID!) { reviewKycVerification(verificationId: $id, decision: "verified") { state } }',
      { id: '00000000-0000-4000-8000-000000000000' },
      { authorization: `Bearer ${token}` },
    );
    expect(forged.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('expiry and the node toggles', () => {
  it('a verified level lapses at its expiry (the sweep): expired, level none; the user verifies again', async () => {
    const { token } = await newUser();
    const verified = await verify(token, 'basic');
    await t.app.services.compliance.store.pool.query(`UPDATE compliance.verification SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      verified.body.id,
    ]);
    expect(await t.app.services.compliance.kyc.expireDue()).toBeGreaterThanOrEqual(1);
    const s = await status(token);
    expect(s.level).toBe('none');
    expect(s.verifications[0]).toMatchObject({ state: 'expired', expires_at: null });
    expect(await principalLevel(token)).toBe('NONE');
    // documents again, then a new decision
    expect((await upload(token, verified.body.id, PNG)).status).toBe(201);
    expect((await submit(token, verified.body.id)).body.state).toBe('verified');
    expect(await principalLevel(token)).toBe('BASIC');
  });

  it('keeps the written level consistent when an expiry and an approval for one user land together', async () => {
    const { token } = await newUser();
    const basic = await verify(token, 'basic');
    const enhanced = await verify(token, 'enhanced', 'Review');
    await t.app.services.compliance.store.pool.query(`UPDATE compliance.verification SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      basic.body.id,
    ]);
    const [, approved] = await Promise.all([t.app.services.compliance.kyc.expireDue(), reviewVerification(enhanced.body.id, 'verified')]);
    expect(approved.status).toBe(302);
    // enhanced builds on basic: with basic expired the level is none, in compliance and in every principal
    expect((await status(token)).level).toBe('none');
    expect(await principalLevel(token)).toBe('NONE');
  });

  it('the required level follows "KYC requirements" and "Enforce enhanced KYC"', async () => {
    const { token } = await newUser();
    await verify(token, 'basic');
    try {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ kyc_required: true, enhanced_kyc_required: true }, 'test'));
      expect(await status(token)).toMatchObject({ level: 'basic', required_level: 'enhanced' });
      await changeNode(t, () => t.app.services.node.node.updateSettings({ kyc_required: false, enhanced_kyc_required: false }, 'test'));
      expect(await status(token)).toMatchObject({ level: 'basic', required_level: 'none' });
    } finally {
      await changeNode(t, () => t.app.services.node.node.updateSettings({ kyc_required: true, enhanced_kyc_required: false }, 'test'));
    }
    expect(await status(token)).toMatchObject({ level: 'basic', required_level: 'basic' });
  });
});
