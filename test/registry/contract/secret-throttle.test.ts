import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outboxDir } from '../../../lib/mailer';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { rfc822 } from '../../support/platform/mail';
import { gql } from '../../support/registry/registry';
import { endpointsUnder } from '../../support/platform/secret-sites';

/**
 * One attempt throttle for every secret, the vendor's side: the registry's workspace
 * password and its mailed links, licence keys presented to the registry, the prediction API's
 * inbound-mail webhook secret. At each endpoint, 40 concurrent wrong guesses from one address get
 * at most the allowance evaluated, the rest 429 with Retry-After. The rows are the endpoints
 * test/support/platform/secret-sites.ts lists for the sites the code scan finds under these products.
 */
const SECRET = 'inbound-secret-for-secret-throttle-0123';
const CSRF = 'c'.repeat(43);
let t: TestApp<'predictions' | 'registry'>;
beforeAll(async () => {
  t = await startTestApp({ INBOUND_MAIL_SECRET: SECRET, TRUST_PROXY: 'loopback' }, { products: ['predictions', 'registry'] });
});
afterAll(() => t?.stop());

let addressCount = 0;
const newAddress = () => `192.0.2.${++addressCount}`;
type Answer = { status: number; headers: Headers; body: unknown };
const form = (path: string, fields: Record<string, string>, address: string): Promise<Answer> =>
  http(`${t.urls.registry}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrftoken=${CSRF}`, 'x-forwarded-for': address },
    body: new URLSearchParams({ ...fields, csrfmiddlewaretoken: CSRF }).toString(),
  });

function linkTokenMailedTo(to: string): string {
  const dir = outboxDir(t.config);
  const mail = readdirSync(dir)
    .map((f) =>
      readFileSync(join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    )
    .find((m) => m.includes(to))!;
  return /\/workspace\/password\/\?token=([A-Za-z0-9_-]{43})/.exec(mail)![1];
}

/** A licence key of the right shape that no licence has. */
const unknownKey = () => {
  const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  const group = () => Array.from(randomBytes(4), (b) => alphabet[b % 32]).join('');
  return `LIC-${group()}-${group()}-${group()}`;
};

interface Row {
  limit: number;
  prepare: () => Promise<(address: string) => Promise<Answer>>;
  evaluated: (a: Answer) => boolean;
}

const ROWS: Record<string, Row> = {
  'POST /workspace/login/ (password)': {
    limit: 5,
    prepare: async () => {
      const email = `guessed-${randomBytes(4).toString('hex')}@demo.example`;
      await gql(t as unknown as TestApp, `mutation { inviteWorkspaceUser(input: { organisation: "demo", email: "${email}", name: "Guessed" }) { email } }`);
      const set = await form('/workspace/password/', { token: linkTokenMailedTo(email), password: 'the right password 1' }, newAddress());
      if (set.status !== 302) throw new Error(`password: ${set.status}`);
      return (address) => form('/workspace/login/', { email, password: 'a wrong password' }, address);
    },
    evaluated: (a) => a.status === 401,
  },
  'POST /workspace/password/ (link token)': {
    limit: 10,
    prepare: async () => (address) => form('/workspace/password/', { token: randomBytes(32).toString('base64url'), password: 'a new password 1' }, address),
    evaluated: (a) => a.status === 410,
  },
  'x-license-key (unknown key)': {
    limit: 20,
    prepare: async () => (address) => http(`${t.urls.registry}/api/v1/license`, { headers: { 'x-license-key': unknownKey(), 'x-forwarded-for': address } }),
    evaluated: (a) => a.status === 401 || a.status === 404,
  },
  'POST /api/applications/inbound-email/ (X-Inbound-Mail-Secret)': {
    limit: 5,
    prepare: async () => (address) =>
      http(`${t.urls.predictions}/api/applications/inbound-email/`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', 'x-inbound-mail-secret': `wrong-${randomBytes(8).toString('hex')}`, 'x-forwarded-for': address },
        body: rfc822({ from: 'Sender <sender@throttle.example>', subject: 'API Access Request', body: 'Usage: a mailed project.' }),
      }),
    evaluated: (a) => a.status === 403,
  },
};

const endpoints = endpointsUnder('subgraphs/registry/', 'subgraphs/predictions/');

it('has a row for every endpoint of the registry and the prediction API that checks a secret (from the code scan), and no other', () => {
  expect(Object.keys(ROWS).sort()).toEqual([...endpoints].sort());
});

describe.each(endpoints)('%s', (endpoint) => {
  it('40 concurrent wrong guesses from one address: at most the allowance evaluated, the rest 429 with Retry-After', async () => {
    const row = ROWS[endpoint];
    expect(row).toBeDefined();
    const guess = await row.prepare();
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 40 }, () => guess(address)));
    const evaluated = answers.filter(row.evaluated);
    const throttled = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => !row.evaluated(a) && a.status !== 429).map((a) => [a.status, a.body])).toEqual([]);
    expect(evaluated.length).toBeGreaterThan(0);
    expect(evaluated.length).toBeLessThanOrEqual(row.limit);
    expect(Number(throttled[0].headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
