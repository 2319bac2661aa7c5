import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http, surface } from '../../support/platform/http';
import { createUser, installValidLicence, login } from '../../support/finance/node';
import { outbox, type ReadMail } from '../../support/platform/mail';
import { IdentityUniqueEmail1798000000100 as Migration } from '../../../subgraphs/finance/identity/store/migrations/1798000000100-IdentityUniqueEmail';

/**
 * Verified handles only, one account per address, over HTTP:
 * - an e-mail address routes money only once its owner has proven it (a sign-up with someone
 *   else's address receives nothing sent to that address);
 * - sign-up answers the same for a new and a taken address (no enumeration): the address gets a
 *   mail either way, and no second account is made with it;
 * - a pending (unverified) claim never blocks the owner: the owner's sign-up mails a link that
 *   creates their account verified and takes the address from the claim;
 * - 20 concurrent sign-ups with one address make one account (a unique index on the normalised
 *   address, migration IdentityUniqueEmail1798000000100);
 * - in production, sign-up is invite-only until an operator opens it.
 */
let t: TestApp<'finance'>;
let mail: ReturnType<typeof outbox>;
beforeAll(async () => {
  t = await startTestApp({ APP_NAME: 'Handles Finance', AUTH_ATTEMPTS_PER_HOUR: '100' }, { products: ['finance'] });
  await installValidLicence(t as unknown as TestApp);
  mail = outbox(t.config.dataDir);
});
afterAll(() => t?.stop());

const app = () => t as unknown as TestApp;
const { url, post } = surface(() => t.urls.finance);
const PASSWORD = 'a long enough password';
const name = () => `h_${randomUUID().slice(0, 8)}`;
const signup = (username: string, email: string) => post('/api/auth/signup/', undefined, { username, email, password: PASSWORD });
const tokenIn = (m: ReadMail) => /\?token=([A-Za-z0-9_-]+)/.exec(m.text)?.[1];
const accountsWith = async (email: string) =>
  (await t.app.services.identity.store.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM identity.node_user WHERE lower(email) = lower($1)`, [email]))
    .rows[0].n;

/** The mails to `to` sent since the last look (waits a little for them). */
async function mailsTo(to: string, count = 1): Promise<ReadMail[]> {
  const got: ReadMail[] = [];
  for (let i = 0; i < 100 && got.length < count; i++) {
    got.push(...(await mail.fresh()).filter((m) => m.to.toLowerCase() === to.toLowerCase()));
    if (got.length < count) await new Promise((r) => setTimeout(r, 50));
  }
  return got;
}

/** A sender with money and the KYC level to transferTo it. */
async function sender() {
  const u = await createUser(app());
  await t.app.services.identity.identity.setKycLevel(u.id, 'basic');
  await t.app.services.ledger.ledger.fund(u.id, 'EUR', 100_00n, randomUUID());
  return { ...u, token: await login(app(), u.username) };
}
const transferTo = (token: string, recipient: string) => post('/api/v1/transfers/', token, { recipient, amount: '1.00', currency: 'EUR' });

it('answers a taken address exactly as a new one; the owner gets a notice instead, and no second account exists', async () => {
  const owner = name();
  const email = `${owner}@example.com`;
  const first = await signup(owner, email);
  expect(first.status).toBe(201);
  const [verification] = await mailsTo(email);
  expect((await post('/api/auth/email/verify/', undefined, { token: tokenIn(verification) })).status).toBe(200);

  const fresh = name();
  const asNew = await signup(fresh, `${fresh}@example.com`);
  const other = name();
  const asTaken = await signup(other, ` ${email.toUpperCase()} `);
  // the same status and the same shape: nothing tells the two apart
  expect([asTaken.status, Object.keys(asTaken.body).sort()]).toEqual([asNew.status, Object.keys(asNew.body).sort()]);
  expect(asTaken.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), username: other, email: email.toUpperCase(), email_verified: false });
  const [notice] = await mailsTo(email);
  expect(notice.subject).toBe('Finance Node: someone tried to sign up with your address');
  expect(notice.text).toContain(`sign in as ${owner}`);
  expect(tokenIn(notice)).toBeUndefined();
  expect(await accountsWith(email)).toBe(1);
  expect(await t.app.services.identity.identity.findUser(other)).toBeUndefined();
});

it('20 concurrent sign-ups with one address: all answered alike, one account', async () => {
  const email = `race_${randomUUID().slice(0, 8)}@example.com`;
  const answers = await Promise.all(Array.from({ length: 20 }, () => signup(name(), email)));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
  expect(await accountsWith(email)).toBe(1);
  // the database itself refuses a second account with the address, in any case or spacing
  await expect(
    t.app.services.identity.store.pool.query(`INSERT INTO identity.node_user (username, email, password_hash) VALUES ($1, $2, 'x')`, [
      name(),
      ` ${email.toUpperCase()}`,
    ]),
  ).rejects.toThrow(/node_user_email_unique/);
});

it('an unverified claim receives nothing and never blocks the owner: the owner verifies, the claim loses the address', async () => {
  const alice = await sender();
  const victim = `victim_${randomUUID().slice(0, 8)}@example.com`;
  // someone signs up with the victim's address: unverified, it routes no money
  const squatter = name();
  expect((await signup(squatter, victim)).status).toBe(201);
  await mailsTo(victim);
  const squatterToken = await login(app(), squatter, PASSWORD);
  expect([(await transferTo(alice.token, victim)).status, (await transferTo(alice.token, victim)).body.code]).toEqual([404, 'recipient_not_found']);

  // the owner signs up: the same answer, and a link that makes their account
  const owner = name();
  const answer = await signup(owner, victim);
  expect([answer.status, answer.body.username, answer.body.email_verified]).toEqual([201, owner, false]);
  const [link] = await mailsTo(victim);
  expect(link.subject).toBe('Finance Node: verify your e-mail address');
  expect((await post('/api/auth/email/verify/', undefined, { token: tokenIn(link) })).status).toBe(200);

  const ownerRow = await t.app.services.identity.identity.findUser(owner);
  expect([ownerRow?.id, ownerRow?.email, ownerRow?.emailVerifiedAt]).toEqual([answer.body.id, victim, expect.any(Date)]);
  expect((await t.app.services.identity.identity.findUser(squatter))?.email).toBe('');
  expect(await accountsWith(victim)).toBe(1);
  // money sent to the address reaches the owner now
  const sent = await transferTo(alice.token, victim);
  expect(sent.status).toBe(201);
  const ownerToken = await login(app(), owner, PASSWORD);
  expect((await http(url('/api/v1/profile/'), { key: ownerToken })).body).toMatchObject({ email: victim, email_verified: true });
  expect((await http(url('/api/v1/profile/'), { key: squatterToken })).body).toMatchObject({ email: '', email_verified: false });
});

it('recipients by e-mail are verified addresses only (the store, whoever asks)', async () => {
  const u = name();
  const email = `${u}@example.com`;
  expect((await signup(u, email)).status).toBe(201);
  expect(await t.app.services.identity.identity.recipient(email)).toBeUndefined();
  const [verification] = await mailsTo(email);
  await post('/api/auth/email/verify/', undefined, { token: tokenIn(verification) });
  expect((await t.app.services.identity.identity.recipient(email.toUpperCase()))?.username).toBe(u);
});

describe('in production', () => {
  let p: TestApp<'finance'>;
  beforeAll(async () => {
    p = await startTestApp(
      {
        NODE_ENV: 'production',
        FRAMEWORK_SECRET_KEY: 'f'.repeat(64),
        SERVER_JWT_KEY: 'j'.repeat(48),
        PUBLIC_URL_REGISTRY: 'https://registry.example.com',
        FRONTEND_URL: 'https://finance.example.com/app/',
        PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080',
      },
      { products: ['finance'] },
    );
    await installValidLicence(p as unknown as TestApp);
  });
  afterAll(() => p?.stop());

  it('has no development outbox: the page and the query answer 404, the configuration names none', async () => {
    expect((await fetch(`${p.urls.finance}/dev/outbox/`)).status).toBe(404);
    expect((await http(`${p.urls.finance}/api/v1/config/`)).body.development).toBeNull();
  });

  it('sign-up is invite-only until an operator chooses: 403 signup_closed, and the config says so', async () => {
    expect((await http(`${p.urls.finance}/api/v1/config/`)).body.auth.signup).toBe('invite_only');
    const res = await http(`${p.urls.finance}/api/auth/signup/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: name(), email: `${name()}@example.com`, password: PASSWORD }),
    });
    expect([res.status, res.body.code]).toEqual([403, 'signup_closed']);
    await p.app.services.identity.onboarding.setSignupMode('open', 'test-operator');
    expect((await http(`${p.urls.finance}/api/v1/config/`)).body.auth.signup).toBe('open');
  });
});

