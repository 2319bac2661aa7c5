import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../../../lib/paths';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { gql, http, surface } from '../../../support/platform/http';
import { KEY_RE, outbox, rfc822, type ReadMail } from '../../../support/platform/mail';

/**
 * Contract §5, end to end: the application form → the link mailed to the applicant confirms the
 * address → an administrator's approval → the key mailed to the outbox → the key works. Also the
 * JSON variant, rejection, the e-mail intake (webhook and CLI) and the rules around them: the same
 * application twice, one decision per application, answers that tell a stranger nothing.
 */

const SECRET = 'inbound-secret-for-tests-0123456789';
const run = promisify(execFile);

let t: TestApp;
let mail: ReturnType<typeof outbox>;
let tmp: string;

beforeAll(async () => {
  // every request comes from 127.0.0.1: the per-address limit (abuse-limits.test.ts) is set out of the way
  t = await startTestApp({ INBOUND_MAIL_SECRET: SECRET, APPLICATIONS_PER_HOUR: '1000' });
  mail = outbox(t.config.dataDir);
  tmp = mkdtempSync(join(tmpdir(), 'matchday-applications-'));
});
afterAll(async () => {
  await t?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const { url } = surface(() => t.urls.predictions);
const postForm = (fields: Record<string, string>) =>
  http(url('/apply/'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
const postJson = (body: unknown) =>
  http(url('/api/applications/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const postMail = (raw: string, secret?: string) =>
  http(url('/api/applications/inbound-email/'), {
    method: 'POST',
    headers: { 'content-type': 'message/rfc822', ...(secret ? { 'x-inbound-mail-secret': secret } : {}) },
    body: raw,
  });

const APPLICATION_FIELDS = 'id name email usage source status plan keyPrefix decidedAt decidedBy rejectionReason confirmedAt createdAt';
const listApplications = async (status?: string) =>
  (
    await gql(t, `query($status: AccessApplicationStatus) { applications(status: $status, first: 200) { ${APPLICATION_FIELDS} } }`, {
      variables: { status: status ?? null },
    })
  ).body.data.applications as any[];
const approve = (id: string, plan: string, dailyLimit: number | null = null) =>
  gql(
    t,
    `mutation($id: ID!, $plan: PlanCode!, $dailyLimit: Int) { approveApplication(id: $id, plan: $plan, dailyLimit: $dailyLimit) { ${APPLICATION_FIELDS} } }`,
    { variables: { id, plan, dailyLimit } },
  ).then((r) => r.body);
const reject = (id: string, reason: string | null) =>
  gql(t, `mutation($id: ID!, $reason: String) { rejectApplication(id: $id, reason: $reason) { ${APPLICATION_FIELDS} } }`, { variables: { id, reason } }).then(
    (r) => r.body,
  );
const keysFor = async (email: string) =>
  ((await gql(t, '{ apiKeys(includeRevoked: true) { prefix email plan dailyLimit } }')).body.data.apiKeys as any[]).filter((k) => k.email === email);

const LINK = /https?:\/\/\S+\/apply\/confirm\/\?token=([A-Za-z0-9_-]{43})/;
/** The confirmation mails written since the last look, to one address. */
const confirmationsTo = async (email: string): Promise<ReadMail[]> =>
  (await mail.fresh()).filter((m) => m.to.toLowerCase() === email.toLowerCase() && LINK.test(m.text));
const tokenIn = (m: ReadMail) => LINK.exec(m.text)![1];
const openLink = (token: string) => http(url(`/apply/confirm/?token=${token}`));
const pressConfirm = (token: string) =>
  http(url('/apply/confirm/'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
/** What the applicant does with the newest confirmation mail to their address. */
async function confirm(email: string): Promise<void> {
  const sent = await confirmationsTo(email);
  expect(sent.length).toBeGreaterThan(0);
  expect((await pressConfirm(tokenIn(sent[sent.length - 1]))).status).toBe(200);
}
const idOf = async (email: string) => (await listApplications()).find((a) => a.email.toLowerCase() === email.toLowerCase())!.id as string;
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const GOOD = {
  name: 'Dana Scully, Data Desk',
  usage: 'A weekly newsletter with match previews for the Premier League, about 200 requests a day.',
  email: 'dana@newsletter.example',
};

describe('the application form', () => {
  it('renders with the three labelled fields, no external assets and the plans', async () => {
    const res = await http(url('/apply/'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.body as string;
    expect(html).toMatch(/<form method="post" action="\/apply\/">/);
    for (const [id, label] of [
      ['name', 'Name or organisation'],
      ['usage', 'Intended usage'],
      ['email', 'Contact e-mail'],
    ]) {
      expect(html).toContain(`<label for="${id}">${label}</label>`);
      expect(html).toMatch(new RegExp(`<(input|textarea)[^>]*\\bid="${id}" name="${id}" required`));
    }
    expect(html).toMatch(/<input type="email" id="email"/);
    // no external asset, no script and no inline style: the only linked resources are the surface's own icon and the console kit's stylesheet
    expect(html).not.toMatch(/https?:\/\/|<script|<style/);
    expect(html.match(/<link[^>]*>/g)).toEqual([
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
      '<link rel="stylesheet" href="/apply/theme.css" />',
    ]);
    expect(html).toContain('5,000 requests/day');
  });

  it('answers bad input with 400 and the form again: every message, the input kept and escaped', async () => {
    const res = await postForm({ name: '<script>alert("x")</script>', usage: 'too short', email: 'not-an-address' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.body as string;
    expect(html).toContain('Intended usage must be 10 to 2000 characters long');
    expect(html).toContain('Enter a valid e-mail address');
    expect(html).toContain('value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"');
    expect(html).toContain('>too short</textarea>');
    expect(html).toContain('value="not-an-address"');
    expect(html).not.toContain('<script>');
    expect(html).toMatch(/<textarea id="usage" name="usage" required aria-describedby="usage-hint usage-error" aria-invalid="true"/);
    expect(html).not.toMatch(/id="name" name="name" required[^>]*aria-invalid/);
    expect(html).toMatch(/role="alert"/);

    const empty = await postForm({});
    expect(empty.status).toBe(400);
    for (const message of ['Enter your name or the name of your organisation.', 'Describe how you intend to use the API', 'Enter a contact e-mail address.']) {
      expect(empty.body).toContain(message);
    }
    expect(await listApplications()).toEqual([]);
  });

  it('carries a honeypot field that people do not see or reach', async () => {
    const html = (await http(url('/apply/'))).body as string;
    expect(html).toMatch(
      /<div class="trap" aria-hidden="true">\n<label for="website">Leave this field empty<\/label>\n<input type="text" id="website" name="website" tabindex="-1" autocomplete="off" value="">/,
    );
    // hidden by the stylesheet the page links (the console kit's)
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(html)![1];
    expect((await http(url(stylesheet))).text).toMatch(/\.trap\{position:absolute;left:-10000px/);
  });

  it('answers a filled honeypot like any application, and keeps nothing, mails nothing', async () => {
    await mail.fresh();
    const res = await postForm({ ...GOOD, email: 'bot@spam.example', website: 'http://spam.example/' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Application received');
    expect((await listApplications()).filter((a) => a.email === 'bot@spam.example')).toEqual([]);
    expect(await mail.fresh()).toEqual([]);
  });

  it('accepts a good application (200) and mails a link to confirm the address; nothing goes to review before that', async () => {
    await mail.fresh();
    const res = await postForm(GOOD);
    expect(res.status).toBe(200);
    expect(res.body).toContain('Application received');
    expect(res.body).toContain('open it to confirm that the address is yours');
    const [sent, ...more] = await confirmationsTo(GOOD.email);
    expect(more).toEqual([]);
    expect(sent.subject).toBe('Confirm your e-mail address for the Match Prediction API');
    // PUBLIC_URL_PREDICTIONS unset (development): the links go to the address the application came through
    expect(sent.text).toContain(`${t.urls.predictions}/apply/confirm/?token=${tokenIn(sent)}`);
    // the applicant typed the name: it is not repeated to an address not yet known to be theirs
    expect(sent.text).not.toContain(GOOD.name);
    const [application] = await listApplications('unconfirmed');
    expect(application).toMatchObject({ ...GOOD, source: 'form', status: 'unconfirmed', confirmedAt: null, plan: null, keyPrefix: null });
    expect(await listApplications('pending')).toEqual([]);
    expect((await approve(application.id, 'pro')).errors?.[0]).toMatchObject({
      extensions: { code: 'CONFLICT' },
      message: expect.stringMatching(/not confirmed/),
    });
  });

  it('tells whoever sends the same address and usage again only that it was received: the same page, no reference, no status', async () => {
    const first = await postForm({ name: 'Someone New', usage: 'An entirely new project with its own usage text.', email: 'new@applicant.example' });
    const again = await postForm({ ...GOOD, email: 'Dana@Newsletter.EXAMPLE', usage: `  ${GOOD.usage.toUpperCase().replace(/ /g, '   ')}\n` });
    expect(again.status).toBe(first.status);
    expect(again.body).toBe(first.body);
    expect(again.body).not.toMatch(UUID_ANYWHERE);
    expect(again.body).not.toMatch(/status:|You have already applied|reference <code>/i);
    const json = await postJson(GOOD);
    expect(json.status).toBe(202);
    expect(Object.keys(json.body)).toEqual(['detail']);
    expect(json.body.detail).not.toMatch(UUID_ANYWHERE);
    expect((await listApplications()).filter((a) => a.email.toLowerCase() === GOOD.email)).toHaveLength(1);
  });

  it('confirms the address with the newest link: a page with a button (GET changes nothing), then the application goes to review', async () => {
    const sent = await confirmationsTo(GOOD.email);
    // each submission of an unconfirmed application mailed a new link; the newest one counts
    expect(sent.length).toBe(2);
    const [older, newest] = sent.map(tokenIn);
    expect((await openLink(older)).status).toBe(404);
    const page = await openLink(newest);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`An application for an API key for <strong>${GOOD.name}</strong> gave this address.`);
    expect(page.body).toContain(`<form method="post" action="/apply/confirm/">\n<input type="hidden" name="token" value="${newest}">`);
    expect(await listApplications('pending')).toEqual([]);

    const confirmed = await pressConfirm(newest);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toContain('Thank you: your e-mail address is confirmed');
    const [pending] = await listApplications('pending');
    expect(pending).toMatchObject({ email: GOOD.email, status: 'pending', confirmedAt: expect.any(String) });
    expect((await pressConfirm(newest)).body).toContain('your e-mail address is confirmed');
    expect((await openLink(newest)).body).toContain('already confirmed');
    for (const bad of ['x'.repeat(43), 'short', '']) expect((await pressConfirm(bad)).status).toBe(404);
    // a confirmed application gets no more links
    await postJson(GOOD);
    expect(await confirmationsTo(GOOD.email)).toEqual([]);
  });
});

describe('approval', () => {
  it('issues a key on the chosen plan, mails it with the limits and the reference link, and the key works', async () => {
    const [application] = await listApplications('pending');
    await mail.fresh();
    const res = await approve(application.id, 'pro');
    expect(res.errors).toBeUndefined();
    const approved = res.data.approveApplication;
    expect(approved).toMatchObject({ id: application.id, status: 'approved', plan: 'pro', decidedBy: expect.stringContaining(t.adminKey.slice(0, 12)) });
    expect(approved.keyPrefix).toMatch(/^mpk_[0-9A-Za-z]{8}$/);
    expect(JSON.stringify(approved)).not.toMatch(KEY_RE);

    const sent = await mail.fresh();
    expect(sent).toHaveLength(1);
    const [message] = sent;
    expect(message.to).toBe(GOOD.email);
    expect(message.subject).toBe('Your Match Prediction API key');
    const keys = [...new Set(message.text.match(KEY_RE))];
    expect(keys).toHaveLength(1);
    const key = keys[0];
    expect(key.startsWith(approved.keyPrefix)).toBe(true);
    expect(message.text).toContain('Plan: Pro, 5,000 requests per day.');
    expect(message.text).toContain('00:00 UTC');
    expect(message.text).toContain(`Authorization: Bearer ${key}`);
    expect(message.text).toContain(`${t.urls.predictions}/api/docs/`);
    expect(message.text).not.toContain('localhost:8080');
    expect(message.raw).toMatch(/^From: Match Predictions <no-reply@localhost>$/m);

    const api = await http(url('/api/'), { key });
    expect(api.status).toBe(200);
    expect(api.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(api.body.key).toMatchObject({ plan: 'pro', role: 'client', name: GOOD.name });
    expect(await keysFor(GOOD.email)).toEqual([{ prefix: approved.keyPrefix, email: GOOD.email, plan: 'pro', dailyLimit: 5000 }]);
  });

  it('never exposes the key through GraphQL', async () => {
    const res = await gql(t, '{ applications { key } }');
    expect(res.body.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers a second decision with 409 CONFLICT and issues nothing more', async () => {
    const [application] = await listApplications('approved');
    const again = await approve(application.id, 'free');
    expect(again.errors?.[0].extensions.code).toBe('CONFLICT');
    expect(again.errors?.[0].message).toMatch(/already approved/);
    const rejecting = await reject(application.id, 'changed our mind');
    expect(rejecting.errors?.[0].extensions.code).toBe('CONFLICT');
    expect(await mail.fresh()).toEqual([]);
    expect(await keysFor(GOOD.email)).toHaveLength(1);
    // the same application once more after approval: received, but nothing new and no second key
    const resubmitted = await postJson(GOOD);
    expect(resubmitted.status).toBe(202);
    expect((await listApplications()).filter((a) => a.email === GOOD.email)).toHaveLength(1);
    expect(await keysFor(GOOD.email)).toHaveLength(1);
  });

  it('issues exactly one key when two approvals of one application arrive at once', async () => {
    const email = 'race@integrator.example';
    const created = await postJson({ name: 'Race Conditions Ltd', usage: 'Live odds comparison widget for a betting blog.', email });
    expect(created.status).toBe(202);
    await confirm(email);
    const id = await idOf(email);
    const results = await Promise.all([approve(id, 'pro'), approve(id, 'enterprise', 20000), approve(id, 'free')]);
    const ok = results.filter((r) => !r.errors);
    const conflicts = results.filter((r) => r.errors?.[0].extensions.code === 'CONFLICT');
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(2);
    expect(await keysFor(email)).toHaveLength(1);
    const sent = (await mail.fresh()).filter((m) => m.to === email);
    expect(sent).toHaveLength(1);
    expect(new Set(sent[0].text.match(KEY_RE)).size).toBe(1);
  });

  it('checks the plan choice inside the decision: a refused approval leaves the application pending', async () => {
    await postJson({ name: 'Plan Checker', usage: 'Checking that the plan rules hold on approval.', email: 'plans@check.example' });
    await confirm('plans@check.example');
    const id = await idOf('plans@check.example');
    const res = await approve(id, 'pro', 10);
    expect(res.errors?.[0]).toMatchObject({ message: 'Only Enterprise keys have a custom daily limit.', extensions: { code: 'BAD_USER_INPUT' } });
    expect((await listApplications('pending')).map((a) => a.id)).toContain(id);
    expect(await keysFor('plans@check.example')).toEqual([]);
    expect(await mail.fresh()).toEqual([]);
  });

  it('is for administrators only', async () => {
    const client = await t.createKey('pro');
    const [application] = await listApplications();
    expect((await gql(t, '{ applications { id } }', { key: null })).body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await gql(t, '{ applications { id } }', { key: client })).body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const res = await gql(t, 'mutation($id: ID!) { approveApplication(id: $id, plan: pro) { id } }', { variables: { id: application.id }, key: client });
    expect(res.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(t, '{ application(id: "00000000-0000-0000-0000-000000000000") { id } }')).body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('rejection', () => {
  it('tells the applicant politely, with the reason, and issues no key', async () => {
    const email = 'vague@applicant.example';
    await postJson({ name: 'Vague Applicant', usage: 'Just looking around at things.', email });
    await confirm(email);
    const id = await idOf(email);
    const res = await reject(id, 'Please describe your project in more detail.');
    expect(res.errors).toBeUndefined();
    expect(res.data.rejectApplication).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Please describe your project in more detail.',
      keyPrefix: null,
      plan: null,
    });
    const sent = (await mail.fresh()).filter((m) => m.to === email);
    expect(sent).toHaveLength(1);
    expect(sent[0].text).toContain('unable to approve it');
    expect(sent[0].text).toContain('Reason: Please describe your project in more detail.');
    expect(sent[0].text).toContain(`${t.urls.predictions}/apply/`);
    expect(sent[0].text).not.toMatch(KEY_RE);
    expect(await keysFor(email)).toEqual([]);
    expect((await approve(id, 'free')).errors?.[0].extensions.code).toBe('CONFLICT');
    // after a rejection the applicant may apply again: a new application, a new link
    const again = await postJson({ name: 'Vague Applicant', usage: 'Just looking around at things.', email });
    expect(again.status).toBe(202);
    expect((await listApplications()).filter((a) => a.email === email).map((a) => a.status)).toEqual(['unconfirmed', 'rejected']);
    expect(await confirmationsTo(email)).toHaveLength(1);
  });
});

describe('the JSON variant', () => {
  it('answers invalid fields with 400 {detail, code: "invalid", errors}', async () => {
    const res = await postJson({ name: 'X', usage: 'a'.repeat(2001), email: 'x@' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name', 'usage']);
    const missing = await postJson({ name: 'Somebody' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['email', 'usage']);
  });
});

describe('the e-mail intake', () => {
  const USAGE = 'Usage: A Telegram channel posting predictions before each Bundesliga matchday;\nabout 50 requests a day.';

  it('turns a message with the subject "API Access Request" into an application (202) and mails the sender a link to confirm, once', async () => {
    await mail.fresh();
    const raw = rfc822({
      from: '"Jane Doe" <Jane.Doe@Mail.Example>',
      subject: 'API Access Request',
      body: `Hello,\n\n${USAGE}\n\nThanks!\n-- \nJane`,
      messageId: '<request-1@mail.example>',
    });
    const res = await postMail(raw, SECRET);
    expect(res.status).toBe(202);
    expect(Object.keys(res.body)).toEqual(['detail']);
    const application = (await listApplications()).find((a) => a.email === 'Jane.Doe@mail.example');
    expect(application).toMatchObject({
      name: 'Jane Doe',
      usage: 'A Telegram channel posting predictions before each Bundesliga matchday;\nabout 50 requests a day.',
      source: 'email',
      status: 'unconfirmed',
    });
    // the From header proves nothing: the key goes out only after the address confirms
    const [link] = await confirmationsTo('Jane.Doe@mail.example');
    expect((await approve(application.id, 'free')).errors?.[0].extensions.code).toBe('CONFLICT');
    expect((await pressConfirm(tokenIn(link))).status).toBe(200);
    expect((await approve(application.id, 'free')).errors).toBeUndefined();
    const redelivered = await postMail(raw, SECRET);
    expect(redelivered.status).toBe(202);
    expect((await listApplications()).filter((a) => a.email === 'Jane.Doe@mail.example')).toHaveLength(1);
  });

  it('reads Name:, Organisation: and E-mail: lines, and the free text as the usage', async () => {
    const raw = rfc822({
      from: 'noreply-forms@corp.example',
      replyTo: 'Someone Else <someone@corp.example>',
      subject: 'api access  REQUEST',
      body: 'Name: Fox Mulder\nOrganisation: X-Files Analytics\nE-mail: Fox <fox@xfiles.example>\n\nWe want to compare your predictions with our own model for the Serie A.\n\n> quoted text is ignored',
    });
    const res = await postMail(raw, SECRET);
    expect(res.status).toBe(202);
    const application = (await listApplications()).find((a) => a.email === 'fox@xfiles.example');
    expect(application).toMatchObject({
      name: 'Fox Mulder, X-Files Analytics',
      email: 'fox@xfiles.example',
      usage: 'We want to compare your predictions with our own model for the Serie A.',
    });
  });

  it('refuses a missing or wrong secret (403), another subject or a reply (400), and what is not an application (400)', async () => {
    const raw = rfc822({ from: 'Eve <eve@mail.example>', subject: 'API Access Request', body: USAGE });
    for (const secret of [undefined, 'wrong-secret-0123456789', `${SECRET}x`]) {
      const res = await postMail(raw, secret);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'permission_denied', detail: expect.stringMatching(/secret/) });
    }
    for (const subject of ['Hello', 'Re: API Access Request', 'Fwd: API Access Request']) {
      const res = await postMail(rfc822({ from: 'Eve <eve@mail.example>', subject, body: USAGE }), SECRET);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid', detail: expect.stringContaining('The subject must be "API Access Request"') });
    }
    const tooShort = await postMail(rfc822({ from: 'Eve <eve@mail.example>', subject: 'API Access Request', body: 'Usage: key pls' }), SECRET);
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errors).toEqual({ usage: [expect.stringMatching(/10 to 2000/)] });
    const auto = await postMail(
      rfc822({ from: 'Eve <eve@mail.example>', subject: 'API Access Request', body: USAGE, headers: { 'Auto-Submitted': 'auto-replied' } }),
      SECRET,
    );
    expect(auto.status).toBe(400);
    const notMail = await postMail('just some text without headers', SECRET);
    expect(notMail.status).toBe(400);
    expect((await listApplications()).filter((a) => a.email.startsWith('eve@'))).toEqual([]);
  });

  it('takes the secret only in its header: no GraphQL argument carries it, and without the header the mutation is refused', async () => {
    const raw = rfc822({ from: 'Eve <eve@mail.example>', subject: 'API Access Request', body: USAGE });
    const withArgument = await gql(t, 'mutation($raw: String!, $secret: String) { submitApplicationEmail(rawMessage: $raw, secret: $secret) { message } }', {
      variables: { raw, secret: SECRET },
      key: null,
    });
    expect(withArgument.body.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const anonymous = await gql(t, 'mutation($raw: String!) { submitApplicationEmail(rawMessage: $raw) { message } }', { variables: { raw }, key: null });
    expect(anonymous.body.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' }, message: expect.stringMatching(/X-Inbound-Mail-Secret/) });
  });
});

describe('the CLI', () => {
  const cli = (...args: string[]) =>
    run(process.execPath, [join(projectRoot(), 'dist', 'bin', 'cli.js'), ...args], {
      env: { ...process.env, DATABASE_URL: t.databaseUrl, DATA_DIR: t.config.dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    });

  it('imports .eml files and approves from the command line; the mailed key works', async () => {
    const file = join(tmp, 'request.eml');
    writeFileSync(
      file,
      rfc822({ from: 'Walter Skinner <skinner@fbi.example>', subject: 'API Access Request', body: 'Usage: Internal dashboard for the office football pool.' }),
    );
    const missing = join(tmp, 'missing.eml');
    const imported = await cli('applications', 'import', file, missing).catch((e) => e);
    expect(imported.code).toBe(1);
    const match =
      /request\.eml: new application ([0-9a-f-]{36}) \(unconfirmed\) from Walter Skinner <skinner@fbi\.example>; a link to confirm the address was mailed to it/.exec(
        imported.stdout,
      );
    expect(match).not.toBeNull();
    expect(imported.stderr).toContain('missing.eml');
    const id = match![1];

    const again = await cli('applications', 'import', file);
    expect(again.stdout).toContain(`already known as ${id}`);
    expect((await cli('applications', 'list', '--status', 'unconfirmed')).stdout).toContain(`${id}  unconfirmed email`);
    const early = await cli('applications', 'approve', id, '--plan', 'free').catch((e) => e);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/not confirmed/);
    await confirm('skinner@fbi.example');
    const listed = await cli('applications', 'list', '--status', 'pending');
    expect(listed.stdout).toContain(`${id}  pending     email`);

    await mail.fresh();
    const approved = await cli('applications', 'approve', id, '--plan', 'free');
    expect(approved.stdout).toMatch(/^Approved .*key mpk_\w{8}… on plan free sent to skinner@fbi\.example/);
    expect(approved.stdout).not.toMatch(KEY_RE);
    const [message] = (await mail.fresh()).filter((m) => m.to === 'skinner@fbi.example');
    expect(message.text).toContain('Plan: Free, 50 requests per day.');
    const key = message.text.match(KEY_RE)![0];
    const api = await http(url('/api/'), { key });
    expect(api.status).toBe(200);
    expect(api.headers.get('x-ratelimit-limit')).toBe('50');
    const decided = (await gql(t, `query($id: ID!) { application(id: $id) { ${APPLICATION_FIELDS} } }`, { variables: { id } })).body.data.application;
    expect(decided).toMatchObject({ status: 'approved', plan: 'free', decidedBy: expect.stringMatching(/^cli/) });

    const twice = await cli('applications', 'approve', id, '--plan', 'pro').catch((e) => e);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already approved/);
    // seven CLI processes, each starting the product: minutes on a loaded 2-core machine
  }, 240_000);

  it('rejects from the command line', async () => {
    await postJson({ name: 'Cigarette Smoking Man', usage: 'Reasons that cannot be disclosed, sorry.', email: 'csm@syndicate.example' });
    await confirm('csm@syndicate.example');
    const id = await idOf('csm@syndicate.example');
    const res = await cli('applications', 'reject', id, '--reason', 'We need to know what the key is for.');
    expect(res.stdout).toContain(`Rejected ${id}`);
    const [message] = (await mail.fresh()).filter((m) => m.to === 'csm@syndicate.example');
    expect(message.text).toContain('Reason: We need to know what the key is for.');
  });
});
