import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { createUser, installValidLicence, login } from '../../support/finance/node';
import { LocalSumsub, signedWebhook } from '../../support/finance/sumsub';

/**
 * KYC against a provider speaking Sumsub's protocol on a LOCAL server: signed requests (applicant,
 * documents, submission), then the decision by signed webhook — a bad signature refused (401), the
 * same delivery twice applied once, each review answer mapped to its state, the level following.
 */
const APP_TOKEN = 'sbx:local-app-token';
const SECRET_KEY = 'local-secret-key-for-request-signatures';
const WEBHOOK_SECRET = 'local-webhook-secret-0123456789';
const provider = new LocalSumsub(APP_TOKEN, SECRET_KEY);
let t: TestApp;

beforeAll(async () => {
  const url = await provider.start();
  t = await startTestApp({
    KYC_PROVIDER: 'sumsub',
    KYC_PROVIDER_URL: url,
    KYC_PROVIDER_APP_TOKEN: APP_TOKEN,
    KYC_PROVIDER_SECRET_KEY: SECRET_KEY,
    KYC_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  await installValidLicence(t);
});
afterAll(async () => {
  await t?.stop();
  await provider.stop();
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('passport scan')]);

function api(token: string, method: string, path: string, body?: unknown) {
  return http(`${t.urls.finance}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const deliver = (body: string, headers: Record<string, string>, providerName = 'sumsub') =>
  http(`${t.urls.finance}/api/v1/webhooks/kyc/${providerName}/`, { method: 'POST', headers, body });

/** A user with a submitted basic verification (pending at the provider) and its applicant id. */
async function submitted() {
  const user = await createUser(t);
  const token = await login(t, user.username);
  const created = await api(token, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Grace', last_name: 'Hopper' });
  await api(token, 'POST', `/api/v1/kyc/verifications/${created.body.id}/documents/`, { kind: 'passport', content_base64: PNG.toString('base64') });
  const res = await api(token, 'POST', `/api/v1/kyc/verifications/${created.body.id}/submit/`);
  expect(res.status).toBe(200);
  expect(res.body.state).toBe('pending');
  const applicantId = (await t.app.services.compliance.store.byId(created.body.id as string))!.applicantId!;
  return { token, id: created.body.id as string, applicantId };
}

const reviewed = (applicantId: string, answer: Record<string, unknown>, type = 'applicantReviewed') => ({
  applicantId,
  inspectionId: 'insp-1',
  correlationId: `corr-${applicantId}-${JSON.stringify(answer)}`,
  levelName: 'basic-kyc-level',
  type,
  reviewStatus: 'completed',
  createdAtMs: new Date().toISOString(),
  reviewResult: answer,
});
const stateOf = async (token: string) =>
  (await api(token, 'GET', '/api/v1/kyc/')).body as { level: string; verifications: { state: string; reason: string }[] };

it('creates the applicant, sends the document and asks for review, every request signed', async () => {
  const before = provider.calls.length;
  const { applicantId } = await submitted();
  const calls = provider.calls.slice(before);
  expect(calls.map((c) => `${c.method} ${c.path.replace(applicantId, ':id')}`)).toEqual([
    'POST /resources/applicants?levelName=basic-kyc-level',
    'POST /resources/applicants/:id/info/idDoc',
    'POST /resources/applicants/:id/status/pending',
  ]);
  expect(calls.every((c) => c.signed)).toBe(true);
  expect(JSON.parse(calls[0].body.toString())).toMatchObject({ info: { firstName: 'Grace', lastName: 'Hopper' } });
  expect(calls[1].contentType).toMatch(/^multipart\/form-data; boundary=/);
  expect(calls[1].body.includes(PNG)).toBe(true);
  expect(calls[1].body.toString('latin1')).toContain('"idDocType":"PASSPORT"');
});

it('applies a signed applicantReviewed GREEN once, however often it is delivered; the level follows', async () => {
  const { token, applicantId } = await submitted();
  const { body, headers } = signedWebhook(WEBHOOK_SECRET, reviewed(applicantId, { reviewAnswer: 'GREEN' }));
  const first = await deliver(body, headers);
  expect(first.status).toBe(200);
  expect(first.body).toEqual({ received: true, applied: true });
  const second = await deliver(body, headers);
  expect(second.status).toBe(200);
  expect(second.body).toEqual({ received: true, applied: false });
  expect(await stateOf(token)).toMatchObject({ level: 'basic', verifications: [{ state: 'verified' }] });
  const deliveries = await t.app.services.compliance.store.pool.query('SELECT count(*)::int AS n FROM compliance.webhook_delivery');
  expect(deliveries.rows[0].n).toBeGreaterThanOrEqual(1);
});

it('applies a delivery once when the provider sends it twice at the same moment', async () => {
  const { token, applicantId } = await submitted();
  const { body, headers } = signedWebhook(WEBHOOK_SECRET, reviewed(applicantId, { reviewAnswer: 'GREEN' }));
  const answers = await Promise.all([deliver(body, headers), deliver(body, headers), deliver(body, headers)]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  expect(answers.filter((a) => a.body.applied === true)).toHaveLength(1);
  expect(await stateOf(token)).toMatchObject({ level: 'basic', verifications: [{ state: 'verified' }] });
});

it('refuses a missing, wrong or tampered signature (401) and changes nothing', async () => {
  const { token, applicantId } = await submitted();
  const { body, headers } = signedWebhook(WEBHOOK_SECRET, reviewed(applicantId, { reviewAnswer: 'GREEN' }));
  const { 'x-payload-digest': _digest, ...unsigned } = headers;
  const forged = signedWebhook('not-the-webhook-secret-at-all', reviewed(applicantId, { reviewAnswer: 'GREEN' }));
  const tampered = body.replace('GREEN', 'GREEN ');
  for (const [b, h] of [
    [body, unsigned],
    [forged.body, forged.headers],
    [tampered, headers],
    [body, { ...headers, 'x-payload-digest-alg': 'HMAC_MD5_HEX' }],
  ] as [string, Record<string, string>][]) {
    const res = await deliver(b, h);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('webhook_signature_invalid');
  }
  expect(await stateOf(token)).toMatchObject({ level: 'none', verifications: [{ state: 'pending' }] });
  // the genuine delivery still applies afterwards (refusals were not recorded as seen)
  expect((await deliver(body, headers)).body.applied).toBe(true);
});

it('maps RED/RETRY to resubmission_required, RED/FINAL to rejected, applicantOnHold to in_review (SHA-512 digests too)', async () => {
  const retry = await submitted();
  const r1 = signedWebhook(WEBHOOK_SECRET, reviewed(retry.applicantId, { reviewAnswer: 'RED', reviewRejectType: 'RETRY', moderationComment: 'Blurred photo' }));
  expect((await deliver(r1.body, r1.headers)).body.applied).toBe(true);
  expect((await stateOf(retry.token)).verifications[0]).toMatchObject({ state: 'resubmission_required', reason: 'Blurred photo' });

  const held = await submitted();
  const h1 = signedWebhook(WEBHOOK_SECRET, reviewed(held.applicantId, {}, 'applicantOnHold'), 'HMAC_SHA512_HEX');
  expect((await deliver(h1.body, h1.headers)).body.applied).toBe(true);
  expect((await stateOf(held.token)).verifications[0].state).toBe('in_review');
  const h2 = signedWebhook(WEBHOOK_SECRET, reviewed(held.applicantId, { reviewAnswer: 'RED', reviewRejectType: 'FINAL', rejectLabels: ['FORGERY'] }));
  expect((await deliver(h2.body, h2.headers)).body.applied).toBe(true);
  expect((await stateOf(held.token)).verifications[0]).toMatchObject({ state: 'rejected', reason: 'FORGERY' });
  // a decision arriving after the verification is decided is acknowledged and ignored
  const late = signedWebhook(WEBHOOK_SECRET, reviewed(held.applicantId, { reviewAnswer: 'GREEN' }));
  expect((await deliver(late.body, late.headers)).body).toEqual({ received: true, applied: false });
  expect(await stateOf(held.token)).toMatchObject({ level: 'none', verifications: [{ state: 'rejected' }] });
});

it('answers 404 for a provider this node does not use', async () => {
  const { body, headers } = signedWebhook(WEBHOOK_SECRET, reviewed('whatever', { reviewAnswer: 'GREEN' }));
  const res = await deliver(body, headers, 'onfido');
  expect(res.status).toBe(404);
});

it('answers 502 when the provider fails, and the verification stays open to submit again', async () => {
  const user = await createUser(t);
  const token = await login(t, user.username);
  const created = await api(token, 'POST', '/api/v1/kyc/verifications/', { level: 'basic', first_name: 'Alan', last_name: 'Turing' });
  await api(token, 'POST', `/api/v1/kyc/verifications/${created.body.id}/documents/`, { kind: 'passport', content_base64: PNG.toString('base64') });
  provider.failWith = 500;
  try {
    const res = await api(token, 'POST', `/api/v1/kyc/verifications/${created.body.id}/submit/`);
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('kyc_provider_unavailable');
  } finally {
    provider.failWith = undefined;
  }
  expect((await stateOf(token)).verifications[0].state).toBe('unverified');
  expect((await api(token, 'POST', `/api/v1/kyc/verifications/${created.body.id}/submit/`)).body.state).toBe('pending');
});