it('the migration flags existing duplicates: the address stays with the account that verified it first, the others lose it and are listed', async () => {
  const pool = t.app.services.identity.store.pool;
  const db = await pool.connect();
  try {
    await db.query('BEGIN');
    // as before the migration: no unique index, and three accounts sharing one address (one verified, the newest)
    await new Migration().down({ query: (sql: string) => db.query(sql) } as never);
    const shared = `dup_${randomUUID().slice(0, 8)}@example.com`;
    const insert = async (email: string, verified: boolean, joined: string) =>
      (
        await db.query<{ id: string }>(
          `INSERT INTO identity.node_user (username, email, password_hash, email_verified_at, date_joined) VALUES ($1, $2, 'x', $3, $4) RETURNING id`,
          [name(), email, verified ? new Date() : null, joined],
        )
      ).rows[0].id;
    const oldest = await insert(shared, false, '2020-01-01');
    const other = await insert(` ${shared.toUpperCase()}`, false, '2021-01-01');
    const verified = await insert(shared, true, '2022-01-01');
    await new Migration().up({ query: (sql: string) => db.query(sql) } as never);
    const { rows } = await db.query<{ id: string; email: string }>('SELECT id, email FROM identity.node_user WHERE id = ANY($1::uuid[])', [
      [oldest, other, verified],
    ]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.email]))).toEqual({ [oldest]: '', [other]: '', [verified]: shared });
    const flagged = await db.query('SELECT user_id AS "userId", email, kept_by AS "keptBy" FROM identity.email_duplicate ORDER BY email');
    expect(flagged.rows).toEqual(
      expect.arrayContaining([
        { userId: oldest, email: shared, keptBy: verified },
        { userId: other, email: ` ${shared.toUpperCase()}`, keptBy: verified },
      ]),
    );
  } finally {
    await db.query('ROLLBACK');
    db.release();
  }
});
