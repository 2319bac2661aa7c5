import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql, http } from '../../support/platform/http';

/**
 * Key management over GraphQL (administrators: createApiKey, apiKeys, revokeApiKey, changeApiKeyPlan)
 * and what each change does to the key on the REST surface at once; Enterprise keys without a limit.
 */

let t: TestApp<'predictions'>;
beforeAll(async () => {
  t = await startTestApp({}, { products: ['predictions'] });
});
afterAll(() => t?.stop());

const KEY_FIELDS = 'id prefix name email role plan dailyLimit usedToday createdAt revokedAt lastUsedAt';
const api = (key: string) => http(`${t.urls.predictions}/api/`, { key });
const create = (input: Record<string, unknown>) =>
  gql(t, `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { ${KEY_FIELDS} } } }`, { variables: { input } });
const keys = async (includeRevoked = false) =>
  (await gql(t, `query($r: Boolean!) { apiKeys(includeRevoked: $r) { ${KEY_FIELDS} } }`, { variables: { r: includeRevoked } })).body.data.apiKeys as any[];
const changePlan = (key: string, plan: string, dailyLimit: number | null = null) =>
  gql(t, `mutation($key: ID!, $plan: PlanCode!, $limit: Int) { changeApiKeyPlan(key: $key, plan: $plan, dailyLimit: $limit) { ${KEY_FIELDS} } }`, {
    variables: { key, plan, limit: dailyLimit },
  });
const revoke = (key: string) => gql(t, `mutation($key: ID!) { revokeApiKey(key: $key) { ${KEY_FIELDS} } }`, { variables: { key } });
const prefixOf = (key: string) => key.slice(0, 12);

describe('createApiKey', () => {
  it('issues a key shown once, with its plan limit, unused', async () => {
    const res = await create({ name: '  Acme Analytics  ', plan: 'pro', email: ' ops@acme.example ' });
    expect(res.body.errors).toBeUndefined();
    const { key, apiKey } = res.body.data.createApiKey;
    expect(key).toMatch(/^mpk_[A-Za-z0-9]{48}$/);
    expect(apiKey).toMatchObject({
      prefix: prefixOf(key),
      name: 'Acme Analytics',
      email: 'ops@acme.example',
      role: 'client',
      plan: 'pro',
      dailyLimit: 5000,
      usedToday: 0,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect((await keys()).find((k) => k.id === apiKey.id)).toEqual(apiKey);
    expect(JSON.stringify(await keys())).not.toContain(key);
  });

  it.each([
    ['an empty name', { name: '   ' }, 'name must be 1 to 200 characters.'],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, 'name must be 1 to 200 characters.'],
    ['a daily limit of 0', { name: 'n', plan: 'enterprise', dailyLimit: 0 }, 'dailyLimit must be a whole number between 1 and 10,000,000.'],
    ['a daily limit over 10,000,000', { name: 'n', plan: 'enterprise', dailyLimit: 10_000_001 }, 'dailyLimit must be a whole number between 1 and 10,000,000.'],
    ['a daily limit on a Pro key', { name: 'n', plan: 'pro', dailyLimit: 100 }, 'Only Enterprise keys have a custom daily limit.'],
  ])('refuses %s with 400 BAD_USER_INPUT, issuing nothing', async (_label, input, message) => {
    const before = (await keys()).length;
    const res = await create(input);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
    expect((await keys()).length).toBe(before);
  });

  it.each([
    ['a name of 200 characters', { name: 'x'.repeat(200) }, { plan: 'free', dailyLimit: 50 }],
    ['a daily limit of 1', { name: 'one', plan: 'enterprise', dailyLimit: 1 }, { plan: 'enterprise', dailyLimit: 1 }],
    ['a daily limit of 10,000,000', { name: 'max', plan: 'enterprise', dailyLimit: 10_000_000 }, { plan: 'enterprise', dailyLimit: 10_000_000 }],
    ['an Enterprise key without a limit', { name: 'unlimited', plan: 'enterprise' }, { plan: 'enterprise', dailyLimit: null }],
  ])('accepts %s', async (_label, input, expected) => {
    const res = await create(input);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createApiKey.apiKey).toMatchObject(expected);
  });

  it('is for administrators: a client key is refused and an unknown plan is invalid', async () => {
    const client = await t.createKey('pro');
    const refused = await gql(t, 'mutation { createApiKey(input: {name: "x"}) { key } }', { key: client });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const plan = await gql(t, 'mutation { createApiKey(input: {name: "x", plan: gold}) { key } }');
    expect(plan.status).toBe(400);
    expect(plan.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('apiKeys { usedToday lastUsedAt }', () => {
  it("counts today's requests of a key and records when it was last used", async () => {
    const key = await t.createKey('free');
    const row = () => keys().then((all) => all.find((k) => k.prefix === prefixOf(key)));
    expect(await row()).toMatchObject({ usedToday: 0, lastUsedAt: null });
    const before = Date.now();
    for (let i = 0; i < 3; i++) expect((await api(key)).status).toBe(200);
    const after = Date.now();
    const used = await row();
    expect(used.usedToday).toBe(3);
    // the first use is recorded (later ones at most every 30 s), at an instant during the requests
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(used.lastUsedAt)).toBeLessThanOrEqual(after);
    // a GraphQL operation counts too, once
    await gql(t, '{ viewer { plan } }', { key });
    expect((await row()).usedToday).toBe(4);
  });
});

describe('revokeApiKey', () => {
  it('revokes by prefix: the key stops working at once and leaves the default listing', async () => {
    const key = await t.createKey('pro');
    expect((await api(key)).status).toBe(200);
    const before = Date.now();
    const res = await revoke(prefixOf(key));
    expect(res.body.errors).toBeUndefined();
    const revoked = res.body.data.revokeApiKey;
    expect(revoked.prefix).toBe(prefixOf(key));
    expect(Date.parse(revoked.revokedAt)).toBeGreaterThanOrEqual(before);
    const refused = await api(key);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
    expect(refused.body).toEqual({ detail: 'This API key has been revoked.', code: 'authentication_failed' });
    expect((await keys()).map((k) => k.prefix)).not.toContain(prefixOf(key));
    expect((await keys(true)).find((k) => k.prefix === prefixOf(key))).toMatchObject({ revokedAt: revoked.revokedAt });
  });

  it('revokes by id; an unknown key is 404 NOT_FOUND; a client key may not', async () => {
    const key = await t.createKey('free');
    const { id } = (await keys()).find((k) => k.prefix === prefixOf(key));
    expect((await revoke(id)).body.data.revokeApiKey).toMatchObject({ id, revokedAt: expect.any(String) });
    expect((await api(key)).status).toBe(401);
    const unknown = await revoke('mpk_Zz9Zz9Zz');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ message: 'No API key matches "mpk_Zz9Zz9Zz".', extensions: { code: 'NOT_FOUND' } });
    const client = await t.createKey('pro');
    const other = await t.createKey('free');
    const refused = await gql(t, `mutation { revokeApiKey(key: "${prefixOf(other)}") { id } }`, { key: client });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await api(other)).status).toBe(200);
  });
});

