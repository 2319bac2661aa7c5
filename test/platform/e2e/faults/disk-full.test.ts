/**
 * The mail outbox's disk is full (simulated for the process with a file-size limit of 0 bytes:
 * every file write fails, as on a full disk) when an applicant applies and when an administrator
 * approves. Each answers 503 and nothing is recorded or issued, no half-written message stays
 * behind, the process answers everything else; once space is back (the limit raised on the running
 * process), the same request goes through.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gql, http } from '../../../support/platform/http';
import { outbox as mailbox } from '../../../support/platform/mail';
import { startNodeApp, startOwnPostgres, type NodeApp, type OwnPostgres } from '../../../support/platform/faults';

let postgres: OwnPostgres;
let app: NodeApp;

beforeAll(async () => {
  postgres = await startOwnPostgres();
  // soft limit 0, hard limit unlimited: the test can give the space back to the running process
  app = await startNodeApp(postgres.url, { wrap: ['prlimit', '--fsize=0:unlimited', '--'] });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await postgres?.stop();
  if (app) rmSync(app.dataDir, { recursive: true, force: true });
});

const outboxFiles = () => (existsSync(join(app.dataDir, 'outbox')) ? readdirSync(join(app.dataDir, 'outbox')) : []);
const APPROVE = 'mutation ($id: ID!) { approveApplication(id: $id, plan: pro) { status keyPrefix } }';

const fsize = (limit: string) => execFileSync('prlimit', ['--pid', String(app.pid), `--fsize=${limit}`]);
const CONFIRMATION_LINK = /\/apply\/confirm\/\?token=([A-Za-z0-9_-]{43})/;
const applications = async () =>
  (await gql(app, '{ applications { id email status } }')).body.data.applications as { id: string; email: string; status: string }[];
const EMAIL = 'ops@diskfull.test';

it('refuses an application and an approval while the outbox cannot be written, records and issues nothing, and goes through once space is back', async () => {
  const apply = () =>
    http(`${app.urls.predictions}/api/applications/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Disk Full Ltd', usage: 'Predictions for our weekly football newsletter.', email: EMAIL }),
    });
  // the confirmation link cannot be mailed: the application stays unconfirmed (nothing for an
  // administrator to decide), nothing half-written
  const refusedApplication = await apply();
  expect(refusedApplication.status).toBe(503);
  expect(JSON.stringify(refusedApplication.body)).not.toMatch(/EFBIG|ENOSPC|outbox|\.eml/);
  expect((await applications()).filter((a) => a.email === EMAIL).map((a) => a.status)).toEqual(['unconfirmed']);
  expect(outboxFiles()).toEqual([]);

  // space again: the applicant applies and confirms the address with the mailed link
  fsize('unlimited:unlimited');
  expect((await apply()).status).toBe(202);
  const mails = await mailbox(app.dataDir).fresh();
  const link = mails.map((m) => CONFIRMATION_LINK.exec(m.text)).find((m) => m !== null);
  expect(link).toBeDefined();
  const confirmed = await http(`${app.urls.predictions}/apply/confirm/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: link![1] }).toString(),
  });
  expect(confirmed.status).toBe(200);
  // the retry completed the same application: one, now pending
  const mine = (await applications()).filter((a) => a.email === EMAIL);
  expect(mine.map((a) => a.status)).toEqual(['pending']);
  const id = mine[0].id;
  const keysBefore = (await gql(app, '{ apiKeys { prefix } }')).body.data.apiKeys.length;
  const mailed = outboxFiles().length;

  // the disk fills up again before the approval: the key cannot be mailed, so none is issued
  fsize('0:unlimited');
  const refused = await gql(app, APPROVE, { variables: { id } });
  expect(refused.status).toBe(503);
  expect(refused.body.errors[0].extensions.code).toBe('MAIL_NOT_SENT');
  expect(JSON.stringify(refused.body)).not.toMatch(/EFBIG|ENOSPC|outbox|\.eml/);
  // nothing decided, nothing issued, nothing half-written
  expect((await gql(app, 'query ($id: ID!) { application(id: $id) { status keyPrefix } }', { variables: { id } })).body.data.application).toEqual({
    status: 'pending',
    keyPrefix: null,
  });
  expect((await gql(app, '{ apiKeys { prefix } }')).body.data.apiKeys).toHaveLength(keysBefore);
  expect(outboxFiles()).toHaveLength(mailed);
  // everything else answers as usual
  expect((await http(`${app.urls.predictions}/api/`, { key: app.adminKey })).status).toBe(200);
  expect((await http(`${app.urls.predictions}/readyz`)).status).toBe(200);
  expect(app.running()).toBe(true);

  // space again
  fsize('unlimited:unlimited');
  const approved = await gql(app, APPROVE, { variables: { id } });
  expect(approved.status).toBe(200);
  expect(approved.body.data.approveApplication).toEqual({ status: 'approved', keyPrefix: expect.stringMatching(/^mpk_/) });
  expect(outboxFiles()).toHaveLength(mailed + 1);
}, 180_000);
