import pg from 'pg';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { gql, http, surface } from '../../../support/platform/http';
import { rfc822 } from '../../../support/platform/mail';

/**
 * The application intake where it cannot do its work: the inbound-mail webhook switched off (no
 * INBOUND_MAIL_SECRET), and the form when the application cannot be saved (its table gone from
 * under the running system: a real database fault, undone afterwards).
 */

let t: TestApp;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp(); // INBOUND_MAIL_SECRET unset: the webhook is disabled
  db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await t?.stop();
});

const { url } = surface(() => t.urls.predictions);
const GOOD = { name: 'Ada Lovelace Analytics', usage: 'Weekly previews of the Bundesliga for a newsletter.', email: 'ada@analytics.example' };
const applications = async () => (await gql(t, '{ applications { id email } }')).body.data.applications as { id: string; email: string }[];

describe('the inbound-mail webhook without INBOUND_MAIL_SECRET', () => {
  it('refuses every delivery over HTTP with 403, whatever secret it carries, and makes no application', async () => {
    const raw = rfc822({
      from: 'Grace <grace@navy.example>',
      subject: 'API Access Request',
      body: 'Usage: A dashboard of Serie A predictions for our office.',
    });
    for (const secret of [undefined, 'any-secret-of-sixteen-or-more', '']) {
      const res = await http(url('/api/applications/inbound-email/'), {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', ...(secret === undefined ? {} : { 'x-inbound-mail-secret': secret }) },
        body: raw,
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: expect.stringMatching(/disabled/), code: 'permission_denied' });
    }
    expect(await applications()).toEqual([]);
  });
});

describe('the application form when the application cannot be saved', () => {
  const postForm = (fields: Record<string, string>) =>
    http(url('/apply/'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  beforeAll(() => db.query('ALTER TABLE access.application RENAME TO application_gone'));
  afterAll(() => db.query('ALTER TABLE IF EXISTS access.application_gone RENAME TO application'));

  it('answers 500 with the form again: a message that nothing was saved, what the applicant typed kept, no internals', async () => {
    const res = await postForm(GOOD);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.body as string;
    expect(html).toContain('Something went wrong on our side; your application was not saved. Please try again in a few minutes.');
    expect(html).toMatch(/<form method="post" action="\/apply\/">/);
    expect(html).toContain(`value="${GOOD.name}"`);
    expect(html).toContain(`>${GOOD.usage}</textarea>`);
    expect(html).toContain(`value="${GOOD.email}"`);
    expect(html).not.toMatch(/application_gone|relation|does not exist|SQL|stack|\.ts:\d+|\.js:\d+/i);
  });

  it('the JSON variant answers 500 {detail, code: "error"} without internals', async () => {
    const res = await http(url('/api/applications/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(GOOD) });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'Internal server error.', code: 'error' });
  });

  it('accepts the same application once the database is whole again', async () => {
    await db.query('ALTER TABLE access.application_gone RENAME TO application');
    const res = await postForm(GOOD);
    expect(res.status).toBe(200);
    expect((await applications()).map((a) => a.email)).toEqual([GOOD.email]);
  });
});
