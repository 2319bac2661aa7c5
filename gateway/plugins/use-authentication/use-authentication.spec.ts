import { makeExecutableSchema } from '@graphql-tools/schema';
import { DomainError, unauthenticated } from '../../../lib/errors';
import type { CredentialKind } from '../../../lib/credentials';
import { createLogger } from '../../../lib/logger';
import { pluginTestkit, type PluginTestkit } from '../../../test/support/platform/plugin-testkit';
import { Authenticator } from '../../authentication';
import { InProcessDataSource } from '../../datasources';
import { useAuthentication } from '.';

declare module '../../../lib/principal' {
  interface PrincipalKinds {
    /** The spec's own credential kinds: tokens verified by a tiny in-process "verifier" subgraph. */
    'spec-token': { id: string };
    'spec-ticket': { id: string };
  }
}

/**
 * A verifier subgraph as small as it gets: `tok_*` tokens are valid, `tok_revoked` is refused,
 * `tok_spent` is over its allowance, `tok_boom` makes the verifier fail. Every call is recorded.
 */
const calls: { credential: string; meter: boolean }[] = [];
const verifierSchema = makeExecutableSchema({
  typeDefs: `type Query { ok: Boolean } type Verified { id: String! remaining: Int! } type Mutation { verify(credential: String!, meter: Boolean!): Verified! }`,
  resolvers: {
    Mutation: {
      verify: (_: unknown, a: { credential: string; meter: boolean }) => {
        calls.push(a);
        if (a.credential === 'tok_revoked') throw new DomainError('INVALID_CREDENTIALS', 401, 'This token has been revoked.');
        if (a.credential === 'tok_spent')
          throw new DomainError('RATE_LIMITED', 429, 'Allowance used up.', { limit: 5, resetAt: '2030-01-01T00:00:00.000Z', retryAfterSeconds: 42 });
        if (a.credential === 'tok_boom') throw new Error('database at 10.0.0.7 is down');
        return { id: a.credential.slice(4), remaining: 7 };
      },
    },
  },
});

const kind = (name: 'spec-token' | 'spec-ticket', sources: CredentialKind['sources'], prefix: string): CredentialKind => ({
  name,
  description: `a ${name}`,
  sources,
  recognises: (v) => v.startsWith(prefix),
  verifier: {
    subgraph: 'verifier',
    operation: 'mutation ($credential: String!, $meter: Boolean!) { verify(credential: $credential, meter: $meter) { id remaining } }',
    read: (data) => {
      const v = data.verify as { id: string; remaining: number };
      return { principal: { kind: name, id: v.id }, quota: { limit: 10, remaining: v.remaining, resetAt: new Date('2030-01-01T00:00:00Z') } };
    },
  },
  challenge: 'Bearer realm="spec"',
});
const token = kind('spec-token', [{ header: 'authorization', scheme: 'Bearer' }, { query: 'token' }], 'tok_');
// shares the Bearer source: values of its own format go to it
const ticket = kind('spec-ticket', [{ header: 'authorization', scheme: 'Bearer' }, { header: 'x-ticket' }], 'tkt_');

let kit: PluginTestkit;
beforeAll(async () => {
  const verifier = new InProcessDataSource(verifierSchema, createLogger('silent', 'spec'));
  const authenticator = new Authenticator([token, ticket], { verifier });
  kit = await pluginTestkit({
    typeDefs: 'type Query { me: String private: String }',
    // the resolver shows the principal the plugin put in the context
    resolvers: {
      Query: {
        me: (_: unknown, __: unknown, ctx: { principal: { kind: string; id?: string } }) => `${ctx.principal.kind}:${ctx.principal.id ?? ''}`,
        // as a subgraph's @Authorized() answers an anonymous caller
        private: (_: unknown, __: unknown, ctx: { principal: { kind: string } }) => {
          if (ctx.principal.kind === 'anonymous') throw unauthenticated();
          return 'secret';
        },
      },
    },
    plugins: [useAuthentication(authenticator)],
  });
});
afterAll(() => kit.stop());
beforeEach(() => (calls.length = 0));

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

it('leaves an operation without a credential anonymous, asking no verifier', async () => {
  const res = await kit.run('{ me }');
  expect(res.body.data).toEqual({ me: 'anonymous:' });
  expect(calls).toEqual([]);
});

