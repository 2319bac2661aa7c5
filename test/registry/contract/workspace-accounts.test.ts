import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outboxDir } from '../../../lib/mailer';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { createLicence, database, gql, registryClient, WORKSPACE_CSRF, workspaceForm, workspaceSignIn } from '../../support/registry/registry';
import { http } from '../../support/platform/http';

/**
 * Workspace accounts through the registry's port: password reset by mail (single-use link, the same
 * answer for unknown addresses), sign-in throttling per address, and one organisation's user never
 * reaching another organisation's licence.
 */
let t: TestApp;
const CSRF = WORKSPACE_CSRF;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

function mails(to: string): string[] {
  const dir = outboxDir(t.config);
  return readdirSync(dir)
    .map((f) =>
      readFileSync(join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    )
    .filter((m) => m.includes(to));
}
const tokenIn = (mail: string) => /\/workspace\/password\/\?token=([A-Za-z0-9_-]{43})/.exec(mail)![1];

describe('workspace accounts', () => {
  it('resets a password by a single-use mailed link; unknown addresses get the same answer and no mail', async () => {
    await gql(t, 'mutation { inviteWorkspaceUser(input: { organisation: "demo", email: "bob@demo.example", name: "Bob" }) { email } }');
    await workspaceForm(t, '/workspace/password/', { token: tokenIn(mails('bob@demo.example')[0]), password: 'first password 1' });
    expect((await workspaceSignIn(t, 'bob@demo.example', 'first password 1')).status).toBe(302);

    const known = await workspaceForm(t, '/workspace/password-reset/', { email: 'BOB@demo.example' });
    const unknown = await workspaceForm(t, '/workspace/password-reset/', { email: 'nobody@demo.example' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    for (const page of [known, unknown]) expect(page.text).toContain('If this address has an account, a link to choose a new password is on its way.');
    expect(mails('nobody@demo.example')).toHaveLength(0);
    const reset = mails('bob@demo.example').find((m) => m.includes('Reset your workspace password'))!;

    const short = await workspaceForm(t, '/workspace/password/', { token: tokenIn(reset), password: 'short' });
    expect(short.status).toBe(400);
    expect((await workspaceForm(t, '/workspace/password/', { token: tokenIn(reset), password: 'second password 2' })).status).toBe(302);
    const again = await workspaceForm(t, '/workspace/password/', { token: tokenIn(reset), password: 'third password 3' });
    expect(again.status).toBe(410);
    expect((await workspaceSignIn(t, 'bob@demo.example', 'first password 1')).status).toBe(401);
    expect((await workspaceSignIn(t, 'bob@demo.example', 'second password 2')).status).toBe(302);
  });

  it('a user releases a seat from the deployments page: POST with the CSRF token, audited as the API is; another organisation’s seat is 404', async () => {
    await gql(t, 'mutation { inviteWorkspaceUser(input: { organisation: "demo", email: "erin@demo.example", name: "Erin" }) { email } }');
    await workspaceForm(t, '/workspace/password/', { token: tokenIn(mails('erin@demo.example')[0]), password: 'erin password 1' });
    const signedIn = await workspaceSignIn(t, 'erin@demo.example', 'erin password 1');
    expect([signedIn.status, typeof signedIn.session]).toEqual([302, 'string']);
    const { session } = signedIn;
    const licence = await createLicence(t);
    const client = registryClient(t, licence.key);
    const registered = await client.post('/api/v1/deployments/register', { hostname: 'seat-1.example.com', ipAddress: '10.0.0.9', currentVersion: '1.1.0' });
    expect(registered.status).toBe(201);
    const id = registered.body.data.id as string;

    const home = await http(`${t.urls.registry}/workspace/`, { headers: { cookie: `workspace_session=${session}` } });
    expect(home.text).toContain(`action="/workspace/deployments/${id}/release/"`);
    // without the CSRF token: refused, the seat kept
    const forged = await http(`${t.urls.registry}/workspace/deployments/${id}/release/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `workspace_session=${session}` },
      body: '',
    });
    expect(forged.status).toBe(403);
    // a user of another organisation: 404, the seat kept
    await gql(t, 'mutation { createRegistryOrganisation(input: { name: "Seat Co", slug: "seat-co" }) { id } }');
    await gql(t, 'mutation { inviteWorkspaceUser(input: { organisation: "seat-co", email: "frank@seat.example", name: "Frank" }) { email } }');
    await workspaceForm(t, '/workspace/password/', { token: tokenIn(mails('frank@seat.example')[0]), password: 'frank password 1' });
    const other = await workspaceSignIn(t, 'frank@seat.example', 'frank password 1');
    expect((await workspaceForm(t, `/workspace/deployments/${id}/release/`, {}, `workspace_session=${other.session}`)).status).toBe(404);
    expect((await client.get('/api/v1/license')).body.data.nodesInUse).toBe(1);

    const released = await workspaceForm(t, `/workspace/deployments/${id}/release/`, {}, `workspace_session=${session}`);
    expect(released.status).toBe(303);
    expect(released.headers.get('location')).toBe('/workspace/?released=seat-1.example.com');
    expect((await client.get('/api/v1/license')).body.data.nodesInUse).toBe(0);
    const db = await database(t);
    try {
      const { rows } = await db.query(`SELECT actor, licence_id FROM licensing.audit_event WHERE action = 'deployment.released' AND subject_id = $1`, [id]);
      expect(rows).toEqual([{ actor: expect.stringMatching(/^workspace-user:/), licence_id: licence.id }]);
    } finally {
      await db.end();
    }
  });

  it('throttles failed sign-ins per address: the sixth answers 429, even with the right password', async () => {
    await gql(t, 'mutation { inviteWorkspaceUser(input: { organisation: "demo", email: "carol@demo.example", name: "Carol" }) { email } }');
    await workspaceForm(t, '/workspace/password/', { token: tokenIn(mails('carol@demo.example')[0]), password: 'carol password 1' });
    for (let i = 0; i < 5; i++) expect((await workspaceSignIn(t, 'carol@demo.example', `wrong ${i}`)).status).toBe(401);
    const throttled = await workspaceSignIn(t, 'carol@demo.example', 'carol password 1');
    expect(throttled.status).toBe(429);
    expect(throttled.session).toBeUndefined();
  });

  it('reserves each attempt before checking it: 40 concurrent wrong passwords, at most 5 evaluated (401), the rest 429', async () => {
    await gql(t, 'mutation { inviteWorkspaceUser(input: { organisation: "demo", email: "erin@demo.example", name: "Erin" }) { email } }');
    await workspaceForm(t, '/workspace/password/', { token: tokenIn(mails('erin@demo.example')[0]), password: 'erin password 1' });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => workspaceSignIn(t, 'erin@demo.example', `wrong ${i}`)));
    const evaluated = answers.filter((a) => a.status === 401).length;
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(evaluated + answers.filter((a) => a.status === 429).length).toBe(40);
  });

  it("keeps an organisation's user away from another organisation's licence", async () => {
    await gql(t, 'mutation { createRegistryOrganisation(input: { name: "Other Co", slug: "other-co" }) { id } }');
    await gql(t, 'mutation { inviteWorkspaceUser(input: { organisation: "other-co", email: "dave@other.example", name: "Dave" }) { email } }');
    await workspaceForm(t, '/workspace/password/', { token: tokenIn(mails('dave@other.example')[0]), password: 'dave password 1' });
    const { session } = await workspaceSignIn(t, 'dave@other.example', 'dave password 1');
    const demoLicence = await createLicence(t);
    const releases = await http(`${t.urls.registry}/workspace/licences/${demoLicence.id}/releases/`, { headers: { cookie: `workspace_session=${session}` } });
    expect(releases.status).toBe(404);
    const reveal = await http(`${t.urls.registry}/workspace/licences/${demoLicence.id}/key/`, {
      method: 'POST',
      headers: { cookie: `csrftoken=${CSRF}; workspace_session=${session}`, 'x-csrftoken': CSRF },
    });
    expect(reveal.status).toBe(404);
    expect(reveal.text).not.toContain(demoLicence.key);
  });
});
