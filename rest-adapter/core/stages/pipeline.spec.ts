import { makeExecutableSchema } from '@graphql-tools/schema';
import { graphql } from 'graphql';
import { z } from 'zod';
import type { RequestCredentials } from '../../../gateway/context';
import { loadConfig } from '../../../test/support/platform/config';
import type { CredentialKind } from '../../../lib/credentials';
import { createLogger } from '../../../lib/logger';
import { listen, type RunningServer } from '../../../lib/server';
import { detailErrorShape } from '../errors';
import type { OperationExecutor } from '../executor';
import type { Route } from '../route';
import { createSurfaceApp, type Surface } from '../surface';

/**
 * The order of a route's stages (pipeline.ts), over real HTTP: an input problem is answered only after
 * the credential and the surface's gate have had their say; a route's intercept sees the body as read
 * and answers before validation; a binary body is read only once the credential holds. The operations
 * run on a small GraphQL schema of this spec (graphql-js), standing where the gateway stands: it
 * accepts the bearer token `good` and refuses any other, as the gateway's authentication would.
 */
const bearer: CredentialKind = {
  name: 'spec-token',
  description: 'a bearer token',
  sources: [{ header: 'authorization', scheme: 'Bearer' }],
  recognises: () => true,
  verifier: { subgraph: 'test', operation: 'query { __typename }', read: () => ({ principal: { kind: 'anonymous' } }) },
  challenge: 'Bearer realm="test"',
};

let readOnly = false;
const calls: string[] = [];
const schema = makeExecutableSchema({
  typeDefs: 'type Query { state: State! } type State { readOnly: Boolean! } type Mutation { write(amount: Int!): Int! upload(name: String!): String! }',
  resolvers: {
    Query: { state: () => ({ readOnly }) },
    Mutation: { write: (_: unknown, a: { amount: number }) => a.amount, upload: (_: unknown, a: { name: string }) => a.name },
  },
});
const executor: OperationExecutor = {
  async execute(query, variables, request: RequestCredentials) {
    calls.push(query.replace(/\s+/g, ' ').trim());
    if (request.headers.authorization !== 'Bearer good') {
      return {
        status: 401,
        headers: new Map(),
        body: { errors: [{ message: 'Invalid credential.', extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } }] },
      };
    }
    const result = await graphql({ schema, source: query, variableValues: variables });
    return { status: 200, headers: new Map(), body: JSON.parse(JSON.stringify(result)) as { data?: Record<string, unknown> } };
  },
};

let uploads = 0;
const routes: Route[] = [
  {
    method: 'POST',
    path: '/writes/',
    summary: 'A gated write',
    security: 'bearer',
    operation: 'Write',
    body: z.object({ amount: z.number().int() }),
    variables: ({ body }) => body as Record<string, unknown>,
    intercept: (req) => ((req.body as { honeypot?: string } | undefined)?.honeypot ? { kind: 'json', status: 201, body: { thanks: true } } : undefined),
    response: { status: 200, description: 'Done' },
  },
  {
    method: 'POST',
    path: '/uploads/',
    summary: 'A binary upload',
    security: 'bearer',
    operation: 'Upload',
    consumes: 'binary',
    variables: () => {
      uploads++;
      return { name: 'file' };
    },
    response: { description: 'Stored' },
  },
];
const surface: Surface = {
  product: 'core/stages/testdata',
  title: 'Stages',
  version: '1',
  description: 'The pipeline spec',
  routes,
  credentials: [bearer],
  catalogue: { LICENCE_READ_ONLY: { code: 'read_only' } },
  errorShape: detailErrorShape,
  cors: { origins: [], allowHeaders: ['Authorization'] },
  gate: {
    operation: 'query Gate { state { readOnly } }',
    applies: (route) => route.method !== 'GET',
    refusal: (data) =>
      (data.state as { readOnly: boolean }).readOnly ? { message: 'Read-only.', extensions: { code: 'LICENCE_READ_ONLY', http: { status: 403 } } } : undefined,
  },
};

let server: RunningServer;
beforeAll(async () => {
  server = await listen(createSurfaceApp(surface, { config: loadConfig({}), executor, logger: createLogger('silent'), bodyLimit: '10kb' }), '127.0.0.1', 0);
});
afterAll(() => server.close());
beforeEach(() => {
  calls.length = 0;
  readOnly = false;
});

const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: (await res.json()) as { code?: string; detail?: string } };
};

it('runs a good request through to its operation', async () => {
  expect(await post('/writes/', '{"amount": 5}', { authorization: 'Bearer good' })).toEqual({ status: 200, body: { write: 5 } });
});

it('answers an input problem after the credential: none is 401 at once, a refused one 401, a good one 400', async () => {
  expect((await post('/writes/', '{"amount": ')).status).toBe(401);
  expect(calls).toEqual([]);
  expect((await post('/writes/', '{"amount": ', { authorization: 'Bearer bad' })).status).toBe(401);
  expect(await post('/writes/', '{"amount": ', { authorization: 'Bearer good' })).toMatchObject({ status: 400, body: { code: 'parse_error' } });
  expect(await post('/writes/', '{"amount": "x"}', { authorization: 'Bearer good' })).toMatchObject({ status: 400, body: { code: 'invalid' } });
});

it("answers the gate's refusal before an input problem, whatever the body", async () => {
  readOnly = true;
  for (const body of ['{"amount": ', '{}', '{"amount": "x"}']) {
    expect([body, await post('/writes/', body, { authorization: 'Bearer good' })]).toEqual([
      body,
      { status: 403, body: { detail: 'Read-only.', code: 'read_only' } },
    ]);
  }
  // with good input the operation runs: there the subgraphs' own gate answers (not this spec's schema)
  expect((await post('/writes/', '{"amount": 1}', { authorization: 'Bearer good' })).status).toBe(200);
});

it('lets the intercept answer on the body as read, before validation', async () => {
  expect(await post('/writes/', '{"honeypot": "bot", "amount": "x"}')).toEqual({ status: 201, body: { thanks: true } });
});

it('reads a binary body only once the credential holds', async () => {
  const refused = await fetch(`${server.url}/uploads/`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf', authorization: 'Bearer bad' },
    body: '%PDF',
  });
  expect([refused.status, uploads]).toEqual([401, 0]);
  const accepted = await fetch(`${server.url}/uploads/`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf', authorization: 'Bearer good' },
    body: '%PDF',
  });
  expect([accepted.status, uploads]).toEqual([200, 1]);
});