it('verifies a credential once per operation, metered, and sends the allowance as X-RateLimit-*', async () => {
  const res = await kit.run('{ a: me b: me }', { headers: bearer('tok_alice') });
  expect(res.body.data).toEqual({ a: 'spec-token:alice', b: 'spec-token:alice' });
  expect(calls).toEqual([{ credential: 'tok_alice', meter: true }]);
  expect(res.headers.get('x-ratelimit-limit')).toBe('10');
  expect(res.headers.get('x-ratelimit-remaining')).toBe('7');
  expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2030, 0, 1) / 1000));
});

it('routes a shared source by format, and reads query parameters and other headers', async () => {
  expect((await kit.run('{ me }', { headers: bearer('tkt_bob') })).body.data).toEqual({ me: 'spec-ticket:bob' });
  expect((await kit.run('{ me }', { query: { token: 'tok_carol' } })).body.data).toEqual({ me: 'spec-token:carol' });
  expect((await kit.run('{ me }', { headers: { 'x-ticket': 'tkt_dave' } })).body.data).toEqual({ me: 'spec-ticket:dave' });
});

it('looks only for the kinds a surface names in x-credential-kinds', async () => {
  const res = await kit.run('{ me }', { headers: { ...bearer('tok_erin'), 'x-credential-kinds': 'spec-ticket' } });
  expect(res.status).toBe(401);
  expect(res.body.errors?.[0]?.extensions?.code).toBe('INVALID_CREDENTIALS');
  expect(calls).toEqual([]);
});

it('answers a credential of no known format with 401 and the challenge (invalid_request), asking no verifier', async () => {
  const res = await kit.run('{ me }', { headers: bearer('garbage') });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="spec", error="invalid_request"');
  expect(res.body.errors).toEqual([{ message: 'Malformed credential; expected a spec-token.', extensions: { code: 'INVALID_CREDENTIALS' } }]);
  expect((await kit.run('{ me }', { headers: { authorization: 'Digest abc' } })).status).toBe(401);
  expect(calls).toEqual([]);
});

it('challenges an anonymous caller a resolver refused with 401: WWW-Authenticate names every kind it could present', async () => {
  const res = await kit.run('{ private }');
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="spec"');
  expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  expect(calls).toEqual([]);
});

it('finds a credential of no known format from the headers alone, before any operation is read (refuseMalformed)', () => {
  const authenticator = new Authenticator([token, ticket], { verifier: new InProcessDataSource(verifierSchema, createLogger('silent', 'spec')) });
  const refusal = authenticator.refuseMalformed({ headers: bearer('garbage'), query: {} });
  expect(refusal?.message).toBe('Malformed credential; expected a spec-token.');
  const http = refusal?.extensions.http as { status: number; headers: Map<string, string> };
  expect(http.status).toBe(401);
  expect([...http.headers]).toEqual([['www-authenticate', 'Bearer realm="spec", error="invalid_request"']]);
  expect(authenticator.refuseMalformed({ headers: bearer('tok_fine'), query: {} })).toBeUndefined();
  expect(authenticator.refuseMalformed({ headers: {}, query: {} })).toBeUndefined();
});

it("passes the verifier's refusal on with its status and code (401 with invalid_token)", async () => {
  const res = await kit.run('{ me }', { headers: bearer('tok_revoked') });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="spec", error="invalid_token"');
  expect(res.body).toEqual({ errors: [{ message: 'This token has been revoked.', extensions: { code: 'INVALID_CREDENTIALS' } }] });
});

it('turns an exhausted allowance into 429 with Retry-After and the X-RateLimit-* state', async () => {
  const res = await kit.run('{ me }', { headers: bearer('tok_spent') });
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe('42');
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(res.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
});

it('hides a failing verifier behind a generic error, without its message', async () => {
  const res = await kit.run('{ me }', { headers: bearer('tok_boom') });
  expect(res.status).toBe(500);
  expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0\.7|database/);
  expect(res.body.errors?.[0]?.message).toBe('Credential verification is unavailable.');
});

it('trusts a preverified principal (a subgraph reading the supergraph in-process) without verification', async () => {
  const res = await kit.run('{ me }', { headers: bearer('tok_x'), principal: { kind: 'service', name: 'predictions' } });
  expect(res.body.data).toEqual({ me: 'service:' });
  expect(calls).toEqual([]);
});
