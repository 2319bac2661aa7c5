import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '../../../lib/errors';
import { TwilioSms } from '../../../subgraphs/finance/identity/domain/sms';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { createUser, installValidLicence, login } from '../../support/finance/node';

/**
 * The Twilio-protocol SMS provider (SMS_PROVIDER_URL) against a local peer that speaks Twilio's
 * Messages API: `POST /2010-04-01/Accounts/{sid}/Messages.json`, form-encoded To/From/Body, basic
 * auth sid:token, 201 with the message. The peer records each request and checks the credentials;
 * the provider's refusals, failures and silence become 400 (the number) or 503 (provider_unavailable).
 */
const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-test-auth-token';

interface Received {
  method: string;
  path: string;
  contentType: string | undefined;
  form: Record<string, string>;
}

let peer: Server;
let peerUrl: string;
const received: Received[] = [];
/** What the peer does next: answer normally, refuse the number, fail, or not answer in time. */
let mode: 'ok' | 'refuse-number' | 'fail' | 'slow' = 'ok';

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  peer = createServer((req, res) => {
    void (async () => {
      const form = Object.fromEntries(new URLSearchParams(await bodyOf(req)));
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      const expected = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
      if (req.headers.authorization !== expected) return reply(401, { code: 20003, message: 'Authenticate', status: 401 });
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match || match[1] !== SID) return reply(404, { code: 20404, message: 'not found', status: 404 });
      received.push({ method: req.method, path: req.url!, contentType: req.headers['content-type'], form });
      if (mode === 'refuse-number') return reply(400, { code: 21211, message: `The 'To' number ${form.To} is not a valid phone number.`, status: 400 });
      if (mode === 'fail') return reply(500, { code: 20500, message: 'Internal Server Error', status: 500 });
      if (mode === 'slow') await new Promise((r) => setTimeout(r, 1500));
      reply(201, { sid: `SM${received.length.toString().padStart(32, '0')}`, status: 'queued', to: form.To, from: form.From, body: form.Body });
    })();
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => peer.close(() => resolve())));
beforeEach(() => {
  mode = 'ok';
  received.length = 0;
});

const provider = (over: Partial<ConstructorParameters<typeof TwilioSms>[0]> = {}) =>
  new TwilioSms({ baseUrl: peerUrl, accountSid: SID, authToken: TOKEN, from: '+15005550006', timeoutMs: 1000, ...over });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: DomainError) => [err.code, err.status],
  );

describe('TwilioSms', () => {
  it("posts the message form-encoded with basic auth to the account's Messages resource, and answers the message sid", async () => {
    const sent = await provider({ baseUrl: `${peerUrl}/` }).send({ to: '+447400123456', body: 'Your code is 123456.' });
    expect(sent.id).toMatch(/^SM\d{32}$/);
    expect(received).toEqual([
      {
        method: 'POST',
        path: `/2010-04-01/Accounts/${SID}/Messages.json`,
        contentType: 'application/x-www-form-urlencoded',
        form: { To: '+447400123456', From: '+15005550006', Body: 'Your code is 123456.' },
      },
    ]);
  });

  it('a number the provider refuses is 400; wrong credentials, a failure or no answer in time are 503 provider_unavailable', async () => {
    mode = 'refuse-number';
    expect(await failure(provider().send({ to: '+447400123456', body: 'x' }))).toEqual(['BAD_USER_INPUT', 400]);
    mode = 'fail';
    expect(await failure(provider().send({ to: '+447400123456', body: 'x' }))).toEqual(['PROVIDER_UNAVAILABLE', 503]);
    mode = 'ok';
    expect(await failure(provider({ authToken: 'wrong' }).send({ to: '+447400123456', body: 'x' }))).toEqual(['PROVIDER_UNAVAILABLE', 503]);
    mode = 'slow';
    expect(await failure(provider({ timeoutMs: 200 }).send({ to: '+447400123456', body: 'x' }))).toEqual(['PROVIDER_UNAVAILABLE', 503]);
    expect(await failure(provider({ baseUrl: 'http://127.0.0.1:1' }).send({ to: '+447400123456', body: 'x' }))).toEqual(['PROVIDER_UNAVAILABLE', 503]);
  });
});

describe('a node with SMS_PROVIDER_URL', () => {
  let t: TestApp<'finance'>;
  beforeAll(async () => {
    t = await startTestApp(
      { SMS_PROVIDER_URL: peerUrl, SMS_ACCOUNT_SID: SID, SMS_AUTH_TOKEN: TOKEN, SMS_FROM: 'AcmeFin', SMS_PROVIDER_TIMEOUT_MS: '1000' },
      { products: ['finance'] },
    );
    await installValidLicence(t);
  });
  afterAll(() => t?.stop());

  const call = (method: string, path: string, token: string, body: unknown) =>
    http(`${t.urls.finance}${path}`, { method, key: token, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('sends the code through the provider (nothing in the sandbox outbox), and the code verifies the number', async () => {
    const u = await createUser(t);
    const token = await login(t, u.username);
    const set = await call('PUT', '/api/v1/profile/phone/', token, { phone: '+447400654321' });
    expect([set.status, set.body.verified]).toEqual([202, false]);
    expect(received.map((r) => [r.form.To, r.form.From])).toEqual([['+447400654321', 'AcmeFin']]);
    const code = /\b(\d{6})\b/.exec(received[0].form.Body)![1];
    const { rowCount } = await t.app.services.identity.store.pool.query('SELECT 1 FROM identity.sms_outbox');
    expect(rowCount).toBe(0);
    const verified = await call('POST', '/api/v1/profile/phone/verify/', token, { code });
    expect([verified.status, verified.body]).toEqual([200, { username: u.username, phone: '+447400654321', verified: true }]);
  });

  it('answers 503 provider_unavailable when the provider fails, and 400 when it refuses the number; no code is left behind', async () => {
    const u = await createUser(t);
    const token = await login(t, u.username);
    mode = 'fail';
    const failed = await call('PUT', '/api/v1/profile/phone/', token, { phone: '+447400111222' });
    expect([failed.status, failed.body.code]).toEqual([503, 'provider_unavailable']);
    const { rowCount } = await t.app.services.identity.store.pool.query('SELECT 1 FROM identity.phone_code WHERE user_id = $1', [u.id]);
    expect(rowCount).toBe(0);
    const v = await createUser(t);
    mode = 'refuse-number';
    const refused = await call('PUT', '/api/v1/profile/phone/', await login(t, v.username), { phone: '+447400111223' });
    expect([refused.status, Object.keys(refused.body.errors ?? {})]).toEqual([400, ['phone']]);
  });
});
