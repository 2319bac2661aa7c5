import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../lib/paths';
import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql, http } from '../../support/platform/http';

/**
 * The gateway's own HTTP endpoint (POST /graphql): query limits, metering once per operation,
 * what the supergraph hides, and authorisation answered by the subgraphs.
 */

const MAX_DEPTH = 4;
let t: TestApp<'predictions'>;
beforeAll(async () => {
  // a low depth limit: no query of the current schema nests 13 levels; the cost limit keeps its default
  t = await startTestApp({ MAX_QUERY_DEPTH: String(MAX_DEPTH) }, { products: ['predictions'] });
});
afterAll(() => t?.stop());

async function usedToday(key: string): Promise<number> {
  const access = t.app.services.access;
  const row = (await access.apiKeys.list()).find((k) => k.prefix === key.slice(0, 12))!;
  return (await access.apiKeys.usageToday([row.id])).get(row.id) ?? 0;
}

describe('query limits', () => {
  it('runs the limits it was configured with (cost keeps its default of 5000)', () => {
    expect(t.config.MAX_QUERY_DEPTH).toBe(MAX_DEPTH);
    expect(t.config.MAX_QUERY_COST).toBe(5000);
  });

  it('rejects a query deeper than the depth limit with 400 and a message naming the limit, without metering it', async () => {
    const key = await t.createKey('free');
    const res = await gql(t, '{ matches(first: 1) { edges { node { homeTeam { name } } } } }', { key });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toEqual([
      {
        message: `Query depth 5 exceeds the limit of ${MAX_DEPTH}.`,
        locations: [{ line: 1, column: 1 }],
        extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'depth' },
      },
    ]);
    expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(await usedToday(key)).toBe(0);
    // one level less is fine
    const ok = await gql(t, '{ matches(first: 1) { nodes { homeTeam { name } } } }', { key });
    expect(ok.status).toBe(200);
    expect(ok.body.data.matches.nodes).toHaveLength(1);
  });

  it('counts fragments towards the depth', async () => {
    const res = await gql(t, 'query { matches(first: 1) { ...E } } fragment E on MatchConnection { edges { node { awayTeam { name } } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe(`Query depth 5 exceeds the limit of ${MAX_DEPTH}.`);
  });

  it('rejects a query costlier than the cost limit with 400 and a message naming the limit', async () => {
    // each aliased list of 500 teams with two fields costs 1 + 500 × 2 = 1001
    const aliases = ['a', 'b', 'c', 'd', 'e'].map((a) => `${a}: teams(first: 500) { name aliases }`).join(' ');
    const res = await gql(t, `{ ${aliases} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toBe('Query cost 5005 exceeds the limit of 5000; ask for fewer items (first/limit) or fewer nested lists.');
    expect(res.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    // the same query with four aliases (4004) runs
    const ok = await gql(t, `{ ${aliases.split(' e: ')[0]} }`);
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.d.length).toBeGreaterThan(150);
  });

  it('takes list sizes given as variables into account', async () => {
    // the same five lists of 500 teams, the size passed as a variable: 5 × (1 + 500 × 2) = 5005 when the
    // variable is read; the rule does not see variables and prices each list at the default 20 (5 × 41 = 205)
    const aliases = ['a', 'b', 'c', 'd', 'e'].map((a) => `${a}: teams(first: $n) { name aliases }`).join(' ');
    const res = await gql(t, `query ($n: Int!) { ${aliases} }`, { variables: { n: 500 } });
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    expect(res.status).toBe(400);
  });

  it("prices a connection's nodes by the connection's first", async () => {
    // matches(first: 200) returns up to 200 nodes: 1 + 1 × (1 + 200 × (1 + 4 + 4)) = 1802 per alias, 5406 for three;
    // priced at the default list size of 20 instead it would be 182 per alias
    const alias = (a: string) => `${a}: matches(first: 200) { nodes { id homeTeam { name aliases competitions } awayTeam { name aliases competitions } } }`;
    const res = await gql(t, `{ ${['a', 'b', 'c'].map(alias).join(' ')} }`);
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    expect(res.status).toBe(400);
  });
});

describe('metering', () => {
  it('counts an operation that crosses two subgraphs exactly once', async () => {
    // viewer is the access subgraph's, footballData and competitions the football subgraph's
    const schemaDir = join(projectRoot(), 'schema');
    expect(readFileSync(join(schemaDir, 'access.graphql'), 'utf8')).toMatch(/^\s+viewer: Viewer!$/m);
    expect(readFileSync(join(schemaDir, 'football.graphql'), 'utf8')).toMatch(/^\s+footballData: FootballData!$/m);

    const key = await t.createKey('free');
    const query = '{ viewer { plan } footballData { matches } competitions { code } }';
    const first = await gql(t, query, { key });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.viewer).toEqual({ plan: 'free' });
    expect(first.body.data.footballData.matches).toBeGreaterThan(30000);
    expect(first.body.data.competitions).toHaveLength(6);
    expect(first.headers.get('x-ratelimit-limit')).toBe('50');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('49');
    const second = await gql(t, query, { key });
    expect(second.headers.get('x-ratelimit-remaining')).toBe('48');
    expect(await usedToday(key)).toBe(2);
  });
});

describe('what the supergraph hides', () => {
  it('does not expose the internal authenticateApiKey mutation (@inaccessible): an unknown field', async () => {
    const res = await gql(t, 'mutation { authenticateApiKey(apiKey: "mpk_x", meter: false) { keyId } }');
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toMatch(/^Cannot query field "authenticateApiKey" on type "Mutation"\./);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const type = await gql(t, '{ __type(name: "KeyAuthentication") { name } }');
    expect(type.status).toBe(200);
    expect(type.body.data.__type).toBeNull();
  });
});

describe('authorisation', () => {
  it('refuses an administrator mutation to a client key: FORBIDDEN, and nothing is created', async () => {
    const key = await t.createKey('pro');
    const before = (await t.app.services.access.apiKeys.list()).length;
    const res = await gql(t, 'mutation { createApiKey(input: {name: "sneaky", role: admin}) { key } }', { key });
    expect(res.status).toBe(403);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toBe('This operation requires an administrator key.');
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(res.body.errors[0].path).toEqual(['createApiKey']);
    expect((await t.app.services.access.apiKeys.list()).length).toBe(before);
    // the administrator key may
    const admin = await gql(t, 'mutation { createApiKey(input: {name: "allowed"}) { key apiKey { role plan } } }');
    expect(admin.status).toBe(200);
    expect(admin.body.data.createApiKey.apiKey).toEqual({ role: 'client', plan: 'free' });
    expect(admin.body.data.createApiKey.key).toMatch(/^mpk_[A-Za-z0-9]{48}$/);
  });

  it('answers an anonymous request for an @Authorized field with UNAUTHENTICATED (401)', async () => {
    const res = await gql(t, '{ competitions { code } }', { key: null });
    expect(res.status).toBe(401);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toBe('Authentication credentials were not provided.');
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // a public field needs no key
    const plans = await gql(t, '{ plans { code dailyLimit } }', { key: null });
    expect(plans.status).toBe(200);
    expect(plans.body.data.plans).toEqual([
      { code: 'free', dailyLimit: 50 },
      { code: 'pro', dailyLimit: 5000 },
      { code: 'enterprise', dailyLimit: null },
    ]);
  });

  it('answers an unknown key with 401 INVALID_CREDENTIALS and WWW-Authenticate: Bearer', async () => {
    const res = await gql(t, '{ competitions { code } }', { key: 'mpk_000000000000000000000000000000000000000000000000' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="api"/);
    expect(res.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('the gateway for a person with a browser', () => {
  it('answers its root address with a page pointing to the GraphQL endpoint and the IDE', async () => {
    const res = await http(`${t.urls.gateway}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.body).toContain('<a href="/graphql">');
    expect(res.body).toContain('POST /graphql');
  });
});
