import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { changeNode, createUser, installValidLicence, login, PASSWORD } from '../../support/finance/node';
import { RECIPIENT_LOOKUPS } from '../../../subgraphs/finance/payments/domain/transfers';

/**
 * GET /api/v1/transfers/recipient/ through the REST surface, the real gateway and database: the send
 * confirmation's "who is this" reveals the handle and whether it is verified, nothing more (no id,
 * e-mail or phone), and every look-up counts against a per-user allowance so users cannot be enumerated.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await changeNode(t, () => installValidLicence(t));
});
afterAll(() => t?.stop());

const lookup = (token: string | undefined, reference: string) =>
  http(`${t.urls.finance}/api/v1/transfers/recipient/?reference=${encodeURIComponent(reference)}`, { key: token });

async function signedIn() {
  const user = await createUser(t);
  return { ...user, token: await login(t, user.username) };
}

describe('GET /api/v1/transfers/recipient/', () => {
  it('names the handle a user name or e-mail resolves to and whether it is verified, and nothing else', async () => {
    const sender = await signedIn();
    const username = `tom_${randomUUID().slice(0, 6)}`;
    const email = `${username}@example.com`;
    const tom = await t.app.services.identity.identity.createUser({ username, password: PASSWORD, email });
    const byName = await lookup(sender.token, username);
    expect([byName.status, byName.body]).toEqual([200, { username, verified: false }]);
    expect(byName.headers.get('cache-control')).toBe('no-store');
    await t.app.services.identity.identity.setKycLevel(tom.id, 'basic');
    expect((await lookup(sender.token, email)).body).toEqual({ username, verified: true });
  });

  it('answers a clear 4xx for nobody, oneself, a missing reference and no token', async () => {
    const sender = await signedIn();
    const nobody = await lookup(sender.token, 'no_such_user_anywhere');
    expect([nobody.status, nobody.body.code]).toEqual([404, 'recipient_not_found']);
    expect((await lookup(sender.token, sender.username)).status).toBe(400);
    expect((await http(`${t.urls.finance}/api/v1/transfers/recipient/`, { key: sender.token })).status).toBe(400);
    expect((await lookup(undefined, sender.username)).status).toBe(401);
  });

  it('throttles look-ups per user, found or not (429 throttled with Retry-After), without touching other users', async () => {
    const prober = await signedIn();
    const other = await signedIn();
    for (let i = 0; i < RECIPIENT_LOOKUPS.points; i++) {
      expect((await lookup(prober.token, `guess_${i}`)).status).toBe(404);
    }
    const refused = await lookup(prober.token, other.username);
    expect([refused.status, refused.body.code]).toEqual([429, 'throttled']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await lookup(other.token, prober.username)).body).toEqual({ username: prober.username, verified: false });
  });
});
