import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import PostalMime from 'postal-mime';
import { buildFinanceClient, DEFAULT_CLIENT_DIR } from '../../../clients/finance-web/build';
import { projectRoot } from '../../../lib/paths';
import { CLIENT_PAGES, MESSAGE_KINDS, clientLink, type MessageKind } from '../../../subgraphs/finance/identity/domain/messages';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { changeNode, installValidLicence, login } from '../../support/finance/node';
import { outbox } from '../../support/platform/mail';
import { lastSmsTo, setVerifiedPhone } from '../../support/finance/phone';

/**
 * Every mail and text message the finance node sends: its links are absolute and open
 * a page of the web client — FRONTEND_URL, else in development the origin of the request that caused
 * it — and its sender is named after the node's branding (the address stays MAIL_FROM's). Each kind
 * of message (MESSAGE_KINDS, where the node declares them) is triggered as a person causes it; a new
 * kind fails here until it has a trigger. Production refuses to start the node without FRONTEND_URL.
 */
let t: TestApp<'finance'>;
let mail: ReturnType<typeof outbox>;
const BRAND = 'Harbour Bank';
const PASSWORD = 'a long enough password';

beforeAll(async () => {
  await buildFinanceClient({ outDir: DEFAULT_CLIENT_DIR });
  t = await startTestApp({ MAIL_FROM: 'Match Predictions <no-reply@harbour.example>', AUTH_ATTEMPTS_PER_HOUR: '60' }, { products: ['finance'] });
  await changeNode(t as unknown as TestApp, () => installValidLicence(t as unknown as TestApp));
  await t.app.services.node.node.updateBranding({ organisation_name: BRAND }, 'test');
  mail = outbox(t.config.dataDir);
}, 120_000);
afterAll(() => t?.stop());

const { url, post } = surface(() => t.urls.finance);
const person = () => {
  const username = `m_${randomUUID().slice(0, 8)}`;
  return { username, email: `${username}@example.com` };
};

interface Sent {
  to: string;
  from?: { name?: string; address?: string };
  subject?: string;
  body: string;
  kind?: string;
}

