import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql } from '../../support/platform/http';
import { expectResponsive, idleMs, probeDuring, RESPONSIVE_MARGIN_MS } from '../../support/platform/responsiveness';

/**
 * A 1 kB anonymous document whose fragments double at each level froze the whole
 * process (every port) while its limits were measured, before its credential was even looked at.
 * Now its size once expanded is counted in linear time during validation: it is refused at once,
 * and the other surfaces keep answering meanwhile.
 */

let t: TestApp<'registry'>;
beforeAll(async () => {
  t = await startTestApp(
    { NODE_ENV: 'production', PUBLIC_URL_REGISTRY: 'https://registry.example.com', PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080' },
    { products: ['registry'] },
  );
  // warm both paths up (first requests compile code): what is measured is the refusal, not a cold start
  for (let i = 0; i < 5; i++) {
    await fetch(`${t.urls.registry}/healthz`).then((r) => r.arrayBuffer());
    await gql(t, doublingFragments(12), anonymous());
  }
}, 120_000);
afterAll(() => t?.stop());

/** `query { ...Fn }`, each `fragment Fi on Query { ...Fi-1 ...Fi-1 }`: 2^n fields once expanded. */
export const doublingFragments = (n: number) => {
  let s = `query { ...F${n} }\nfragment F0 on Query { __typename }\n`;
  for (let i = 1; i <= n; i++) s += `fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }\n`;
  return s;
};

/** Anonymous, and given up on after 20 s: a gateway that expands the fragments would not answer in time. */
const anonymous = (headers: Record<string, string> = {}) => ({ key: null, headers, signal: AbortSignal.timeout(20_000) });

describe.each([26, 30])('the doubling-fragment document with n = %i', (n) => {
  it(`is refused with 400 (limit: fields) before any credential is checked, and /healthz elsewhere answers within ${RESPONSIVE_MARGIN_MS} ms of its idle time meanwhile`, async () => {
    const query = doublingFragments(n);
    if (n === 26) expect(Buffer.byteLength(JSON.stringify({ query }))).toBeLessThan(1_200);
    const idle = await idleMs(`${t.urls.registry}/healthz`);
    const started = performance.now();
    const { result: res, ...health } = await probeDuring(`${t.urls.registry}/healthz`, () => gql(t, query, anonymous()));
    const elapsed = performance.now() - started;
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toEqual({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'fields' });
    expect(res.body.errors[0].message).toMatch(/once its fragments are expanded; the limit is 1000\./);
    expectResponsive(health, idle);
    expect(elapsed).toBeLessThan(2_000);
    // with a credential (a bogus one of a known format): the same refusal, no verification first
    const bogus = await gql(t, query, anonymous({ 'x-license-key': 'LIC-ABCD-EFGH-JKLM' }));
    expect(bogus.status).toBe(400);
    expect(bogus.body.errors[0].extensions.limit).toBe('fields');
  }, 60_000);
});

it('still runs a document whose fragments expand within the limit', async () => {
  const res = await gql(t, doublingFragments(9), anonymous()); // 512 × __typename
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ __typename: 'Query' });
});

it('counts root __typename aliases toward the alias limit (150 were accepted)', async () => {
  const res = await gql(t, `{ ${Array.from({ length: 150 }, (_, i) => `t${i}: __typename`).join(' ')} }`, anonymous());
  expect(res.status).toBe(400);
  expect(res.body.errors).toEqual([
    { message: 'Aliases limit of 30 exceeded, found 150.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'aliases' } },
  ]);
  const few = await gql(t, `{ ${Array.from({ length: 30 }, (_, i) => `t${i}: __typename`).join(' ')} }`, anonymous());
  expect(few.status).toBe(200);
});
