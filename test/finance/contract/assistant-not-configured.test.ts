import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { createUser, installValidLicence, login } from '../../support/finance/node';

/**
 * With no provider configured, POST /api/assistant/ answered 503 without Retry-After for
 * every valid question, as if the provider were down for a moment. It is a feature this node does not
 * offer: 501 `assistant_not_configured` with the documented body, and the OpenAPI document says so.
 */

let t: TestApp<'finance'>;
beforeAll(async () => {
  // no ASSISTANT_API_KEY, and the admin console holds no assistant/api_key
  t = await startTestApp<'finance'>({}, { products: ['finance'] });
  await installValidLicence(t);
}, 120_000);
afterAll(() => t?.stop());

it('answers 501 assistant_not_configured, without Retry-After, for a valid question', async () => {
  const token = await login(t, (await createUser(t)).username);
  const res = await http(`${t.urls.finance}/api/assistant/`, {
    method: 'POST',
    key: token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'What is a virtual IBAN?' }),
  });
  expect([res.status, res.body]).toEqual([
    501,
    {
      detail:
        'The assistant is not configured on this node: an administrator gives it a provider key (ASSISTANT_API_KEY, or the credential assistant/api_key in the admin console).',
      code: 'assistant_not_configured',
    },
  ]);
  expect(res.headers.get('retry-after')).toBeNull();
});

it('the OpenAPI document states the 501 of POST /api/assistant/ in its description', async () => {
  const doc = (await http(`${t.urls.finance}/swagger.json`)).body;
  const op = doc.paths['/api/assistant/'].post;
  expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '503']));
  expect(op.description).toMatch(/501 `assistant_not_configured`/);
});
