import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { outbox, rfc822 } from '../../../support/platform/mail';

/**
 * Abuse limits of the anonymous intake, per client address: the form,
 * POST /api/applications/ and GraphQL share one allowance per address; the inbound-mail webhook has
 * its own; wrong webhook secrets are throttled. 429 with Retry-After. The client's address comes
 * from X-Forwarded-For only because TRUST_PROXY trusts the loopback proxy these requests come from.
 */

const SECRET = 'inbound-secret-for-abuse-limits-0123';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ INBOUND_MAIL_SECRET: SECRET, APPLICATIONS_PER_HOUR: '3', INBOUND_MAILS_PER_HOUR: '2', TRUST_PROXY: 'loopback' });
});
afterAll(() => t?.stop());

const from = (address: string) => ({ 'x-forwarded-for': address });
const application = (n: number) => ({ name: `Applicant ${n}`, usage: `Project number ${n}, a few requests a day.`, email: `applicant${n}@limits.example` });
const postForm = (address: string, n: number) =>
  http(`${t.urls.predictions}/apply/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(address) },
    body: new URLSearchParams(application(n)).toString(),
  });
const postJson = (address: string, n: number) =>
  http(`${t.urls.predictions}/api/applications/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...from(address) },
    body: JSON.stringify(application(n)),
  });
const postGraphQL = (address: string, n: number) =>
  http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...from(address) },
    body: JSON.stringify({
      query: 'mutation($input: AccessApplicationInput!) { submitApplication(input: $input) { message } }',
      variables: { input: application(n) },
    }),
  });
const postMail = (address: string, secret: string, n: number) =>
  http(`${t.urls.predictions}/api/applications/inbound-email/`, {
    method: 'POST',
    headers: { 'content-type': 'message/rfc822', 'x-inbound-mail-secret': secret, ...from(address) },
    body: rfc822({ from: `Sender ${n} <sender${n}@limits.example>`, subject: 'API Access Request', body: `Usage: a mailed project number ${n}.` }),
  });
const retryAfter = (res: { headers: Headers }) => Number(res.headers.get('retry-after'));

it('shares one allowance per address between the form, the JSON variant and GraphQL; past it, 429 with Retry-After', async () => {
  expect((await postForm('203.0.113.10', 1)).status).toBe(200);
  expect((await postJson('203.0.113.10', 2)).status).toBe(202);
  expect((await postGraphQL('203.0.113.10', 3)).body.errors).toBeUndefined();

  const form = await postForm('203.0.113.10', 4);
  expect(form.status).toBe(429);
  expect(form.headers.get('content-type')).toMatch(/^text\/html/);
  expect(form.body).toContain('Too many applications from your address');
  // what the applicant typed is kept
  expect(form.body).toContain('value="applicant4@limits.example"');
  expect(retryAfter(form)).toBeGreaterThan(0);
  expect(retryAfter(form)).toBeLessThanOrEqual(3600);

  const json = await postJson('203.0.113.10', 5);
  expect(json.status).toBe(429);
  expect(json.body).toEqual({ detail: 'Too many applications from your address; please try again later.', code: 'throttled' });
  expect(retryAfter(json)).toBeGreaterThan(0);

  const graphql = await postGraphQL('203.0.113.10', 6);
  expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });

  // another address has its own allowance
  expect((await postJson('203.0.113.11', 7)).status).toBe(202);
});

it('limits the inbound-mail webhook per address', async () => {
  expect((await postMail('198.51.100.20', SECRET, 1)).status).toBe(202);
  expect((await postMail('198.51.100.20', SECRET, 2)).status).toBe(202);
  const refused = await postMail('198.51.100.20', SECRET, 3);
  expect(refused.status).toBe(429);
  expect(refused.body.code).toBe('throttled');
  expect(retryAfter(refused)).toBeGreaterThan(0);
  expect((await postMail('198.51.100.21', SECRET, 4)).status).toBe(202);
});

it('throttles wrong webhook secrets per address: after five, even the right secret waits (429), elsewhere it works', async () => {
  for (let i = 0; i < 5; i++) {
    const res = await postMail('198.51.100.30', `wrong-secret-${i}-0123456789`, 10 + i);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/secret is wrong/);
  }
  const blocked = await postMail('198.51.100.30', SECRET, 20);
  expect(blocked.status).toBe(429);
  expect(blocked.body).toMatchObject({ code: 'throttled', detail: expect.stringMatching(/Too many wrong inbound e-mail secrets/) });
  expect(retryAfter(blocked)).toBeGreaterThan(0);
  expect(retryAfter(blocked)).toBeLessThanOrEqual(900);
  expect((await postMail('198.51.100.31', SECRET, 21)).status).toBe(202);
  // the same guesses through the public gateway count against the same address
  const viaGateway = await http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-inbound-mail-secret': SECRET, ...from('198.51.100.30') },
    body: JSON.stringify({ query: 'mutation($raw: String!) { submitApplicationEmail(rawMessage: $raw) { message } }', variables: { raw: 'x' } }),
  });
  expect(viaGateway.status).toBe(429);
});

it('mails one address at most three confirmation links a day, whoever asks', async () => {
  const mail = outbox(t.config.dataDir);
  await mail.fresh();
  const victim = { name: 'Victim', usage: 'Somebody else typed my address here.', email: 'victim@limits.example' };
  for (let i = 0; i < 5; i++) {
    const res = await http(`${t.urls.predictions}/api/applications/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from(`192.0.2.${i + 1}`) },
      body: JSON.stringify(victim),
    });
    expect(res.status).toBe(202);
  }
  expect((await mail.fresh()).filter((m) => m.to === 'victim@limits.example')).toHaveLength(3);
});
