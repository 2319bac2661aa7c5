import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { http } from '../../../support/platform/http';
import { KEY_RE, readMail, type ReadMail } from '../../../support/platform/mail';

/**
 * With SMTP_URL set, the confirmation link and the approval mail go out by SMTP (nodemailer) to a
 * local SMTP server (smtp-server), and a failed delivery leaves the application pending with no key
 * issued.
 */

interface Delivery {
  from: string;
  to: string[];
  mail: ReadMail;
}

let smtp: SMTPServer;
let smtpOpen = false;
let t: TestApp;
const closeSmtp = () => new Promise<void>((resolve) => (smtpOpen ? smtp.close(() => resolve()) : resolve())).then(() => void (smtpOpen = false));
const deliveries: Delivery[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        readMail(Buffer.concat(chunks)).then((mail) => {
          deliveries.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            mail,
          });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpOpen = true;
  const { port } = smtp.server.address() as AddressInfo;
  t = await startTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'Match Predictions <keys@predictions.example>',
    PUBLIC_URL_PREDICTIONS: 'https://api.predictions.example',
  });
});
afterAll(async () => {
  await t?.stop();
  await closeSmtp();
});

/**
 * Applies, and confirms the address with the link the confirmation mail brought (by SMTP, to the
 * page in that link: on the configured public address, here this test's own server). Its id.
 */
async function applyAndConfirm(email: string): Promise<string> {
  const applied = await http(`${t.urls.predictions}/api/applications/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Big Co Analytics', usage: 'Match previews inside our sports app for 2 million users.', email }),
  });
  expect(applied.status).toBe(202);
  const confirmation = deliveries.splice(0).find((d) => d.to.includes(email))!;
  expect(confirmation.mail.subject).toBe('Confirm your e-mail address for the Match Prediction API');
  const link = /https:\/\/api\.predictions\.example(\/apply\/confirm\/)\?token=([A-Za-z0-9_-]{43})/.exec(confirmation.mail.text)!;
  const confirmed = await http(`${t.urls.predictions}${link[1]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: link[2] }).toString(),
  });
  expect(confirmed.status).toBe(200);
  const list = await http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    key: t.adminKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ applications(status: pending) { id email } }' }),
  });
  return (list.body.data.applications as { id: string; email: string }[]).find((a) => a.email === email)!.id;
}

const approve = async (id: string) =>
  (
    await http(`${t.urls.gateway}/graphql`, {
      method: 'POST',
      key: t.adminKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($id: ID!) { approveApplication(id: $id, plan: enterprise, dailyLimit: 20000) { status keyPrefix } }',
        variables: { id },
      }),
    })
  ).body;

it('sends the approval mail with the key by SMTP; the key works with its Enterprise limit', async () => {
  const id = await applyAndConfirm('cto@bigco.example');
  const res = await approve(id);
  expect(res.errors).toBeUndefined();
  expect(res.data.approveApplication.status).toBe('approved');

  expect(deliveries).toHaveLength(1);
  const [{ from, to, mail }] = deliveries;
  expect(from).toBe('keys@predictions.example');
  expect(to).toEqual(['cto@bigco.example']);
  expect(mail.subject).toBe('Your Match Prediction API key');
  expect(mail.text).toContain('Plan: Enterprise, 20,000 requests per day.');
  expect(mail.text).toContain('API reference: https://api.predictions.example/api/docs/');
  const key = mail.text.match(KEY_RE)![0];
  expect(key.startsWith(res.data.approveApplication.keyPrefix)).toBe(true);

  const api = await http(`${t.urls.predictions}/api/`, { key });
  expect(api.status).toBe(200);
  expect(api.headers.get('x-ratelimit-limit')).toBe('20000');
});

it('issues nothing when the mail cannot be delivered: the application stays pending', async () => {
  const id = await applyAndConfirm('ops@bigco.example');
  await closeSmtp();
  const res = await approve(id);
  expect(res.errors?.[0].extensions.code).toBe('MAIL_NOT_SENT');
  expect(res.errors?.[0].message).toMatch(/still pending/);
  const check = await http(`${t.urls.gateway}/graphql`, {
    method: 'POST',
    key: t.adminKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ applications { email status keyPrefix } apiKeys { email } }' }),
  });
  expect(check.body.data.applications).toContainEqual({ email: 'ops@bigco.example', status: 'pending', keyPrefix: null });
  expect(check.body.data.apiKeys.filter((k: { email: string }) => k.email === 'ops@bigco.example')).toEqual([]);
});
