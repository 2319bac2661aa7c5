import { startTestApp, type TestApp } from '../../support/platform/app';
import { http } from '../../support/platform/http';
import { financeOpenApi } from '../../../rest-adapter/finance';
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

it('the full OpenAPI document states the 501 of POST /api/assistant/ in its description', () => {
  const doc = financeOpenApi() as { paths: Record<string, Record<string, { responses: object; description: string }>> };
  const op = doc.paths['/api/assistant/'].post;
  expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '503']));
  expect(op.description).toMatch(/501 `assistant_not_configured`/);
});

describe('the served OpenAPI document follows the configuration: the assistant is hidden while no provider is configured', () => {
  const servedPaths = async () => Object.keys((await http(`${t.urls.finance}/swagger.json`)).body.paths as Record<string, unknown>);

  it('leaves POST /api/assistant/ out while no provider key is set; the committed (full) document keeps it', async () => {
    const paths = await servedPaths();
    expect(paths).not.toContain('/api/assistant/');
    // the rest of the API is served as ever
    expect(paths).toEqual(expect.arrayContaining(['/api/login/', '/api/balance/', '/api/v1/node/']));
    expect(Object.keys(financeOpenApi().paths as Record<string, unknown>)).toContain('/api/assistant/');
  });

  it('lists it once a key arrives at run time (the admin console), without a restart', async () => {
    await t.app.services.node.node.saveProviderCredential({ provider: 'assistant', name: 'api_key', secret: 'sk_assistant_test' }, 'test');
    // the credential reaches the node's cache by NOTIFY: wait for it, bounded by the test's own timeout
    while (!(await servedPaths()).includes('/api/assistant/')) await new Promise((r) => setTimeout(r, 50));
    const doc = (await http(`${t.urls.finance}/swagger.json`)).body;
    expect(doc.paths['/api/assistant/'].post.operationId).toBe('AskAssistant');
  });
});