/** The next mail to `to` from the file outbox (read with its headers). */
async function mailTo(to: string): Promise<Sent> {
  for (let i = 0; i < 200; i++) {
    const got = (await mail.fresh()).find((m) => m.to === to);
    if (got) {
      const parsed = await PostalMime.parse(got.raw);
      return { to, from: parsed.from, subject: got.subject, body: got.text, kind: parsed.headers.find((h) => h.key === 'x-mail-kind')?.value };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to}`);
}

async function signUp(who: { username: string; email: string }) {
  const res = await post('/api/auth/signup/', undefined, { ...who, password: PASSWORD });
  expect(res.status).toBe(201);
}

/** How a person causes each kind of message; keyed by MESSAGE_KINDS, so a new kind needs its trigger here. */
const TRIGGERS: Record<MessageKind, () => Promise<Sent>> = {
  email_verify: async () => {
    const who = person();
    await signUp(who);
    return mailTo(who.email);
  },
  signup_address_held: async () => {
    const who = person();
    await signUp(who);
    const token = /\?token=([A-Za-z0-9_-]+)/.exec((await mailTo(who.email)).body)![1];
    expect((await post('/api/auth/email/verify/', undefined, { token })).status).toBe(200);
    await signUp({ username: person().username, email: who.email });
    return mailTo(who.email);
  },
  password_reset: async () => {
    const who = person();
    await signUp(who);
    await mailTo(who.email);
    expect((await post('/api/auth/password/reset/', undefined, { email: who.email })).status).toBe(202);
    return mailTo(who.email);
  },
  phone_code: async () => {
    const who = person();
    await signUp(who);
    const access = await login(t as unknown as TestApp, who.username, PASSWORD);
    const phone = `+4479${String(Date.now()).slice(-8)}`;
    await setVerifiedPhone(t as unknown as TestApp, access, phone);
    const sms = await lastSmsTo(t as unknown as TestApp, phone);
    return { to: phone, body: sms!.body };
  },
};

const URLS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"')\]]+|(?<![\w/])\/[A-Za-z0-9_.~-]+\/[^\s<>"')\]]*/g;
const clientPaths = new Set(Object.values(CLIENT_PAGES).map((p) => `/app/${p}`));

it('has a trigger for every kind of message the node declares', () => {
  expect(Object.keys(TRIGGERS).sort()).toEqual(Object.keys(MESSAGE_KINDS).sort());
});

describe.each(Object.keys(MESSAGE_KINDS) as MessageKind[])('%s', (kind) => {
  it('links absolutely to pages of the web client, named after the branding', async () => {
    const sent = await TRIGGERS[kind]();
    const links = sent.body.match(URLS) ?? [];
    if (MESSAGE_KINDS[kind] === 'mail') {
      expect(links.length).toBeGreaterThan(0);
      // the sender: the branding's name, MAIL_FROM's address (not "Match Predictions")
      expect(sent.from).toEqual({ name: BRAND, address: 'no-reply@harbour.example' });
      expect(sent.subject).toMatch(new RegExp(`^${BRAND}: `));
      expect(sent.kind).toBe(`finance:${kind}`);
    } else {
      expect(sent.body).toMatch(new RegExp(`^${BRAND}: `));
    }
    for (const link of links) {
      // absolute, on the node the request reached (development without FRONTEND_URL), at a page of the client
      expect(link.startsWith(`${t.urls.finance}/app/`)).toBe(true);
      const target = new URL(link);
      expect(clientPaths.has(target.pathname)).toBe(true);
      const page = await http(link);
      expect([link, page.status, page.headers.get('content-type')]).toEqual([link, 200, expect.stringMatching(/^text\/html/)]);
    }
  });
});

describe('the link base', () => {
  const settings = { development: true, fallback: 'http://localhost:8000/app/' };
  it('is FRONTEND_URL (with its path) whenever it is set; the request origin only in development; else the fallback', () => {
    const frontend = { ...settings, frontendUrl: 'https://bank.example/client' };
    expect(clientLink(frontend, 'verifyEmail', { token: 'a b' }, 'http://evil.example')).toBe('https://bank.example/client/verify-email/?token=a+b');
    expect(clientLink(settings, 'resetPassword', { token: 't' }, 'http://127.0.0.1:4321')).toBe('http://127.0.0.1:4321/app/reset-password/?token=t');
    expect(clientLink({ ...settings, development: false }, 'signIn', {}, 'http://evil.example')).toBe('http://localhost:8000/app/');
    // not an origin (a path, a script scheme): the fallback
    for (const bad of ['http://x.example/path', 'javascript:alert(1)', '', null, undefined])
      expect(clientLink(settings, 'forgotPassword', {}, bad)).toBe('http://localhost:8000/app/reset/');
  });
});

describe('production', () => {
  it('refuses to start the finance node without FRONTEND_URL, saying why', async () => {
    const run = promisify(execFile)(process.execPath, [join(projectRoot(), 'dist/bin/start.js')], {
      env: { PATH: process.env.PATH, NODE_ENV: 'production', PRODUCTS: 'finance', DATABASE_URL: 'postgres://127.0.0.1:1/none', DATA_DIR: t.config.dataDir },
      timeout: 30_000,
    });
    const failed = await run.then(
      () => undefined,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/FRONTEND_URL: required in production when this process runs the finance node/);
  });
});

describe('the development outbox', () => {
  it('lists the mails and text messages, newest first, with clickable links; the config names it', async () => {
    const who = person();
    await signUp(who);
    await mailTo(who.email);
    expect((await http(url('/api/v1/config/'))).body.development).toEqual({ outbox: '/dev/outbox/' });
    const page = await fetch(url('/dev/outbox/'));
    expect([page.status, page.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^text\/html/)]);
    const body = await page.text();
    const first = body.indexOf('<article');
    expect(body.slice(first, body.indexOf('</article>', first))).toContain(who.email);
    expect(body).toMatch(new RegExp(`<a href="${t.urls.finance}/app/verify-email/\\?token=[A-Za-z0-9_-]+">`));
    expect(body).toContain('data-channel="sms"');
  });
});
