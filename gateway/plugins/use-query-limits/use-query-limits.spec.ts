import type { ApolloServerPlugin } from '@apollo/server';
import { getIntrospectionQuery } from 'graphql';
import type { GatewayContext } from '../../context';
import { pluginTestkit, type PluginTestkit } from '../../../test/support/platform/plugin-testkit';
import { useQueryLimits } from '.';

/**
 * Depth: nesting of fields. Cost: one per field, multiplied through lists by their `first`
 * (literal or variable, defaults included), else 20; a connection's `first` sizes its `nodes`/`edges`.
 * Root fields are bounded; introspection is measured too.
 */
const typeDefs = `
  type Query { items(first: Int): [Item!]! item: Item page(first: Int): Page! }
  type Item { id: ID! children(first: Int): [Item!]! }
  type Page { nodes: [Item!]! total: Int! }
`;
const item = (id: number) => ({ id, children: [] });
const resolvers = {
  Query: {
    items: (_: unknown, a: { first?: number }) => Array.from({ length: a.first ?? 2 }, (_x, i) => item(i)),
    item: () => item(0),
    page: () => ({ nodes: [], total: 0 }),
  },
};

/** Records whether a plugin registered after the limits saw the operation refused (and so would not meter it). */
const seen: { rejected?: boolean }[] = [];
const recorder: ApolloServerPlugin<GatewayContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue }) {
        seen.push({ rejected: contextValue.rejected });
      },
    };
  },
};

let kit: PluginTestkit;
beforeAll(
  async () => (kit = await pluginTestkit({ typeDefs, resolvers, plugins: [useQueryLimits({ maxDepth: 3, maxCost: 100, maxRootFields: 4 }), recorder] })),
);
afterAll(() => kit.stop());
beforeEach(() => (seen.length = 0));

const refusal = (res: Awaited<ReturnType<PluginTestkit['run']>>) => ({ status: res.status, extensions: res.body.errors?.[0]?.extensions, data: res.body.data });

it('runs an operation within both limits', async () => {
  const res = await kit.run('{ items(first: 3) { id children(first: 1) { id } } }');
  expect(res.status).toBe(200);
  expect(res.body.data.items).toHaveLength(3);
  expect(seen).toEqual([{ rejected: undefined }]);
});

it('refuses an operation deeper than the limit (fragments count), with 400 and the limit named, before later plugins act', async () => {
  const res = await kit.run('{ item { ...C } } fragment C on Item { children { children { id } } }');
  expect(refusal(res)).toEqual({ status: 400, extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'depth' }, data: undefined });
  expect(res.body.errors?.[0]?.message).toBe('Query depth 4 exceeds the limit of 3.');
  expect(seen).toEqual([{ rejected: true }]);
});

it('multiplies cost through lists by a literal first', async () => {
  // 1 + 100 × 1 = 101
  const res = await kit.run('{ items(first: 100) { id } }');
  expect(refusal(res)).toEqual({ status: 400, extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'cost' }, data: undefined });
  expect(res.body.errors?.[0]?.message).toMatch(/^Query cost 101 exceeds the limit of 100;/);
  // 1 + 99 × 1 = 100 runs
  expect((await kit.run('{ items(first: 99) { id } }')).status).toBe(200);
});

it('reads a size given as a variable', async () => {
  const query = 'query ($n: Int) { items(first: $n) { id } }';
  expect(refusal(await kit.run(query, { variables: { n: 100 } })).extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
  expect((await kit.run(query, { variables: { n: 99 } })).status).toBe(200);
});

it("prices a list without a size at 20 and a connection's nodes by the connection's first", async () => {
  // items: 1 + 20 × (1 + 20 × 1) = 421 > 100
  expect(refusal(await kit.run('{ items { id children { id } } }')).extensions?.limit).toBe('cost');
  // page(first: 60): 1 + (1 + 60 × 1) = 62 per alias, two aliases 124 > 100
  expect(refusal(await kit.run('{ a: page(first: 60) { nodes { id } } b: page(first: 60) { nodes { id } } }')).extensions?.limit).toBe('cost');
  expect((await kit.run('{ a: page(first: 60) { nodes { id } } }')).status).toBe(200);
});

it('costs a list with the default of a variable the client left out (no bypass through defaults)', async () => {
  // costed as 20 items before: 1 + 20 × 1 = 21
  const query = 'query ($n: Int = 200) { items(first: $n) { id } }';
  const res = await kit.run(query);
  expect(refusal(res).extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
  expect(res.body.errors?.[0]?.message).toMatch(/^Query cost 201 exceeds/);
  expect((await kit.run(query, { variables: { n: 5 } })).status).toBe(200);
});

it('counts introspection in depth (it was exempt)', async () => {
  // __schema → types → fields → name: depth 4 > 3
  const res = await kit.run('{ __schema { types { fields { name } } } }');
  expect(refusal(res).extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'depth' });
  expect(res.body.errors?.[0]?.message).toBe('Query depth 4 exceeds the limit of 3.');
});

it('bounds the fields at the root, aliases and fragments counted', async () => {
  expect((await kit.run('{ a: item { id } b: item { id } c: item { id } d: item { id } }')).status).toBe(200);
  const res = await kit.run('{ ...F e: item { id } } fragment F on Query { a: item { id } b: item { id } c: item { id } d: item { id } }');
  expect(refusal(res)).toEqual({ status: 400, extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'rootFields' }, data: undefined });
  expect(res.body.errors?.[0]?.message).toBe('The operation selects 5 root fields; the limit is 4.');
});

describe('introspection (no longer exempt)', () => {
  // the gateway's default limits
  let kit: PluginTestkit;
  beforeAll(async () => (kit = await pluginTestkit({ typeDefs, resolvers, plugins: [useQueryLimits({ maxDepth: 12, maxCost: 5000, maxRootFields: 20 })] })));
  afterAll(() => kit.stop());

  it('lets one full introspection through, as IDEs and code generators send it', async () => {
    const res = await kit.run(
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType).toEqual({ name: 'Query', kind: 'OBJECT' });
  });

  it('refuses repeated introspection: a second __schema, or more than ten __type', async () => {
    const schemas = await kit.run('{ a: __schema { queryType { name } } b: __schema { queryType { name } } }');
    expect(refusal(schemas).extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'introspection' });
    const types = await kit.run(`{ ${Array.from({ length: 11 }, (_, i) => `t${i}: __type(name: "Item") { name }`).join(' ')} }`);
    expect(refusal(types).extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'introspection' });
  });

  it("chains a type reference's ofType links without depth: they end within a few links", async () => {
    expect(
      (await kit.run('{ __type(name: "Item") { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } }'))
        .status,
    ).toBe(200);
  });
});