describe('changeApiKeyPlan', () => {
  it("moves a key to another plan: the new limit applies to the next request, today's count carried over", async () => {
    const key = await t.createKey('free');
    await api(key);
    await api(key);
    const pro = await changePlan(prefixOf(key), 'pro');
    expect(pro.body.data.changeApiKeyPlan).toMatchObject({ plan: 'pro', dailyLimit: 5000, usedToday: 2 });
    const onPro = await api(key);
    expect(onPro.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(onPro.headers.get('x-ratelimit-remaining')).toBe(String(5000 - 3));
    // Enterprise with a limit already reached today: the next request is refused
    expect((await changePlan(prefixOf(key), 'enterprise', 3)).body.data.changeApiKeyPlan).toMatchObject({ plan: 'enterprise', dailyLimit: 3, usedToday: 3 });
    const over = await api(key);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('throttled');
    // and back to Free
    expect((await changePlan(prefixOf(key), 'free')).body.data.changeApiKeyPlan).toMatchObject({ plan: 'free', dailyLimit: 50 });
    expect((await api(key)).headers.get('x-ratelimit-limit')).toBe('50');
  });

  it('refuses a daily limit outside Enterprise, an unknown key and a client key; the plan stays', async () => {
    const key = await t.createKey('free');
    const limited = await changePlan(prefixOf(key), 'pro', 100);
    expect(limited.status).toBe(400);
    expect(limited.body.errors[0]).toMatchObject({ message: 'Only Enterprise keys have a custom daily limit.', extensions: { code: 'BAD_USER_INPUT' } });
    expect((await changePlan('mpk_Zz9Zz9Zz', 'pro')).body.errors[0].extensions.code).toBe('NOT_FOUND');
    const client = await t.createKey('pro');
    const refused = await gql(t, `mutation { changeApiKeyPlan(key: "${prefixOf(key)}", plan: enterprise) { id } }`, { key: client });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await keys()).find((k) => k.prefix === prefixOf(key))).toMatchObject({ plan: 'free', dailyLimit: 50 });
  });
});

describe('an Enterprise key without a limit', () => {
  it('gets no quota headers and is never throttled, over REST and GraphQL; its use is still recorded', async () => {
    const res = await create({ name: 'Big Co', plan: 'enterprise' });
    const { key } = res.body.data.createApiKey;
    // more requests than the Free plan allows in a day
    const answers = await Promise.all(Array.from({ length: 60 }, () => api(key)));
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    for (const a of answers) {
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) expect(a.headers.get(header)).toBeNull();
    }
    expect(answers[0].body.key).toMatchObject({ plan: 'enterprise', role: 'client' });
    expect(answers[0].body.plans).toContainEqual({ code: 'enterprise', name: 'Enterprise', daily_limit: null });
    const viaGraphql = await gql(t, '{ viewer { plan } }', { key });
    expect(viaGraphql.status).toBe(200);
    expect(viaGraphql.headers.get('x-ratelimit-limit')).toBeNull();
    const row = (await keys()).find((k) => k.prefix === prefixOf(key));
    expect(row).toMatchObject({ plan: 'enterprise', dailyLimit: null, lastUsedAt: expect.any(String) });
  });
});
