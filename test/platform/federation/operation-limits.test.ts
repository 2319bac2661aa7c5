import { startTestApp, type TestApp } from '../../support/platform/app';
import { gql, http } from '../../support/platform/http';

/**
 * Operations through the real gateway and subgraphs, as a hostile or careless client sends them.
 * The plugins' own specs state each rule on a tiny
 * schema; here they hold on the supergraph.
 */

let prod: TestApp<'predictions'>;
let dev: TestApp<'predictions'>;
let key: string;

beforeAll(async () => {
  [prod, dev] = await Promise.all([
    startTestApp(
      { NODE_ENV: 'production', PUBLIC_URL_REGISTRY: 'http://127.0.0.1:8090', PUBLIC_URL_PREDICTIONS: 'http://127.0.0.1:8080' },
      { products: ['predictions'] },
    ),
    startTestApp({ NODE_ENV: 'development' }, { products: ['predictions'] }),
  ]);
  key = await prod.createKey('enterprise');
});
afterAll(async () => {
  await Promise.all([prod?.stop(), dev?.stop()]);
});

/** A body sent to the gateway as it is, not a GraphQL request the shared `gql` would build: cut short, mis-encoded. */
const postMalformed = (app: TestApp<'predictions'>, body: string | Buffer, headers: Record<string, string> = {}) =>
  http(`${app.urls.gateway}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

describe('one operation cannot hold the service', () => {
  it('refuses 2,400 aliases of predict before running any of them', async () => {
    // so many that the parser stops first (2,000 tokens)
    const res = await gql(prod, aliases(2_400, 'predict(home: "Arsenal", away: "Chelsea") { confidence }'), { key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    // fewer tokens, still too many aliases
    const forty = await gql(prod, aliases(40, 'predict(home: "Arsenal", away: "Chelsea") { confidence }'), { key });
    expect(forty.status).toBe(400);
    expect(forty.body.errors).toEqual([
      { message: 'Aliases limit of 30 exceeded, found 40.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'aliases' } },
    ]);
    // what the limits allow still runs
    const allowed = await gql(prod, aliases(20, 'predict(home: "Arsenal", away: "Chelsea") { confidence }'), { key });
    expect(allowed.status).toBe(200);
    expect(Object.keys(allowed.body.data)).toHaveLength(20);
  });

  it('refuses 200 aliased __schema selections, also in development where anyone may introspect', async () => {
    const res = await gql(dev, aliases(200, '__schema { types { name } }'), { key: null });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.limit).toBe('aliases');
    const twice = await gql(dev, aliases(2, '__schema { queryType { name } }'), { key: null });
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'introspection' });
  });

  it('bounds the root fields', async () => {
    const res = await gql(prod, `{ ${Array.from({ length: 21 }, (_, i) => `c${i}: competitions { code }`).join(' ')} }`, { key });
    expect(res.status).toBe(400);
    // Armor's alias count comes first here (21 aliases fit 30); the root fields are 21
    expect(res.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'rootFields' });
  });
});

describe('costs with the variables as they execute', () => {
  const query = 'query ($n: Int = 200) { matches(first: $n) { nodes { id predictionHistory { id matchId confidence versionNumber } } } }';

  it('costs a size the client left to its default: no bypass', async () => {
    // costed with 20 items before (1 + 1 + 20 × 82 = 1,642 < 5,000); 200 items cost 16,402
    const res = await gql(prod, query, { key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
    expect(res.body.errors[0].message).toMatch(/^Query cost 16402 exceeds the limit of 5000/);
    expect((await gql(prod, query, { key, variables: { n: 20 } })).status).toBe(200);
  });
});

describe('valid operations run', () => {
  it('runs a non-null variable with a default that the client leaves out', async () => {
    const res = await gql(prod, 'query ($m: Int! = 5) { upcomingPredictions(first: $m) { confidence } }', { key });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.upcomingPredictions).toHaveLength(5);
  });

  it('reads backtestPredictions of the active version when no version is given', async () => {
    const res = await gql(prod, '{ backtestPredictions(first: 2) { nodes { versionNumber } } }', { key });
    expect(res.status).toBe(200);
    expect(res.body.data.backtestPredictions.nodes).toEqual([{ versionNumber: 1 }, { versionNumber: 1 }]);
    const explicit = await gql(prod, '{ backtestPredictions(first: 1, version: null) { nodes { versionNumber } } }', { key });
    expect(explicit.body.data.backtestPredictions.nodes).toEqual([{ versionNumber: 1 }]);
  });

  it('answers a document with several operations and no operationName with 400, not 500', async () => {
    const res = await gql(prod, 'query A { __typename } query B { __typename }', { key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
  });
});

describe('what callers learn', () => {
  it('keeps suggestions from a client in production, and gives them to an administrator', async () => {
    const client = await gql(prod, 'mutation { createApiKe(input: { name: "x" }) { key } }', { key });
    expect(client.status).toBe(400);
    expect(client.body.errors[0].message).toBe('Cannot query field "createApiKe" on type "Mutation".');
    const anonymous = await gql(prod, '{ apiKeys(includeRevoked: tru) { prefix } }', { key: null });
    expect(JSON.stringify(anonymous.body)).not.toContain('Did you mean');
    const admin = await gql(prod, 'mutation { createApiKe(input: { name: "x" }) { key } }', { key: prod.adminKey });
    expect(admin.body.errors[0].message).toMatch(/Did you mean "createApiKey"/);
  });

  it('answers what goes wrong before an operation in JSON, without a stack trace, also in development', async () => {
    for (const [body, headers] of [
      ['{"query": ', {}],
      ['{"query": "{ __typename }"}', { 'content-encoding': 'gzip' }],
      [Buffer.concat([Buffer.from('{"query": "{ __typename }", "variables": {"x": "'), Buffer.from([0xff]), Buffer.from('"}}')]), {}],
    ] as const) {
      const res = await postMalformed(dev, body, headers);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.stringify(res.body)).not.toMatch(/at |node_modules|\/work\//);
      expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    }
    const notFound = await http(`${dev.urls.gateway}/nowhere`);
    expect(notFound.status).toBe(404);
    expect(notFound.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('challenges an anonymous caller with 401 and WWW-Authenticate', async () => {
    const res = await gql(prod, '{ apiKeys { prefix } }', { key: null });
    expect(res.status).toBe(401);
    // one challenge per credential the gateway accepts (RFC 9110 §11.6.1), the API key's among them
    expect(res.headers.get('www-authenticate')).toContain('Bearer realm="api"');
  });
});

describe('before parsing', () => {
  it('reads no body over the limit: a 1 MB document is refused with 413', async () => {
    const res = await gql(prod, aliases(40_000, '__typename'), { key: null });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('stops parsing after the token cap: 400 GRAPHQL_PARSE_FAILED', async () => {
    const res = await gql(prod, `{ ${'__typename '.repeat(5_000)} }`, { key: null });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(res.body.errors[0].message).toMatch(/more that 2000 tokens/);
  });

  it('refuses a credential of no known format before reading the operation', async () => {
    // a document that would not even parse: the credential is checked first
    const res = await postMalformed(prod, '{"query": "{ unparsable', { authorization: 'Bearer not-a-key' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_request"');
    expect(res.body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
  });
});
